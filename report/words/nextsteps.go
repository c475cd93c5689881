package words

import (
	"strconv"
	"strings"

	"gpureport/analyze"
)

// maxLockstepNamed bounds the sites a lockstep step names.
const maxLockstepNamed = 5

// NextSteps are the run's next steps (Findings.NextSteps), one sentence
// each.
func NextSteps(f *analyze.Findings) []Sentence {
	out := make([]Sentence, 0, len(f.NextSteps))
	for _, s := range f.NextSteps {
		if w := NextStep(f, s); len(w) > 0 {
			out = append(out, w)
		}
	}
	return out
}

// NextStep words one thing to try next: the setting to change or the
// place to look, and why.
func NextStep(f *analyze.Findings, s analyze.NextStep) Sentence {
	if s.OOM >= 0 {
		if s.OOM >= len(f.OOMs) {
			return nil
		}
		return Recommendation(&f.OOMs[s.OOM], s.Recommendation)
	}
	switch s.Kind {
	case analyze.StepLookLockstep, analyze.StepLookAutograd, analyze.StepLookNative, analyze.StepLookSite, analyze.StepBucketShapes:
		return look(f, s)
	case analyze.StepRecordStacks:
		if s.WithStacks {
			return ticks("The growing memory is in blocks without stacks, so its site is unknown. With `stacks=\"python\"` (the default) allocations made in autograd's backward thread carry none: record with `torch.cuda.memory._record_memory_history(max_entries=100000, stacks=\"all\")` and gpureport names their autograd node.")
		}
		return ticks("The growing memory carries no stacks, so its site is unknown. Record them: call `torch.cuda.memory._record_memory_history(max_entries=100000, stacks=\"all\")` before training (PyTorch 2.1 and later keep each block's stack in the snapshot), keep dumping snapshots, and run gpureport on the folder again.")
	case analyze.StepRecordSnapshots:
		return ticks("The leak was seen in `torch.cuda.memory_stats()` readings only, which cannot say where: record snapshots to find the site. Call `torch.cuda.memory._record_memory_history(max_entries=100000)` before training and `torch.cuda.memory._dump_snapshot(f\"snapshot_step_{step}.pickle\")` every few hundred steps, then run gpureport on the folder again.")
	case analyze.StepOutsideOthers:
		devs := make([]string, len(s.Devices))
		for i, k := range s.Devices {
			devs[i] = Device(k)
		}
		return sentence("Memory outside the allocator grows in other processes on the same GPU (" + strings.Join(devs, ", ") + "), not in this run: give them a GPU of their own, or look into them, before they run this job out of memory.")
	case analyze.StepOutsideAllocator:
		return ticks("Memory outside the PyTorch caching allocator grows (NCCL buffers, cuBLAS/cuDNN workspaces, other processes, `cudaMalloc` from extensions): compare per-process usage in nvidia-smi and the non-PyTorch series in the report.")
	case analyze.StepPadShapes:
		out := sentence("Fragmentation with expandable segments already on: the free memory lies in holes between live blocks. Pad variable shapes (sequence lengths, batch sizes) to a few fixed sizes so that freed blocks fit the next requests")
		if s.GCThreshold {
			out = append(out, sentence(", or try ", code(analyze.GCThresholdSetting), " so that unused cached blocks are returned before memory runs out")...)
		}
		return append(out, Part{Text: "."})
	case analyze.StepRemoveMaxSplit:
		return sentence("Fragmentation with expandable segments already on and max_split_size_mb set: free ranges of at least that size inside expandable segments are not reused for smaller requests (PyTorch #193400). Try ", code(analyze.NoMaxSplitSetting), ".")
	case analyze.StepTryExpandable:
		return sentence("Fragmentation: try ", code(analyze.ExpandableSetting), ", which lets segments grow instead of leaving unusable holes.")
	case analyze.StepSnapshotAtOOM:
		seen, todo := MissedOOM(f.MissedOOM)
		if todo == nil {
			return seen
		}
		return append(append(seen, Part{Text: " "}), todo...)
	}
	// A kind without a sentence of its own yet says its name.
	return sentence(string(s.Kind))
}

// look says where to look for the top leak: the sites growing in
// lockstep, an autograd node, a C++-only site, or a line of user code.
func look(f *analyze.Findings, s analyze.NextStep) Sentence {
	sp := f.Suspect(s.Suspect)
	if sp == nil {
		return nil
	}
	switch s.Kind {
	case analyze.StepLookLockstep:
		d := device(f, s.Suspect.DeviceKey)
		out := sentence(strconv.Itoa(len(d.Lockstep)) + " leak sites grow in lockstep (")
		for k, j := range d.Lockstep[:min(len(d.Lockstep), maxLockstepNamed)] {
			if k > 0 {
				out = append(out, Part{Text: ", "})
			}
			out = append(out, Part{Text: d.LeakSites[j].Site, Code: true})
		}
		if n := len(d.Lockstep); n > maxLockstepNamed {
			out = append(out, Part{Text: ", and " + strconv.Itoa(n-maxLockstepNamed) + " more"})
		}
		return append(out, ticks("): one object probably keeps all their tensors alive. Look in the training loop for what it keeps from every step, a loss or output accumulated without `.item()` or `.detach()` (which keeps its whole autograd graph), or a list of step outputs, rather than at the allocation lines.")...)
	case analyze.StepLookAutograd:
		return append(sentence("Tensors that autograd's backward pass makes at ", code(sp.Site), " (in ", code(sp.Function), ")"),
			ticks(" stay alive across steps. Backward runs in autograd's own thread, so their stacks hold no Python frame; the node is the `grad_fn` of a forward operation. Check for gradients kept beyond the step: `.grad` never zeroed or set to None, `retain_grad()`, hooks that store gradients, `retain_graph=True`, and new leaf tensors with `requires_grad` made every step (`AccumulateGrad`).")...)
	case analyze.StepBucketShapes:
		return append(sentence("The memory growing at ", code(sp.Site), " (in ", code(sp.Function), ")"),
			ticks(" is CUDA-graph memory that keeps growing: `torch.compile(mode=\"reduce-overhead\")` (CUDA graph trees) or `torch.cuda.graph` records a new graph for every new input shape, and each keeps its memory in the private pool. Pad inputs to a few fixed shape buckets (sequence lengths, batch sizes), or mark the varying dimension dynamic (`torch._dynamo.mark_dynamic(x, dim)`) so that one graph serves them.")...)
	case analyze.StepLookNative:
		return append(sentence("Look for what calls ", code(sp.Site), " (in ", code(sp.Function), ")"),
			ticks(": tensors allocated there stay alive across steps, and their stacks hold C++ frames only, so the Python caller is not recorded. Record Python stacks too (`torch.cuda.memory._record_memory_history(stacks=\"all\")`) to find it.")...)
	}
	return append(sentence("Look at ", code(sp.Site), " in ", code(sp.Function)),
		ticks(": tensors allocated there stay alive across steps. Check for tensors kept in lists, dicts, caches or closures, and for losses or outputs accumulated without `.item()` or `.detach()`.")...)
}

// ticks reads a sentence written with Markdown code spans: the parts
// between backticks are code.
func ticks(s string) Sentence {
	parts := strings.Split(s, "`")
	out := make(Sentence, 0, len(parts))
	for i, p := range parts {
		if p != "" {
			out = append(out, Part{Text: p, Code: i%2 == 1})
		}
	}
	return out
}
