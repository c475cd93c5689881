package gpulog_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/input"
)

// traceMem is one "[memory]" instant event as Kineto writes it.
func traceMem(ts float64, devType, dev int, alloc, reserved, bytes int64) string {
	return fmt.Sprintf(`{"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 4964, "tid": 4964, "ts": %.3f,
  "args": {"Total Reserved": %d, "Total Allocated": %d, "Bytes": %d, "Addr": 139638043836416, "Device Id": %d, "Device Type": %d}}`,
		ts, reserved, alloc, bytes, dev, devType)
}

// kinetoTrace is a trace with Kineto's header (two H100s, rank 3) around
// events; tail goes after the events (baseTimeNanoseconds, traceName).
func kinetoTrace(tail string, events ...string) string {
	return `{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85045559296, "computeMajor": 9},
 {"id": 1, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85045559296}],
 "distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 8}, "record_shapes": 1,
 "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 4964, "tid": 4964, "ts": 1000.0, "dur": 90000, "args": {"External id": 1}},
  ` + strings.Join(events, ",\n  ") + `
 ]` + tail + `}`
}

// TestReadKinetoTrace: a torch.profiler trace's CUDA [memory] events are
// memory_stats readings (allocated, reserved) of their device, timed from
// baseTimeNanoseconds or, without it, anchored at the file's time; CPU
// events are passed over, and a trace without CUDA totals is no log, with
// the reason.
func TestReadKinetoTrace(t *testing.T) {
	gib := int64(1 << 30)
	mod := time.Date(2024, 3, 8, 10, 0, 0, 0, time.UTC)
	read := func(t *testing.T, in string) (*gpulog.GPULog, error) {
		return gpulog.ReadLog(strings.NewReader(in), gpulog.FormatKinetoTrace, gpulog.ReadOptions{ModTime: mod})
	}
	t.Run("base time after the events, CPU events, two devices", func(t *testing.T) {
		l, err := read(t, kinetoTrace(`, "traceName": "w.pt.trace.json", "baseTimeNanoseconds": 1709892000000000000`,
			traceMem(2000, 1, 0, 20*gib, 24*gib, 64<<20), traceMem(1500, 1, 0, 19*gib, 24*gib, 64<<20),
			traceMem(2500, 0, -1, 100, 0, 100), traceMem(3000, 1, 1, 5*gib, 6*gib, 1)))
		if err != nil {
			t.Fatal(err)
		}
		checkLogInvariants(t, l)
		ms := l.MemoryStats
		if len(ms) != 3 || ms[0].Device != 0 || ms[0].Allocated != 19*gib || ms[1].Allocated != 20*gib || ms[2].Device != 1 {
			t.Fatalf("readings %+v", ms)
		}
		if ms[0].Rank != 3 || ms[0].Reserved != 24*gib || !ms[0].Time.Equal(time.Unix(1709892000, 1500_000).UTC()) {
			t.Errorf("reading %+v", ms[0])
		}
		if len(l.GPUs) != 2 || l.GPUs[0].MemoryTotal != 85045559296 || l.GPUs[1].Name != "NVIDIA H100 80GB HBM3" {
			t.Errorf("GPUs %+v", l.GPUs)
		}
		if !hasNote(l, "1 [memory] events of the CPU") || l.Timing == gpulog.TimingElapsed {
			t.Errorf("notes %q timing %q", l.Notes, l.Timing)
		}
	})
	t.Run("relative ts anchored at the file's time", func(t *testing.T) {
		l, err := read(t, kinetoTrace("", traceMem(1000, 1, 0, gib, 2*gib, 1), traceMem(440000, 1, 0, 2*gib, 2*gib, 1)))
		if err != nil {
			t.Fatal(err)
		}
		ms := l.MemoryStats
		if len(ms) != 2 || !ms[1].Time.Equal(mod) || ms[1].Time.Sub(ms[0].Time) != 439*time.Millisecond || l.Timing != gpulog.TimingElapsed {
			t.Fatalf("readings %+v timing %q", ms, l.Timing)
		}
	})
	t.Run("unix microseconds", func(t *testing.T) {
		l, err := read(t, kinetoTrace("", traceMem(1709892000123456, 1, 0, gib, 2*gib, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if got := l.MemoryStats[0].Time; !got.Equal(time.Unix(1709892000, 123456000)) {
			t.Errorf("time %v", got)
		}
	})
	t.Run("gzip", func(t *testing.T) {
		l, err := gpulog.ReadLog(bytes.NewReader(gzipped(t, kinetoTrace("", traceMem(1, 1, 0, gib, 2*gib, 1)))), gpulog.FormatKinetoTrace, gpulog.ReadOptions{})
		if err != nil || len(l.MemoryStats) != 1 {
			t.Fatalf("%v %+v", err, l)
		}
	})
	t.Run("cut off while written", func(t *testing.T) {
		in := kinetoTrace("", traceMem(1, 1, 0, gib, 2*gib, 1), traceMem(2, 1, 0, 2*gib, 2*gib, 1))
		l, err := read(t, in[:len(in)-40])
		if err != nil || len(l.MemoryStats) != 1 || l.SkippedLines != 1 {
			t.Fatalf("%v %+v", err, l)
		}
	})
	for _, c := range []struct{ name, in, why string }{
		{"no memory events", kinetoTrace("", `{"ph": "X", "name": "aten::mm", "ts": 5, "dur": 1}`), "a Chrome trace without [memory] events"},
		{"cpu only", kinetoTrace("", traceMem(5, 0, -1, 1, 0, 1)), "CPU [memory] events only"},
		{"no totals", kinetoTrace("", `{"ph": "i", "s": "t", "name": "[memory]", "ts": 90, "args": {"Device Type": 1, "Device Id": 0, "Addr": 90, "Bytes": 4}}`),
			"give no Total Allocated"},
		{"not an object", `[1, 2]`, "not a Chrome trace"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := read(t, c.in)
			if err == nil || !strings.Contains(err.Error(), c.why) {
				t.Fatalf("error %v, want %q", err, c.why)
			}
			if c.name != "not an object" && !errors.Is(err, gpulog.ErrNoReadings) {
				t.Errorf("error %v is not ErrNoReadings", err)
			}
		})
	}
}

// eventStream generates a trace of n CUDA [memory] events of device 0,
// allocated rising by 1 MiB each, without holding it.
type eventStream struct {
	n, i int
	buf  bytes.Buffer
}

func (s *eventStream) Read(p []byte) (int, error) {
	for s.buf.Len() < len(p) && s.i <= s.n {
		switch {
		case s.i == 0:
			s.buf.WriteString(`{"schemaVersion": 1, "traceEvents": [`)
		case s.i == s.n:
			s.buf.WriteString(traceMem(float64(s.i), 1, 0, int64(s.i)<<20, 1<<40, 1) + "]}")
		default:
			s.buf.WriteString(traceMem(float64(s.i), 1, 0, int64(s.i)<<20, 1<<40, 1) + ",\n")
		}
		s.i++
	}
	if s.buf.Len() == 0 {
		return 0, io.EOF
	}
	return s.buf.Read(p)
}

// TestKinetoTraceThinned: a long profile's events are streamed and
// thinned to a bounded number of readings per device that keep the peak.
func TestKinetoTraceThinned(t *testing.T) {
	const n = 50000
	l, err := gpulog.ReadLog(&eventStream{n: n}, gpulog.FormatKinetoTrace, gpulog.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ms := l.MemoryStats
	if len(ms) > 2*4096 || len(ms) < 4096 {
		t.Fatalf("%d readings", len(ms))
	}
	if last := ms[len(ms)-1]; last.Allocated != n<<20 {
		t.Errorf("peak %d, want %d", last.Allocated, int64(n)<<20)
	}
	if !hasNote(l, fmt.Sprintf("device 0's %d allocator events were thinned", n)) {
		t.Errorf("notes %q", l.Notes)
	}
}

// TestSniffKinetoTrace: Kineto's header claims a trace; other JSON does not.
func TestSniffKinetoTrace(t *testing.T) {
	for _, c := range []struct {
		head string
		want bool
	}{
		{kinetoTrace(""), true},
		{`{"traceEvents": [{"name": "x"}]}`, true},
		{"{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n", true},
		{`{"schemaVersion": 1, "model": "x"}`, false},
		{`[[1, 2], [3]]`, false},
	} {
		f, ok := gpulog.SniffLog([]byte(c.head))
		if got := ok && f == gpulog.FormatKinetoTrace; got != c.want {
			t.Errorf("%.40q: sniffed %q %v, want trace %v", c.head, f, ok, c.want)
		}
	}
}

// TestKinetoTraceTsPastDuration: a ts too large for a time.Duration in
// nanoseconds (past 9.2e15 µs) is no time: its event is passed over,
// never read at a time the overflow makes up (centuries before the
// others).
func TestKinetoTraceTsPastDuration(t *testing.T) {
	mod := time.Date(2024, 3, 8, 10, 0, 0, 0, time.UTC)
	in := kinetoTrace("", traceMem(1000, 1, 0, 1<<30, 2<<30, 1), traceMem(5e16, 1, 0, 2<<30, 2<<30, 1), traceMem(3000, 1, 0, 1<<30, 2<<30, 1))
	l, err := gpulog.ReadLog(strings.NewReader(in), gpulog.FormatKinetoTrace, gpulog.ReadOptions{ModTime: mod})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range l.MemoryStats {
		if d := mod.Sub(s.Time); d < 0 || d > time.Hour {
			t.Errorf("reading of %d bytes at %s, want within the hour before %s", s.Allocated, s.Time, mod)
		}
	}
}

// stepSpan is a ProfilerStep#n span as torch.profiler writes it.
func stepSpan(n int, ts, dur float64) string {
	return fmt.Sprintf(`{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d", "pid": 4964, "tid": 4964, "ts": %.1f, "dur": %.1f, "args": {"External id": %d}}`, n, ts, dur, n)
}

// TestKinetoTraceSteps: with ProfilerStep#N spans a trace gives one
// reading per step and device: the memory at the step's end (its last
// event), the step's highest as its peak, numbered from the span; the
// span's copy on the GPU timeline is no step, and without spans a note
// gives the window the readings cover.
func TestKinetoTraceSteps(t *testing.T) {
	gib := int64(1 << 30)
	var ev []string
	for s := range 3 {
		start := float64(1000 + s*100000)
		ev = append(ev, stepSpan(20+s, start, 90000),
			`{"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#`+fmt.Sprint(20+s)+`", "pid": 0, "tid": 7, "ts": `+fmt.Sprint(start+50000)+`, "dur": 90000}`)
		base := 20*gib + int64(s)*gib // what the step leaves behind grows 1 GiB a step
		ev = append(ev, traceMem(start+10, 1, 0, base+4*gib, 30*gib, 1), traceMem(start+5000, 1, 0, base+6*gib, 31*gib, 1),
			traceMem(start+80000, 1, 0, base+gib, 31*gib, -1))
	}
	l, err := gpulog.ReadLog(strings.NewReader(kinetoTrace("", ev...)), gpulog.FormatKinetoTrace, gpulog.ReadOptions{ModTime: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	ms := l.MemoryStats
	if len(ms) != 3 {
		t.Fatalf("readings %+v", ms)
	}
	for i, r := range ms {
		base := 20*gib + int64(i)*gib
		if r.Step != int64(20+i) || r.Allocated != base+gib || r.Reserved != 31*gib || r.PeakAllocated != base+6*gib || r.PeakReserved != 31*gib {
			t.Errorf("step reading %d: %+v", i, r)
		}
	}
	if !hasNote(l, "one reading per profiler step (3 steps, ProfilerStep#20 to #22)") {
		t.Errorf("notes %q", l.Notes)
	}

	l, err = gpulog.ReadLog(strings.NewReader(kinetoTrace("", traceMem(1000, 1, 0, gib, 2*gib, 1), traceMem(451000, 1, 0, 2*gib, 2*gib, 1))),
		gpulog.FormatKinetoTrace, gpulog.ReadOptions{ModTime: time.Now()})
	if err != nil || len(l.MemoryStats) != 2 || l.MemoryStats[0].Step != input.NoStep {
		t.Fatalf("%v %+v", err, l)
	}
	if !hasNote(l, "no ProfilerStep#N spans") || !hasNote(l, "they cover 450ms") {
		t.Errorf("notes %q", l.Notes)
	}
}

// TestKinetoTraceStepsThinned: a long profile's steps, thinned, give
// each step's exact end and peak when the trace gives each span before
// its events (as torch.profiler does); spans after the events give the
// peak and the end of the thinned groups, with a note.
func TestKinetoTraceStepsThinned(t *testing.T) {
	const steps, per = 4, 5001 // not a multiple of the groups' size
	for _, spansFirst := range []bool{true, false} {
		var ev, spans []string
		for s := range steps {
			start := float64(1 + s*(per+10))
			spans = append(spans, stepSpan(s, start, per))
			if spansFirst {
				ev = append(ev, spans[s])
			}
			for k := range per {
				// Rises 1 MiB an event, then a step's end leaves s GiB.
				alloc := int64(s)<<30 + int64(k)<<20
				if k == per-1 {
					alloc = int64(s) << 30
				}
				ev = append(ev, traceMem(start+float64(k), 1, 0, alloc, 1<<40, 1))
			}
		}
		if !spansFirst {
			ev = append(ev, spans...)
		}
		l, err := gpulog.ReadLog(strings.NewReader(kinetoTrace("", ev...)), gpulog.FormatKinetoTrace, gpulog.ReadOptions{ModTime: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.MemoryStats) != steps || !hasNote(l, "thinned") || hasNote(l, "after their events") == spansFirst {
			t.Fatalf("spans first %v: %d readings, notes %q", spansFirst, len(l.MemoryStats), l.Notes)
		}
		for s, r := range l.MemoryStats {
			end, peak := int64(s)<<30, int64(s)<<30+int64(per-2)<<20
			if r.Step != int64(s) {
				t.Errorf("step %d: %+v", s, r)
			}
			if spansFirst && (r.Allocated != end || r.PeakAllocated != peak) {
				t.Errorf("step %d: %+v, want end %d peak %d", s, r, end, peak)
			}
			// Thinned groups of 4 events: a step's last 4 may count with the next.
			if !spansFirst && (r.PeakAllocated < peak-4<<20 || r.Allocated > r.PeakAllocated) {
				t.Errorf("step %d: %+v, want peak within 4 MiB of %d", s, r, peak)
			}
		}
	}
}
