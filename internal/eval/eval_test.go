package eval

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gpureport/analyze"
	"gpureport/internal/testutil"
)

const labelsJSON = `{"generator": "gpureport internal/gen", "seed": 7, "cases": [
 {"name": "clean-000", "scenario": "clean", "seed": 1, "expect": {"leak": false, "outside_allocator_leak": false, "fragmentation": false, "oom": false}, "leak_sites": [], "leak_rank": null, "capacity_bytes": 85899345920, "description": "flat",
  "truth": {"ranks": 1, "phase": "end", "devices_of_run": 1, "gpu_map": [2], "knobs": {"seq_dist": "uniform", "naming": "index", "file_times": "copied", "oom_dump": "exit", "node_gpus": 4, "visible_gpus": 1, "gpu_map": [2]}}},
 {"name": "clean-001", "scenario": "clean", "seed": 2, "expect": {"leak": false, "outside_allocator_leak": false, "fragmentation": false, "oom": false}, "leak_sites": [], "leak_rank": null, "capacity_bytes": 85899345920, "description": "flat",
  "truth": {"ranks": 1, "phase": "end", "empty_cache_every": 4, "knobs": {"seq_dist": "fixed", "naming": "step", "file_times": "dump", "oom_dump": "none", "node_gpus": 1, "visible_gpus": 1}}},
 {"name": "leak-steady-000", "scenario": "leak-steady", "seed": 3, "expect": {"leak": true, "outside_allocator_leak": false, "fragmentation": false, "oom": false}, "leak_sites": ["train.py:57"], "leak_rank": null, "capacity_bytes": 85899345920, "description": "leak"},
 {"name": "leak-steady-001", "scenario": "leak-steady", "seed": 4, "expect": {"leak": true, "outside_allocator_leak": false, "fragmentation": false, "oom": false}, "leak_sites": ["model.py:88"], "leak_rank": null, "capacity_bytes": 85899345920, "description": "leak"},
 {"name": "ranks-000", "scenario": "multi-rank-leak", "seed": 5, "expect": {"leak": true, "outside_allocator_leak": false, "fragmentation": false, "oom": false}, "leak_sites": ["train.py:57"], "leak_rank": 2, "capacity_bytes": 85899345920, "description": "rank 2 leaks"},
 {"name": "oom-000", "scenario": "growth-to-oom", "seed": 6, "expect": {"leak": true, "outside_allocator_leak": false, "fragmentation": false, "oom": true, "oom_cause": "leak"}, "leak_sites": ["train.py:57"], "leak_rank": null, "capacity_bytes": 17179869184, "description": "leak to OOM"},
 {"name": "frag-oom-000", "scenario": "seq-heavy-tail-oom", "seed": 8, "expect": {"leak": false, "outside_allocator_leak": false, "fragmentation": true, "oom": true, "oom_cause": "fragmentation"}, "leak_sites": [], "leak_rank": null, "capacity_bytes": 17179869184, "description": "tail OOM",
  "truth": {"ranks": 1, "phase": "start", "devices_of_run": 1, "gpu_map": [0], "knobs": {"seq_dist": "pareto", "naming": "torchtitan", "file_times": "dump", "oom_dump": "observer", "node_gpus": 8, "visible_gpus": 8}}}
]}`

func mustLabels(t *testing.T) *Labels {
	t.Helper()
	labels, err := ParseLabels("labels.json", []byte(labelsJSON))
	if err != nil {
		t.Fatal(err)
	}
	return labels
}

