package report

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpureport/analyze"
	"gpureport/ingest"
	"gpureport/internal/testutil"
)

// TestSummaryTrendSlopePerHour: summary.json's trend carries the growth
// per hour wherever analyze knows the step axis's pace: memory_stats
// readings at steps with times give it (the slope per step over the
// hours per step their times measure), beside the slope per step; the
// same readings without times leave it null, and the overview then has
// no growth per hour either.
func TestSummaryTrendSlopePerHour(t *testing.T) {
	const (
		mib = 1 << 20
		// Each reading is 10 steps and 30 seconds after the last:
		// 1200 steps an hour; reserved memory grows 1 MiB a step.
		stepsPer, secondsPer = 10, 30
		perStep              = 1 * mib
	)
	for _, tc := range []struct {
		name  string
		timed bool
		// perHour is the summary's slope_bytes_per_hour, NaN for null.
		perHour float64
	}{
		{"steps with times", true, perStep * 3600 / secondsPer * stepsPer},
		{"steps without times", false, math.NaN()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var b strings.Builder
			t0 := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
			for i := range 20 {
				step := stepsPer * (i + 1)
				at := ""
				if tc.timed {
					at = fmt.Sprintf(`"time": %d, `, t0.Add(time.Duration(i*secondsPer)*time.Second).Unix())
				}
				fmt.Fprintf(&b, `{"step": %d, %s"allocated_bytes.all.current": %d, "reserved_bytes.all.current": %d}`+"\n",
					step, at, int64(2<<30)+int64(step)*perStep, int64(4<<30)+int64(step)*perStep)
			}
			testutil.WriteFile(t, filepath.Join(dir, "memory_stats.jsonl"), []byte(b.String()))
			run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			f := analyze.Analyze(run, analyze.Options{})
			s := BuildSummary(f, fixedOptions)
			if len(s.Devices) != 1 {
				t.Fatalf("%d devices, want 1", len(s.Devices))
			}
			raw, err := json.Marshal(s.Devices[0].Trend)
			if err != nil {
				t.Fatal(err)
			}
			var tr map[string]any
			if err := json.Unmarshal(raw, &tr); err != nil {
				t.Fatal(err)
			}
			if got, ok := tr["slope_bytes_per_step"].(float64); !ok || math.Abs(got-perStep) > 1 {
				t.Errorf("slope_bytes_per_step %v, want %d", tr["slope_bytes_per_step"], perStep)
			}
			got, present := tr["slope_bytes_per_hour"]
			if !present {
				t.Fatalf("trend %s lacks slope_bytes_per_hour", raw)
			}
			r := OverviewRunFromSummary(s)
			if math.IsNaN(tc.perHour) {
				if got != nil || r.SlopePerHour != nil {
					t.Errorf("slope_bytes_per_hour %v, overview %v: want null with no pace", got, deref(r.SlopePerHour))
				}
				return
			}
			if g, ok := got.(float64); !ok || math.Abs(g-tc.perHour) > 1e-6*tc.perHour {
				t.Errorf("slope_bytes_per_hour %v, want %g", got, tc.perHour)
			}
			if r.SlopePerHour == nil || *r.SlopePerHour != *s.Devices[0].Trend.SlopeBytesPerHour {
				t.Errorf("overview growth per hour %v, want summary.json's %v", deref(r.SlopePerHour), got)
			}
		})
	}
}
