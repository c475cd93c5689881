package main

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"gpureport/analyze"
	"gpureport/internal/units"
	"gpureport/report"
	"gpureport/snapshot"
)

const statsUsage = `Usage:
  gpureport stats [--json] [--max-decompressed SIZE] FILE...

Prints the memory accounting of each snapshot file (a pickle, a JSON
snapshot, either gzipped, or a torch.save zip), per device: reserved, allocated, active, requested and
inactive bytes, the largest free block, segment, block and trace entry
counts, trace actions, and the stack coverage (the share of live bytes whose
blocks carry an allocation stack).

--json prints one JSON object per file and line:
  {"path": ..., "devices": [{"device": 0, "reserved_bytes": ..., ...}]}
with the snapshot field names of summary.json, plus "notes" (what the
decoder had to assume, when anything), "actions" and
"stack_coverage".

A file that cannot be decoded gets an error line on stderr naming the file
and the offset (in the pickle stream, or the byte of the JSON text); the other files are still printed, and the exit code is 2.

Flags:
`

// statsDevice is one device of a snapshot in --json output; the byte and
// count fields carry summary.json's snapshot names.
type statsDevice struct {
	Device int `json:"device"`
	report.SummaryUsage
	Actions       map[string]int `json:"actions"`
	StackCoverage float64        `json:"stack_coverage"`
	// usage and live (the bytes StackCoverage was computed over) are for
	// the human-readable output.
	usage analyze.Usage
	live  int64
}

// statsFile is one file in --json output.
type statsFile struct {
	Path    string        `json:"path"`
	Devices []statsDevice `json:"devices"`
	// Notes are what the decoder had to assume, place first (absent for a
	// file that reads as the format says).
	Notes []string `json:"notes,omitempty"`
}

// runStats is `gpureport stats`: decode each file and print its memory
// accounting.
func runStats(inv *invocation) int {
	var (
		asJSON bool
	)
	inv.fs.BoolVar(&asJSON, "json", false, "print one JSON object per file and line")
	dec := addDecodeFlags(inv.fs)
	files, code, ok := inv.parse()
	if !ok {
		return code
	}
	if len(files) == 0 {
		return usageError(inv.stderr, "stats: missing FILE")
	}
	opt, err := dec.options()
	if err != nil {
		return usageError(inv.stderr, "stats: %v", err)
	}
	code = exitOK
	for i, path := range files {
		if inv.ctx.Err() != nil {
			fmt.Fprintln(inv.stderr, "gpureport: interrupted")
			return exitInterrupted
		}
		start := time.Now()
		s, container, err := snapshot.DecodeFile(path, opt)
		took := time.Since(start)
		if err != nil {
			// DecodeFile's errors (*input.FileError) name the path.
			fmt.Fprintf(inv.stderr, "gpureport: stats: %v\n", err)
			code = exitNothingUsable
			continue
		}
		sf := fileStats(path, s)
		if asJSON {
			b, err := json.Marshal(sf)
			if err != nil {
				fmt.Fprintf(inv.stderr, "gpureport: stats: %s: %v\n", path, err)
				code = exitNothingUsable
				continue
			}
			fmt.Fprintf(inv.stdout, "%s\n", b)
			continue
		}
		if i > 0 {
			fmt.Fprintln(inv.stdout)
		}
		size := int64(-1)
		if st, err := os.Stat(path); err == nil {
			size = st.Size()
		}
		printStats(inv.stdout, sf, s, container, size, took)
	}
	return code
}

// fileStats computes the accounting of every device of s.
func fileStats(path string, s *snapshot.Snapshot) statsFile {
	sf := statsFile{Path: path, Devices: []statsDevice{}}
	for _, n := range s.Notes {
		sf.Notes = append(sf.Notes, n.String())
	}
	for _, d := range s.Devices() {
		u := analyze.DeviceUsage(s, d)
		cov, live := analyze.StackCoverage(s, d)
		counts := analyze.ActionCounts(s, d)
		acts := map[string]int{}
		for a, n := range counts {
			if n > 0 {
				acts[snapshot.Action(a).String()] = n
			}
		}
		sf.Devices = append(sf.Devices, statsDevice{
			Device:        d,
			SummaryUsage:  report.UsageFields(u),
			Actions:       acts,
			StackCoverage: cov,
			usage:         u,
			live:          live,
		})
	}
	return sf
}

