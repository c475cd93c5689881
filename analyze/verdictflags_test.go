package analyze

// The evaluation (package internal/eval) imports analyze, so analyze's own
// tests cannot use it; these are the few pieces of it they compare
// verdicts with.

// Flags are the four verdict flags, as the evaluation scores them.
type Flags struct {
	Leak, OutsideAllocatorLeak, Fragmentation, OOM bool
}

// caseResult is a verdict's flags and its first suspect's site and rank
// ("" and -1 without suspects).
type caseResult struct {
	Got     Flags
	TopSite string
	TopRank int
}

// ResultOf extracts the verdict flags and the top suspect from Findings
// (name is unused; it keeps the evaluation's signature).
func ResultOf(_ string, f *Findings) caseResult {
	r := caseResult{TopRank: -1, Got: Flags{
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
