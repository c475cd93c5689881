package report

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestOverviewJSON: an unknown slope or growth is null in overview.json,
// read back as NaN; a known one is its number; the field comes last.
func TestOverviewJSON(t *testing.T) {
	for _, tt := range []struct {
		name, wantRun, wantSuspects string
		slope, growth               float64
	}{
		{"unknown", `"shard":"1/2","slope_bytes":null}`, `"new":true,"growth_bytes":null}`, math.NaN(), math.Inf(1)},
		{"known", `"shard":"1/2","slope_bytes":1500000}`, `"new":true,"growth_bytes":-2048}`, 1.5e6, -2048},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := OverviewRun{Dir: "runs/a", Status: StatusReported, Slope: tt.slope, SlopePer: "step", Shard: "1/2",
				Suspects: []OverviewSuspect{{Fingerprint: "f", Site: "a.py:1", Growth: tt.growth, Per: "step", New: true}}}
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			js := string(b)
			if want := tt.wantRun; js[len(js)-len(want):] != want {
				t.Errorf("run ends %q, want %q", js, want)
			}
			if !strings.Contains(js, tt.wantSuspects) {
				t.Errorf("suspect in %s, want %s", js, tt.wantSuspects)
			}
			var back OverviewRun
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			same := func(a, b float64) bool { return a == b || !finite(a) && math.IsNaN(b) }
			if back.Dir != r.Dir || back.Shard != r.Shard || !same(tt.slope, back.Slope) || len(back.Suspects) != 1 || !same(tt.growth, back.Suspects[0].Growth) {
				t.Errorf("read back %+v, want %+v", back, r)
			}
		})
	}
	var r OverviewRun
	if err := json.Unmarshal([]byte(`{"dir":"x","slope_bytes":"steep"}`), &r); err == nil {
		t.Error("a slope that is not a number was accepted")
	}
}