// someResults has one of each kind of mistake: a false leak, a wrong site,
// a missing case, an OOM called fragmentation and a bad interval.
func someResults() []CaseResult {
	return []CaseResult{
		{Case: "clean-000", TopRank: -1, SnapshotDevices: 1, Joins: []Join{{0, 0, 0}}}, // the wrong GPU
		{Case: "clean-001", Got: Flags{Leak: true}, TopSite: "model.py:12", TopRank: -1, Suspects: 1, BadIntervals: 1,
			BadIntervalSites: []string{"model.py:12: includes 0: interval 0 to 0 B per step, estimate 0"}}, // false alarm
		{Case: "leak-steady-000", Got: Flags{Leak: true}, TopSite: "train.py:57", TopRank: -1, Suspects: 1, ShortHourRates: 2},
		{Case: "leak-steady-001", Got: Flags{Leak: true}, TopSite: "train.py:57", TopRank: -1, Suspects: 2}, // wrong site
		{Case: "ranks-000", Got: Flags{Leak: true}, TopSite: "train.py:57", TopRank: 2, Suspects: 1},
		// oom-000 missing: counts as all false.
		{Case: "frag-oom-000", Got: Flags{Fragmentation: true, OOM: true, OOMCause: "capacity"}, TopRank: -1,
			SnapshotDevices: 8, Joins: []Join{{0, 0, 0}, {0, 1, -1}}}, // every visible GPU a device
	}
}

func TestEvaluate(t *testing.T) {
	labels := mustLabels(t)
	if labels.Seed != 7 || len(labels.Cases) != 7 || *labels.Cases[4].LeakRank != 2 || labels.Cases[0].LeakRank != nil {
		t.Fatalf("labels %+v", labels)
	}
	ev := Evaluate(labels, someResults())
	o := ev.Overall
	leak := o.Flags[0]
	if leak.TP != 3 || leak.FP != 1 || leak.FN != 1 || leak.TN != 2 {
		t.Errorf("leak confusion %+v", leak)
	}
	if !near(leak.Precision, 0.75, 1e-12) || !near(leak.Recall, 0.75, 1e-12) {
		t.Errorf("precision %v recall %v", leak.Precision, leak.Recall)
	}
	if o.LeakCases != 4 || o.SiteHits != 2 || !near(o.Top1, 0.5, 1e-12) || o.RankCases != 1 || o.RankHits != 1 {
		t.Errorf("sites: %+v", o)
	}
	if oom := o.Flags[3]; oom.TP != 1 || oom.FN != 1 || oom.Recall != 0.5 || oom.Precision != 1 {
		t.Errorf("oom confusion %+v", oom)
	}
	// Rows: label, columns: analysis (leak, fragmentation, capacity,
	// limit, none).
	wantCause := [numCauses][numCauses]int{{0, 0, 0, 0, 1}, {0, 0, 1, 0, 0}, {}, {}, {0, 0, 0, 0, 5}}
	if o.Cause != wantCause || o.OOMCases != 2 || o.CauseHits != 0 {
		t.Errorf("cause matrix %v, %d/%d", o.Cause, o.CauseHits, o.OOMCases)
	}
	if o.Suspects != 5 || o.BadIntervals != 1 {
		t.Errorf("suspects %d, bad intervals %d", o.Suspects, o.BadIntervals)
	}
	if o.DeviceCases != 2 || o.DeviceHits != 1 || o.JoinCases != 2 || o.JoinHits != 1 {
		t.Errorf("devices %d/%d, joins %d/%d", o.DeviceHits, o.DeviceCases, o.JoinHits, o.JoinCases)
	}
	if o.Cases != 7 || o.Correct != 4 { // leak-steady-001 has its flags right, its site wrong
		t.Errorf("cases %d correct %d", o.Cases, o.Correct)
	}
	if ev.TargetsMet || len(ev.Missing) != 1 || ev.Missing[0] != "oom-000" {
		t.Errorf("targets met %v, missing %v", ev.TargetsMet, ev.Missing)
	}
	if len(ev.ByScenario) != 5 || ev.ByScenario[0].Name != "clean" || ev.ByScenario[0].Flags[0].FP != 1 || !math.IsNaN(ev.ByScenario[0].Top1) {
		t.Errorf("by scenario %+v", ev.ByScenario)
	}
	knobs := map[string]int{}
	for _, s := range ev.ByKnob {
		knobs[s.Name] = s.Cases
	}
	for name, n := range map[string]int{"naming=index": 1, "naming=torchtitan": 1, "gpus=remapped (CUDA_VISIBLE_DEVICES)": 1,
		"gpus=extra visible GPUs": 1, "gpus=own GPUs": 1, "empty_cache=yes": 1, "empty_cache=no": 2, "oom_dump=observer": 1, "phase=end": 2} {
		if knobs[name] != n {
			t.Errorf("knob %s: %d cases, want %d (all: %v)", name, knobs[name], n, knobs)
		}
	}
	if _, ok := knobs["oom_dump=exit"]; ok {
		t.Error("oom_dump counted for a case without an OOM")
	}
	if len(ev.Misses) != 6 {
		t.Fatalf("misses %+v", ev.Misses)
	}
	for i, want := range map[int]string{
		0: "GPU join rank 0 cuda:0 -> GPU 0, want rank -> GPU [2]",
		2: "2 per-hour rate(s) from under a minute of data",
		3: `top site "train.py:57", want [model.py:88]`,
		5: "oom cause: got capacity, want fragmentation; devices: 8 with snapshots, want 1",
	} {
		if w := strings.Join(ev.Misses[i].Wrong, "; "); !strings.Contains(w, want) {
			t.Errorf("miss %d: %q lacks %q", i, w, want)
		}
	}

	perfect := []CaseResult{
		{Case: "clean-000", SnapshotDevices: 1, Joins: []Join{{0, 0, 2}}}, {Case: "clean-001"},
		{Case: "leak-steady-000", Got: Flags{Leak: true}, TopSite: "train.py:57"},
		{Case: "leak-steady-001", Got: Flags{Leak: true}, TopSite: "model.py:88"},
		{Case: "ranks-000", Got: Flags{Leak: true}, TopSite: "train.py:57", TopRank: 2},
		{Case: "oom-000", Got: Flags{Leak: true, OOM: true, OOMCause: "leak"}, TopSite: "train.py:57"},
		{Case: "frag-oom-000", Got: Flags{Fragmentation: true, OOM: true, OOMCause: "fragmentation"}, SnapshotDevices: 1, Joins: []Join{{0, 0, 0}}},
	}
	if ev := Evaluate(labels, perfect); !ev.TargetsMet || len(ev.Misses) != 0 || ev.Overall.Correct != 7 {
		t.Errorf("perfect results: %+v", ev)
	}
	// One bad interval alone misses the targets.
	perfect[2].Suspects, perfect[2].BadIntervals = 1, 1
	if ev := Evaluate(labels, perfect); ev.TargetsMet || ev.Overall.BadIntervals != 1 {
		t.Errorf("a bad interval met the targets: %+v", ev.Overall)
	}
}

