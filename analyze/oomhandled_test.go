package analyze

import (
	"testing"
	"time"

	"gpureport/ingest"
	"gpureport/input"
	"gpureport/snapshot"
)

// TestWentOn checks when a trace shows the process went on after an OOM
// event: the failed request's stack allocating again, or allocations
// reaching the request's size, on the OOM's stream; frees, the dump's
// snapshot event, a handler's small temporaries and other streams'
// allocations are what a fatal OOM's trace may hold after it.
func TestWentOn(t *testing.T) {
	const failed, other snapshot.StackID = 1, 2
	oom := snapshot.TraceEntry{Action: snapshot.ActionOOM, Size: 6 * gib, Addr: uint64(gib), Stack: failed}
	stackless := oom
	stackless.Stack = snapshot.NoStack
	alloc := func(size int64, stack snapshot.StackID, stream int64) snapshot.TraceEntry {
		return snapshot.TraceEntry{Action: snapshot.ActionAlloc, Size: size, Stack: stack, Stream: stream}
	}
	freed := snapshot.TraceEntry{Action: snapshot.ActionFreeCompleted, Size: 3 * gib}
	dump := snapshot.TraceEntry{Action: snapshot.ActionSnapshot}
	tests := []struct {
		name string
		tr   []snapshot.TraceEntry
		idx  int
		want bool
	}{
		{"the trace ends at the OOM (observer's dump)", []snapshot.TraceEntry{alloc(gib, failed, 0), oom}, 1, false},
		{"the failed step unwinds, then the dump", []snapshot.TraceEntry{oom, freed, freed, dump}, 0, false},
		{"a handler's temporaries", []snapshot.TraceEntry{oom, freed, alloc(mib, other, 0), alloc(2*mib, other, 0), dump}, 0, false},
		{"the failed code runs again (next batch)", []snapshot.TraceEntry{oom, freed, alloc(2*gib, failed, 0), freed}, 0, true},
		{"the failed code on another stream", []snapshot.TraceEntry{oom, freed, alloc(2*gib, failed, 7)}, 0, false},
		{"other code allocates the request's size", []snapshot.TraceEntry{oom, alloc(4*gib, other, 0), alloc(2*gib, other, 0)}, 0, true},
		{"a stackless OOM, then steps of allocations", []snapshot.TraceEntry{stackless, freed, alloc(3*gib, snapshot.NoStack, 0), freed, alloc(3*gib, snapshot.NoStack, 0)}, 0, true},
		{"another stream allocates (a prefetcher)", []snapshot.TraceEntry{oom, alloc(8*gib, other, 3)}, 0, false},
		{"a caught OOM before a fatal one: the first", []snapshot.TraceEntry{oom, alloc(gib, failed, 0), oom}, 0, true},
		{"a caught OOM before a fatal one: the last", []snapshot.TraceEntry{oom, alloc(gib, failed, 0), oom}, 2, false},
	}
	for _, tt := range tests {
		if got := wentOn(tt.tr, tt.idx); got != tt.want {
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

// TestTraceOOMHandled: an OOM whose snapshot trace goes on allocating
// after it was caught (a warning, ooms_handled); one whose trace ends at
// it was fatal (critical). A later dump of the process whose ring buffer
// still holds the OOM shows the sequel an OOM observer's dump did not.
func TestTraceOOMHandled(t *testing.T) {
	run := func(files ...*ingest.SnapshotFile) *ingest.Run {
		return &ingest.Run{Dir: "oom", Location: time.UTC, Snapshots: files}
	}
	tests := []struct {
		name    string
		run     *ingest.Run
		handled bool
		sev     Severity
	}{
		{"the trace goes on for 17 steps", run(file(handledOOMSnap(17), "memory_snapshot.pickle", 0, input.NoRank)), true, SeverityWarning},
		{"the trace ends at the OOM", run(file(handledOOMSnap(0), "memory_snapshot.pickle", 0, input.NoRank)), false, SeverityCritical},
		{"the observer's dump, then a later one", run(
			file(handledOOMSnap(0), "oom_snapshot.pickle", input.NoStep, input.NoRank),
			file(handledOOMSnap(17), "snapshot_end.pickle", input.NoStep, input.NoRank)), true, SeverityWarning},
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
