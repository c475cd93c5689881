package eval

import (
	"context"
	"fmt"
	"time"

	"gpureport/analyze"
	"gpureport/ingest"
)

// AnalyzeCase loads and analyses the run directory dir of the case name,
// decoding jobs files at once (0: one per CPU), and returns its result.
// Zoneless log times are read as UTC (the generator writes UTC). A case
// that cannot be loaded, or has no usable input, comes back with Err set.
func AnalyzeCase(ctx context.Context, dir, name string, jobs int) CaseResult {
	run, err := ingest.Load(ctx, dir, ingest.LoadOptions{Location: time.UTC, Jobs: jobs})
	if err != nil {
		return CaseResult{Case: name, TopRank: -1, Err: err.Error()}
	}
	if len(run.Snapshots) == 0 && len(run.Logs) == 0 {
		return CaseResult{Case: name, TopRank: -1, Err: fmt.Sprintf("no usable input (%d skipped)", len(run.Skipped))}
	}
	return ResultOf(name, analyze.Analyze(run, analyze.Options{}))
}