// TestCauseLimit: a limit OOM (docs/design.md: the device had the memory
// free, a cap on the process refused it) has a row and a column of its
// own in the cause matrix; it never counts as "none".
func TestCauseLimit(t *testing.T) {
	labels, err := ParseLabels("labels.json", []byte(`{"cases": [
 {"name": "cap-000", "scenario": "memory-fraction-oom", "seed": 1, "expect": {"oom": true, "oom_cause": "limit"}, "leak_sites": [], "capacity_bytes": 85899345920}]}`))
	if err != nil {
		t.Fatal(err)
	}
	names := CauseNames()
	limit, none := slices.Index(names[:], "limit"), numCauses-1
	tests := []struct {
		got   string
		col   int
		hits  int
		wrong string
	}{
		{"limit", limit, 1, ""},
		{"capacity", slices.Index(names[:], "capacity"), 0, "oom cause: got capacity, want limit"},
		{"", none, 0, "oom cause: got none, want limit"},
	}
	for _, tt := range tests {
		t.Run("got "+tt.got, func(t *testing.T) {
			ev := Evaluate(labels, []CaseResult{{Case: "cap-000", Got: Flags{OOM: true, OOMCause: tt.got}, TopRank: -1}})
			var want [numCauses][numCauses]int
			want[limit][tt.col] = 1
			if o := ev.Overall; o.Cause != want || o.OOMCases != 1 || o.CauseHits != tt.hits {
				t.Errorf("cause matrix %v, %d/%d; want %v", o.Cause, o.CauseHits, o.OOMCases, want)
			}
			var wrong string
			if len(ev.Misses) > 0 {
				wrong = strings.Join(ev.Misses[0].Wrong, "; ")
			}
			if wrong != tt.wrong {
				t.Errorf("misses %q, want %q", wrong, tt.wrong)
			}
		})
	}
}

