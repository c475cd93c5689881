package roles

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"gpureport/analyze/frames"
	"gpureport/internal/testutil"
	"gpureport/snapshot"
)

// askDirectly answers q for stack s the way the rules once did, frame by
// frame, without masks: the reference the masks must agree with.
func askDirectly(fs []snapshot.Frame, q textQuery) bool {
	spec := textQueries[q]
	for _, f := range fs {
		text := f.Name
		if !frames.IsNative(f) {
			if spec.cpp {
				continue
			}
			text = frames.Path(f.File)
		} else if !spec.cpp {
			continue
		}
		if spec.except != "" && strings.Contains(text, spec.except) {
			continue
		}
		for _, sub := range spec.subs {
			if strings.Contains(text, sub) {
				return true
			}
		}
	}
	return false
}

// checkMasks reads every stack of tab with one shared textMasks (as a
// run's memo does) and each frame read once for all the stacks (as a
// stackCache does), and requires each query's answer to be the direct
// one; it returns how many stacks answered each query yes.
func checkMasks(t *testing.T, name string, tab *snapshot.Stacks) [numTextQueries]int {
	t.Helper()
	var yes [numTextQueries]int
	c := &stackCache{st: tab, masks: newTextMasks()}
	for id := snapshot.StackID(1); int(id) < tab.Len(); id++ {
		fs := tab.StackFrames(id)
		s := c.read(id)
		fresh := readStack(fs)
		// The autograd nodes, kept by frame name, are each frame's own.
		var nodes []string
		for _, f := range fs {
			if node, ok := frames.AutogradNode(f); ok && frames.IsNative(f) {
				nodes = append(nodes, node)
			}
		}
		if !slices.Equal(s.nodes, nodes) || !slices.Equal(fresh.nodes, nodes) {
			t.Errorf("%s: stack %d: nodes %q with shared names, %q fresh, %q frame by frame", name, id, s.nodes, fresh.nodes, nodes)
		}
		// The Python frames and the call site, each frame's own too.
		var py []pyFrame
		var site strings.Builder
		for _, f := range fs {
			if !frames.IsNative(f) {
				py = append(py, pyFrame{file: frames.Path(f.File), name: f.Name})
				fmt.Fprintf(&site, "%s:%d|", f.File, f.Line)
			}
		}
		if !slices.Equal(s.py, py) || !slices.Equal(fresh.py, py) {
			t.Errorf("%s: stack %d: Python frames %v with frames read once, %v fresh, %v frame by frame", name, id, s.py, fresh.py, py)
		}
		if site.Len() > 0 && (s.site != site.String() || fresh.site != site.String()) {
			t.Errorf("%s: stack %d: site %q with frames read once, %q fresh, %q frame by frame", name, id, s.site, fresh.site, site.String())
		}
		for q := range numTextQueries {
			want := askDirectly(fs, q)
			if s.has(q) != want || fresh.has(q) != want {
				t.Errorf("%s: stack %d, query %d: shared masks %v, fresh masks %v, frame by frame %v", name, id, q, s.has(q), fresh.has(q), want)
			}
			if want {
				yes[q]++
			}
		}
	}
	return yes
}

// TestTextMasksAnswerAsFrames checks the text queries' masks against the
// frames read one by one, on stacks made to answer each query yes (and
// on look-alikes that must answer no), and on every stack of the real
// snapshots.
func TestTextMasksAnswerAsFrames(t *testing.T) {
	var tab snapshot.Stacks
	pyf := func(file string) snapshot.Frame { return snapshot.Frame{File: file, Line: 10, Name: "f"} }
	cppf := func(name string) snapshot.Frame { return snapshot.Frame{File: "??", Name: name} }
	var made int
	for _, spec := range textQueries {
		for _, sub := range spec.subs {
			var hit, miss snapshot.Frame
			if spec.cpp {
				hit, miss = cppf("ns::"+sub+"x"), pyf("/x/"+sub+".py")
			} else {
				hit, miss = pyf("/opt/site-packages/"+sub+"x.py"), cppf(sub)
			}
			base := []snapshot.Frame{cppf("c10::Alloc()"), pyf("/home/u/train.py")}
			ids := []snapshot.FrameID{tab.InternFrame(base[0]), tab.InternFrame(hit), tab.InternFrame(base[1])}
			tab.InternStack(ids)
			tab.InternStack([]snapshot.FrameID{tab.InternFrame(base[0]), tab.InternFrame(miss), tab.InternFrame(base[1])})
			made++
			if spec.except != "" {
				// A frame holding both the substring and the exception
				// answers no.
				var both snapshot.Frame
				if spec.cpp {
					both = cppf(sub + spec.except)
				} else {
					both = pyf("/x/" + sub + spec.except)
				}
				tab.InternStack([]snapshot.FrameID{tab.InternFrame(both)})
			}
		}
	}
	yes := checkMasks(t, "made", &tab)
	for q := range numTextQueries {
		if yes[q] == 0 {
			t.Errorf("made stacks: query %d never answered yes", q)
		}
	}
	if made == 0 {
		t.Fatal("no stacks made")
	}

	files := testutil.RealFiles(t, "snapshots", "*.pickle", "*.pkl")
	var total [numTextQueries]int
	for _, f := range files {
		s, _, err := snapshot.DecodeFile(f, snapshot.DecodeOptions{})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		y := checkMasks(t, f, &s.Stacks)
		for q := range y {
			total[q] += y[q]
		}
	}
	t.Logf("real snapshots: stacks answering each query yes: %s", fmt.Sprint(total))
}
