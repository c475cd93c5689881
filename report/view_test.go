package report

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"gpureport/analyze"
	"gpureport/ingest"
	"gpureport/snapshot"
)

// TestProjectionText: wherever a projection is shown it says the
// wall-clock time left when the run's pace is known, even far beyond the
// run's length (a sample run's leak that fills the device in 45 minutes
// once read "does not reach 22.0 GiB within 10× the run's length"), and
// names the limit it projects against.
func TestProjectionText(t *testing.T) {
	basis := "22.5 GiB device memory (GPU log memory.total) minus 512 MiB outside the allocator"
	cases := []struct {
		name    string
		per     string
		p       analyze.Projection
		want    []string
		mustNot []string
	}{
		{"beyond the horizon, pace known", "step",
			analyze.Projection{Capacity: 22 << 30, Basis: basis, Remaining: 3327, RemainingLo: 3318, RemainingHi: 3335, Hours: 0.7437, HoursLo: 0.742, HoursHi: 0.746, Beyond: true, ExtrapolationRuns: 10},
			[]string{"reaches 22.0 GiB in about 45 min at the run's pace", "3,327 steps at this rate", "long extrapolation", "limit: " + basis},
			[]string{"does not reach", "45 min to 45 min"}},
		{"within the run, hours interval", "step",
			analyze.Projection{Capacity: 40 << 30, Basis: "40.0 GiB --capacity", Remaining: 41567, RemainingLo: 37788, RemainingHi: 46185, Hours: 69.4, HoursLo: 62.9, HoursHi: 77.0, ExtrapolationRuns: 10},
			[]string{"in about 2.89 days at the run's pace (95% CI 2.62 days to 3.21 days; 41,567 steps at this rate)", "limit: 40.0 GiB --capacity"},
			[]string{"extrapolation"}},
		{"pace unknown", "step",
			analyze.Projection{Capacity: 80 << 30, Remaining: 1200, RemainingLo: 1000, RemainingHi: math.Inf(1), ExtrapolationRuns: 10},
			[]string{"reaches 80.0 GiB in about 1,200 steps (95% CI 1,000 steps to never; the run's pace in time is unknown)"},
			[]string{"at the run's pace", ") ("}},
		{"hour axis", "hour",
			analyze.Projection{Capacity: 80 << 30, Remaining: 3.5, RemainingLo: 3, RemainingHi: 4, ExtrapolationRuns: 10},
			[]string{"reaches 80.0 GiB in about 3.50 hours", "95% CI 3.00 hours to 4.00 hours"}, nil},
		{"already over", "step",
			analyze.Projection{Capacity: 80 << 30, Basis: basis, Remaining: 0},
			[]string{"already at or over the limit (80.0 GiB); limit: " + basis}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.p
			tr := &analyze.Trend{Per: analyze.Axis(c.per), Verdict: analyze.VerdictGrowing, Projection: &p}
			got := projectionText(tr, 100)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q\nlacks %q", got, w)
				}
			}
			for _, w := range c.mustNot {
				if strings.Contains(got, w) {
					t.Errorf("%q\nhas %q", got, w)
				}
			}
		})
	}
	if got := projectionText(nil, 0); got != "" {
		t.Errorf("nil trend: %q", got)
	}
}

// TestCounted: a count of one takes the singular noun; counts have
// thousands separators.
func TestCounted(t *testing.T) {
	if got := counted(1, "event"); got != "1 event" {
		t.Errorf("counted(1) = %q", got)
	}
	if got := counted(1000, "event"); got != "1,000 events" {
		t.Errorf("counted(1000) = %q", got)
	}
}

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
			f.Notes = append(f.Notes, fmt.Sprintf("rank %d: trace window incomplete", i))
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
	stack := []snapshot.Frame{{Name: "a"}, {Name: "b"}, {Name: "train_step"}, {Name: "main"}, {Name: "c"}}
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

// summaryProseKeys are the summary.json keys whose strings are sentences
// for a reader (the rest are names, paths and enumerations).
var summaryProseKeys = map[string]bool{
	"reason": true, "reasons": true, "explanation": true, "evidence": true, "notes": true,
	"headline": true,
}

// TestSummarySentencesFlat: analyze composes its sentences flat, as the
// writers show them unchanged: no sentence in the golden summary.json
// files (the sample run's, the fixture's and the logs-only fixture's) has
// doubled parentheses, parentheses back to back or inside parentheses, or
// a "(s)" plural. A call such as empty_cache() is code, not a parenthesis.
func TestSummarySentencesFlat(t *testing.T) {
	files := []string{
		filepath.Join("testdata", "golden", "summary.json"),
		filepath.Join("testdata", "golden", "logs-only", "summary.json"),
		filepath.Join("..", "testdata", "golden", "sample-run", "summary.json"),
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		n := 0
		var walk func(v any, key string)
		walk = func(v any, key string) {
			switch v := v.(type) {
			case map[string]any:
				for k, x := range v {
					walk(x, k)
				}
			case []any:
				for _, x := range v {
					walk(x, key)
				}
			case string:
				if summaryProseKeys[key] {
					n++
					if why := parenFlaw(v); why != "" {
						t.Errorf("%s: %s %s:\n%s", file, key, why, v)
					}
				}
			}
		}
		walk(doc, "")
		if n == 0 {
			t.Errorf("%s: no sentences found", file)
		}
	}
}

