package analyze

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"gpureport/gpulog"
	"gpureport/input"
)

// TestShareDevicesAxis: a GPU known only as a percent of the device gets
// its readings placed on an axis its timeline can draw: by position in
// file order when most readings have no time (a W&B chart export by
// step), else by hours since the first timed reading, in time order with
// untimed readings last (NaN, not drawn).
func TestShareDevicesAxis(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	share := func(minute int, pct float64) gpulog.GPUSample {
		s := gpulog.GPUSample{GPU: 0, MemoryUsed: gpulog.Unknown, MemoryUsedPercent: pct, HasUsedPercent: true}
		if minute >= 0 {
			s.Time = t0.Add(time.Duration(minute) * time.Minute)
		}
		return s
	}
	nan := math.NaN()
	for _, tt := range []struct {
		name    string
		samples []gpulog.GPUSample
		axis    Axis
		x, pct  []float64
		max     float64
	}{
		{"untimed, file order", []gpulog.GPUSample{share(-1, 30), share(-1, 10), share(-1, 20)}, AxisReading, []float64{0, 1, 2}, []float64{30, 10, 20}, 30},
		{"timed, time order", []gpulog.GPUSample{share(30, 30), share(0, 10), share(90, 20)}, AxisHours, []float64{0, 0.5, 1.5}, []float64{10, 30, 20}, 30},
		{"mostly timed, untimed last", []gpulog.GPUSample{share(-1, 50), share(60, 20), share(0, 10)}, AxisHours, []float64{0, 1, nan}, []float64{10, 20, 50}, 50},
		{"mostly untimed, file order", []gpulog.GPUSample{share(-1, 50), share(60, 20), share(-1, 10)}, AxisReading, []float64{0, 1, 2}, []float64{50, 20, 10}, 50},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := &gpulog.GPULog{Source: input.Source{Path: "wandb.csv"}, Samples: tt.samples}
			devs := shareDevices([]*gpulog.GPULog{l}, nil)
			if len(devs) != 1 || devs[0].UsedShare == nil {
				t.Fatalf("devices %+v, want one with a used share", devs)
			}
			d := devs[0]
			if d.Axis != tt.axis {
				t.Errorf("axis %q, want %q", d.Axis, tt.axis)
			}
			s := d.UsedShare
			if diff := cmp.Diff(tt.x, s.X, cmpopts.EquateNaNs()); diff != "" {
				t.Errorf("x (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.pct, s.Percent); diff != "" {
				t.Errorf("percent (-want +got):\n%s", diff)
			}
			if s.MaxPercent != tt.max {
				t.Errorf("peak %v%%, want %v%%", s.MaxPercent, tt.max)
			}
			if len(s.Times) != len(s.Percent) {
				t.Errorf("%d times for %d readings", len(s.Times), len(s.Percent))
			}
		})
	}
}
