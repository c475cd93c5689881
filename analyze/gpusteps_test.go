package analyze

import (
	"math"
	"testing"

	"gpureport/gpulog"
	"gpureport/ingest"
)

// stepLog is a GPU log of GPU 0 without times whose readings carry
// training steps (a CSV logger's step column), taken every 50 steps from
// step 50, used memory growing by perStep bytes a step; untimed readings
// without steps when steps is false.
func stepLog(n int, perStep int64, steps bool) *gpulog.GPULog {
	l := &gpulog.GPULog{Format: gpulog.FormatCSVColumns, Timing: gpulog.TimingSteps}
	l.Path = "metrics.csv"
	if !steps {
		l.Timing = gpulog.TimingOrder
	}
	l.GPUs = []gpulog.GPU{{Index: 0, MemoryTotal: 80 << 30}}
	for i := range n {
		step := int64(50 * (i + 1))
		l.Samples = append(l.Samples, gpulog.GPUSample{GPU: 0, Step: step, HasStep: steps, MemoryUsed: 30<<30 + step*perStep,
			MemoryTotal: 80 << 30, MemoryFree: gpulog.Unknown, MemoryReserved: gpulog.Unknown,
			UtilizationGPU: math.NaN(), UtilizationMemory: math.NaN(), PowerW: math.NaN()})
	}
	return l
}

// TestGPUStepAxis: a GPU known from a log alone whose readings have steps
// and no times is placed on the step axis, its trend per step; without
// steps it stays on the reading axis, its trend per reading.
func TestGPUStepAxis(t *testing.T) {
	const perStep = 5 * mib
	cases := []struct {
		name  string
		steps bool
		axis  Axis
		slope float64
		x0    float64
	}{
		{"steps", true, AxisStep, float64(perStep), 50},
		{"no steps", false, AxisReading, float64(50 * perStep), 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Analyze(&ingest.Run{Dir: "logs", Logs: []*gpulog.GPULog{stepLog(30, perStep, c.steps)}}, Options{})
			if len(f.Devices) != 1 {
				t.Fatalf("%d devices", len(f.Devices))
			}
			d := f.Devices[0]
			if d.Axis != c.axis || d.GPU == nil || d.GPU.X[0] != c.x0 {
				t.Fatalf("axis %q, GPU %+v", d.Axis, d.GPU)
			}
			var tr *Trend
			for i := range d.Trends {
				if d.Trends[i].Metric == MetricGPUUsed {
					if tr != nil {
						t.Fatalf("two used-memory trends: %+v", d.Trends)
					}
					tr = &d.Trends[i]
				}
			}
			if tr == nil || tr.Per != c.axis || math.Abs(tr.Slope-c.slope) > 1 || tr.State != StateGrowing {
				t.Fatalf("trend %+v, want %v per %s", tr, c.slope, c.axis)
			}
		})
	}
}