// parenFlaws are what a flat sentence never has: a parenthesis opened
// inside another (or doubled), parentheses back to back or closing twice,
// and a "(s)" plural.
var parenFlaws = []*regexp.Regexp{
	regexp.MustCompile(`\([^()]*\(`),
	regexp.MustCompile(`\)\s?\(`),
	regexp.MustCompile(`\)\)`),
	regexp.MustCompile(`\w\(s\)`),
}

// parenFlaw returns the first flaw of s's parentheses, "" when it reads
// flat. A call such as empty_cache() is code, not a parenthesis.
func parenFlaw(s string) string {
	s = strings.ReplaceAll(s, "()", "")
	for _, re := range parenFlaws {
		if m := re.FindString(s); m != "" {
			return "has " + m
		}
	}
	return ""
}

func TestParenFlaw(t *testing.T) {
	for s, bad := range map[string]bool{
		"grows +1.00 MiB/step (95% CI +0.90 to +1.10 MiB), p<0.001": false,
		"a (b; c), d (e)":                       false,
		"(empty_cache() or garbage collection)": false,
		"a (b (c))":                             true,
		"a (b) (c)":                             true,
		"x ((y)":                                true,
		"1 suspect(s)":                          true,
	} {
		if got := parenFlaw(s) != ""; got != bad {
			t.Errorf("parenFlaw(%q) = %q, want flawed %v", s, parenFlaw(s), bad)
		}
	}
}

// TestNextStepsLockstep: when the top suspect's site grows in lockstep
// with others, "What to try next" points at what the training loop keeps
// from every step, naming the sites; otherwise at the top site.
func TestNextStepsLockstep(t *testing.T) {
	findings := func(lockstep []int) *analyze.Findings {
		d := &analyze.Device{DeviceKey: analyze.DeviceKey{Rank: -1}}
		for j := range 7 {
			d.Suspects = append(d.Suspects, analyze.Suspect{Site: fmt.Sprintf("model.py:%d", 80+j), Function: "forward", Fingerprint: fmt.Sprintf("%012d", j)})
			d.LeakSites = append(d.LeakSites, analyze.LeakSite{Site: d.Suspects[j].Site, Function: "forward", Suspects: []int{j}})
		}
		d.Lockstep = lockstep
		f := &analyze.Findings{Devices: []*analyze.Device{d}}
		f.Verdict.Leak = true
		for j := range d.Suspects {
			f.Verdict.Suspects = append(f.Verdict.Suspects, analyze.SuspectRef{DeviceKey: d.DeviceKey, Index: j})
		}
		return f
	}
	tests := []struct {
		name     string
		lockstep []int
		want     string
	}{
		{"seven in lockstep", []int{0, 1, 2, 3, 4, 5, 6}, "7 leak sites grow in lockstep (`model.py:80`, `model.py:81`, `model.py:82`, `model.py:83`, `model.py:84`, and 2 more)"},
		{"lockstep without the top site", []int{1, 2, 3}, "Look at `model.py:80` in `forward`"},
		{"none", nil, "Look at `model.py:80` in `forward`"},
	}
	for _, tt := range tests {
		f := findings(tt.lockstep)
		steps := strings.Join(nextSteps(f, buildView(f)), "\n")
		if !strings.Contains(steps, tt.want) {
			t.Errorf("%s: next steps %q, want %q", tt.name, steps, tt.want)
		}
	}
}

// TestNextStepsFragmentation: the fragmentation flag advises expandable
// segments once (not again beside an OOM's recommendation of the same
// setting), and not at all where every fragmented device already used
// them: there it names what is left to try.
func TestNextStepsFragmentation(t *testing.T) {
	expandableOn := func(f *analyze.Findings) {
		for _, d := range f.Devices {
			if d.Fragmentation != nil {
				d.Fragmentation.Expandable = true
			}
		}
		for i := range f.OOMs {
			f.OOMs[i].Expandable = true
			f.OOMs[i].Recommendations = slices.DeleteFunc(f.OOMs[i].Recommendations, func(r analyze.Recommendation) bool {
				return r.Setting == analyze.ExpandableSetting
			})
		}
	}
	noOOMs := func(f *analyze.Findings) { f.OOMs = nil }
	tests := []struct {
		name       string
		change     []func(*analyze.Findings)
		expandable int // lines that advise expandable segments
		already    bool
	}{
		{"an OOM recommends them too", nil, 1, false},
		{"the flag alone", []func(*analyze.Findings){noOOMs}, 1, false},
		{"already on", []func(*analyze.Findings){expandableOn}, 0, true},
		{"already on, no OOM", []func(*analyze.Findings){noOOMs, expandableOn}, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := fixtureFindings()
			for _, c := range tt.change {
				c(f)
			}
			if !f.Verdict.Fragmentation {
				t.Fatal("fixture without the fragmentation flag")
			}
			steps := nextSteps(f, buildView(f))
			n := 0
			for _, s := range steps {
				if strings.Contains(s, analyze.ExpandableSetting) {
					n++
				}
			}
			joined := strings.Join(steps, "\n")
			if n != tt.expandable {
				t.Errorf("%d lines advise %s, want %d:\n%s", n, analyze.ExpandableSetting, tt.expandable, joined)
			}
			if got := strings.Contains(joined, "expandable segments already on"); got != tt.already {
				t.Errorf("says expandable segments are already on: %v, want %v:\n%s", got, tt.already, joined)
			}
		})
	}
}

