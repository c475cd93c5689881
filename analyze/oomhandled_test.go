package analyze

import (
	"fmt"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/snapshot"
)

// traceShape builds a trace for TestWentOn: a clock in microseconds,
// addresses that never repeat, and events on stream 0 unless told.
type traceShape struct {
	tr   []snapshot.TraceEntry
	us   int64
	addr uint64
}

// step appends one step of the loop on stream: stack allocates size and
// frees it dur microseconds later; the clock moves on by dur.
func (b *traceShape) step(stack snapshot.StackID, size, dur, stream int64) *traceShape {
	b.addr += 1 << 32
	b.tr = append(b.tr,
		snapshot.TraceEntry{Action: snapshot.ActionAlloc, Addr: b.addr, Size: size, Stack: stack, Stream: stream, TimeUS: b.us},
		snapshot.TraceEntry{Action: snapshot.ActionFreeRequested, Addr: b.addr, Size: size, Stack: stack, Stream: stream, TimeUS: b.us + dur/2},
		snapshot.TraceEntry{Action: snapshot.ActionFreeCompleted, Addr: b.addr, Size: size, Stack: stack, Stream: stream, TimeUS: b.us + dur/2 + 10})
	b.us += dur
	return b
}

// steps appends n steps.
func (b *traceShape) steps(n int, stack snapshot.StackID, size, dur int64) *traceShape {
	for range n {
		b.step(stack, size, dur, 0)
	}
	return b
}

// allocs appends n allocations of size by stack, 100 µs apart, all
// alive together, then their frees: an emergency checkpoint's gathers.
func (b *traceShape) allocs(n int, stack snapshot.StackID, size int64) *traceShape {
	first := b.addr
	for range n {
		b.addr += 1 << 32
		b.tr = append(b.tr, snapshot.TraceEntry{Action: snapshot.ActionAlloc, Addr: b.addr, Size: size, Stack: stack, TimeUS: b.us})
		b.us += 100
	}
	for a := first + 1<<32; a <= b.addr; a += 1 << 32 {
		b.tr = append(b.tr, snapshot.TraceEntry{Action: snapshot.ActionFreeRequested, Addr: a, Size: size, Stack: stack, TimeUS: b.us})
		b.us += 100
	}
	return b
}

// oom appends an OOM of size by stack and returns its index.
func (b *traceShape) oom(stack snapshot.StackID, size int64) int {
	b.tr = append(b.tr, snapshot.TraceEntry{Action: snapshot.ActionOOM, Addr: uint64(gib), Size: size, Stack: stack, TimeUS: b.us})
	b.us += 1000
	return len(b.tr) - 1
}

// open appends an allocation of the failed step that the OOM leaves alive
// until the exception unwinds it.
func (b *traceShape) open(stack snapshot.StackID, size int64) *traceShape {
	b.addr += 1 << 32
	b.tr = append(b.tr, snapshot.TraceEntry{Action: snapshot.ActionAlloc, Addr: b.addr, Size: size, Stack: stack, TimeUS: b.us})
	b.us += 100
	return b
}

// unwind appends the free of the last allocation: the exception
// unwinding the failed step.
func (b *traceShape) unwind() *traceShape {
	for i := len(b.tr) - 1; i >= 0; i-- {
		if e := b.tr[i]; e.Action == snapshot.ActionAlloc {
			b.tr = append(b.tr, snapshot.TraceEntry{Action: snapshot.ActionFreeRequested, Addr: e.Addr, Size: e.Size, Stack: e.Stack, TimeUS: b.us})
			b.us += 10
			break
		}
	}
	return b
}

// dump appends the snapshot event of a dump.
func (b *traceShape) dump() *traceShape {
	b.tr = append(b.tr, snapshot.TraceEntry{Action: snapshot.ActionSnapshot, TimeUS: b.us})
	return b
}

