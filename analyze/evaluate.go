package analyze

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
)

// Evaluation scores verdicts against a labelled corpus (the project's
// generator writes one: `go run ./testdata/gen corpus -o DIR` makes
// DIR/<case>/ run directories and DIR/labels.json).
//
// Leak detection is scored as a binary classifier over all cases:
// precision = TP / (TP + FP) and recall = TP / (TP + FN), where a
// positive is a case whose verdict says leak. When nothing is predicted
// positive precision is 1 (no false alarm was raised), and when nothing is
// labelled positive recall is 1. Top-1 site accuracy is the share of
// leak-labelled cases whose first verdict suspect's site (basename:line)
// is one of the planted leak sites (a missed leak counts as a miss). The
// other flags (outside_allocator_leak, fragmentation, oom) are scored the
// same way, each on its own.

// Targets for the evaluation: leak precision and recall at
// least 0.95 and top-1 site accuracy at least 0.90.
const (
	TargetPrecision = 0.95
	TargetRecall    = 0.95
	TargetTop1      = 0.90
)

// Labels is a corpus's labels.json.
type Labels struct {
	// Generator names the program that wrote the corpus.
	Generator string `json:"generator"`
	// Seed is the corpus seed.
	Seed int64 `json:"seed"`
	// Cases are the labelled runs.
	Cases []LabelCase `json:"cases"`
}

// LabelCase is one labelled run of the corpus.
type LabelCase struct {
	// Name is the case's directory under the corpus.
	Name string `json:"name"`
	// Scenario is the kind of run ("clean", "leak-steady", ...).
	Scenario string `json:"scenario"`
	// Seed is the generator's seed for this case.
	Seed int64 `json:"seed"`
	// Expect holds the true verdict flags.
	Expect Flags `json:"expect"`
	// LeakSites are the planted leaks' user frames as basename:line.
	LeakSites []string `json:"leak_sites"`
	// LeakRank is the leaking rank of a multi-rank case, nil otherwise.
	LeakRank *int `json:"leak_rank"`
	// CapacityBytes is the simulated device memory, bytes.
	CapacityBytes int64 `json:"capacity_bytes"`
	// Description says what the generator did.
	Description string `json:"description"`
}

// Flags are the four verdict flags.
type Flags struct {
	// Leak is a leak of PyTorch tensors (Verdict.Leak).
	Leak bool `json:"leak"`
	// OutsideAllocatorLeak is growth outside the caching allocator.
	OutsideAllocatorLeak bool `json:"outside_allocator_leak"`
	// Fragmentation is cached memory lost to holes.
	Fragmentation bool `json:"fragmentation"`
	// OOM is an out-of-memory event.
	OOM bool `json:"oom"`
}

// FlagNames returns the flags' labels.json names in report order.
func FlagNames() [4]string {
	return [4]string{"leak", "outside_allocator_leak", "fragmentation", "oom"}
}

// get returns flag i of FlagNames().
func (f Flags) get(i int) bool {
	return [4]bool{f.Leak, f.OutsideAllocatorLeak, f.Fragmentation, f.OOM}[i]
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
	// Got holds the verdict flags.
	Got Flags `json:"got"`
	// TopSite and TopRank are the first verdict suspect's site and rank
	// ("" and -1 without suspects).
	TopSite string `json:"top_site"`
	TopRank int    `json:"top_rank"`
	// Headline is the verdict's headline, for the misclassified list.
	Headline string `json:"headline"`
	// Err is set when the case could not be analysed (it then counts as
	// all flags false).
	Err string `json:"error,omitempty"`
}

