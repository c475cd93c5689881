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
