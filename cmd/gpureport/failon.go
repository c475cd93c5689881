package main

import (
	"fmt"
	"slices"
	"strings"

	"gpureport/analyze"
)

// failOnFlags are the verdict flags --fail-on accepts.
var failOnFlags = []string{"leak", "outside-leak", "oom", "fragmentation"}

// parseFailOn parses --fail-on's comma-separated list.
func parseFailOn(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if f == "" {
			continue
		}
		if f == "any" || f == "all" {
			return failOnFlags, nil
		}
		ok := false
		for _, k := range failOnFlags {
			if f == k {
				ok = true
			}
		}
		if !ok {
			return nil, fmt.Errorf("unknown condition %q (want %s)", f, strings.Join(failOnFlags, ", "))
		}
		out = append(out, f)
	}
	return out, nil
}

// failOnMet returns the conditions of failOn that the verdict meets.
func failOnMet(v analyze.Verdict, failOn []string) []string {
	var met []string
	raised := v.Flags()
	for _, f := range failOn {
		if slices.Contains(raised, f) {
			met = append(met, f)
		}
	}
	return met
}