// TestWentOn checks when a trace shows the training loop going on after an
// OOM event: the loop's stacks making and freeing a step's memory at
// least twice on the OOM's stream, over at least half a step's length.
// What a fatal OOM's trace may hold after it is no recovery: the unwind's
// frees, the dump, a handler's emergency checkpoint or teardown, a single
// retry of the failed step, other streams' work.
func TestWentOn(t *testing.T) {
	const (
		step                  snapshot.StackID = 1 // the loop's forward, which fails
		ckpt, teardown, other snapshot.StackID = 2, 3, 4
		second                                 = int64(1e6)
	)
	// before: 12 steps of 20 GiB a second apart, then the failed step's
	// first 20 GiB and its OOM.
	before := func() (*traceShape, int) {
		b := (&traceShape{us: 1_709_287_200_000_000}).steps(12, step, 20*gib, second).open(step, 20*gib)
		return b, b.oom(step, 8*gib)
	}
	stackless := func() (*traceShape, int) {
		b := (&traceShape{us: 1_709_287_200_000_000}).steps(12, snapshot.NoStack, 20*gib, second).open(snapshot.NoStack, 20*gib)
		return b, b.oom(snapshot.NoStack, 8*gib)
	}
	tests := []struct {
		name  string
		shape func() ([]snapshot.TraceEntry, int)
		want  bool
	}{
		{"the trace ends at the OOM (observer's dump)", func() ([]snapshot.TraceEntry, int) {
			b, i := before()
			return b.tr, i
		}, false},
		{"the failed step unwinds, then the dump", func() ([]snapshot.TraceEntry, int) {
			b, i := before()
			return b.unwind().dump().tr, i
		}, false},
		{"an emergency checkpoint (12 x 1 GiB gathered and freed), then re-raise", func() ([]snapshot.TraceEntry, int) {
			b, i := before()
			return b.unwind().allocs(12, ckpt, gib).dump().tr, i
		}, false},
		{"a checkpoint that gathers and frees each shard in turn", func() ([]snapshot.TraceEntry, int) {
			b, i := before()
			b.unwind()
			for range 12 {
				b.step(ckpt, gib, 200, 0)
			}
			return b.dump().tr, i
		}, false},
		{"a stackless trace: a checkpoint's 12 gathers in 2 ms", func() ([]snapshot.TraceEntry, int) {
			b, i := stackless()
			b.unwind()
			for range 12 {
				b.step(snapshot.NoStack, gib, 200, 0)
			}
			return b.dump().tr, i
		}, false},
		{"a teardown's small tensors", func() ([]snapshot.TraceEntry, int) {
			b, i := before()
			b.unwind()
			for range 5 {
				b.step(teardown, 2*mib, 200, 0)
			}
			return b.dump().tr, i
		}, false},
		{"one retry of the failed step, then the end", func() ([]snapshot.TraceEntry, int) {
			b, i := before()
			return b.unwind().step(step, 20*gib, 300, 0).tr, i
		}, false},
		{"one retry of the failed step, then the dump", func() ([]snapshot.TraceEntry, int) {
			b, i := before()
			return b.unwind().steps(1, step, 20*gib, second).dump().tr, i
		}, false},
		{"another stream runs steps on (a prefetcher)", func() ([]snapshot.TraceEntry, int) {
			b, i := before()
			b.unwind()
			for range 5 {
				b.step(other, 3*gib, second, 3)
			}
			return b.tr, i
		}, false},
		{"the failed code runs on on another stream", func() ([]snapshot.TraceEntry, int) {
			b, i := before()
			b.unwind()
			for range 5 {
				b.step(step, 20*gib, second, 7)
			}
			return b.tr, i
		}, false},
		{"training resumes for several steps", func() ([]snapshot.TraceEntry, int) {
			b, i := before()
			return b.unwind().steps(17, step, 20*gib, second).dump().tr, i
		}, true},
		{"training resumes for two steps", func() ([]snapshot.TraceEntry, int) {
			b, i := before()
			return b.unwind().steps(2, step, 20*gib, second).dump().tr, i
		}, true},
		{"a retry at half the batch goes on (steps half as long)", func() ([]snapshot.TraceEntry, int) {
			b, i := before()
			return b.unwind().steps(6, step, 10*gib, second/2).tr, i
		}, true},
		{"the trace begins at the failed step (batch-size finder)", func() ([]snapshot.TraceEntry, int) {
			b := (&traceShape{us: 1_709_287_200_000_000}).open(step, 30*gib)
			i := b.oom(step, 40*gib)
			return b.unwind().steps(20, step, 20*gib, second).tr, i
		}, true},
		{"a stackless trace: steps as long as before", func() ([]snapshot.TraceEntry, int) {
			b, i := stackless()
			return b.unwind().steps(5, snapshot.NoStack, 20*gib, second).tr, i
		}, true},
		{"a caught OOM before a fatal one: the first", func() ([]snapshot.TraceEntry, int) {
			b, i := before()
			b.unwind().steps(3, step, 10*gib, second/2).open(step, 20*gib)
			b.oom(step, 8*gib)
			return b.unwind().tr, i
		}, true},
		{"a caught OOM before a fatal one: the last", func() ([]snapshot.TraceEntry, int) {
			b, _ := before()
			b.unwind().steps(3, step, 10*gib, second/2).open(step, 20*gib)
			i := b.oom(step, 8*gib)
			return b.unwind().tr, i
		}, false},
		{"a retry that fails again at once: the first", func() ([]snapshot.TraceEntry, int) {
			b, i := before()
			b.unwind().open(step, 20*gib)
			b.oom(step, 8*gib)
			return b.unwind().tr, i
		}, false},
	}
	for _, tt := range tests {
		tr, idx := tt.shape()
		if got := wentOn(tr, idx); got != tt.want {
			t.Errorf("%s: went on %v, want %v", tt.name, got, tt.want)
		}
	}
}

