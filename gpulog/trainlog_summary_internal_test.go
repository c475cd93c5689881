package gpulog

import "testing"

// mayNameStepLoop is mayNameStep as a loop over every byte: the
// reference it must agree with.
func mayNameStepLoop(line string) bool {
	for i := 0; i+4 <= len(line); i++ {
		switch line[i] | 0x20 {
		case 's':
			if line[i+1]|0x20 == 't' && line[i+2]|0x20 == 'e' && line[i+3]|0x20 == 'p' {
				return true
			}
		case 'i':
			if line[i+1]|0x20 == 't' && line[i+2]|0x20 == 'e' && line[i+3]|0x20 == 'r' {
				return true
			}
		}
	}
	return false
}

// TestMayNameStep checks mayNameStep against the loop over every byte.
func TestMayNameStep(t *testing.T) {
	for _, l := range []string{"", "t", "st", "ste", "step", "STEP", "Step 3", "iter", "ITER", "iTeR", "xstep", "tstep", "steP",
		"stepp", "s t e p", "stex", "ite", "iteration 5", "|   0  NVIDIA L40S  On  |", "Persistence-M", "ttttstep", "sTTep", "tep", "sTeP"} {
		if got, want := mayNameStep(l), mayNameStepLoop(l); got != want {
			t.Errorf("mayNameStep(%q) = %v, want %v", l, got, want)
		}
	}
}

// FuzzMayNameStep checks mayNameStep against the loop on any line.
func FuzzMayNameStep(f *testing.F) {
	f.Add("Step 3 iter")
	f.Fuzz(func(t *testing.T, l string) {
		if got, want := mayNameStep(l), mayNameStepLoop(l); got != want {
			t.Errorf("mayNameStep(%q) = %v, want %v", l, got, want)
		}
	})
}
