package eval

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"gpureport/internal/gen/train"
)

// TestGeneratedCorpus writes a small corpus with the project's generator
// and evaluates it end to end: labels.json as the generator writes it
// parses here (flags, OOM cause, knobs, devices, GPU map), every case
// loads and is scored, and the OOM cause matrix holds every case.
func TestGeneratedCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and analyses a corpus")
	}
	dir := t.TempDir()
	scs := []string{train.ScClean, train.ScMultiRank, train.ScGrowthOOM, train.ScSeqTail}
	gl, err := train.WriteCorpus(dir, train.CorpusOptions{Seed: 21, PerScenario: 1, Jobs: 2, Scenarios: scs})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(gl)
	if err != nil {
		t.Fatal(err)
	}
	labels, err := ParseLabels("labels.json", b)
	if err != nil {
		t.Fatal(err)
	}
	var results []CaseResult
	for i, c := range labels.Cases {
		g := gl.Cases[i]
		if c.Expect.OOM != g.Expect.OOM || c.Expect.OOMCause != g.Expect.OOMCause || c.Expect.Fragmentation != g.Expect.Fragmentation {
			t.Errorf("%s: expect %+v, generator wrote %+v", c.Name, c.Expect, g.Expect)
		}
		if c.Truth.DevicesOfRun != g.Truth.Ranks || len(c.Truth.GPUMap) != g.Truth.Ranks || len(c.Knobs()) == 0 {
			t.Errorf("%s: truth %+v, knobs %v", c.Name, c.Truth, c.Knobs())
		}
		r := AnalyzeCase(context.Background(), filepath.Join(dir, c.Name), c.Name, 2)
		if r.Err != "" || r.SnapshotDevices == 0 {
			t.Errorf("%s: %s, %d snapshot devices", c.Name, r.Err, r.SnapshotDevices)
		}
		results = append(results, r)
	}
	ev := Evaluate(labels, results)
	var sum int
	for _, row := range ev.Overall.Cause {
		for _, n := range row {
			sum += n
		}
	}
	if ev.Overall.Cases != len(scs) || sum != len(scs) || len(ev.Missing) != 0 || ev.Overall.OOMCases != 1 {
		t.Errorf("scored %+v (cause matrix sum %d)", ev.Overall, sum)
	}
}
