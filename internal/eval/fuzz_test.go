package eval

import (
	"bytes"
	"testing"
)

// FuzzParseLabels checks labels.json parsing never panics and that a
// parsed corpus can be evaluated and printed.
func FuzzParseLabels(f *testing.F) {
	f.Add([]byte(labelsJSON))
	f.Add([]byte(`{"cases": [{"name": "a", "leak_rank": 3}]}`))
	f.Add([]byte(`{"cases": [{"name": "a", "expect": {"oom": true, "oom_cause": "??"}, "truth": {"knobs": {"naming": "x", "gpu_map": [1]}}}]}`))
	f.Add([]byte(`{"cases": [{"name": "a"}, {"name": "a"}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ParseLabels("labels.json", data)
		if err != nil {
			return
		}
		ev := Evaluate(l, []CaseResult{{Case: l.Cases[0].Name, Got: Flags{Leak: true, OOM: true, OOMCause: "leak"}}})
		if ev.Overall.Cases != len(l.Cases) {
			t.Fatalf("scored %d of %d cases", ev.Overall.Cases, len(l.Cases))
		}
		var sum int
		for _, row := range ev.Overall.Cause {
			for _, n := range row {
				sum += n
			}
		}
		if sum != len(l.Cases) {
			t.Fatalf("cause matrix holds %d of %d cases", sum, len(l.Cases))
		}
		if err := WriteText(&bytes.Buffer{}, "corpus", ev); err != nil {
			t.Fatal(err)
		}
	})
}
