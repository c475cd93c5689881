package placement

import (
	"math"
	"testing"
)

// TestInterpolateSorted: the binary search gives interpolate's answers on
// sorted knots, ties and ends included.
func TestInterpolateSorted(t *testing.T) {
	knots := [][2]float64{{10, 100}, {20, 200}, {20, 250}, {30, 300}, {50, 700}}
	for _, x := range []float64{9, 10, 12.5, 20, 21, 30, 40, 50, 51} {
		got, want := interpolateSorted(knots, x), interpolate(knots, x)
		if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("at %g: %g, want %g", x, got, want)
		}
	}
}
