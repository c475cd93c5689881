package analyze

import (
	"slices"
	"testing"

	"gpureport/snapshot"
)

// TestGraphGrowth: CUDA-graph memory recorded anew for ever-new shapes
// (cudagraph trees' frames, blocks added at every dump) is a leak whose
// next step is shape buckets; graphs recorded in a warm-up that stops
// stay suppressed.
func TestGraphGrowth(t *testing.T) {
	trees := append([]snapshot.Frame{torchFrame("_inductor/cudagraph_trees.py", 2020, "_record")}, stackAt("train.py", 80, "forward_step")...)
	graphs := func(n int, count func(k int) int) [][]sblock {
		out := make([][]sblock, n)
		for k := range n {
			for b := range count(k) {
				out[k] = append(out[k], sblock{addr: slot(b), size: 96 * mib, frames: trees})
			}
		}
		return out
	}
	for _, tt := range []struct {
		name  string
		snaps [][]sblock
		leak  bool
	}{
		{"new shapes without end", graphs(10, func(k int) int { return 2 * (k + 1) }), true},
		{"warm-up then flat", graphs(10, func(k int) int { return min(8, 3+2*k) }), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := Analyze(blocksRun(tt.snaps), Options{})
			CheckProse(t, t.Name(), f)
			if f.Verdict.Leak != tt.leak {
				t.Fatalf("leak %v, want %v", f.Verdict.Leak, tt.leak)
			}
			if !tt.leak {
				return
			}
			sp := f.Devices[0].Suspects[0]
			if !slices.ContainsFunc(sp.Evidence, func(e Evidence) bool { return e.Kind == EvidenceGraphGrowth && e.Compile }) {
				t.Errorf("evidence %+v", sp.Evidence)
			}
			if !slices.ContainsFunc(f.NextSteps, func(s NextStep) bool { return s.Kind == StepBucketShapes }) {
				t.Errorf("next steps %+v", f.NextSteps)
			}
		})
	}
}
