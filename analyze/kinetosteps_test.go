package analyze

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
)

// profTrace is a torch.profiler trace of device 0 (an 80 GB H100) whose
// steps first..first+n-1 each allocate 8 blocks of 512 MiB in forward and
// free them after backward, over what earlier steps left, which grows by
// leak bytes a step. With steps false it has no ProfilerStep spans. Steps
// are 100 ms apart.
func profTrace(first, n int, leak int64, steps bool) string {
	var ev []string
	ts := 1000.0
	for s := range n {
		start := ts
		if steps {
			ev = append(ev, fmt.Sprintf(`{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d", "pid": 1, "tid": 1, "ts": %.1f, "dur": 90000}`, first+s, start))
		}
		// A few MiB of noise so that fits have residuals.
		base := 20*gib + int64(first+s)*leak + int64((first+s)%3)*mib
		mem := func(at float64, alloc int64) {
			ev = append(ev, fmt.Sprintf(`{"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": %.1f, "args": {"Total Reserved": %d, "Total Allocated": %d, "Bytes": 1, "Device Id": 0, "Device Type": 1}}`, at, 30*gib+int64(first+s)*leak, alloc))
		}
		for k := range 8 {
			mem(start+float64(1000*(k+1)), base+int64(k+1)*512*mib)
		}
		for k := range 8 {
			mem(start+float64(50000+1000*k), base+int64(7-k)*512*mib)
		}
		ts += 100000
	}
	return `{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85045559296}],
 "traceEvents": [` + strings.Join(ev, ",\n") + `], "baseTimeNanoseconds": 1709892000000000000}`
}

func readTrace(t *testing.T, path, in string) *gpulog.GPULog {
	t.Helper()
	l, err := gpulog.ReadLog(strings.NewReader(in), gpulog.FormatKinetoTrace, gpulog.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l.Source = input.Source{Path: path}
	return l
}

// TestKinetoTraceStepAxis: a profiler trace with ProfilerStep spans is a
// series over steps of what each step leaves behind: the rise and fall of
// memory within a step is no leak, a step-over-step rise is one, at its
// rate per step, and the traces of one worker's profiling cycles make one
// series. Without spans a sub-second window gives no critical time to
// capacity.
func TestKinetoTraceStepAxis(t *testing.T) {
	analyze := func(logs ...*gpulog.GPULog) *Findings {
		return Analyze(&ingest.Run{Dir: "prof", Location: time.UTC, Logs: logs}, Options{})
	}
	t.Run("sawtooth, no leak", func(t *testing.T) {
		f := analyze(readTrace(t, "worker0.1.pt.trace.json", profTrace(10, 5, 0, true)))
		if len(f.Devices) != 1 || f.Devices[0].Axis != AxisStep {
			t.Fatalf("devices %+v", f.Devices)
		}
		d := f.Devices[0]
		if f.Verdict.Leak || f.Verdict.Severity == SeverityCritical || d.Status == StatusLeak {
			t.Errorf("verdict %+v status %q: a sawtooth within steps is no leak", f.Verdict, d.Status)
		}
		// The peak is the steps' highest, not what they leave.
		if want := 20*gib + 4*gib + 2*mib; d.PeakAllocated != want {
			t.Errorf("peak allocated %d, want %d", d.PeakAllocated, want)
		}
	})
	t.Run("leak per step", func(t *testing.T) {
		f := analyze(readTrace(t, "worker0.1.pt.trace.json", profTrace(10, 8, 256*mib, true)))
		d := f.Devices[0]
		at := d.Trend(MetricAllocated)
		if !f.Verdict.Leak || at == nil || at.Per != "step" || math.Abs(at.Slope-float64(256*mib)) > float64(4*mib) {
			t.Fatalf("verdict %+v trend %+v, want a leak of 256 MiB/step", f.Verdict, at)
		}
	})
	t.Run("two traces of one worker", func(t *testing.T) {
		f := analyze(readTrace(t, "w/worker0.1709892001123.pt.trace.json", profTrace(10, 4, 256*mib, true)),
			readTrace(t, "w/worker0.1709892009999.pt.trace.json", profTrace(20, 4, 256*mib, true)))
		if len(f.Devices) != 1 {
			t.Fatalf("%d devices", len(f.Devices))
		}
		ms := f.Devices[0].MemoryStats
		if len(ms.Readings) != 8 || len(ms.Sources) != 2 || ms.X[0] != 10 || ms.X[7] != 23 {
			t.Fatalf("series %d readings from %v at %v", len(ms.Readings), ms.Sources, ms.X)
		}
		if at := f.Devices[0].Trend(MetricAllocated); !f.Verdict.Leak || math.Abs(at.Slope-float64(256*mib)) > float64(4*mib) {
			t.Errorf("trend %+v, want 256 MiB/step", at)
		}
	})
	t.Run("no spans: a window's trend is no critical forecast", func(t *testing.T) {
		f := analyze(readTrace(t, "trace.json", profTrace(10, 5, 1*gib, false)))
		d := f.Devices[0]
		if d.Axis != AxisHours || !d.MemoryStats.Window {
			t.Fatalf("axis %q window %v", d.Axis, d.MemoryStats.Window)
		}
		// 1 GiB a step over 0.5 s would fill the device in about 4 s.
		if at := d.Trend(MetricAllocated); at == nil || at.Projection == nil || f.Verdict.Severity == SeverityCritical {
			t.Errorf("verdict %+v trend %+v: critical from a 0.5 s window", f.Verdict, at)
		}
	})
}
