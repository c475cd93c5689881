package report

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpureport/analyze"
	"gpureport/ingest"
)

// TestNotesAfterKeyFigures: a multi-rank run with many notes opens with
// the verdict and the key figures; the notes follow, folded, with their
// count. A few notes stay open.
func TestNotesAfterKeyFigures(t *testing.T) {
	for _, tt := range []struct {
		notes int
		open  bool
	}{{36, false}, {2, true}} {
		f, _ := fixtureFindings()
		f.Notes = nil
		for i := range tt.notes {
			f.Notes = append(f.Notes, analyze.Note{Kind: analyze.NoteText, Text: fmt.Sprintf("rank %d: trace window incomplete", i)})
		}
		opt := fixedOptions
		page, err := HTML(f, opt)
		if err != nil {
			t.Fatal(err)
		}
		s := string(page)
		v, fig, n := strings.Index(s, `id="verdict"`), strings.Index(s, `id="figures"`), strings.Index(s, `id="notes"`)
		if v < 0 || fig < 0 || n < 0 || !(v < fig && fig < n) {
			t.Errorf("%d notes: verdict at %d, key figures at %d, notes at %d; want that order", tt.notes, v, fig, n)
		}
		details := s[n:min(len(s), n+200)]
		if isOpen := strings.Contains(details, "<details open>"); isOpen != tt.open {
			t.Errorf("%d notes: open %v, want %v: %s", tt.notes, isOpen, tt.open, details)
		}
		if want := fmt.Sprintf("Notes (%d)", tt.notes); !strings.Contains(details, want) {
			t.Errorf("%d notes: no count %q in %s", tt.notes, want, details)
		}
	}
}

// TestSegmentMapProportionalAndSuspect: on the sample run, segment bars
// are as long as their segments (the largest 100%, others less) and the
// leaking site's blocks are marked.
func TestSegmentMapProportionalAndSuspect(t *testing.T) {
	dir := filepath.Join("..", "testdata", "sample-run")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no testdata/sample-run")
	}
	run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	f := analyze.Analyze(run, analyze.Options{})
	if len(f.Devices) == 0 || len(f.Devices[0].Suspects) == 0 {
		t.Fatal("the sample run has no suspect")
	}
	m := buildSegmentMap(f.Devices[0])
	if m == nil || len(m.Segments) < 2 {
		t.Fatal("no segment map")
	}
	widths := map[string]bool{}
	suspect := 0
	for _, sg := range m.Segments {
		widths[sg.Width] = true
		for _, b := range sg.Blocks {
			if strings.Contains(b.Class, "b-suspect") {
				suspect++
				if !strings.Contains(b.Title, "leak suspect: train.py:57") {
					t.Errorf("suspect block title %q", b.Title)
				}
			}
		}
	}
	if !widths["100.000%"] || len(widths) < 2 {
		t.Errorf("segment widths %v: want the largest at 100%% and smaller ones shorter", widths)
	}
	if suspect == 0 {
		t.Error("no block of the suspect is marked")
	}
}

// TestStackNumbering: frames keep one numbering across folded library
// parts (the page lists them with these numbers), 1 = innermost.
func TestStackNumbering(t *testing.T) {
	stack := []analyze.Frame{{Name: "a"}, {Name: "b"}, {Name: "train_step"}, {Name: "main"}, {Name: "c"}}
	parts, _ := foldStack(stack, []bool{false, false, true, true, false})
	n := 0
	for _, p := range parts {
		for _, fr := range p.Frames {
			n++
			if fr.N != n {
				t.Errorf("frame %q numbered %d, want %d", fr.Text, fr.N, n)
			}
		}
	}
	if n != len(stack) {
		t.Errorf("%d frames listed, want %d", n, len(stack))
	}
}
