package report

import (
	"strings"
	"testing"

	"gpureport/analyze"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/report/words"
)

// asRuns makes the fixture's two processes two runs of a script without
// ranks, as placement parts a script run twice (placement/restarts.go):
// the process placement numbered 0 is run 1, the one numbered 1 run 2,
// on every key the findings hold; runs are no ranks, and have no rank
// comparison.
func asRuns(f *analyze.Findings) {
	key := func(k *analyze.DeviceKey) {
		k.Run = ingest.ScriptRun{N: k.Rank + 1, Rank: input.NoRank}
	}
	for _, d := range f.Devices {
		key(&d.DeviceKey)
	}
	for i := range f.Notes {
		key(&f.Notes[i].Device)
	}
	for i := range f.Verdict.Reasons {
		key(&f.Verdict.Reasons[i].Device)
	}
	for i := range f.Verdict.Suspects {
		key(&f.Verdict.Suspects[i].DeviceKey)
	}
	for i := range f.NextSteps {
		key(&f.NextSteps[i].Suspect.DeviceKey)
	}
	for i := range f.OOMs {
		f.OOMs[i].Run = ingest.ScriptRun{N: f.OOMs[i].Rank + 1, Rank: input.NoRank}
	}
	if f.Held != nil {
		key(&f.Held.Device)
	}
	f.Ranks = nil
}

// TestRunLabels: a separate run of the script is named "run N" in every
// output, by the one name every output takes (words.Device), and never as
// the rank placement numbered it: summary.json gives it a null rank and
// its run, summary.md, the HTML page, the text summary, the workbook and
// the batch overview's suspect name it alike.
func TestRunLabels(t *testing.T) {
	f, run := fixtureFindings()
	asRuns(f)
	second := f.Devices[1].DeviceKey
	if got := words.Device(second); got != "run 2 · cuda:0" {
		t.Fatalf("run 2's device is %q, want \"run 2 · cuda:0\"", got)
	}
	r := renderAll(t, f, run)

	for i, want := range []float64{1, 2} {
		if got := at(t, r.summary, "devices", i, "rank"); got != nil {
			t.Errorf("devices[%d].rank = %v, want null (a run is no rank)", i, got)
		}
		if got := at(t, r.summary, "devices", i, "run"); got != want {
			t.Errorf("devices[%d].run = %v, want %v", i, got, want)
		}
	}
	if got := at(t, r.summary, "verdict", "leak_suspects", 0, "run"); got != 2.0 {
		t.Errorf("leak suspect's run = %v, want 2", got)
	}
	if got := at(t, r.summary, "verdict", "leak_suspects", 0, "rank"); got != nil {
		t.Errorf("leak suspect's rank = %v, want null", got)
	}
	if got := at(t, r.summary, "ooms", 0, "run"); got != 2.0 {
		t.Errorf("OOM's run = %v, want 2", got)
	}
	if got := at(t, r.summary, "ooms", 0, "rank"); got != nil {
		t.Errorf("OOM's rank = %v, want null", got)
	}

	for _, out := range []struct{ name, text, label string }{
		{"summary.md", r.md, "run 2 · cuda:0"},
		{"index.html", r.html, "run 2 · cuda:0"},
		{"text summary", r.text, "run 2"},
	} {
		if !strings.Contains(out.text, out.label) {
			t.Errorf("%s does not name %q", out.name, out.label)
		}
		for _, rank := range []string{"rank 0 · cuda:0", "rank 1 · cuda:0", "rank 1 cuda:0", "on rank 1"} {
			if strings.Contains(out.text, rank) {
				t.Errorf("%s names a run as a rank: %q", out.name, rank)
			}
		}
	}

	// The workbook names devices as every output does (words.Device), and
	// leaves the Rank column of a run empty.
	rows, err := r.xlsx.GetRows("Snapshots")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, row := range rows[1:] {
		seen[row[0]] = true
		if row[1] != "" {
			t.Errorf("Snapshots row %q: rank %q, want none", row[0], row[1])
		}
	}
	if !seen["run 1 · cuda:0"] || !seen["run 2 · cuda:0"] || len(seen) != 2 {
		t.Errorf("Snapshots devices %v, want run 1 · cuda:0 and run 2 · cuda:0", seen)
	}
	for _, sheet := range r.xlsx.GetSheetList() {
		rows, err := r.xlsx.GetRows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows {
			for _, c := range row {
				if strings.Contains(c, "rank 1 cuda:0") || strings.Contains(c, "rank 1 · cuda:0") {
					t.Errorf("%s: %q names a run as a rank", sheet, c)
				}
			}
		}
	}

	// The batch overview names a suspect's device from summary.json's
	// fields as the run's own report did.
	ov := OverviewRunFromSummary(BuildSummary(f, fixedOptions))
	if len(ov.Suspects) == 0 || ov.Suspects[0].Device != words.Device(second) {
		t.Errorf("overview suspects %+v, want one on %q", ov.Suspects, words.Device(second))
	}
}

// TestSummaryKeyNames: the device key summary.json's fields give names
// each kind of device as its run's report did (the overview's suspects).
func TestSummaryKeyNames(t *testing.T) {
	rank := func(r int) *int { return &r }
	tests := []struct {
		key  analyze.DeviceKey
		rank *int
	}{
		{analyze.DeviceKey{Rank: 3, Device: 1}, rank(3)},
		{analyze.DeviceKey{Rank: input.NoRank, Device: 0}, nil},
		{analyze.DeviceKey{Rank: 1, Device: 0, PID: 4242}, nil},
		{analyze.DeviceKey{Rank: 4, Device: 0, Run: ingest.ScriptRun{N: 2, Rank: input.NoRank}}, nil},
		{analyze.DeviceKey{Rank: 5, Device: 0, Run: ingest.ScriptRun{N: 2, Rank: 3}}, rank(3)},
		{analyze.DeviceKey{Rank: 1, Device: 0, Run: ingest.ScriptRun{N: 1, Folder: "exp_lr1e-3_bs64", Rank: input.NoRank}}, nil},
	}
	for _, tt := range tests {
		want := words.Device(tt.key)
		if r := keyRank(tt.key); (r == nil) != (tt.rank == nil) || r != nil && *r != *tt.rank {
			t.Errorf("%s: summary rank %v, want %v", want, r, tt.rank)
		}
		id := deviceID(tt.key)
		id.Name = "" // as a summary.json from before names were kept
		if got := id.Label(); got != want {
			t.Errorf("summary fields name %q, want %q", got, want)
		}
	}
}
