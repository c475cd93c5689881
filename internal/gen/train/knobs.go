package train

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"gpureport/internal/gen/layout"
)

// The knobs below are the ways real runs differ from one another that an
// analysis has been seen to trip on: where in the step a dump
// is taken, how sequence lengths vary, periodic empty_cache(), which
// nvidia-smi GPU a process's cuda:N is, how files are named, whether file
// times survived a copy, GPUs a process sees but does not use, and how an
// out-of-memory error is dumped. Every corpus case draws them from its
// seed (drawSeq, seqTail, drawKnobs); their zero values keep the
// generator's original behaviour, so hand-written specs (the sample run)
// do not change.

// SeqDist is how a step's padded sequence length is drawn.
type SeqDist string

// Sequence-length distributions.
const (
	// SeqUniform draws uniformly in SeqMin..SeqMax (the default).
	SeqUniform SeqDist = "uniform"
	// SeqFixed always uses SeqMax (packed or padded batches).
	SeqFixed SeqDist = "fixed"
	// SeqLogNormal draws a log-normal length with median SeqMin and shape
	// SeqShape (sigma of the log), truncated to SeqMax: most batches are
	// short, a few are long.
	SeqLogNormal SeqDist = "lognormal"
	// SeqPareto draws SeqMin·U^(-1/SeqShape) (a Pareto tail of index
	// SeqShape), truncated to SeqMax: rare batches far longer than the
	// typical one.
	SeqPareto SeqDist = "pareto"
)

// heavy reports whether d has a heavy tail (rare long batches).
func (d SeqDist) heavy() bool { return d == SeqLogNormal || d == SeqPareto }

// Naming is a snapshot file naming scheme.
type Naming string

// Naming schemes.
const (
	// NameStep is snapshot_step_000120.pickle: the step is in the name
	// (the default).
	NameStep Naming = "step"
	// NameIndex is mem_snapshot_3.pkl: the dump's index, not its step.
	NameIndex Naming = "index"
	// NameEpoch is snapshot_epoch4.pickle: one dump per "epoch" (every
	// Interval steps); an epoch is not a step.
	NameEpoch Naming = "epoch"
	// NameTimestamp is snapshot_20260302-091502-123.pickle: the
	// wall-clock time of the dump (to the millisecond), whose digits are
	// not a step.
	NameTimestamp Naming = "timestamp"
	// NameTorchtitan is torchtitan's profiler layout:
	// memory_snapshot/iteration_N/rankR_memory_snapshot.pickle, and
	// memory_snapshot/iteration_N_exit/... for the OOM dump.
	NameTorchtitan Naming = "torchtitan"
)

// StepInName reports whether the scheme puts the training step in the
// file name.
func (n Naming) StepInName() bool { return n == "" || n == NameStep || n == NameTorchtitan }

// FileTimes is how snapshot modification times relate to dump times.
type FileTimes string

// File time modes.
const (
	// TimesWritten leaves the times the generator wrote the files at (the
	// default; hand-written specs).
	TimesWritten FileTimes = ""
	// TimesDump sets each file's time to its dump time (the run wrote the
	// files where they are read).
	TimesDump FileTimes = "dump"
	// TimesCopied sets every file's time to within seconds of one copy
	// time days after the run (scp/cp without -p), while the traces span
	// the run.
	TimesCopied FileTimes = "copied"
)

// OOMDump is how the out-of-memory error is captured in a snapshot.
type OOMDump string

// OOM dump modes.
const (
	// OOMObserver dumps from an allocator OOM observer at the failing
	// allocation, mid-step: the failing step's activations are live (the
	// default).
	OOMObserver OOMDump = "observer"
	// OOMExit dumps from an except handler around the training loop, after
	// the exception unwound the step: its temporaries are freed (the trace
	// holds the frees after the oom event).
	OOMExit OOMDump = "exit"
	// OOMNone takes no dump: the except handler only logs
	// torch.cuda.memory_stats() (num_ooms 1, see Knobs.MemStats) and the
	// traceback goes to train.log.
	OOMNone OOMDump = "none"
)

