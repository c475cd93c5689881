package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"gpureport/internal/eval"
)

const evalUsage = `Usage:
  gpureport eval [flags] CORPUS_DIR

Loads every case of a labelled corpus (CORPUS_DIR/labels.json and one run
directory per case, as 'go run ./internal/gen corpus -o CORPUS_DIR' writes
them), analyses it with zoneless log times read as UTC, and prints
the scores per scenario and per knob value, a confusion matrix per verdict
flag and for the OOM cause, leak precision, recall and top-1 suspect site,
the suspects whose own 95% interval includes 0 or excludes the estimate,
and every misclassified case. Exit code 0 when the targets are met (leak
precision and recall >= 0.97, top-1 site >= 0.95, fragmentation flag and
OOM cause right in >= 95% of cases, no bad interval), 4 otherwise.

Flags:
`

// runEval is the eval subcommand: score verdicts on a labelled corpus.
func runEval(inv *invocation) int {
	var (
		jobs    int
		asJSON  bool
		verbose bool
	)
	inv.fs.IntVar(&jobs, "j", 0, "decode `N` files at once (default: one per CPU)")
	inv.fs.BoolVar(&asJSON, "json", false, "print the evaluation (and every case's result) as JSON instead of tables")
	inv.fs.BoolVar(&verbose, "v", false, "print every case's verdict as it is analysed")
	positional, code, ok := inv.parseN(1, "eval: want one CORPUS_DIR, got %d arguments")
	if !ok {
		return code
	}
	dir := positional[0]
	labelsPath := filepath.Join(dir, "labels.json")
	data, err := os.ReadFile(labelsPath)
	if err != nil {
		fmt.Fprintf(inv.stderr, "gpureport: eval: %v (is %s a corpus written by 'go run ./internal/gen corpus -o %s'?)\n", err, dir, dir)
		return exitNothingUsable
	}
	labels, err := eval.ParseLabels(labelsPath, data)
	if err != nil {
		fmt.Fprintf(inv.stderr, "gpureport: eval: %v\n", err)
		return exitNothingUsable
	}
	var results []eval.CaseResult
	for i, c := range labels.Cases {
		if inv.ctx.Err() != nil {
			fmt.Fprintln(inv.stderr, "gpureport: interrupted")
			return exitInterrupted
		}
		r := eval.AnalyzeCase(inv.ctx, filepath.Join(dir, c.Name), c.Name, jobs)
		results = append(results, r)
		if verbose {
			fmt.Fprintf(inv.stderr, "[%d/%d] %s: %s%s\n", i+1, len(labels.Cases), c.Name, r.Headline, errSuffix(r.Err))
		}
	}
	ev := eval.Evaluate(labels, results)
	if asJSON {
		enc := json.NewEncoder(inv.stdout)
		enc.SetIndent("", "  ")
		out := struct {
			Corpus     string            `json:"corpus"`
			Seed       uint64            `json:"seed"`
			Evaluation any               `json:"evaluation"`
			Results    []eval.CaseResult `json:"results"`
		}{dir, labels.Seed, ev.JSON(), results}
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(inv.stderr, "gpureport: eval: %v\n", err)
			return exitWriteFailed
		}
	} else if err := eval.WriteText(inv.stdout, dir, ev); err != nil {
		fmt.Fprintf(inv.stderr, "gpureport: eval: %v\n", err)
		return exitWriteFailed
	}
	if !ev.TargetsMet {
		return exitFailOn
	}
	return exitOK
}

func errSuffix(e string) string {
	if e == "" {
		return ""
	}
	return " (error: " + e + ")"
}
