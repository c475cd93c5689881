package report

import (
	"context"
	"strings"
	"testing"
	"time"

	"gpureport/analyze"
	"gpureport/ingest"
	"gpureport/internal/units"
	"gpureport/report/words"
)

// TestMemoryGrowsSentenceTrend: the verdict's "memory grows" sentence
// quotes the trend analyze raised it on, the device's primary trend, which
// summary.json's devices[].trend and every device row show: nvidia-smi
// used memory for GPU logs alone, reserved memory for readings of
// reserved memory only, and reserved memory too when such readings sit
// beside a GPU log whose used memory grows at another rate.
func TestMemoryGrowsSentenceTrend(t *testing.T) {
	for _, tc := range []struct {
		name   string
		write  func(t testing.TB, dir string)
		metric string // the primary metric of the growing device
		what   string // the sentence's name for it
	}{
		{"GPU logs alone", func(t testing.TB, dir string) { writeSMILogs(t, dir, false) }, analyze.MetricGPUUsed, "nvidia-smi used memory"},
		{"reserved-only readings", writeTitanLog, analyze.MetricReserved, "reserved memory"},
		{"reserved-only readings beside GPU logs", func(t testing.TB, dir string) {
			writeTitanLog(t, dir)
			writeSMILogs(t, dir, false)
		}, analyze.MetricReserved, "reserved memory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.write(t, dir)
			run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			f := analyze.Analyze(run, analyze.Options{})
			s := BuildSummary(f, fixedOptions)
			n := 0
			for _, r := range f.Verdict.Reasons {
				if r.Kind != analyze.ReasonMemoryGrows {
					continue
				}
				n++
				var d *analyze.Device
				i := 0
				for j, dd := range f.Devices {
					if dd.DeviceKey == r.Device {
						d, i = dd, j
					}
				}
				p := d.Primary()
				if d.PrimaryMetric != tc.metric || p == nil || r.Metric != p.Metric {
					t.Fatalf("%v: primary %q, reason's trend %q, want %q", r.Device, d.PrimaryMetric, r.Metric, tc.metric)
				}
				if got := s.Devices[i].Trend.Metric; got != p.Metric {
					t.Errorf("%v: summary.json trend %q, primary %q", r.Device, got, p.Metric)
				}
				sentence := words.Reason(f, r)
				want := tc.what + " grows " + units.RateCI(p.Slope, p.Lo, p.Hi, p.Per) + ", " + units.PValue(p.PValue)
				if !strings.Contains(sentence, want) {
					t.Errorf("%v: %q\nlacks the primary trend: %q", r.Device, sentence, want)
				}
				for _, other := range d.Trends {
					if other.Metric != p.Metric && other.State == analyze.StateGrowing && strings.Contains(sentence, units.RateCI(other.Slope, other.Lo, other.Hi, other.Per)) {
						t.Errorf("%v: %q quotes the %s trend, not the primary %s", r.Device, sentence, other.Metric, p.Metric)
					}
				}
			}
			if n != 1 {
				t.Errorf("%d memory-grows reasons, want 1: %v", n, s.Verdict.Reasons)
			}
		})
	}
}