// Knobs are the per-case variations (see the comment above). They are recorded in labels.json.
type Knobs struct {
	// SeqDist and SeqShape choose the sequence-length distribution.
	SeqDist  SeqDist `json:"seq_dist"`
	SeqShape float64 `json:"seq_shape,omitempty"`
	// Naming is the file naming scheme.
	Naming Naming `json:"naming"`
	// FileTimes is how file modification times were set.
	FileTimes FileTimes `json:"file_times"`
	// OOMDump is how an out-of-memory error is dumped.
	OOMDump OOMDump `json:"oom_dump"`
	// NodeGPUs is the GPUs on the node (all in the nvidia-smi log);
	// VisibleGPUs those the processes see (device_traces lists per
	// snapshot; ranks use the first Ranks of them); GPUMap the nvidia-smi
	// index of each rank's cuda:rank (CUDA_VISIBLE_DEVICES). Zero values:
	// one GPU per rank, identity map.
	NodeGPUs    int   `json:"node_gpus"`
	VisibleGPUs int   `json:"visible_gpus"`
	GPUMap      []int `json:"gpu_map"`
	// SmiUUID adds a uuid column to the nvidia-smi log.
	SmiUUID bool `json:"smi_uuid"`
	// MemStats makes every rank log torch.cuda.memory_stats() as JSON
	// lines (memory_stats_rank<R>.jsonl) every MemStatsEvery steps and in
	// its OOM handler. Always on with OOMNone (the only record of the OOM
	// besides train.log).
	MemStats      bool `json:"memory_stats_log"`
	MemStatsEvery int  `json:"memory_stats_every,omitempty"`
	// OtherWork describes what the GPUs outside the run do, by nvidia-smi
	// index ("idle", "flat", "growing", "sawtooth").
	OtherWork map[int]string `json:"other_work,omitempty"`
	// Guise is the form a scenario's class takes in this case (a rolling
	// window, a replay buffer or an eval cache; a graph captured once or
	// twice; ...), "" for scenarios with one form.
	Guise string `json:"guise,omitempty"`
}

// nodeGPUs returns the GPUs in the nvidia-smi log.
func (s *Spec) nodeGPUs() int { return max(s.Knobs.NodeGPUs, s.Ranks) }

// visibleGPUs returns the device_traces lists per snapshot.
func (s *Spec) visibleGPUs() int { return max(s.Knobs.VisibleGPUs, s.Ranks) }

// smiIndex returns the nvidia-smi index of rank's GPU.
func (s *Spec) smiIndex(rank int) int {
	if rank < len(s.Knobs.GPUMap) {
		return s.Knobs.GPUMap[rank]
	}
	return rank
}

// oomDump returns the OOM dump mode.
func (s *Spec) oomDump() OOMDump {
	if s.Knobs.OOMDump == "" {
		return OOMObserver
	}
	return s.Knobs.OOMDump
}

// valid checks the knobs for values the simulation cannot use (ranks is
// the run's process count).
func (k *Knobs) valid(ranks int) error {
	switch k.SeqDist {
	case "", SeqUniform, SeqFixed:
	case SeqLogNormal, SeqPareto:
		if k.SeqShape <= 0 {
			return fmt.Errorf("sequence distribution %s needs a positive shape", k.SeqDist)
		}
	default:
		return fmt.Errorf("unknown sequence distribution %q", k.SeqDist)
	}
	switch k.Naming {
	case "", NameStep, NameIndex, NameEpoch, NameTimestamp, NameTorchtitan:
	default:
		return fmt.Errorf("unknown naming %q", k.Naming)
	}
	switch k.FileTimes {
	case TimesWritten, TimesDump, TimesCopied:
	default:
		return fmt.Errorf("unknown file times %q", k.FileTimes)
	}
	switch k.OOMDump {
	case "", OOMObserver, OOMExit, OOMNone:
	default:
		return fmt.Errorf("unknown OOM dump mode %q", k.OOMDump)
	}
	node := max(k.NodeGPUs, ranks)
	if k.VisibleGPUs > node {
		return fmt.Errorf("%d visible GPUs on a node of %d", k.VisibleGPUs, node)
	}
	if len(k.GPUMap) != 0 {
		if len(k.GPUMap) != ranks {
			return fmt.Errorf("GPU map %v for %d ranks", k.GPUMap, ranks)
		}
		seen := map[int]bool{}
		for _, g := range k.GPUMap {
			if g < 0 || g >= node || seen[g] {
				return fmt.Errorf("GPU map %v on a node of %d", k.GPUMap, node)
			}
			seen[g] = true
		}
	}
	return nil
}

