package words

import (
	"strings"
	"testing"
	"time"

	"gpureport/analyze"
	"gpureport/input"
)

// TestRanOut: the OOM a device already had is worded with what places it
// (step, time) and what shows it, and a trend that states it forecasts no
// time to capacity; a trend without it keeps its projection.
func TestRanOut(t *testing.T) {
	at := time.Date(2026, 3, 2, 9, 5, 50, 0, time.UTC)
	for _, tt := range []struct {
		r    analyze.RanOut
		want string
	}{
		{analyze.RanOut{From: analyze.RanOutTrainingLog, Path: "train.log", Line: 12, Step: input.NoStep, Time: at},
			"already ran out of memory: an OOM at 2026-03-02T09:05:50Z (line 12 of train.log)"},
		{analyze.RanOut{From: analyze.RanOutTrainingLog, Path: "train.log", Line: 12, Step: input.NoStep},
			"already ran out of memory: an OOM (line 12 of train.log)"},
		{analyze.RanOut{From: analyze.RanOutSnapshot, Path: "oom.pickle", Step: 2050, Time: at},
			"already ran out of memory: an OOM by step 2050, 2026-03-02T09:05:50Z (in the trace of oom.pickle)"},
		{analyze.RanOut{From: analyze.RanOutMemoryStats, Path: "stats.jsonl", Step: input.NoStep, Time: at},
			"already ran out of memory: an OOM by 2026-03-02T09:05:50Z (num_ooms rose in the memory_stats of stats.jsonl)"},
	} {
		if got := RanOut(&tt.r); got != tt.want {
			t.Errorf("%q, want %q", got, tt.want)
		}
	}
	d := &analyze.Device{Capacity: 80 << 30}
	r := &analyze.RanOut{From: analyze.RanOutTrainingLog, Path: "train.log", Line: 12, Step: input.NoStep}
	tr := &analyze.Trend{Per: "step", State: analyze.StateGrowing, RanOut: r}
	if got := Projection(d, tr); !strings.HasPrefix(got, "already ran out of memory") || strings.Contains(got, "reaches") {
		t.Errorf("projection %q, want the OOM and no forecast", got)
	}
	if got := severity(analyze.SeverityHigh, nil, r, "step"); strings.Contains(got, "full in") || !strings.Contains(got, "line 12 of train.log") {
		t.Errorf("severity %q, want the OOM and no forecast", got)
	}
	tr = &analyze.Trend{Per: "step", State: analyze.StateGrowing, Projection: &analyze.Projection{Capacity: 80 << 30, Remaining: 500, X: 1500}}
	if got := Projection(d, tr); !strings.HasPrefix(got, "reaches 80.0 GiB in about 500 steps") {
		t.Errorf("projection %q, want the forecast", got)
	}
}
