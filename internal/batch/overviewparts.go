package batch

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gpureport/report"
)

// The overview folder (-o in batch mode, default ROOT/gpureport-overview
// for the first root) holds index.html and a state folder, .gpureport/,
// with one part per shard: part-<i>-of-<n>.json. Each batch process (one
// per shard; a batch without --shard is shard 0/1) writes its own part
// atomically, then, under the overview's lock, renders index.html from
// every part of the same shard count. Shards of a job array may finish in
// any order: the last one to finish leaves the complete overview, and each
// earlier one leaves a correct partial one. Parts written for another
// shard count are ignored for the run list (but still count as fingerprint
// history), so changing N needs no clean-up.
//
// New fingerprints: a part records the fingerprints known before its batch
// (KnownBefore) and after it (KnownAfter). A batch process treats as known
// the KnownAfter of parts last written before it started and the
// KnownBefore of parts written since (concurrent shards of the same
// batch), so a fingerprint first seen in this batch is new in every shard
// that sees it, and an old one is never new.

// overviewPart is one shard's part of a batch overview.
type overviewPart struct {
	Schema string `json:"schema"`
	// Shard is this part's shard; Started and Updated bracket its batch.
	Shard   Shard                `json:"shard"`
	Started time.Time            `json:"started"`
	Updated time.Time            `json:"updated"`
	Roots   []string             `json:"roots"`
	Runs    []report.OverviewRun `json:"runs"`
	// KnownBefore and KnownAfter are the leak fingerprints known before
	// and after this part's batch, sorted.
	KnownBefore []string `json:"known_before"`
	KnownAfter  []string `json:"known_after"`
}

// partPath is the file of shard s's part in the overview folder.
func partPath(overviewDir string, s Shard) string {
	return filepath.Join(overviewDir, overviewStateDir, fmt.Sprintf("part-%d-of-%d.json", s.Index, s.Count))
}

// readParts reads every part in the overview folder; unreadable parts are
// skipped (and named in the returned warnings).
func readParts(overviewDir string) ([]*overviewPart, []string) {
	files, _ := filepath.Glob(filepath.Join(overviewDir, overviewStateDir, "part-*-of-*.json"))
	slices.Sort(files)
	var parts []*overviewPart
	var warn []string
	for _, f := range files {
		var p overviewPart
		err := readState(f, &p, &p.Schema, partSchema)
		var pe *fs.PathError
		switch {
		case errors.As(err, &pe):
			warn = append(warn, fmt.Sprintf("%s: %v", f, err))
			continue
		case err != nil:
			warn = append(warn, fmt.Sprintf("%s: not an overview part", f))
			continue
		}
		parts = append(parts, &p)
	}
	return parts, warn
}

// knownFingerprints returns the fingerprints known before a batch that
// started at start, from the parts on disk (see the comment above).
func knownFingerprints(parts []*overviewPart, start time.Time) map[string]bool {
	known := map[string]bool{}
	for _, p := range parts {
		list := p.KnownAfter
		if !p.Updated.Before(start) {
			list = p.KnownBefore
		}
		for _, fp := range list {
			known[fp] = true
		}
	}
	return known
}

// writePart stores the part atomically.
func writePart(overviewDir string, p *overviewPart) error {
	return writeState(partPath(overviewDir, p.Shard), p, true)
}

// mergeParts builds the overview from the parts with shard count n, as
// made by gpureport version at now.
func mergeParts(parts []*overviewPart, n int, now time.Time, version string) *report.Overview {
	o := &report.Overview{GeneratedAt: now, Version: version}
	for _, p := range parts {
		if p.Shard.Count != n {
			continue
		}
		o.Shards = append(o.Shards, report.OverviewShard{Shard: p.Shard.String(), Updated: p.Updated, Runs: len(p.Runs)})
		for _, r := range p.Roots {
			if !slices.Contains(o.Roots, r) {
				o.Roots = append(o.Roots, r)
			}
		}
		o.Runs = append(o.Runs, p.Runs...)
	}
	slices.SortFunc(o.Shards, func(a, b report.OverviewShard) int { return strings.Compare(a.Shard, b.Shard) })
	return o
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