// knobRNG returns the random source of a case's knobs: a stream of its own,
// so drawing knobs leaves every other parameter of the seed's spec as it
// was.
func knobRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x6b6e6f6273)) }

// drawSeq draws the sequence-length distribution of scenarios that do not
// plant one: padded (fixed) or uniform, and in 15% of the leak scenarios'
// runs a heavy tail (a leak is still a leak when shapes vary; the batch
// was sized for the longest sequences, so the tail cannot run the device
// out). A heavy tail changes what a flat run shows (reserved grows in
// steps), so elsewhere it is the seq-heavy-tail scenarios' own knob
// (seqTail).
func drawSeq(r *rand.Rand, scenario string, sp *Spec) {
	switch scenario {
	case ScSeqTail, ScSeqTailOOM:
		return
	}
	sp.Knobs.SeqDist = SeqUniform
	x := r.Float64()
	switch scenario {
	case ScLeakSteady, ScLeakIntermittent, ScMultiRank:
		if x < 0.15 {
			heavyTail(r, sp, 1/(3+5*r.Float64()), 1/(float64(sp.Steps())*(1+3*r.Float64())))
			return
		}
	}
	if x > 0.75 {
		sp.Knobs.SeqDist = SeqFixed
	}
}

// heavyTail sets a log-normal or Pareto sequence-length distribution whose
// typical length is m times the truncation length SeqMax, reached with
// probability p per step.
func heavyTail(r *rand.Rand, sp *Spec, m, p float64) {
	k := &sp.Knobs
	sp.SeqMin = max(8, int(float64(sp.SeqMax)*m))
	if r.Float64() < 0.5 {
		// (SeqMin/SeqMax)^alpha = p.
		k.SeqDist, k.SeqShape = SeqPareto, math.Log(p)/math.Log(m)
	} else {
		// P(log-normal above SeqMax) = p: sigma = ln(1/m) / z(1-p).
		z := math.Sqrt2 * math.Erfinv(1-2*p)
		k.SeqDist, k.SeqShape = SeqLogNormal, math.Log(1/m)/z
	}
}

// seqTail sets up a heavy-tailed sequence-length run: typical batches are
// 4-16 times shorter than the truncation length, and one at that length
// comes about once in 1-4 runs' worth of steps (so new longest batches
// keep arriving during the run), dumped at the step boundary, where live
// memory is flat. The OOM variant sizes the batch so that the longest
// batches need 85-125% of the memory the model leaves, and trains on
// until one does not fit.
func seqTail(r *rand.Rand, scenario string, sp *Spec) error {
	sp.Expandable, sp.EmptyCacheEvery = false, 0
	sp.Phase = []Phase{PhaseEnd, PhaseStart}[r.IntN(2)]
	sp.FirstDump = 1 + r.IntN(max(sp.Interval/2, 1))
	sp.SeqMax = []int{1024, 2048, 4096}[r.IntN(3)]
	n := float64(sp.Steps())
	// m is the typical batch's length as a share of the truncation
	// length; p the chance per step of a batch at the truncation length.
	m := 1 / (4 + 12*r.Float64())
	p := 1 / (n * (1 + 3*r.Float64()))
	if scenario == ScSeqTailOOM {
		// Dump often: the OOM may come early.
		sp.Interval = max(2, sp.Interval/3)
		sp.FirstDump = 1
		n = float64(sp.Steps())
		p = 1 / (n * (1 + 2*r.Float64()))
	}
	heavyTail(r, sp, m, p)
	// The memory a batch at the truncation length needs, measured: a
	// dry run with one and with two sequences per batch.
	perSeq, static, err := seqMaxCost(sp)
	if err != nil {
		return err
	}
	room := float64(sp.Capacity()) - static
	share := 0.2 + 0.25*r.Float64()
	if scenario == ScSeqTailOOM {
		// Below 1 only fragmentation can stop the run; above it the
		// longest batch does not fit at all.
		share = 0.85 + 0.4*r.Float64()
		sp.UntilOOM = true
		sp.MaxSteps = 3 * sp.Steps()
	}
	sp.Batch = max(1, int(share*room/perSeq))
	return nil
}