// TestOverviewRunPeaksAndSlope: a run's overview peaks are the largest of
// its devices' summary.json peaks (analyze's, never re-derived from the
// snapshots or readings beside them), null and "n/a" where no device
// knows them, never "0 B"; the steepest trend names its metric below its
// value and takes a per-reading slope too.
func TestOverviewRunPeaksAndSlope(t *testing.T) {
	i64 := func(v int64) *int64 { return &v }
	f64 := func(v float64) *float64 { return &v }
	const gib = 1 << 30
	for _, tt := range []struct {
		name                        string
		devices                     []SummaryDevice
		wantAlloc, wantRes, wantSlp string
		wantJSON                    string
	}{
		{"gpu log alone", []SummaryDevice{{Trend: SummaryTrend{Metric: "gpu_used_bytes", SlopeBytesPerReading: f64(500 << 20)}}},
			"n/a", "n/a", `+500 MiB/reading<br><span class="meta">nvidia-smi used</span>`, `"peak_allocated_bytes":null,"peak_reserved_bytes":null`},
		{"reserved-only memory_stats", []SummaryDevice{{PeakReservedBytes: i64(35 * gib), MemoryStats: &SummaryMemoryStats{ReservedMaxBytes: i64(35 * gib)},
			Trend: SummaryTrend{Metric: "reserved_bytes", Source: "memory_stats", SlopeBytesPerStep: f64(51 << 20)}}},
			"n/a", "35.0 GiB", `+51.0 MiB/step<br><span class="meta">reserved (memory_stats)</span>`, `"peak_allocated_bytes":null,"peak_reserved_bytes":37580963840`},
		{"the largest device's", []SummaryDevice{
			{PeakAllocatedBytes: i64(2 * gib), PeakReservedBytes: i64(3 * gib), Trend: SummaryTrend{Metric: "allocated_bytes", SlopeBytesPerStep: f64(1 << 20)}},
			{PeakAllocatedBytes: i64(gib), PeakReservedBytes: i64(4 * gib)},
			{Trend: SummaryTrend{Metric: "gpu_used_bytes", SlopeBytesPerStep: f64(4 << 20)}}},
			"2.00 GiB", "4.00 GiB", `+4.00 MiB/step<br><span class="meta">nvidia-smi used</span>`, `"peak_allocated_bytes":2147483648,"peak_reserved_bytes":4294967296`},
		// The fields decide, whatever the arrays beside them hold.
		{"fields, not arrays", []SummaryDevice{{PeakAllocatedBytes: i64(2 * gib), PeakReservedBytes: i64(3 * gib),
			Snapshots:   []SummarySnapshot{{SummaryUsage: SummaryUsage{AllocatedBytes: 7 * gib, ReservedBytes: 8 * gib}}},
			MemoryStats: &SummaryMemoryStats{AllocatedMaxBytes: i64(9 * gib), ReservedMaxBytes: i64(9 * gib)}}},
			"2.00 GiB", "3.00 GiB", "n/a", `"peak_allocated_bytes":2147483648,"peak_reserved_bytes":3221225472`},
		// A rank's pinned host memory is host RAM, not a GPU's: it never
		// stands in the GPU peak columns, however large.
		{"pinned host memory left out", []SummaryDevice{
			{PeakAllocatedBytes: i64(2 * gib), PeakReservedBytes: i64(3 * gib)},
			{SummaryDeviceID: SummaryDeviceID{Kind: "host_pinned"}, PeakAllocatedBytes: i64(40 * gib), PeakReservedBytes: i64(48 * gib)}},
			"2.00 GiB", "3.00 GiB", "n/a", `"peak_allocated_bytes":2147483648,"peak_reserved_bytes":3221225472`},
		{"no trend", []SummaryDevice{{PeakAllocatedBytes: i64(0), PeakReservedBytes: i64(gib)}},
			"0 B", "1.00 GiB", "n/a", `"peak_allocated_bytes":0,"peak_reserved_bytes":1073741824`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := OverviewRunFromSummary(&Summary{Devices: tt.devices})
			if got := knownBytesText(r.PeakAllocated); got != tt.wantAlloc {
				t.Errorf("peak allocated %q, want %q", got, tt.wantAlloc)
			}
			if got := knownBytesText(r.PeakReserved); got != tt.wantRes {
				t.Errorf("peak reserved %q, want %q", got, tt.wantRes)
			}
			page, err := OverviewHTML(&Overview{Runs: []OverviewRun{r}})
			if err != nil {
				t.Fatal(err)
			}
			// The page's peaks, then the steepest trend with its metric.
			if want := `<td class="num">` + tt.wantAlloc + `</td><td class="num">` + tt.wantRes + `</td><td class="num">` + strings.ReplaceAll(tt.wantSlp, "+", "&#43;") + `</td>`; !strings.Contains(string(page), want) {
				t.Errorf("overview lacks %s", want)
			}
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), tt.wantJSON) {
				t.Errorf("json %s, want %s", b, tt.wantJSON)
			}
		})
	}
}

// TestOverviewNewFingerprints: the headline counts distinct new leak
// fingerprints and the runs holding them, not suspects.
func TestOverviewNewFingerprints(t *testing.T) {
	run := func(dir string, fps ...string) OverviewRun {
		r := OverviewRun{Dir: dir, Status: StatusReported, Severity: "critical", Slope: math.NaN()}
		for _, fp := range fps {
			r.Suspects = append(r.Suspects, OverviewSuspect{Fingerprint: fp, Site: "a.py:1", Growth: 1, Per: "step", New: true})
		}
		return r
	}
	for _, tt := range []struct {
		name string
		runs []OverviewRun
		want string
	}{
		{"one fingerprint in four runs", []OverviewRun{run("r/a", "f1"), run("r/b", "f1"), run("r/c", "f1"), run("r/d", "f1")}, "· 1 new leak fingerprint (in 4 runs)</p>"},
		{"two in one run", []OverviewRun{run("r/a", "f1", "f2"), run("r/b")}, "· 2 new leak fingerprints (in 1 run)</p>"},
		{"none", []OverviewRun{run("r/a")}, "1 runs · 1 critical</p>"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, err := OverviewHTML(&Overview{Roots: []string{"r"}, Runs: tt.runs})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), tt.want) {
				i := strings.Index(string(b), `class="headline"`)
				t.Errorf("headline %q, want %q", string(b)[i:i+120], tt.want)
			}
		})
	}
}