// handledOOMSnap returns a snapshot whose trace holds steps of a
// training loop from t0 (3 GiB allocated and freed at train.py:80 each, a
// second apart), an OOM in step 12 at the same line, and after more
// steps: none, for a process that died of it; then the dump.
func handledOOMSnap(after int) *snapshot.Snapshot {
	site := stackAt("train.py", 80, "forward_step")
	b := newSnap()
	b.segment(0, live(3*gib, stackAt("model.py", 20, "__init__")))
	us := t0.UnixMicro()
	step := func(k int) {
		addr := uint64(0x7f8000000000 + k<<28)
		b.event(0, snapshot.ActionAlloc, addr, 3*gib, us, site)
		b.event(0, snapshot.ActionFreeRequested, addr, 3*gib, us+100, site)
		b.event(0, snapshot.ActionFreeCompleted, addr, 3*gib, us+200, site)
		us += 1e6
	}
	for k := range 12 {
		step(k)
	}
	b.event(0, snapshot.ActionOOM, uint64(gib), 6*gib, us, site)
	us += 1e3
	for k := range after {
		step(13 + k)
	}
	b.event(0, snapshot.ActionSnapshot, 0, 3*gib, us, nil)
	return b.done()
}

// oomTraceback is a training log's uncaught OOM traceback for the 6 GiB
// request of handledOOMSnap.
const oomTraceback = `Traceback (most recent call last):
  File "/home/alice/proj/train.py", line 210, in <module>
    main()
  File "/home/alice/proj/train.py", line 80, in forward_step
    out = model(x)
torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.00 GiB is free. Process 12345 has 78.10 GiB memory in use. Of the allocated memory 75.10 GiB is allocated by PyTorch, and 2.00 GiB is reserved by PyTorch but unallocated.
`

