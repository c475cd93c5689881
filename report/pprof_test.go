package report

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// TestPprof reads the profile back with the pprof package: sample types,
// one sample per stack group, values, labels and the stack.
func TestPprof(t *testing.T) {
	f, _ := fixtureFindings()
	var buf bytes.Buffer
	if err := Pprof(&buf, f, fixedOptions); err != nil {
		t.Fatal(err)
	}
	p, err := profile.Parse(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.SampleType) != 1+12 || p.SampleType[0].Type != "growth_bytes" || p.SampleType[1].Type != "live_bytes_step_100" ||
		p.SampleType[12].Type != "live_bytes_step_1200" || p.DefaultSampleType != "growth_bytes" {
		var types []string
		for _, st := range p.SampleType {
			types = append(types, st.Type)
		}
		t.Fatalf("sample types %v (default %s)", types, p.DefaultSampleType)
	}
	// 2 devices x 4 groups, and rank 1's group of the suppressed cache
	// suspect.
	if len(p.Sample) != 9 {
		t.Fatalf("%d samples, want 9", len(p.Sample))
	}
	var leak *profile.Sample
	for _, s := range p.Sample {
		if len(s.Label["fingerprint"]) > 0 && s.Label["fingerprint"][0] == "7f3a9c01d2e4b5a6" && s.Label["device"][0] == "rank 1 · cuda:0" {
			leak = s
		}
	}
	if leak == nil {
		t.Fatal("no sample for the planted leak's group on rank 1")
	}
	if want := int64(11 * 48 << 20); leak.Value[0] != want {
		t.Errorf("growth %d, want %d", leak.Value[0], want)
	}
	if leak.Value[1] != 1<<30 || leak.Value[12] != 1<<30+11*48<<20 {
		t.Errorf("live bytes first %d, last %d", leak.Value[1], leak.Value[12])
	}
	if leak.Label["suspect"][0] != "yes" || leak.NumLabel["slope_bytes_per_step"][0] != 48<<20/100 {
		t.Errorf("suspect labels %v %v", leak.Label, leak.NumLabel)
	}
	// The leaf is the user's frame: the torch and allocator frames below
	// it are trimmed.
	if fn := leak.Location[0].Line[0].Function; fn.Name != "train_step" || fn.Filename != "/home/alice/proj/train.py" || leak.Location[0].Line[0].Line != 57 {
		t.Errorf("leaf = %+v line %d, want train_step at train.py:57", fn, leak.Location[0].Line[0].Line)
	}
	if n := len(leak.Location); n != 3 {
		t.Errorf("%d frames, want 3 (6 less the 3 library frames below train_step)", n)
	}
}

// TestPprofTool opens the profile with `go tool pprof -top`, when the go
// command is at hand.
func TestPprofTool(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil || testing.Short() {
		t.Skip("no go command")
	}
	f, _ := fixtureFindings()
	path := filepath.Join(t.TempDir(), "leaks.pb.gz")
	if err := WritePprof(path, f, fixedOptions); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(gobin, "tool", "pprof", "-top", "-sample_index=growth_bytes", path).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof: %v\n%s", err, out)
	}
	// The first row after the header (most flat bytes) is the user's
	// frame, not a torch or allocator frame every stack shares.
	lines := strings.Split(string(out), "\n")
	first := ""
	for i, l := range lines {
		if strings.Contains(l, "flat%") && i+1 < len(lines) {
			first = lines[i+1]
			break
		}
	}
	if !strings.Contains(first, "train_step") || !strings.Contains(string(out), "MB") {
		t.Errorf("pprof -top's first row is %q, want train_step:\n%s", first, out)
	}
	_ = os.Remove(path)
}

func TestPprofEmpty(t *testing.T) {
	var buf bytes.Buffer
	f, _ := fixtureFindings()
	for _, d := range f.Devices {
		d.Groups, d.Suspects = nil, nil
	}
	if err := Pprof(&buf, f, fixedOptions); err != nil {
		t.Fatal(err)
	}
	p, err := profile.Parse(&buf)
	if err != nil || len(p.Sample) != 0 {
		t.Fatalf("%v, %d samples", err, len(p.Sample))
	}
}

// TestPprofSuspectGroup: a suspect's labels go on the group its
// Suspect.Group names, and on no other, whatever the fingerprints say.
func TestPprofSuspectGroup(t *testing.T) {
	for _, tt := range []struct {
		name  string
		group int
		want  string // site of the labelled group
	}{
		{"leak on its group", 0, "train.py:57"},
		{"named by index only", 2, "optim.py:12"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := fixtureFindings()
			d := f.Devices[1]
			d.Suspects = d.Suspects[:1]
			d.Suspects[0].Group = tt.group
			var buf bytes.Buffer
			if err := Pprof(&buf, f, fixedOptions); err != nil {
				t.Fatal(err)
			}
			p, err := profile.Parse(&buf)
			if err != nil {
				t.Fatal(err)
			}
			var labelled []string
			for _, s := range p.Sample {
				if len(s.Label["suspect"]) > 0 {
					labelled = append(labelled, s.Label["site"][0])
				}
			}
			if len(labelled) != 1 || labelled[0] != tt.want {
				t.Errorf("suspect labels on %q, want only %q", labelled, tt.want)
			}
		})
	}
}