// TestNextStepsNativeSite: a leak site with C++ frames only is not sent
// to a Python line: an autograd node's site points at gradients kept
// beyond the step, an operator's at recording Python stacks.
func TestNextStepsNativeSite(t *testing.T) {
	for _, tt := range []struct {
		site    string
		kind    analyze.SiteKind
		want    string
		wantNot string
	}{
		{"MulBackward0 (autograd)", analyze.SiteNative, "autograd's backward pass makes at `MulBackward0 (autograd)`", "Look at"},
		{"aten::linear", analyze.SiteNative, "C++ frames only", "autograd's backward"},
		{"train.py:57", analyze.SiteUser, "Look at `train.py:57`", "C++ frames"},
	} {
		d := &analyze.Device{DeviceKey: analyze.DeviceKey{Rank: -1}}
		d.Groups = []analyze.Group{{Signature: analyze.Signature{Site: tt.site, Function: "fn", Kind: tt.kind}}}
		d.Suspects = []analyze.Suspect{{Site: tt.site, Function: "fn", Fingerprint: "000000000001", Group: 0}}
		d.LeakSites = []analyze.LeakSite{{Site: tt.site, Function: "fn", Suspects: []int{0}}}
		f := &analyze.Findings{Devices: []*analyze.Device{d}}
		f.Verdict.Leak = true
		f.Verdict.Suspects = []analyze.SuspectRef{{DeviceKey: d.DeviceKey, Index: 0}}
		steps := strings.Join(nextSteps(f, buildView(f)), "\n")
		if !strings.Contains(steps, tt.want) || strings.Contains(steps, tt.wantNot) {
			t.Errorf("%s: next steps %q, want %q and not %q", tt.site, steps, tt.want, tt.wantNot)
		}
	}
}

// TestNextStepsStacklessLeak: a leak without a site says how to record
// the stacks that would name it: history at all when no live bytes carry
// stacks, stacks="all" when some do (the backward thread's have none
// under the default stacks="python").
func TestNextStepsStacklessLeak(t *testing.T) {
	for _, tt := range []struct {
		name      string
		withStack float64
		growing   bool
		want      string
	}{
		{"no stacks at all", 0, true, "carries no stacks"},
		{"some stacks", 0.6, true, "autograd's backward thread"},
		{"stackless memory flat", 0.6, false, ""},
	} {
		d := &analyze.Device{DeviceKey: analyze.DeviceKey{Rank: -1}}
		verdict := analyze.VerdictFlat
		if tt.growing {
			verdict = analyze.VerdictGrowing
		}
		d.Coverage = analyze.Coverage{MinLiveWithStack: tt.withStack, NoStackTrend: &analyze.Trend{Verdict: verdict}}
		f := &analyze.Findings{Devices: []*analyze.Device{d}}
		f.Verdict.Leak = tt.growing
		steps := strings.Join(nextSteps(f, buildView(f)), "\n")
		if tt.want == "" {
			if strings.Contains(steps, "_record_memory_history") {
				t.Errorf("%s: next steps %q advise recording stacks", tt.name, steps)
			}
			continue
		}
		if !strings.Contains(steps, tt.want) || !strings.Contains(steps, `stacks="all"`) {
			t.Errorf("%s: next steps %q, want %q and stacks=\"all\"", tt.name, steps, tt.want)
		}
	}
}

// TestNextStepsOutsideOwner: growth outside the allocator that the
// per-process readings put in other processes is not sent to NCCL or
// cuBLAS: the next step names the GPU's other processes.
func TestNextStepsOutsideOwner(t *testing.T) {
	for _, tt := range []struct {
		owner analyze.OutsideOwner
		want  string
	}{
		{analyze.OwnerOthers, "grows in other processes on the same GPU (cuda:0), not in this run"},
		{analyze.OwnerRun, "NCCL buffers"},
		{analyze.OwnerUnknown, "NCCL buffers"},
	} {
		d := &analyze.Device{DeviceKey: analyze.DeviceKey{Rank: -1}, Reconciliation: &analyze.Reconciliation{OutsideLeak: true, Owner: tt.owner}}
		f := &analyze.Findings{Devices: []*analyze.Device{d}}
		f.Verdict.OutsideAllocatorLeak = true
		steps := strings.Join(nextSteps(f, buildView(f)), "\n")
		if !strings.Contains(steps, tt.want) {
			t.Errorf("owner %q: next steps %q, want %q", tt.owner, steps, tt.want)
		}
	}
}