func TestShortHour(t *testing.T) {
	for _, tc := range []struct {
		tr   analyze.Trend
		want bool
	}{
		{analyze.Trend{Per: "hour", N: 10, FitX0: 0, FitX1: 0.4 / 3600}, true}, // 0.4 s of copying
		{analyze.Trend{Per: "hour", N: 10, FitX0: 1, FitX1: 3}, false},
		{analyze.Trend{Per: "step", N: 10, FitX0: 0, FitX1: 0.001}, false},
		{analyze.Trend{Per: "hour", N: 1}, false},
	} {
		if got := shortHour(tc.tr); got != tc.want {
			t.Errorf("%+v: %v", tc.tr, got)
		}
	}
}

func TestBadInterval(t *testing.T) {
	for _, tc := range []struct {
		name string
		tr   analyze.Trend
		bad  bool
		why  string
	}{
		{"fine", analyze.Trend{Per: "step", Slope: 10, Lo: 8, Hi: 12}, false, ""},
		{"zero interval", analyze.Trend{Per: "hour", Slope: 3.6e10, Lo: 0, Hi: 0}, true, "includes 0"},
		{"includes zero", analyze.Trend{Per: "step", Slope: 5, Lo: -1, Hi: 9}, true, "includes 0"},
		{"estimate above", analyze.Trend{Per: "step", Slope: 20, Lo: 8, Hi: 12}, true, "excludes its estimate"},
		{"estimate below", analyze.Trend{Per: "step", Slope: 5, Lo: 8, Hi: 12}, true, "excludes its estimate"},
		{"no interval", analyze.Trend{Per: "step", Slope: 5, Lo: math.NaN(), Hi: 12}, true, "no interval"},
	} {
		bad, why := BadInterval(tc.tr)
		if bad != tc.bad || !strings.HasPrefix(why, tc.why) {
			t.Errorf("%s: %v %q, want %v %q", tc.name, bad, why, tc.bad, tc.why)
		}
	}
}

// TestWriteText pins the text output's format with a golden file
// (go test ./evaluate -update rewrites it) and checks the parts a reader
// looks for.
func TestWriteText(t *testing.T) {
	labels := mustLabels(t)
	for _, tc := range []struct {
		name    string
		results []CaseResult
		want    []string
	}{
		{"mistakes", someResults(), []string{
			"per scenario:", "confusion per flag (rows: label, columns: analysis):",
			"OOM cause (rows: label, columns: analysis; none = no OOM or no cause):",
			"per knob value:", "naming=torchtitan", "misclassified (6):", "devices of the run right 1/2, GPU join right 1/2, per-hour rates from under a minute of data 2",
			"2 per-hour rate(s) from under a minute of data",
			"oom cause: got capacity, want fragmentation", "bad interval model.py:12: includes 0",
			"no result for 1 case(s): oom-000", "suspects with a bad interval  1 of 5", "targets: NOT met"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteText(&b, "corpus", Evaluate(labels, tc.results)); err != nil {
				t.Fatal(err)
			}
			testutil.Golden(t, filepath.Join("testdata", tc.name+".golden"), b.Bytes())
			for _, w := range tc.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("output lacks %q", w)
				}
			}
		})
	}
}

// TestJSON checks that the JSON form encodes (no NaN) and keeps the cause
// matrix.
func TestJSON(t *testing.T) {
	ev := Evaluate(mustLabels(t), someResults())
	b, err := json.Marshal(ev.JSON())
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Overall struct {
			Cause [numCauses][numCauses]int
			Top1  *float64
		}
		ByScenario []struct {
			Name string
			Top1 *float64
		}
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Overall.Cause[0][numCauses-1] != 1 || back.Overall.Top1 == nil || back.ByScenario[0].Top1 != nil {
		t.Errorf("JSON %s", b)
	}
}

func TestParseLabelsErrors(t *testing.T) {
	for _, bad := range []string{``, `{"cases": []}`, `{"cases": [{"name": ""}]}`, `{"cases": [{"name": "a"}, {"name": "a"}]}`, `[1]`} {
		if _, err := ParseLabels("labels.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), "labels.json") {
			t.Errorf("%q: error %v", bad, err)
		}
	}
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }
