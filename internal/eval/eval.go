// Package eval scores the analysis's verdicts against a labelled
// corpus (the project's generator writes one: `go run ./internal/gen
// corpus -o DIR` makes DIR/<case>/ run directories and DIR/labels.json)
// and prints the scores. It is the one place of the evaluation: the eval
// subcommand only loads and analyses the cases and calls it.
//
// Each verdict flag (leak, outside_allocator_leak, fragmentation, oom) is
// scored as a binary classifier over all cases: precision = TP / (TP +
// FP) and recall = TP / (TP + FN), where a positive is a case whose
// verdict raises the flag. When nothing is predicted positive precision is
// 1 (no false alarm was raised), and when nothing is labelled positive
// recall is 1. Top-1 site accuracy is the share of leak-labelled cases
// whose first verdict suspect's site (basename:line) is one of the planted
// leak sites (a missed leak counts as a miss). The OOM cause (docs/design.md:
// leak, fragmentation, capacity, limit) is scored as a 5x5 confusion matrix
// with "none" for no OOM label or no cause given. A suspect whose own 95%
// interval includes 0 or excludes its estimate is counted as a bad
// interval: docs/design.md forbids both.
package eval

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gpureport/analyze"
	"gpureport/internal/labels"
	"gpureport/report/words"
)

// Targets for the evaluation, on a corpus of fresh seeds (seeds the rules
// were not tuned on).
const (
	// TargetPrecision and TargetRecall are the least leak precision and
	// recall (ratios).
	TargetPrecision = 0.97
	TargetRecall    = 0.97
	// TargetTop1 is the least share of leak cases whose top suspect is at
	// the planted site.
	TargetTop1 = 0.95
	// TargetFragmentation is the least share of cases whose fragmentation
	// flag is right.
	TargetFragmentation = 0.95
	// TargetCause is the least share of OOM-labelled cases whose OOM cause
	// is right.
	TargetCause = 0.95
	// TargetBadIntervals is the most suspects whose own interval includes 0
	// or excludes the estimate (none).
	TargetBadIntervals = 0
)

// Labels is a corpus's labels.json.
type Labels = labels.File[LabelCase]

// LabelCase is one labelled run of the corpus.
type LabelCase struct {
	labels.Case
	// Truth holds the generator's measurements; only the parts the
	// evaluation breaks scores down by are read.
	Truth Truth `json:"truth"`
}

// Truth is the part of a label's truth the evaluation reads.
type Truth struct {
	// Ranks is the number of processes.
	Ranks int `json:"ranks"`
	// Phase is the periodic dumps' point in the step.
	Phase string `json:"phase"`
	// EmptyCacheEvery is the empty_cache() period in steps (0: never).
	EmptyCacheEvery int `json:"empty_cache_every"`
	// DevicesOfRun is the number of (rank, device) pairs with segments;
	// GPUMap the nvidia-smi index of each rank's device. Absent (0, nil)
	// in labels written before they existed.
	DevicesOfRun int   `json:"devices_of_run"`
	GPUMap       []int `json:"gpu_map"`
	// Knobs are the case's variations (internal/gen/train/knobs.go).
	Knobs struct {
		SeqDist     string `json:"seq_dist"`
		Naming      string `json:"naming"`
		FileTimes   string `json:"file_times"`
		OOMDump     string `json:"oom_dump"`
		NodeGPUs    int    `json:"node_gpus"`
		VisibleGPUs int    `json:"visible_gpus"`
		GPUMap      []int  `json:"gpu_map"`
		Guise       string `json:"guise"`
	} `json:"knobs"`
}

// Knob is one variation a case was drawn with, for the per-knob table.
type Knob struct {
	// Name is the knob ("naming"), Value its value here ("epoch").
	Name, Value string
}

// Knobs returns the variations of a case that the per-knob table breaks
// scores down by (none for labels written before the knobs existed).
func (c *LabelCase) Knobs() []Knob {
	k := c.Truth.Knobs
	if k.Naming == "" {
		return nil
	}
	var out []Knob
	add := func(name, value string) {
		if value != "" {
			out = append(out, Knob{name, value})
		}
	}
	add("phase", c.Truth.Phase)
	add("seq_dist", k.SeqDist)
	add("naming", k.Naming)
	add("file_times", k.FileTimes)
	if c.Expect.OOM {
		add("oom_dump", k.OOMDump)
	}
	gpu := "own GPUs"
	switch {
	case len(k.GPUMap) > 0:
		gpu = "remapped (CUDA_VISIBLE_DEVICES)"
	case k.VisibleGPUs > max(c.Truth.Ranks, 1):
		gpu = "extra visible GPUs"
	case k.NodeGPUs > max(c.Truth.Ranks, 1):
		gpu = "other GPUs in log"
	}
	add("gpus", gpu)
	ec := "no"
	if c.Truth.EmptyCacheEvery > 0 {
		ec = "yes"
	}
	add("empty_cache", ec)
	add("guise", k.Guise)
	return out
}

// Flags are the four verdict flags and the OOM cause.
type Flags = labels.Flags

// FlagNames returns the flags' labels.json names in report order.
func FlagNames() [4]string {
	return [4]string{"leak", "outside_allocator_leak", "fragmentation", "oom"}
}

// flagAt returns flag i of FlagNames() in f.
func flagAt(f Flags, i int) bool {
	return [4]bool{f.Leak, f.OutsideAllocatorLeak, f.Fragmentation, f.OOM}[i]
}

// numCauses is the number of rows and columns of the OOM cause matrix.
const numCauses = 5

// CauseNames are the rows and columns of the OOM cause matrix: docs/design.md's
// four causes (limit: the device had the memory free, yet a cap on the
// process refused it), then "none" (no OOM label, or no cause given).
func CauseNames() [numCauses]string {
	return [numCauses]string{string(analyze.CauseLeak), string(analyze.CauseFragmentation), string(analyze.CauseCapacity), string(analyze.CauseLimit), "none"}
}

// causeIndex returns a cause's row or column; an unknown cause counts as
// none.
func causeIndex(c string) int {
	names := CauseNames()
	for i, n := range names[:numCauses-1] {
		if c == n {
			return i
		}
	}
	return numCauses - 1
}

// ParseLabels parses labels.json; name is used in errors.
func ParseLabels(name string, data []byte) (*Labels, error) {
	var l Labels
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(l.Cases) == 0 {
		return nil, fmt.Errorf("%s: no cases", name)
	}
	seen := map[string]bool{}
	for i, c := range l.Cases {
		if c.Name == "" {
			return nil, fmt.Errorf("%s: cases[%d] has no name", name, i)
		}
		if seen[c.Name] {
			return nil, fmt.Errorf("%s: case %q appears twice", name, c.Name)
		}
		seen[c.Name] = true
	}
	return &l, nil
}

// CaseResult is what the analysis said about one case.
type CaseResult struct {
	// Case is the case name.
	Case string `json:"case"`
	// Got holds the verdict flags and the first OOM's cause.
	Got Flags `json:"got"`
	// TopSite and TopRank are the first verdict suspect's site and rank
	// ("" and -1 without suspects).
	TopSite string `json:"top_site"`
	TopRank int    `json:"top_rank"`
	// Suspects counts the unsuppressed leak suspects of every device;
	// BadIntervals those whose 95% interval includes 0 or excludes the
	// estimate, described in BadIntervalSites ("train.py:57: 0 B to 0 B
	// per step, estimate 12 B").
	Suspects         int      `json:"suspects"`
	BadIntervals     int      `json:"bad_intervals"`
	BadIntervalSites []string `json:"bad_interval_sites,omitempty"`
	// ShortHourRates counts the trends (device metrics and suspects) given
	// per hour from less than MinHourSpan of data: docs/design.md forbids
	// per-hour rates from seconds of data (copied file times).
	ShortHourRates int `json:"short_hour_rates"`
	// SnapshotDevices counts the devices with snapshot points; Joins
	// says which nvidia-smi GPU each was joined to.
	SnapshotDevices int    `json:"snapshot_devices"`
	Joins           []Join `json:"joins,omitempty"`
	// Headline is the verdict's headline, for the misclassified list.
	Headline string `json:"headline"`
	// Err is set when the case could not be analysed (it then counts as
	// all flags false).
	Err string `json:"error,omitempty"`
}

// MinHourSpan is the least span of data, in hours, a per-hour rate may
// rest on in this evaluation: one minute. Below it a rate per hour is an
// extrapolation of seconds (file times from a copy), whatever its
// interval says.
const MinHourSpan = 1.0 / 60

// shortHour reports whether t is a per-hour rate from less than
// MinHourSpan of data.
func shortHour(t analyze.Trend) bool {
	return t.Per == "hour" && t.N >= 2 && math.Abs(t.FitX1-t.FitX0) < MinHourSpan
}

// Join is the GPU-log join of one snapshot device.
type Join struct {
	// Rank is the device's rank (0 when the paths give none); Device its
	// CUDA index; GPU the nvidia-smi index it was joined to, -1 when none
	// (or the join's description names no index).
	Rank, Device, GPU int
}

// ResultOf extracts a case result from Findings.
func ResultOf(name string, f *analyze.Findings) CaseResult {
	r := CaseResult{Case: name, TopRank: -1, Headline: words.Headline(f), Got: Flags{
		Leak: f.Verdict.Leak, OutsideAllocatorLeak: f.Verdict.OutsideAllocatorLeak,
		Fragmentation: f.Verdict.Fragmentation, OOM: f.Verdict.OOM,
	}}
	if c := f.Verdict.OOMCauses; len(c) > 0 {
		r.Got.OOMCause = string(c[0])
	}
	if len(f.Verdict.Suspects) > 0 {
		if sp := f.Suspect(f.Verdict.Suspects[0]); sp != nil {
			r.TopSite = sp.Site
			r.TopRank = f.Verdict.Suspects[0].Rank
		}
	}
	for _, d := range f.Devices {
		if len(d.Points) > 0 {
			r.SnapshotDevices++
			j := Join{Rank: max(d.Rank, 0), Device: d.Device, GPU: -1}
			if d.GPU != nil {
				j.GPU = d.GPUIndex
			}
			r.Joins = append(r.Joins, j)
		}
		for _, t := range d.Trends {
			if shortHour(t) {
				r.ShortHourRates++
			}
		}
		for _, s := range d.Suspects {
			if s.Suppressed != "" {
				continue
			}
			if shortHour(s.Trend) {
				r.ShortHourRates++
			}
			r.Suspects++
			if bad, why := BadInterval(s.Trend); bad {
				r.BadIntervals++
				r.BadIntervalSites = append(r.BadIntervalSites, s.Site+": "+why)
			}
		}
	}
	return r
}

// BadInterval reports whether a suspect's trend breaks docs/design.md's rule
// for leak suspects (a 95% interval that excludes 0 and contains the
// estimate), and says how.
func BadInterval(t analyze.Trend) (bool, string) {
	per := t.Per
	if per == "" {
		per = "point"
	}
	iv := fmt.Sprintf("interval %.4g to %.4g B per %s, estimate %.4g", t.Lo, t.Hi, per, t.Slope)
	switch {
	case math.IsNaN(t.Slope) || math.IsNaN(t.Lo) || math.IsNaN(t.Hi):
		return true, "no interval: " + iv
	case t.Lo <= 0:
		return true, "includes 0: " + iv
	case t.Slope < t.Lo || t.Slope > t.Hi:
		return true, "excludes its estimate: " + iv
	}
	return false, ""
}

// Confusion is a binary confusion matrix with its rates.
type Confusion struct {
	// TP, FP, FN and TN count true and false positives and negatives.
	TP, FP, FN, TN int
	// Precision and Recall as defined in the package comment.
	Precision, Recall float64
}

func (c *Confusion) add(want, got bool) {
	switch {
	case want && got:
		c.TP++
	case !want && got:
		c.FP++
	case want && !got:
		c.FN++
	default:
		c.TN++
	}
}

func (c *Confusion) finish() {
	c.Precision, c.Recall = 1, 1
	if c.TP+c.FP > 0 {
		c.Precision = float64(c.TP) / float64(c.TP+c.FP)
	}
	if c.TP+c.FN > 0 {
		c.Recall = float64(c.TP) / float64(c.TP+c.FN)
	}
}

// Right returns the cases the flag got right, and all cases.
func (c Confusion) Right() (int, int) { return c.TP + c.TN, c.TP + c.TN + c.FP + c.FN }

// Score is the evaluation of a set of cases (one scenario, one knob value,
// or all).
type Score struct {
	// Name is the scenario, "knob=value", or "overall".
	Name string
	// Cases counts the cases scored.
	Cases int
	// Flags are the confusion matrices of the four flags, in FlagNames()
	// order; Flags[0] is leak detection.
	Flags [4]Confusion
	// Cause is the OOM cause matrix: Cause[labelled][analysis], indices in
	// CauseNames() order.
	Cause [numCauses][numCauses]int
	// OOMCases counts OOM-labelled cases, CauseHits those whose cause is
	// right.
	OOMCases, CauseHits int
	// Correct counts cases whose four flags and OOM cause are all right.
	Correct int
	// LeakCases counts leak-labelled cases, SiteHits those whose top
	// suspect site is a planted site, Top1 their ratio (NaN without leak
	// cases).
	LeakCases, SiteHits int
	Top1                float64
	// RankCases counts leak cases with a leak_rank, RankHits those whose
	// top suspect is on that rank.
	RankCases, RankHits int
	// Suspects counts unsuppressed suspects, BadIntervals those whose own
	// interval includes 0 or excludes the estimate.
	Suspects, BadIntervals int
	// ShortHourRates counts per-hour rates from under MinHourSpan of data.
	ShortHourRates int
	// DeviceCases counts cases whose labels give the devices of the run,
	// DeviceHits those whose snapshot devices are exactly that many.
	DeviceCases, DeviceHits int
	// JoinCases counts cases whose labels give the GPU map, JoinHits those
	// whose every snapshot device of a labelled rank was joined to its
	// rank's nvidia-smi GPU.
	JoinCases, JoinHits int
}

// Miss is a misclassified case.
type Miss struct {
	// Case and Scenario name the case.
	Case, Scenario string
	// Wrong lists what was wrong: flags ("leak: got true, want false"),
	// the cause, the site ("top site model.py:88, want train.py:57") and
	// bad intervals.
	Wrong []string
	// Headline is the verdict's headline.
	Headline string
}

// Evaluation is the result of Evaluate.
type Evaluation struct {
	// Seed is the corpus seed.
	Seed uint64
	// Overall scores every case; ByScenario each scenario, sorted by name;
	// ByKnob each knob value (Name "knob=value"), sorted by knob, then
	// value.
	Overall    Score
	ByScenario []Score
	ByKnob     []Score
	// Misses lists the misclassified cases in label order.
	Misses []Miss
	// Missing lists labelled cases without a result.
	Missing []string
	// TargetsMet is true when every target of the package constants is
	// reached and every case has a result.
	TargetsMet bool
}

// Evaluate scores results against labels.
func Evaluate(labels *Labels, results []CaseResult) *Evaluation {
	byCase := map[string]CaseResult{}
	for _, r := range results {
		byCase[r.Case] = r
	}
	ev := &Evaluation{Seed: labels.Seed, Overall: Score{Name: "overall"}}
	scen := map[string]*Score{}
	knobs := map[string]*Score{}
	for _, c := range labels.Cases {
		r, ok := byCase[c.Name]
		if !ok {
			ev.Missing = append(ev.Missing, c.Name)
			r = CaseResult{Case: c.Name, TopRank: -1, Err: "no result"}
		}
		s := scen[c.Scenario]
		if s == nil {
			s = &Score{Name: c.Scenario}
			scen[c.Scenario] = s
		}
		scores := []*Score{s, &ev.Overall}
		for _, k := range c.Knobs() {
			name := k.Name + "=" + k.Value
			ks := knobs[name]
			if ks == nil {
				ks = &Score{Name: name}
				knobs[name] = ks
			}
			scores = append(scores, ks)
		}
		wrong := score(scores, c, r)
		if len(wrong) > 0 {
			ev.Misses = append(ev.Misses, Miss{Case: c.Name, Scenario: c.Scenario, Wrong: wrong, Headline: r.Headline})
		}
	}
	finish := func(s *Score) {
		for i := range s.Flags {
			s.Flags[i].finish()
		}
		s.Top1 = math.NaN()
		if s.LeakCases > 0 {
			s.Top1 = float64(s.SiteHits) / float64(s.LeakCases)
		}
	}
	finish(&ev.Overall)
	for _, s := range scen {
		finish(s)
		ev.ByScenario = append(ev.ByScenario, *s)
	}
	for _, s := range knobs {
		finish(s)
		ev.ByKnob = append(ev.ByKnob, *s)
	}
	slices.SortFunc(ev.ByScenario, func(a, b Score) int { return cmp.Compare(a.Name, b.Name) })
	slices.SortFunc(ev.ByKnob, func(a, b Score) int { return cmp.Compare(a.Name, b.Name) })
	o := ev.Overall
	fragRight, all := o.Flags[2].Right()
	ev.TargetsMet = o.Flags[0].Precision >= TargetPrecision && o.Flags[0].Recall >= TargetRecall &&
		(o.LeakCases == 0 || o.Top1 >= TargetTop1) &&
		float64(fragRight) >= TargetFragmentation*float64(all) &&
		float64(o.CauseHits) >= TargetCause*float64(o.OOMCases) &&
		o.BadIntervals <= TargetBadIntervals && len(ev.Missing) == 0
	return ev
}