// seqMaxCost returns the peak reserved bytes one more sequence at the
// truncation length adds, and the peak of everything else (the model, its
// optimizer state, the context), from two short dry runs with fixed
// sequence lengths.
func seqMaxCost(sp *Spec) (perSeq, static float64, err error) {
	peak := func(batch int) (int64, error) {
		c := *sp
		c.Leak, c.Frag, c.UntilOOM = nil, nil, false
		c.Knobs.SeqDist, c.Batch = SeqFixed, batch
		c.Snapshots, c.Interval, c.FirstDump, c.TailSteps = 1, 1, 2, 0
		res, err := Run(&c, "")
		if err != nil {
			return 0, err
		}
		return res.PeakReserved + res.OutsideEnd, nil
	}
	p1, err := peak(1)
	if err != nil {
		return 0, 0, err
	}
	p2, err := peak(2)
	if err != nil {
		return 0, 0, err
	}
	perSeq = float64(max(p2-p1, 1<<20))
	return perSeq, float64(p1) - perSeq, nil
}

// drawKnobs draws the remaining knobs of a case of scenario into sp.
// empty_cache is not combined with a heavy tail or with a scenario that
// plants another mechanism; everything else varies freely.
func drawKnobs(r *rand.Rand, scenario string, sp *Spec) {
	k := &sp.Knobs
	// empty_cache() every few steps in a share of runs that do not plant
	// it: a saw-tooth of reserved memory that is not fragmentation.
	switch scenario {
	case ScClean, ScOneTime, ScLeakSteady, ScOutside, ScMultiRank:
		if sp.EmptyCacheEvery == 0 && r.Float64() < 0.2 {
			sp.EmptyCacheEvery = 3 + r.IntN(10)
			if sp.Interval%sp.EmptyCacheEvery == 0 {
				sp.Interval++
			}
		}
	}
	// Names.
	k.Naming = weighted(r, []float64{0.45, 0.6, 0.7, 0.85}, NameStep, NameIndex, NameEpoch, NameTimestamp, NameTorchtitan)
	// File times: a fifth of the runs were copied without keeping times.
	k.FileTimes = TimesDump
	if r.Float64() < 0.2 {
		k.FileTimes = TimesCopied
	}
	// The OOM dump (used only when the run runs out of memory).
	k.OOMDump = weighted(r, []float64{0.5, 0.85}, OOMObserver, OOMExit, OOMNone)
	// The node: a workstation with the run's GPUs only, or a node of 2-8
	// GPUs shared with other jobs. On a shared node either every GPU is
	// visible (each snapshot lists them all, the ranks use the first ones)
	// or CUDA_VISIBLE_DEVICES / Slurm gives the run a subset, so cuda:0 is
	// some other nvidia-smi index.
	switch x := r.Float64(); {
	case x < 0.35:
		k.NodeGPUs = sp.Ranks
	default:
		k.NodeGPUs = max(sp.Ranks+1, []int{2, 4, 8}[r.IntN(3)])
		if k.NodeGPUs < 2*sp.Ranks && r.Float64() < 0.5 {
			k.NodeGPUs = 8
		}
	}
	k.VisibleGPUs = sp.Ranks
	if k.NodeGPUs > sp.Ranks {
		if r.Float64() < 0.4 {
			k.VisibleGPUs = k.NodeGPUs
		} else {
			// CUDA_VISIBLE_DEVICES: a contiguous or scattered subset.
			perm := r.Perm(k.NodeGPUs)[:sp.Ranks]
			if r.Float64() < 0.5 {
				start := r.IntN(k.NodeGPUs - sp.Ranks + 1)
				for i := range perm {
					perm[i] = start + i
				}
			} else {
				slices.Sort(perm)
			}
			k.GPUMap = perm
		}
		k.OtherWork = map[int]string{}
		used := map[int]bool{}
		for i := range sp.Ranks {
			used[sp.smiIndex(i)] = true
		}
		for g := range k.NodeGPUs {
			if !used[g] {
				k.OtherWork[g] = []string{"idle", "flat", "flat", "growing", "sawtooth"}[r.IntN(5)]
			}
		}
	}
	k.SmiUUID = r.Float64() < 0.5
	if r.Float64() < 0.2 || k.OOMDump == OOMNone {
		k.MemStats = true
		k.MemStatsEvery = []int{1, 5, 10, sp.Interval}[r.IntN(4)]
	}
}

// seqLen draws step's padded sequence length.
func (s *sim) seqLen(step int) int64 {
	sp := s.spec
	var n float64
	switch sp.Knobs.SeqDist {
	case SeqFixed:
		n = float64(sp.SeqMax)
	case SeqLogNormal:
		n = math.Min(float64(sp.SeqMin)*math.Exp(sp.Knobs.SeqShape*s.r.NormFloat64()), float64(sp.SeqMax))
	case SeqPareto:
		u := 1 - s.r.Float64() // (0, 1]
		n = math.Min(float64(sp.SeqMin)*math.Pow(u, -1/sp.Knobs.SeqShape), float64(sp.SeqMax))
	default:
		n = float64(sp.SeqMin + s.r.IntN(sp.SeqMax-sp.SeqMin+1))
	}
	n = math.Max(n, 8)
	if sp.SeqGrowth > 0 {
		n *= 1 + sp.SeqGrowth*float64(step)/float64(max(sp.Steps()-1, 1))
	}
	return (int64(n) + 7) / 8 * 8
}

// snapshotPath returns a snapshot's path relative to the run directory:
// the rank directory (multi-rank runs) and a name in the spec's naming
// scheme. index is the dump's position among the rank's periodic dumps.
func (s *Spec) snapshotPath(rank, step, index int, timeUS int64, oom bool) string {
	c := s.Container
	if c == "" {
		c = layout.Plain
	}
	ext := c.Ext()
	var name string
	switch s.Knobs.Naming {
	case NameIndex:
		if c == layout.Plain {
			ext = ".pkl"
		}
		name = fmt.Sprintf("mem_snapshot_%d", index)
		if oom {
			name = "mem_snapshot_oom"
		}
	case NameEpoch:
		name = fmt.Sprintf("snapshot_epoch%d", index+1)
		if oom {
			name = fmt.Sprintf("snapshot_epoch%d_oom", index+1)
		}
	case NameTimestamp:
		// Milliseconds: dumps a few steps apart can share a second.
		t := time.UnixMicro(timeUS).UTC()
		ts := fmt.Sprintf("%s-%03d", t.Format("20060102-150405"), t.Nanosecond()/1e6)
		name = "snapshot_" + ts
		if oom {
			name = "oom_snapshot_" + ts
		}
	case NameTorchtitan:
		dir := fmt.Sprintf("iteration_%d", step)
		if oom {
			dir += "_exit"
		}
		return fmt.Sprintf("memory_snapshot/%s/rank%d_memory_snapshot%s", dir, rank, ext)
	default:
		name = fmt.Sprintf("snapshot_step_%06d", step)
		if oom {
			name += "_oom"
		}
	}
	if d := s.RankDir(rank); d != "" {
		return d + "/" + name + ext
	}
	return name + ext
}

// knobSummary says the knobs in a few words, for the description.
func (s *Spec) knobSummary() string {
	k := s.Knobs
	var parts []string
	if k.SeqDist != "" {
		p := "sequences " + string(k.SeqDist)
		if k.SeqShape > 0 {
			p += fmt.Sprintf(" (shape %.2f)", k.SeqShape)
		}
		parts = append(parts, p)
	}
	if k.Naming != "" {
		parts = append(parts, "names by "+string(k.Naming))
	}
	if k.FileTimes == TimesCopied {
		parts = append(parts, "file times from a copy")
	}
	if k.NodeGPUs > s.Ranks {
		p := fmt.Sprintf("node of %d GPUs", k.NodeGPUs)
		if len(k.GPUMap) > 0 {
			p += fmt.Sprintf(", CUDA_VISIBLE_DEVICES=%s", joinInts(k.GPUMap))
		} else {
			p += fmt.Sprintf(", %d visible", s.visibleGPUs())
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return ""
	}
	return "; " + strings.Join(parts, ", ")
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}
