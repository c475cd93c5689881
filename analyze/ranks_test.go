package analyze

import (
	"testing"
)

// rankDevice is a device of rank r whose allocated memory at its points
// is alloc (bytes), all of it in one group at train.py:57.
func rankDevice(r int, alloc ...int64) *Device {
	d := &Device{DeviceKey: DeviceKey{Rank: r, Device: r}}
	g := Group{Signature: SignatureOf(stackAt("train.py", 57, "train_step"))}
	for i, a := range alloc {
		d.Points = append(d.Points, Point{X: float64(i), Usage: Usage{Allocated: a}})
		g.Bytes = append(g.Bytes, a)
		g.Blocks = append(g.Blocks, 1)
	}
	d.Groups = []Group{g}
	return d
}

func TestHeavyRanks(t *testing.T) {
	const g = 1 << 30
	tests := []struct {
		name  string
		devs  []*Device
		heavy []int
	}{
		{"one rank holds 5 GiB more", []*Device{rankDevice(0, 10*g, 10*g), rankDevice(1, 10*g+g/10, 10*g), rankDevice(2, 9*g+g*9/10, 10*g), rankDevice(3, 15*g, 15*g)}, []int{3}},
		{"peaks that differ by their batches", []*Device{rankDevice(0, 10*g), rankDevice(1, 10*g+g/10), rankDevice(2, 10*g-g/10), rankDevice(3, 10*g+3*g/10)}, nil},
		// A difference within a rank's own noise between snapshots is
		// not clear, however alike the peaks of the others are.
		{"within the noise of a rank", []*Device{rankDevice(0, 10*g, 9*g, 11*g), rankDevice(1, 10*g, 9*g, 11*g), rankDevice(2, 10*g, 9*g, 11*g), rankDevice(3, 12*g, 9*g, 11*g)}, nil},
		{"two ranks cannot tell which", []*Device{rankDevice(0, 10*g), rankDevice(1, 15*g)}, nil},
		{"identical ranks", []*Device{rankDevice(0, 10*g), rankDevice(1, 10*g), rankDevice(2, 10*g)}, nil},
	}
	for _, tt := range tests {
		h := heavyRanks(tt.devs)
		var got []int
		for _, ex := range h {
			got = append(got, ex.Rank)
			if ex.Z <= HeavyRankZ || ex.Excess != ex.Peak-ex.PeersMedian || len(ex.Stacks) != 1 || ex.Stacks[0].Excess != ex.Excess {
				t.Errorf("%s: %+v", tt.name, ex)
			}
		}
		if len(got) != len(tt.heavy) || (len(got) > 0 && got[0] != tt.heavy[0]) {
			t.Errorf("%s: heavy ranks %v, want %v", tt.name, got, tt.heavy)
		}
	}
}