// ResultOf extracts a case result from Findings.
func ResultOf(name string, f *Findings) CaseResult {
	r := CaseResult{Case: name, TopRank: -1, Headline: f.Verdict.Headline, Got: Flags{
		Leak: f.Verdict.Leak, OutsideAllocatorLeak: f.Verdict.OutsideAllocatorLeak,
		Fragmentation: f.Verdict.Fragmentation, OOM: f.Verdict.OOM,
	}}
	if len(f.Verdict.Suspects) > 0 {
		if sp := f.Suspect(f.Verdict.Suspects[0]); sp != nil {
			r.TopSite = sp.Site
			r.TopRank = f.Verdict.Suspects[0].Rank
		}
	}
	return r
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

// Score is the evaluation of a set of cases (one scenario, or all).
type Score struct {
	// Name is the scenario, or "overall".
	Name string
	// Cases counts the cases scored.
	Cases int
	// Flags are the confusion matrices of the four flags, in FlagNames()
	// order; Flags[0] is leak detection.
	Flags [4]Confusion
	// Correct counts cases whose four flags are all right.
	Correct int
	// LeakCases counts leak-labelled cases, SiteHits those whose top
	// suspect site is a planted site, Top1 their ratio (NaN without leak
	// cases).
	LeakCases, SiteHits int
	Top1                float64
	// RankCases counts leak cases with a leak_rank, RankHits those whose
	// top suspect is on that rank.
	RankCases, RankHits int
}

// Miss is a misclassified case.
type Miss struct {
	// Case and Scenario name the case.
	Case, Scenario string
	// Wrong lists what was wrong: flags ("leak: got true, want false") and
	// the site ("top site model.py:88, want train.py:57").
	Wrong []string
	// Headline is the verdict's headline.
	Headline string
}

// Evaluation is the result of Evaluate.
type Evaluation struct {
	// Overall scores every case; ByScenario each scenario, sorted by name.
	Overall    Score
	ByScenario []Score
	// Misses lists the misclassified cases in label order.
	Misses []Miss
	// Missing lists labelled cases without a result.
	Missing []string
	// TargetsMet is true when overall leak precision, recall and top-1
	// site accuracy reach TargetPrecision, TargetRecall and TargetTop1.
	TargetsMet bool
}

// Evaluate scores results against labels.
func Evaluate(labels *Labels, results []CaseResult) *Evaluation {
	byCase := map[string]CaseResult{}
	for _, r := range results {
		byCase[r.Case] = r
	}
	ev := &Evaluation{Overall: Score{Name: "overall"}}
	scen := map[string]*Score{}
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
		var wrong []string
		if r.Err != "" {
			wrong = append(wrong, "error: "+r.Err)
		}
		for i, name := range FlagNames() {
			want, got := c.Expect.get(i), r.Got.get(i)
			s.Flags[i].add(want, got)
			ev.Overall.Flags[i].add(want, got)
			if want != got {
				wrong = append(wrong, fmt.Sprintf("%s: got %v, want %v", name, got, want))
			}
		}
		allRight := len(wrong) == 0
		for _, sc := range []*Score{s, &ev.Overall} {
			sc.Cases++
			if allRight {
				sc.Correct++
			}
		}
		if c.Expect.Leak {
			hit := slices.Contains(c.LeakSites, r.TopSite)
			rankHit := c.LeakRank != nil && r.TopRank == *c.LeakRank
			for _, sc := range []*Score{s, &ev.Overall} {
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
			if !hit && r.Got.Leak {
				wrong = append(wrong, fmt.Sprintf("top site %q, want %v", r.TopSite, c.LeakSites))
			}
			if c.LeakRank != nil && !rankHit && r.Got.Leak {
				wrong = append(wrong, fmt.Sprintf("top suspect on rank %d, want %d", r.TopRank, *c.LeakRank))
			}
		}
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
	slices.SortFunc(ev.ByScenario, func(a, b Score) int { return cmp.Compare(a.Name, b.Name) })
	o := ev.Overall
	ev.TargetsMet = o.Flags[0].Precision >= TargetPrecision && o.Flags[0].Recall >= TargetRecall &&
		(o.LeakCases == 0 || o.Top1 >= TargetTop1) && len(ev.Missing) == 0
	return ev
}
