package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"gpureport/analyze"
	"gpureport/ingest"
)

const evalUsage = `Usage:
  gpureport eval [flags] CORPUS_DIR

Loads every case of a labelled corpus (CORPUS_DIR/labels.json and one run
directory per case, as 'go run ./testdata/gen corpus -o CORPUS_DIR' writes
them), analyses it with zoneless log times read as UTC, and prints
precision, recall and top-1 suspect-site accuracy per scenario and overall,
with every misclassified case. Exit code 0 when the targets are met
(leak precision >= 0.95, recall >= 0.95, top-1 site >= 0.90), 4 otherwise.

Flags:
`

// runEval is the eval subcommand: score verdicts on a labelled corpus.
func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gpureport eval", flag.ContinueOnError)
	var (
		jobs    int
		asJSON  bool
		verbose bool
	)
	fs.IntVar(&jobs, "j", 0, "decode `N` files at once (default: one per CPU)")
	fs.BoolVar(&asJSON, "json", false, "print the evaluation (and every case's result) as JSON instead of tables")
	fs.BoolVar(&verbose, "v", false, "print every case's verdict as it is analysed")
	positional, code, ok := parseArgs(fs, args, evalUsage, stdout, stderr)
	if !ok {
		return code
	}
	if len(positional) != 1 {
		return usageError(stderr, "eval: want one CORPUS_DIR, got %d arguments", len(positional))
	}
	dir := positional[0]
	labelsPath := filepath.Join(dir, "labels.json")
	data, err := os.ReadFile(labelsPath)
	if err != nil {
		fmt.Fprintf(stderr, "gpureport: eval: %v (is %s a corpus written by 'go run ./testdata/gen corpus -o %s'?)\n", err, dir, dir)
		return exitNothingUsable
	}
	labels, err := analyze.ParseLabels(labelsPath, data)
	if err != nil {
		fmt.Fprintf(stderr, "gpureport: eval: %v\n", err)
		return exitNothingUsable
	}
	var results []analyze.CaseResult
	for i, c := range labels.Cases {
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "gpureport: interrupted")
			return exitInterrupted
		}
		r := evalCase(ctx, filepath.Join(dir, c.Name), c.Name, jobs)
		results = append(results, r)
		if verbose {
			fmt.Fprintf(stderr, "[%d/%d] %s: %s%s\n", i+1, len(labels.Cases), c.Name, r.Headline, errSuffix(r.Err))
		}
	}
	ev := analyze.Evaluate(labels, results)
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		out := struct {
			Corpus     string               `json:"corpus"`
			Seed       int64                `json:"seed"`
			Evaluation any                  `json:"evaluation"`
			Results    []analyze.CaseResult `json:"results"`
		}{dir, labels.Seed, evaluationJSON(ev), results}
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(stderr, "gpureport: eval: %v\n", err)
			return exitWriteFailed
		}
	} else {
		printEvaluation(stdout, dir, labels, ev)
	}
	if !ev.TargetsMet {
		return exitFailOn
	}
	return exitOK
}

// evalCase loads and analyses one case directory.
func evalCase(ctx context.Context, dir, name string, jobs int) analyze.CaseResult {
	run, err := ingest.Load(ctx, dir, ingest.LoadOptions{Location: time.UTC, Jobs: jobs})
	if err != nil {
		return analyze.CaseResult{Case: name, TopRank: -1, Err: err.Error()}
	}
	if len(run.Snapshots) == 0 && len(run.Logs) == 0 {
		return analyze.CaseResult{Case: name, TopRank: -1, Err: fmt.Sprintf("no usable input (%d skipped)", len(run.Skipped))}
	}
	return analyze.ResultOf(name, analyze.Analyze(run, analyze.Options{}))
}

func errSuffix(e string) string {
	if e == "" {
		return ""
	}
	return " (error: " + e + ")"
}

