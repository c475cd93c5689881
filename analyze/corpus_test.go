package analyze_test

import (
	"context"
	"math"
	"path/filepath"
	"testing"
	"time"

	"gpureport/analyze"
	"gpureport/ingest"
	"gpureport/internal/gen/train"
)

// TestCorpusIntervals generates one case of every corpus scenario (a seed
// the rules were not tuned on) and checks, on every case, the interval
// rules of issue 12: no reported suspect's 95% interval includes 0 or
// excludes its estimate, its test is significant, and every trend's
// estimate lies inside its interval, and every sentence reads flat
// (CheckProse). It also checks docs/design.md's OOM cause
// order on the cases whose labels say what happened.
func TestCorpusIntervals(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a corpus")
	}
	dir := t.TempDir()
	labels, err := train.WriteCorpus(dir, train.CorpusOptions{Seed: 1213, PerScenario: 1, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	alpha := analyze.DefaultAlpha
	for _, c := range labels.Cases {
		run, err := ingest.Load(context.Background(), filepath.Join(dir, c.Name), ingest.LoadOptions{Location: time.UTC, Jobs: 2})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		f := analyze.Analyze(run, analyze.Options{})
		analyze.CheckProse(t, c.Name, f)
		for _, d := range f.Devices {
			for i := range d.Trends {
				tr := &d.Trends[i]
				if tr.State != analyze.StateInsufficient && !math.IsNaN(tr.Slope) && !(tr.Lo <= tr.Slope && tr.Slope <= tr.Hi) {
					t.Errorf("%s: %s trend %g outside its interval [%g, %g]", c.Name, tr.Metric, tr.Slope, tr.Lo, tr.Hi)
				}
			}
			for _, sp := range d.Suspects {
				tr := sp.Trend
				if !(tr.Lo > 0) || !(tr.Lo <= tr.Slope && tr.Slope <= tr.Hi) || !(tr.PValue < alpha) {
					t.Errorf("%s: suspect %s: %g per %s, interval [%g, %g], p %g: not a supported leak", c.Name, sp.Site, tr.Slope, tr.Per, tr.Lo, tr.Hi, tr.PValue)
				}
			}
		}
		for _, o := range f.OOMs {
			if c.Expect.Leak && !c.Expect.Fragmentation && o.Cause == "fragmentation" {
				t.Errorf("%s: a leak-driven OOM called %q: %+v", c.Name, o.Cause, o)
			}
		}
	}
}
