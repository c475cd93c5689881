package report

import (
	"math"
	"strings"
	"testing"
)

// TestUnplacedReadingsNote: GPU readings that no snapshot time places on
// the step axis are left out of the timeline, and the page says so and
// why; placed readings get no such note.
func TestUnplacedReadingsNote(t *testing.T) {
	const note = "nvidia-smi memory.used is not drawn"
	for _, placed := range []bool{true, false} {
		f, _ := fixtureFindings()
		d := f.Devices[0]
		if d.GPU == nil || len(d.GPU.Used) == 0 {
			t.Fatal("the fixture's first device has no GPU readings")
		}
		if !placed {
			for i := range d.GPU.X {
				d.GPU.X[i] = math.NaN()
			}
		}
		page, err := HTML(f, fixedOptions)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(page), note); got == placed {
			t.Errorf("readings placed %v: page has the note %v", placed, got)
		}
	}
}
