package report

import (
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpureport/analyze"
	"gpureport/internal/testutil"
	"gpureport/internal/units"
	"gpureport/report/words"
)

// TestGPULogTimeToCapacity: a device known from GPU logs alone whose used
// memory grows gets a time to capacity against the GPU's total from its
// log, decided once in analyze (the used trend's Projection) and read
// alike by summary.json, summary.md, stdout, index.html and report.xlsx;
// a flat or saw-tooth series gets none; a device that already ran out of
// memory states that OOM instead; readings without times are projected in
// readings. The verdict stays a warning (memory_grows), even when the GPU
// fills within the run: used memory cannot tell a leak from a cache the
// allocator empties before it fails (docs/design.md).
func TestGPULogTimeToCapacity(t *testing.T) {
	const (
		total    = 81920 // MiB, the log's memory.total
		base     = 20000 // MiB, the first reading's used memory
		n        = 60    // readings
		interval = 5 * time.Minute
	)
	// jitter is deterministic noise within ±150 MiB.
	jitter := func(i int) int { return (i*7919+13)%301 - 150 }
	tests := []struct {
		name  string
		used  func(i int) int // MiB at reading i
		times bool            // readings carry timestamps
		log   string          // a training log beside the GPU log, "" for none
		// slope is the synthetic growth in MiB per reading (0: none
		// expected to be forecast); tol the relative error allowed on the
		// time left.
		slope float64
		tol   float64
		// ranOut: the device already ran out of memory (the log's OOM).
		ranOut bool
	}{
		{name: "steady growth", used: func(i int) int { return base + 100*i }, times: true, slope: 100, tol: 1e-9},
		{name: "noisy growth", used: func(i int) int { return base + 100*i + jitter(i) }, times: true, slope: 100, tol: 0.05},
		{name: "fills within the run", used: func(i int) int { return base + 1000*i }, times: true, slope: 1000, tol: 1e-9},
		{name: "readings without times", used: func(i int) int { return base + 100*i }, slope: 100, tol: 1e-9},
		{name: "flat", used: func(i int) int { return base + (i*7)%5 }, times: true},
		{name: "noisy, flat", used: func(i int) int { return base + jitter(i) }, times: true},
		// A cache filled and emptied every 6 readings.
		{name: "saw-tooth", used: func(i int) int { return base + 400*(i%6) }, times: true},
		{name: "ran out", used: func(i int) int { return base + 100*i }, times: true, ranOut: true,
			log: "[2026-03-02 13:00:00,000] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 80.00 GiB of which 1.23 GiB is free. " +
				"Including non-PyTorch memory, this process has 77.91 GiB memory in use. Of the allocated memory 74.50 GiB is allocated by PyTorch, and 2.88 GiB is reserved by PyTorch but unallocated.\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var b strings.Builder
			if tt.times {
				b.WriteString("timestamp, index, memory.used [MiB], memory.total [MiB]\n")
			} else {
				b.WriteString("index, memory.used [MiB], memory.total [MiB]\n")
			}
			for i := range n {
				if tt.times {
					b.WriteString(smiStamp(logsStart.Add(time.Duration(i)*interval)) + ", ")
				}
				fmt.Fprintf(&b, "0, %d MiB, %d MiB\n", tt.used(i), total)
			}
			testutil.WriteFile(t, filepath.Join(dir, "gpu.csv"), []byte(b.String()))
			if tt.log != "" {
				testutil.WriteFile(t, filepath.Join(dir, "train.log"), []byte(tt.log))
			}
			f, run := logsOnlyRun(t, dir, "gpu-log-capacity")
			if len(f.Devices) != 1 {
				t.Fatalf("%d devices, want 1", len(f.Devices))
			}
			d := f.Devices[0]
			tr := d.Primary()
			if tr == nil || tr.Metric != analyze.MetricGPUUsed || d.Capacity != total<<20 {
				t.Fatalf("primary trend %+v, capacity %d; want the used trend against %d MiB", tr, d.Capacity, total)
			}
			r := renderAll(t, f, run)
			js := at(t, r.summary, "devices", 0, "trend")
			text := words.Projection(d, tr)

			switch {
			case tt.ranOut:
				if tr.State != analyze.StateGrowing || tr.Projection != nil || tr.RanOut == nil || tr.RanOut.Line != 1 {
					t.Fatalf("trend %s, projection %+v, ran out %+v; want the OOM in place of a forecast", tr.State, tr.Projection, tr.RanOut)
				}
				if at(t, js, "ran_out", "line") != 1.0 || at(t, js, "hours_to_capacity") != nil || at(t, js, "remaining_to_capacity") != nil {
					t.Errorf("summary.json trend %v: want ran_out and no time to capacity", js)
				}
				if !strings.Contains(text, "already ran out of memory") || strings.Contains(r.md, "reaches ") {
					t.Errorf("summary.md forecasts on a device that ran out:\n%s", r.md)
				}
			case tt.slope == 0:
				if tr.State == analyze.StateGrowing || tr.Projection != nil || tr.RanOut != nil || text != "" {
					t.Fatalf("trend %s (%s), projection %+v: want no forecast", tr.State, tr.Pattern, tr.Projection)
				}
				if at(t, js, "capacity_at") != nil || at(t, js, "hours_to_capacity") != nil || at(t, js, "remaining_to_capacity") != nil {
					t.Errorf("summary.json trend %v: a forecast", js)
				}
				if strings.Contains(r.md, "reaches ") || f.Verdict.MemoryGrows {
					t.Errorf("a forecast or memory_grows without growth:\n%s", r.md)
				}
				return
			default:
				p := tr.Projection
				if tr.State != analyze.StateGrowing || p == nil || tr.RanOut != nil {
					t.Fatalf("trend %s, projection %+v: want a forecast", tr.State, p)
				}
				// Expected from the synthetic line: the last reading's
				// used memory, growing at slope per reading, reaches the
				// total after (total - last) / slope readings.
				last := float64(base) + tt.slope*(n-1)
				left := (total - last) / tt.slope // readings
				wantRemaining, per := left, units.PerReading
				if tt.times {
					wantRemaining, per = left*interval.Hours(), units.PerHour
				}
				if tr.Per != per || math.Abs(p.Remaining-wantRemaining) > tt.tol*wantRemaining {
					t.Errorf("remaining %g per %s, want %g per %s", p.Remaining, tr.Per, wantRemaining, per)
				}
				if !(p.RemainingLo <= wantRemaining*(1+tt.tol) && wantRemaining*(1-tt.tol) <= p.RemainingHi) {
					t.Errorf("95%% interval %g to %g excludes %g", p.RemainingLo, p.RemainingHi, wantRemaining)
				}
				if p.Capacity != total<<20 || p.Outside != 0 {
					t.Errorf("limit %d less %d, want the GPU's total %d", p.Capacity, p.Outside, int64(total)<<20)
				}
				// summary.json reads the decided figures.
				if got := at(t, js, "remaining_to_capacity"); got != p.Remaining {
					t.Errorf("summary.json remaining_to_capacity %v, want %g", got, p.Remaining)
				}
				if got := at(t, js, "capacity_at"); got != p.X {
					t.Errorf("summary.json capacity_at %v, want %g", got, p.X)
				}
				hours := at(t, js, "hours_to_capacity")
				if tt.times && hours != p.Remaining || !tt.times && hours != nil {
					t.Errorf("summary.json hours_to_capacity %v (remaining %g, times %v)", hours, p.Remaining, tt.times)
				}
				// The sentence words the decided time (within tol of
				// the synthetic one).
				amount := units.AxisAmount(p.Remaining, per)
				if !strings.Contains(text, "reaches 80.0 GiB in about "+amount) || !strings.Contains(text, "GPU log memory.total") {
					t.Errorf("projection %q, want about %s against the log's total", text, amount)
				}
				if !tt.times && !strings.Contains(text, "the run's pace in time is unknown") {
					t.Errorf("projection %q: readings without times have no pace", text)
				}
				// The verdict: memory grows, with the same forecast,
				// and a warning even when the GPU fills within the run.
				reason := ""
				for _, rs := range f.Verdict.Reasons {
					if rs.Kind == analyze.ReasonExhaustion {
						t.Errorf("exhaustion reason %+v on used memory", rs)
					}
					if rs.Kind == analyze.ReasonMemoryGrows {
						reason = words.Reason(f, rs)
					}
				}
				if f.Verdict.Severity != analyze.SeverityWarning || !strings.Contains(reason, "; at this rate it "+text+"; ") {
					t.Errorf("verdict %s, reason %q; want a warning that quotes %q", f.Verdict.Severity, reason, text)
				}
			}
			// Every output words the one decision.
			if !strings.Contains(r.md, "| "+text+" |") {
				t.Errorf("summary.md's key figures lack %q:\n%s", text, r.md)
			}
			if !strings.Contains(r.text, text) {
				t.Errorf("stdout lacks %q:\n%s", text, r.text)
			}
			if !strings.Contains(r.html, html.EscapeString(text)) {
				t.Errorf("index.html lacks %q", text)
			}
			if v, _ := r.xlsx.GetCellValue("Summary", "B"+xlsxRow(t, r, "cuda:0: time to capacity")); v != text {
				t.Errorf("report.xlsx time to capacity %q, want %q", v, text)
			}
		})
	}
}

