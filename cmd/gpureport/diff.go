package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"gpureport/analyze"
	"gpureport/ingest"
	"gpureport/placement"
	"gpureport/report"
	"gpureport/snapshot"
)

const diffUsage = `Usage:
  gpureport diff [flags] A B

Compares the live memory of A (the base) and B by stack signature, pprof
-diff_base style: growth and shrink per allocation site, new and gone
fingerprints. A and B are each a snapshot file or a run directory (whose
last snapshot of each device is compared). Writes index.html, report.xlsx,
summary.json and summary.md into -o DIR (default: gpureport-diff beside B)
and prints the largest changes.

Flags:
`

// runDiff is `gpureport diff A B`.
func runDiff(inv *invocation) int {
	var (
		outDir  string
		top     int
		pprof   string
		quiet   bool
		noFiles bool
	)
	inv.fs.StringVar(&outDir, "o", "", "write the diff report to `DIR` (default: gpureport-diff beside B: in B's folder, or inside B when B is a run directory)")
	inv.fs.IntVar(&top, "n", 20, "print the `N` largest changes")
	inv.fs.StringVar(&pprof, "pprof", "", "also write the diff as a pprof profile to `FILE` (sample types bytes_a, bytes_b, delta_bytes)")
	dec := addDecodeFlags(inv.fs)
	quietFlag(inv.fs, &quiet)
	inv.fs.BoolVar(&noFiles, "no-report", false, "print the table only; write no report files")
	pos, code, ok := inv.parseN(2, "diff: want two arguments, A and B (snapshot files or run directories), got %d")
	if !ok {
		return code
	}
	dopt, err := dec.options()
	if err != nil {
		return usageError(inv.stderr, "%v", err)
	}
	prog := newProgress(inv.stderr, quiet)
	a, ga, err := diffSide(inv.ctx, pos[0], dopt, prog)
	if err != nil {
		return diffFail(inv.stderr, err)
	}
	b, gb, err := diffSide(inv.ctx, pos[1], dopt, prog)
	if err != nil {
		return diffFail(inv.stderr, err)
	}
	d := &report.DiffReport{A: a, B: b}
	keys := map[analyze.DeviceKey]bool{}
	for k := range ga {
		keys[k] = true
	}
	for k := range gb {
		keys[k] = true
	}
	sorted := make([]analyze.DeviceKey, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	slices.SortFunc(sorted, func(x, y analyze.DeviceKey) int {
		if x.Rank != y.Rank {
			return x.Rank - y.Rank
		}
		return x.Device - y.Device
	})
	var allA, allB [][]analyze.LiveGroup
	for _, k := range sorted {
		sa, sb := ga[k], gb[k]
		d.Devices = append(d.Devices, report.DiffDevice{DeviceKey: k, FileA: sa.file, FileB: sb.file, Entries: analyze.Diff(sa.groups, sb.groups)})
		allA = append(allA, sa.groups)
		allB = append(allB, sb.groups)
	}
	d.Total = analyze.Diff(analyze.MergeGroups(allA...), analyze.MergeGroups(allB...))
	opt := report.Options{GeneratedAt: generatedAt(), Version: version}
	if outDir == "" {
		outDir = diffOutDir(pos[1])
	}
	if !noFiles {
		if err := report.WriteDiff(outDir, d, opt); err != nil {
			fmt.Fprintf(inv.stderr, "gpureport: %s\n", writeFailure(outDir, err))
			return exitWriteFailed
		}
	}
	if pprof != "" {
		if err := report.WriteDiffPprof(pprof, d, opt); err != nil {
			fmt.Fprintf(inv.stderr, "gpureport: %v\n", err)
			return exitWriteFailed
		}
	}
	if err := report.DiffText(inv.stdout, d, top); err != nil {
		return exitWriteFailed
	}
	if !noFiles {
		fmt.Fprintf(inv.stdout, "report: %s\n", outDir)
	}
	return exitOK
}

func diffFail(stderr io.Writer, err error) int {
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "gpureport: interrupted")
		return exitInterrupted
	}
	fmt.Fprintf(stderr, "gpureport: diff: %v\n", err)
	return exitNothingUsable
}

// sideGroups is one device's grouping on one side of a diff.
type sideGroups struct {
	file   string
	groups []analyze.LiveGroup
}

// diffSide reads one side: a snapshot file (every device in it) or a run
// directory (the last snapshot of each device series).
func diffSide(ctx context.Context, path string, opt snapshot.DecodeOptions, prog *progress) (report.DiffSide, map[analyze.DeviceKey]sideGroups, error) {
	st, err := os.Stat(path)
	if err != nil {
		return report.DiffSide{}, nil, err
	}
	out := map[analyze.DeviceKey]sideGroups{}
	if !st.IsDir() {
		s, _, err := snapshot.DecodeFile(path, opt)
		if err != nil {
			return report.DiffSide{}, nil, fmt.Errorf("decode %s: %w", path, err)
		}
		rank := ingest.RankFromPath(filepath.ToSlash(path))
		for _, dev := range s.Devices() {
			out[analyze.DeviceKey{Rank: rank, Device: dev}] = sideGroups{file: filepath.Base(path), groups: analyze.GroupLive(s, dev)}
		}
		return report.DiffSide{Path: path, Kind: "snapshot", Snapshots: 1, Files: []string{filepath.Base(path)}}, out, nil
	}
	prog.start("reading " + path)
	// Digests suffice (the live groups come from segments and blocks) and
	// keep a long run's memory flat.
	run, err := ingest.Load(ctx, path, ingest.LoadOptions{Decode: opt, Progress: prog.update, Digest: true})
	prog.finish()
	if err != nil {
		return report.DiffSide{}, nil, err
	}
	if len(run.Snapshots) == 0 {
		return report.DiffSide{}, nil, fmt.Errorf("%s holds no usable snapshot (%d files skipped)", path, len(run.Skipped))
	}
	side := report.DiffSide{Path: path, Kind: "run", Snapshots: len(run.Snapshots)}
	// Each series is one device of one rank: placement numbers the ranks
	// that the paths do not tell apart.
	for _, s := range analyze.BuildSeries(placement.Place(run).Snapshots) {
		if len(s.Files) == 0 {
			continue
		}
		last := s.Files[len(s.Files)-1]
		out[s.DeviceKey] = sideGroups{file: last.Path, groups: analyze.GroupLive(last.Snapshot, s.Device)}
		if !slices.Contains(side.Files, last.Path) {
			side.Files = append(side.Files, last.Path)
		}
	}
	return side, out, nil
}

// diffOutDirName is the folder a diff report goes to by default.
const diffOutDirName = "gpureport-diff"

// diffOutDir is the default folder of a diff report: beside its inputs, not
// in the current folder (a diff run from $HOME would litter it): inside B
// when B is a run directory, as a run's report goes inside the run, else
// in the folder holding snapshot B.
func diffOutDir(b string) string {
	if st, err := os.Stat(b); err == nil && st.IsDir() {
		return filepath.Join(b, diffOutDirName)
	}
	return filepath.Join(filepath.Dir(b), diffOutDirName)
}