// containerName names a snapshot file's container as stats prints it:
// "pickle", "JSON", "zip", or for gzip what it holds, "gzip (pickle)" or
// "gzip (JSON)", so that a JSON snapshot is never taken for a pickle.
func containerName(path string, c snapshot.Container) string {
	switch c {
	case snapshot.ContainerJSON:
		return "JSON"
	case snapshot.ContainerGzip:
	default:
		return string(c)
	}
	f, err := os.Open(path)
	if err != nil {
		return string(c)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return string(c)
	}
	head := make([]byte, 4<<10)
	n, _ := io.ReadFull(zr, head)
	switch inner, _ := snapshot.SniffContainer(head[:n]); inner {
	case snapshot.ContainerJSON:
		return "gzip (JSON)"
	case snapshot.ContainerPickle:
		return "gzip (pickle)"
	}
	return string(c)
}

// printStats writes the human-readable block of one file.
func printStats(w io.Writer, sf statsFile, s *snapshot.Snapshot, c snapshot.Container, size int64, took time.Duration) {
	fmt.Fprintf(w, "%s\n", sf.Path)
	fileSize := "?"
	model := units.Bytes(s.ModelBytes())
	if size >= 0 {
		fileSize = units.Bytes(size)
		if size > 0 {
			model += fmt.Sprintf(" (%.2fx the file)", float64(s.ModelBytes())/float64(size))
		}
	}
	fmt.Fprintf(w, "  %s, %s layout, %s, decoded in %s; %d stacks of %d frames, model %s\n",
		containerName(sf.Path, c), s.Generation, fileSize, took.Round(time.Millisecond), s.Stacks.Len()-1, len(s.Stacks.Frames), model)
	if t, ok := s.LatestTime(); ok {
		fmt.Fprintf(w, "  latest event %s\n", t.Format(time.RFC3339))
	}
	if s.Settings.Present && s.Settings.Conf != "" {
		fmt.Fprintf(w, "  PYTORCH_CUDA_ALLOC_CONF=%s\n", s.Settings.Conf)
	}
	for _, n := range sf.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	if len(sf.Devices) == 0 {
		fmt.Fprintln(w, "  no segments and no trace events")
	}
	for _, d := range sf.Devices {
		fmt.Fprintf(w, "  device %d\n", d.Device)
		fmt.Fprintf(w, "    reserved %s  allocated %s  active %s  requested %s\n",
			units.Bytes(d.ReservedBytes), units.Bytes(d.AllocatedBytes), units.Bytes(d.ActiveBytes), units.Bytes(d.RequestedBytes))
		fmt.Fprintf(w, "    inactive %s  largest free %s  external fragmentation %.2f  internal waste %s\n",
			units.Bytes(d.InactiveBytes), units.Bytes(d.LargestFreeBytes), d.usage.ExternalFragmentation(), units.Bytes(d.usage.InternalWaste))
		fmt.Fprintf(w, "    %d segments, %d blocks, %d trace entries\n", d.Segments, d.Blocks, d.TraceEntries)
		if len(d.Actions) > 0 {
			var parts []string
			for a := range snapshot.NumActions {
				name := snapshot.Action(a).String()
				if n := d.Actions[name]; n > 0 {
					parts = append(parts, name+" "+strconv.Itoa(n))
				}
			}
			fmt.Fprintf(w, "    actions: %s\n", strings.Join(parts, ", "))
		}
		if d.live > 0 {
			fmt.Fprintf(w, "    stack coverage %.1f%% of %s live\n", 100*d.StackCoverage, units.Bytes(d.live))
		} else {
			fmt.Fprintln(w, "    stack coverage: no live bytes")
		}
	}
}