// TestTraceOOMHandled: an OOM whose snapshot trace shows the training
// loop going on after it was caught (a warning, ooms_handled); one whose
// trace ends at it, or holds only one retry of the failed step, was fatal
// (critical). A later dump of the process whose ring buffer still holds
// the OOM shows the sequel an OOM observer's dump did not. A training log
// that shows the process died of the OOM (its traceback ends the log,
// torchrun reports the worker failed) overrules the trace.
func TestTraceOOMHandled(t *testing.T) {
	const (
		steps   = "step 10 loss 2.0\nstep 11 loss 2.1\n"
		failed  = "[2024-03-01 10:00:14,123] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 1) local_rank: 0 (pid: 12345) of binary: /opt/conda/bin/python\n"
		resumed = "step 13 loss 2.3\nstep 14 loss 2.4\n"
	)
	run := func(log string, files ...*ingest.SnapshotFile) *ingest.Run {
		r := &ingest.Run{Dir: "oom", Location: time.UTC, Snapshots: files}
		if log != "" {
			r.Logs = []*gpulog.GPULog{readTrainingLogAt(t, "train.log", log, input.NoRank)}
		}
		return r
	}
	snap := func(after int) *ingest.SnapshotFile {
		return file(handledOOMSnap(after), "memory_snapshot.pickle", 0, input.NoRank)
	}
	tests := []struct {
		name    string
		run     *ingest.Run
		handled bool
		sev     Severity
	}{
		{"the trace goes on for 17 steps", run("", snap(17)), true, SeverityWarning},
		{"the trace ends at the OOM", run("", snap(0)), false, SeverityCritical},
		{"one retry of the failed step, then the end", run("", snap(1)), false, SeverityCritical},
		{"the observer's dump, then a later one", run("",
			file(handledOOMSnap(0), "oom_snapshot.pickle", input.NoStep, input.NoRank),
			file(handledOOMSnap(17), "snapshot_end.pickle", input.NoStep, input.NoRank)), true, SeverityWarning},
		{"the observer's dump, then later ones: the last shows the most", run("",
			file(handledOOMSnap(0), "oom_snapshot.pickle", input.NoStep, input.NoRank),
			file(handledOOMSnap(1), "snapshot_a.pickle", input.NoStep, input.NoRank),
			file(handledOOMSnap(17), "snapshot_b.pickle", input.NoStep, input.NoRank)), true, SeverityWarning},
		{"the trace goes on, but the log ends with the OOM's traceback", run(steps+oomTraceback, snap(17)), false, SeverityCritical},
		{"the trace goes on, but torchrun reports the worker failed", run(steps+oomTraceback+failed, snap(17)), false, SeverityCritical},
		{"the trace goes on, and so does the log", run(steps+"OOM in step 12, skipping batch\n"+oomTraceback+resumed, snap(17)), true, SeverityWarning},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Analyze(tt.run, Options{})
			CheckProse(t, t.Name(), f)
			if len(f.OOMs) != 1 {
				t.Fatalf("%d OOMs, want 1", len(f.OOMs))
			}
			if o := f.OOMs[0]; o.Handled != tt.handled {
				t.Errorf("handled %v, want %v", o.Handled, tt.handled)
			}
			if f.Verdict.Severity != tt.sev {
				t.Errorf("verdict %s, want %s", f.Verdict.Severity, tt.sev)
			}
			if want := map[bool]int64{true: 1}[tt.handled]; f.Verdict.OOMsHandled != want {
				t.Errorf("ooms handled %d, want %d", f.Verdict.OOMsHandled, want)
			}
		})
	}
}

// TestFatalLogOOMs: a training-log message the process died of undoes the
// recovery of the snapshot OOM it is: of the same rank and device, the one
// of its request when there is one, else the latest (a process dies of its
// last OOM). A message the log does not show fatal changes nothing.
func TestFatalLogOOMs(t *testing.T) {
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	trace := func(req int64, s int) OOM {
		return OOM{Rank: input.NoRank, Device: 0, Type: CUDA, Requested: req, Time: at(s), Handled: true}
	}
	msg := func(req int64, fatal bool, rank, dev int) logOOM {
		return logOOM{path: "train.log", m: &gpulog.TrainingOOM{Requested: req, Fatal: fatal}, key: DeviceKey{Rank: rank, Device: dev, Type: CUDA}}
	}
	tests := []struct {
		name  string
		known []OOM
		msg   logOOM
		want  []bool // Handled after
	}{
		{"one OOM, the log says fatal", []OOM{trace(8*gib, 10)}, msg(8*gib, true, input.NoRank, 0), []bool{false}},
		{"one OOM, the log does not", []OOM{trace(8*gib, 10)}, msg(8*gib, false, input.NoRank, 0), []bool{true}},
		{"caught, then fatal: the latest", []OOM{trace(8*gib, 10), trace(8*gib, 20)}, msg(8*gib, true, input.NoRank, 0), []bool{true, false}},
		{"the one of the message's request", []OOM{trace(2*gib, 10), trace(8*gib, 20)}, msg(2*gib, true, input.NoRank, 0), []bool{false, true}},
		{"another device's message", []OOM{trace(8*gib, 10)}, msg(4*gib, true, input.NoRank, 1), []bool{true}},
		{"another rank's message", []OOM{{Rank: 0, Type: CUDA, Requested: 8 * gib, Handled: true}}, msg(8*gib, true, 1, 0), []bool{true}},
	}
	for _, tt := range tests {
		fatalLogOOMs([]logOOM{tt.msg}, tt.known)
		var got []bool
		for _, o := range tt.known {
			got = append(got, o.Handled)
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: handled %v, want %v", tt.name, got, tt.want)
		}
	}
}
