package main

import (
	"fmt"
	"strings"

	"gpureport/analyze"
)

// parseFailOn parses --fail-on's comma-separated list of verdict flags
// into their one spelling (analyze.Flag's, as in summary.json); "any" or
// "all" is every flag.
func parseFailOn(s string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		switch f = strings.ToLower(strings.TrimSpace(f)); f {
		case "":
			continue
		case "any", "all":
			out = out[:0]
			for _, fl := range analyze.AllFlags() {
				out = append(out, string(fl))
			}
			return out, nil
		}
		fl, err := analyze.ParseFlag(f)
		if err != nil {
			return nil, fmt.Errorf("unknown condition: %w", err)
		}
		out = append(out, string(fl))
	}
	return out, nil
}

// failOnMet returns the conditions of failOn that the verdict meets.
func failOnMet(v analyze.Verdict, failOn []string) []string {
	var met []string
	for _, f := range failOn {
		if v.Has(analyze.Flag(f)) {
			met = append(met, f)
		}
	}
	return met
}