// printEvaluation writes the per-scenario table, the overall line, the
// per-flag confusion and the misclassified cases.
func printEvaluation(w io.Writer, dir string, labels *analyze.Labels, ev *analyze.Evaluation) {
	fmt.Fprintf(w, "gpureport eval: %d cases from %s (generator seed %d)\n\n", ev.Overall.Cases, dir, labels.Seed)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\tcases\tleak P\tleak R\ttop-1 site\toutside ok\tfrag ok\toom ok\tall flags ok\t")
	row := func(s analyze.Score) {
		l := s.Flags[0]
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%d/%d\t\n", s.Name, s.Cases,
			rate(l.Precision, l.TP+l.FP), rate(l.Recall, l.TP+l.FN), top1(s),
			flagOK(s.Flags[1]), flagOK(s.Flags[2]), flagOK(s.Flags[3]), s.Correct, s.Cases)
	}
	for _, s := range ev.ByScenario {
		row(s)
	}
	row(ev.Overall)
	tw.Flush()

	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "flag\tTP\tFP\tFN\tTN\tprecision\trecall\t")
	for i, name := range analyze.FlagNames() {
		c := ev.Overall.Flags[i]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.3f\t%.3f\t\n", name, c.TP, c.FP, c.FN, c.TN, c.Precision, c.Recall)
	}
	tw.Flush()
	if o := ev.Overall; o.RankCases > 0 {
		fmt.Fprintf(w, "\nleak rank (multi-rank leak cases): %d/%d top suspects on the leaking rank\n", o.RankHits, o.RankCases)
	}

	if len(ev.Misses) > 0 {
		fmt.Fprintf(w, "\nmisclassified (%d):\n", len(ev.Misses))
		for _, m := range ev.Misses {
			fmt.Fprintf(w, "  %s [%s]: %s\n      verdict: %s\n", m.Case, m.Scenario, strings.Join(m.Wrong, "; "), m.Headline)
		}
	}
	if len(ev.Missing) > 0 {
		fmt.Fprintf(w, "\nno result for %d case(s): %s\n", len(ev.Missing), strings.Join(ev.Missing, ", "))
	}
	o := ev.Overall
	status := "met"
	if !ev.TargetsMet {
		status = "NOT met"
	}
	fmt.Fprintf(w, "\ntargets (leak precision >= %.2f, recall >= %.2f, top-1 site >= %.2f): %s (precision %.3f, recall %.3f, top-1 %s)\n",
		analyze.TargetPrecision, analyze.TargetRecall, analyze.TargetTop1, status, o.Flags[0].Precision, o.Flags[0].Recall, top1(o))
}

// rate prints a ratio, or "-" when its denominator is 0.
func rate(v float64, denom int) string {
	if denom == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", v)
}

func top1(s analyze.Score) string {
	if s.LeakCases == 0 || math.IsNaN(s.Top1) {
		return "-"
	}
	return fmt.Sprintf("%d/%d", s.SiteHits, s.LeakCases)
}

func flagOK(c analyze.Confusion) string {
	return fmt.Sprintf("%d/%d", c.TP+c.TN, c.TP+c.TN+c.FP+c.FN)
}

// scoreJSON is a Score whose Top1 is null (not NaN, which JSON cannot
// hold) without leak cases.
type scoreJSON struct {
	analyze.Score
	Top1 *float64
}

func toScoreJSON(s analyze.Score) scoreJSON {
	out := scoreJSON{Score: s}
	if !math.IsNaN(s.Top1) {
		v := s.Top1
		out.Top1 = &v
	}
	return out
}

// evaluationJSON is the JSON form of an Evaluation.
func evaluationJSON(ev *analyze.Evaluation) any {
	by := make([]scoreJSON, len(ev.ByScenario))
	for i, s := range ev.ByScenario {
		by[i] = toScoreJSON(s)
	}
	return struct {
		Overall    scoreJSON
		ByScenario []scoreJSON
		Misses     []analyze.Miss
		Missing    []string
		TargetsMet bool
	}{toScoreJSON(ev.Overall), by, ev.Misses, ev.Missing, ev.TargetsMet}
}