// score adds case c's result r to every score in scores and returns what
// was wrong.
func score(scores []*Score, c LabelCase, r CaseResult) []string {
	var wrong []string
	if r.Err != "" {
		wrong = append(wrong, "error: "+r.Err)
	}
	for i, name := range FlagNames() {
		want, got := flagAt(c.Expect, i), flagAt(r.Got, i)
		for _, sc := range scores {
			sc.Flags[i].add(want, got)
		}
		if want != got {
			wrong = append(wrong, fmt.Sprintf("%s: got %v, want %v", name, got, want))
		}
	}
	wantCause, gotCause := "", ""
	if c.Expect.OOM {
		wantCause = c.Expect.OOMCause
	}
	if r.Got.OOM {
		gotCause = r.Got.OOMCause
	}
	wi, gi := causeIndex(wantCause), causeIndex(gotCause)
	if c.Expect.OOM && wi != gi {
		wrong = append(wrong, fmt.Sprintf("oom cause: got %s, want %s", CauseNames()[gi], CauseNames()[wi]))
	}
	allRight := len(wrong) == 0
	devCase, devHit := c.Truth.DevicesOfRun > 0 && r.Err == "", r.SnapshotDevices == c.Truth.DevicesOfRun
	if devCase && !devHit {
		wrong = append(wrong, fmt.Sprintf("devices: %d with snapshots, want %d", r.SnapshotDevices, c.Truth.DevicesOfRun))
	}
	joinCase, joinHit := len(c.Truth.GPUMap) > 0 && r.Err == "", joinsRight(c.Truth.GPUMap, r.Joins)
	if joinCase && !joinHit {
		wrong = append(wrong, fmt.Sprintf("GPU join %s, want rank -> GPU %v", joinsText(r.Joins), c.Truth.GPUMap))
	}
	hit := slices.Contains(c.LeakSites, r.TopSite)
	rankHit := c.LeakRank != nil && r.TopRank == *c.LeakRank
	for _, sc := range scores {
		sc.Cases++
		if allRight {
			sc.Correct++
		}
		sc.Cause[wi][gi]++
		if c.Expect.OOM {
			sc.OOMCases++
			if wi == gi {
				sc.CauseHits++
			}
		}
		sc.Suspects += r.Suspects
		sc.BadIntervals += r.BadIntervals
		sc.ShortHourRates += r.ShortHourRates
		if devCase {
			sc.DeviceCases++
			if devHit {
				sc.DeviceHits++
			}
		}
		if joinCase {
			sc.JoinCases++
			if joinHit {
				sc.JoinHits++
			}
		}
		if !c.Expect.Leak {
			continue
		}
		sc.LeakCases++
		if hit {
			sc.SiteHits++
		}
		if c.LeakRank != nil {
			sc.RankCases++
			if rankHit {
				sc.RankHits++
			}
		}
	}
	if c.Expect.Leak && !hit && r.Got.Leak {
		wrong = append(wrong, fmt.Sprintf("top site %q, want %v", r.TopSite, c.LeakSites))
	}
	if c.Expect.Leak && c.LeakRank != nil && !rankHit && r.Got.Leak {
		wrong = append(wrong, fmt.Sprintf("top suspect on rank %d, want %d", r.TopRank, *c.LeakRank))
	}
	for _, b := range r.BadIntervalSites {
		wrong = append(wrong, "bad interval "+b)
	}
	if r.ShortHourRates > 0 {
		wrong = append(wrong, fmt.Sprintf("%d per-hour rate(s) from under a minute of data", r.ShortHourRates))
	}
	return wrong
}

// joinsRight reports whether every rank of the map has a snapshot device
// (on CUDA device rank, the generator's layout) joined to its GPU.
func joinsRight(gpuMap []int, joins []Join) bool {
	for rank, gpu := range gpuMap {
		ok := false
		for _, j := range joins {
			if j.Rank == rank && j.Device == rank && j.GPU == gpu {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func joinsText(joins []Join) string {
	if len(joins) == 0 {
		return "none"
	}
	parts := make([]string, len(joins))
	for i, j := range joins {
		g := "none"
		if j.GPU >= 0 {
			g = strconv.Itoa(j.GPU)
		}
		parts[i] = fmt.Sprintf("rank %d cuda:%d -> GPU %s", j.Rank, j.Device, g)
	}
	return strings.Join(parts, ", ")
}
