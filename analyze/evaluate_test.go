package analyze

import (
	"math"
	"strings"
	"testing"
)

const labelsJSON = `{"generator": "gpureport testdata/gen", "seed": 7, "cases": [
 {"name": "clean-000", "scenario": "clean", "seed": 1, "expect": {"leak": false, "outside_allocator_leak": false, "fragmentation": false, "oom": false}, "leak_sites": [], "leak_rank": null, "capacity_bytes": 85899345920, "description": "flat"},
 {"name": "clean-001", "scenario": "clean", "seed": 2, "expect": {"leak": false, "outside_allocator_leak": false, "fragmentation": false, "oom": false}, "leak_sites": [], "leak_rank": null, "capacity_bytes": 85899345920, "description": "flat"},
 {"name": "leak-steady-000", "scenario": "leak-steady", "seed": 3, "expect": {"leak": true, "outside_allocator_leak": false, "fragmentation": false, "oom": false}, "leak_sites": ["train.py:57"], "leak_rank": null, "capacity_bytes": 85899345920, "description": "leak"},
 {"name": "leak-steady-001", "scenario": "leak-steady", "seed": 4, "expect": {"leak": true, "outside_allocator_leak": false, "fragmentation": false, "oom": false}, "leak_sites": ["model.py:88"], "leak_rank": null, "capacity_bytes": 85899345920, "description": "leak"},
 {"name": "ranks-000", "scenario": "multi-rank-leak", "seed": 5, "expect": {"leak": true, "outside_allocator_leak": false, "fragmentation": false, "oom": false}, "leak_sites": ["train.py:57"], "leak_rank": 2, "capacity_bytes": 85899345920, "description": "rank 2 leaks"},
 {"name": "oom-000", "scenario": "growth-to-oom", "seed": 6, "expect": {"leak": true, "outside_allocator_leak": false, "fragmentation": false, "oom": true}, "leak_sites": ["train.py:57"], "leak_rank": null, "capacity_bytes": 17179869184, "description": "leak to OOM"}
]}`

func TestEvaluate(t *testing.T) {
	labels, err := ParseLabels("labels.json", []byte(labelsJSON))
	if err != nil {
		t.Fatal(err)
	}
	if labels.Seed != 7 || len(labels.Cases) != 6 || *labels.Cases[4].LeakRank != 2 || labels.Cases[0].LeakRank != nil {
		t.Fatalf("labels %+v", labels)
	}
	results := []CaseResult{
		{Case: "clean-000", TopRank: -1},
		{Case: "clean-001", Got: Flags{Leak: true}, TopSite: "model.py:12", TopRank: -1}, // false alarm
		{Case: "leak-steady-000", Got: Flags{Leak: true}, TopSite: "train.py:57", TopRank: -1},
		{Case: "leak-steady-001", Got: Flags{Leak: true}, TopSite: "train.py:57", TopRank: -1}, // wrong site
		{Case: "ranks-000", Got: Flags{Leak: true}, TopSite: "train.py:57", TopRank: 2},
		// oom-000 missing: counts as all false.
	}
	ev := Evaluate(labels, results)
	o := ev.Overall
	leak := o.Flags[0]
	if leak.TP != 3 || leak.FP != 1 || leak.FN != 1 || leak.TN != 1 {
		t.Errorf("leak confusion %+v", leak)
	}
	if !near(leak.Precision, 0.75, 1e-12) || !near(leak.Recall, 0.75, 1e-12) {
		t.Errorf("precision %v recall %v", leak.Precision, leak.Recall)
	}
	if o.LeakCases != 4 || o.SiteHits != 2 || !near(o.Top1, 0.5, 1e-12) || o.RankCases != 1 || o.RankHits != 1 {
		t.Errorf("sites: %+v", o)
	}
	if oom := o.Flags[3]; oom.FN != 1 || oom.Recall != 0 || oom.Precision != 1 {
		t.Errorf("oom confusion %+v", oom)
	}
	if o.Cases != 6 || o.Correct != 4 { // leak-steady-001 has its flags right, its site wrong
		t.Errorf("cases %d correct %d", o.Cases, o.Correct)
	}
	if ev.TargetsMet || len(ev.Missing) != 1 || ev.Missing[0] != "oom-000" {
		t.Errorf("targets met %v, missing %v", ev.TargetsMet, ev.Missing)
	}
	if len(ev.ByScenario) != 4 || ev.ByScenario[0].Name != "clean" || ev.ByScenario[0].Flags[0].FP != 1 || !math.IsNaN(ev.ByScenario[0].Top1) {
		t.Errorf("by scenario %+v", ev.ByScenario)
	}
	if len(ev.Misses) != 3 {
		t.Fatalf("misses %+v", ev.Misses)
	}
	if !strings.Contains(strings.Join(ev.Misses[1].Wrong, ";"), `top site "train.py:57", want [model.py:88]`) {
		t.Errorf("miss %+v", ev.Misses[1])
	}

	perfect := []CaseResult{
		{Case: "clean-000"}, {Case: "clean-001"},
		{Case: "leak-steady-000", Got: Flags{Leak: true}, TopSite: "train.py:57"},
		{Case: "leak-steady-001", Got: Flags{Leak: true}, TopSite: "model.py:88"},
		{Case: "ranks-000", Got: Flags{Leak: true}, TopSite: "train.py:57", TopRank: 2},
		{Case: "oom-000", Got: Flags{Leak: true, OOM: true}, TopSite: "train.py:57"},
	}
	if ev := Evaluate(labels, perfect); !ev.TargetsMet || len(ev.Misses) != 0 || ev.Overall.Correct != 6 {
		t.Errorf("perfect results: %+v", ev)
	}
}

func TestParseLabelsErrors(t *testing.T) {
	for _, bad := range []string{``, `{"cases": []}`, `{"cases": [{"name": ""}]}`, `{"cases": [{"name": "a"}, {"name": "a"}]}`, `[1]`} {
		if _, err := ParseLabels("labels.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), "labels.json") {
			t.Errorf("%q: error %v", bad, err)
		}
	}
}
