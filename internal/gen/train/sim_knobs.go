package train

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"gpureport/internal/gen/alloc"
)

// TrainLog is the training log's name in a run directory (written for runs
// that run out of memory: the traceback is what a user has when no dump
// was taken).
const TrainLog = "train.log"

// unwind frees what the failing step held when its exception propagated
// out of train_step: every live block that is not a parameter, gradient,
// optimizer state, workspace, or planted long-lived tensor.
func (s *sim) unwind(rk *rank) {
	keep := map[*alloc.Block]bool{}
	for _, set := range [][]tensor{rk.params, rk.grads, rk.optState, rk.leaked, rk.oneTime, {rk.cublas}, rk.bounded, rk.kv, rk.graphs, rk.heavy} {
		for _, b := range set {
			if b != nil {
				keep[b] = true
			}
		}
	}
	for _, p := range rk.pins {
		keep[p.b] = true
	}
	var drop []tensor
	for _, seg := range rk.a.Segments() {
		for _, b := range seg.Blocks() {
			if b.State == alloc.ActiveAllocated && !keep[b] {
				drop = append(drop, b)
			}
		}
	}
	// Python releases the frame's locals newest first.
	slices.Reverse(drop)
	rk.gap = 50
	rk.end = rk.clk + int64(len(drop)+10)*100
	s.freeAll(rk, drop, s.prog.freeStepEnd)
	for l := range rk.saved {
		rk.saved[l] = nil
	}
}

// writeTrainLog writes train.log for a run that ran out of memory: a few
// progress lines and PyTorch's OutOfMemoryError message.
func (s *sim) writeTrainLog() error {
	o := s.res.OOM
	if o == nil {
		return nil
	}
	sp := s.spec
	f, err := os.Create(filepath.Join(s.dir, TrainLog))
	if err != nil {
		return err
	}
	every := max(sp.Interval, 1)
	for st := 0; st < o.Step; st += every {
		t := time.UnixMicro(s.stepStart[st]).UTC()
		fmt.Fprintf(f, "%s [rank%d] step %d loss %.4f\n", t.Format("2006-01-02 15:04:05,000"), o.Rank, st, 2.5+3/float64(st+1))
	}
	fmt.Fprintf(f, "Traceback (most recent call last):\n  File \"%s/train.py\", line 140, in main\n    loss = train_step(model, batch)\n", sp.Project)
	fmt.Fprintf(f, "torch.OutOfMemoryError: %s\n", o.message(sp.smiIndex(o.Rank)))
	return f.Close()
}

// message is PyTorch's OutOfMemoryError text (CUDACachingAllocator.cpp).
func (o *OOMInfo) message(gpu int) string {
	gib := func(n int64) string { return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30)) }
	size := func(n int64) string {
		if n >= 1<<30 {
			return gib(n)
		}
		return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("CUDA out of memory. Tried to allocate %s. GPU %d has a total capacity of %s of which %s is free. "+
		"Of the allocated memory %s is allocated by PyTorch, and %s is reserved by PyTorch but unallocated. "+
		"If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.",
		size(o.Rounded), gpu, gib(o.Capacity), size(o.DeviceFree), gib(o.Allocated), size(o.Inactive))
}

// setFileTimes sets the written files' modification times as the spec's
// FileTimes says: each snapshot at its dump time (logs at the end of the
// run), or every file within seconds of one copy time days later.
func (s *sim) setFileTimes() error {
	sp := s.spec
	if sp.Knobs.FileTimes == TimesWritten {
		return nil
	}
	at := map[string]int64{}
	for _, sn := range s.res.Snapshots {
		at[sn.Path] = sn.TimeUS + int64(50_000+s.r.IntN(400_000))
	}
	end := s.stepStart[len(s.stepStart)-1]
	for _, rk := range s.ranks {
		end = max(end, rk.tExit)
	}
	files := append([]string{}, s.res.Files...)
	if s.res.OOM != nil {
		files = append(files, TrainLog)
	}
	if sp.Knobs.FileTimes == TimesCopied {
		// cp -r copies in directory order; a few ms to a second per file.
		slices.Sort(files)
		t := end + int64((1+s.r.Float64()*20)*24*3600e6)
		for _, f := range files {
			t += int64(2_000 + s.r.IntN(300_000))
			at[f] = t
		}
	}
	for _, f := range files {
		us, ok := at[f]
		if !ok {
			us = end + int64(s.r.IntN(2_000_000))
		}
		tm := time.UnixMicro(us)
		if err := os.Chtimes(filepath.Join(s.dir, filepath.FromSlash(f)), tm, tm); err != nil {
			return err
		}
	}
	return nil
}

// noteStats appends a torch.cuda.memory_stats() JSON line for rank rk after
// step (every MemStatsEvery steps, and always for the OOM handler's line).
func (s *sim) noteStats(rk *rank, step int, oom bool) {
	k := s.spec.Knobs
	if !k.MemStats || !oom && step%max(k.MemStatsEvery, 1) != 0 {
		return
	}
	a := rk.a
	if oom {
		rk.ooms++
	}
	line := fmt.Sprintf(`{"step": %d, "time": %.6f, "rank": %d, "device": %d, "allocated_bytes.all.current": %d, "reserved_bytes.all.current": %d, "active_bytes.all.current": %d, "inactive_split_bytes.all.current": %d, "num_alloc_retries": %d, "num_ooms": %d}`,
		step, float64(rk.clk)/1e6, rk.idx, rk.idx, a.Allocated(), a.Reserved(), a.Active(), inactiveSplit(a), a.AllocRetries(), rk.ooms)
	rk.stats = append(rk.stats, line)
}

// inactiveSplit returns the bytes of inactive blocks in segments that also
// hold active blocks (PyTorch's inactive_split_bytes).
func inactiveSplit(a *alloc.Allocator) int64 {
	var n int64
	for _, seg := range a.Segments() {
		blocks := seg.Blocks()
		if len(blocks) < 2 {
			continue
		}
		for _, b := range blocks {
			if b.State == alloc.Inactive {
				n += b.Size
			}
		}
	}
	return n
}

// writeStats writes each rank's memory_stats JSON lines.
func (s *sim) writeStats() error {
	if !s.spec.Knobs.MemStats {
		return nil
	}
	for _, rk := range s.ranks {
		name := fmt.Sprintf("memory_stats_rank%d.jsonl", rk.idx)
		var b []byte
		for _, l := range rk.stats {
			b = append(b, l...)
			b = append(b, '\n')
		}
		if err := os.WriteFile(filepath.Join(s.dir, name), b, 0o644); err != nil {
			return err
		}
		s.res.Files = append(s.res.Files, name)
	}
	return nil
}