// xlsxRow is the row number of the Summary sheet's row labelled label.
func xlsxRow(t *testing.T, r rendered, label string) string {
	t.Helper()
	rows, err := r.xlsx.GetRows("Summary")
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range rows {
		if len(row) > 0 && row[0] == label {
			return fmt.Sprint(i + 1)
		}
	}
	t.Fatalf("no Summary row %q", label)
	return ""
}

// TestGPULogStartUpIsNoForecast: a real nvidia-smi log of a job starting
// up (idle, then used memory ramps to 90098 of 95830 MiB and holds, with
// wobbles; read in place) is a start-up ramp that reached its working
// level, no growth: no trend is growing, so no forecast, and no output says
// the GPU is already at or over its total, which a line through the ramp
// would (it passes the total at the last reading).
func TestGPULogStartUpIsNoForecast(t *testing.T) {
	src := testutil.RealFiles(t, "nvidia-smi", "h100nvl_query_gpu_truncated_at_8192_bytes.log")
	if len(src) != 1 {
		t.Fatalf("%d files, want 1", len(src))
	}
	dir := t.TempDir()
	data, err := os.ReadFile(src[0])
	if err != nil {
		t.Fatal(err)
	}
	testutil.WriteFile(t, filepath.Join(dir, "gpu.log"), data)
	f, run := logsOnlyRun(t, dir, "h100nvl")
	d := f.Devices[0]
	tr := d.Primary()
	if tr == nil || tr.Metric != analyze.MetricGPUUsed || tr.State == analyze.StateGrowing || tr.Projection != nil {
		t.Fatalf("primary trend %+v: want a used trend that is not growing, without a forecast", tr)
	}
	if f.Verdict.MemoryGrows {
		t.Errorf("verdict says memory grows: %+v", f.Verdict)
	}
	r := renderAll(t, f, run)
	if strings.Contains(r.md, "already at or over") || strings.Contains(r.md, "reaches 93.6 GiB") {
		t.Errorf("summary.md forecasts a start-up ramp:\n%s", r.md)
	}
	if got := at(t, r.summary, "devices", 0, "trend", "remaining_to_capacity"); got != nil {
		t.Errorf("summary.json remaining_to_capacity %v, want null", got)
	}
}
