package report

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gpureport/analyze"
	"gpureport/ingest"
	"gpureport/internal/testutil"
)

// TestOverviewPeaksAreSummaryPeaks: for generated runs of every kind the
// peaks rule tells apart (snapshots beside memory_stats readings whose
// peaks are higher; memory_stats readings alone; reserved-only readings;
// GPU logs alone), summary.json's devices[].peak_*_bytes are analyze's
// peaks, each device's report shows the same, and the batch overview's
// peaks, read back from summary.json as the batch reads them, are their
// largest.
func TestOverviewPeaksAreSummaryPeaks(t *testing.T) {
	for _, tc := range []struct {
		name  string
		write func(t *testing.T, dir string)
		// wantAlloc and wantRes are the overview's figures.
		wantAlloc, wantRes string
	}{
		// The sample run's snapshots peak at 1.77 GiB allocated, 4.96 GiB
		// reserved; the memory_stats readings joined to the same device at
		// 4.97 and 5.97 GiB: the snapshots decide.
		{"snapshots and higher memory_stats", func(t *testing.T, dir string) {
			for _, p := range testutil.SampleSnapshots(t, 14) {
				testutil.CopyFile(t, p, filepath.Join(dir, filepath.Base(p)), time.Time{})
			}
			writeLeakingStats(t, dir)
		}, "1.77 GiB", "4.96 GiB"},
		{"memory_stats and GPU logs", func(t *testing.T, dir string) {
			writeSMILogs(t, dir, true)
			writeLeakingStats(t, dir)
		}, "4.97 GiB", "5.97 GiB"},
		{"reserved-only readings", func(t *testing.T, dir string) { writeTitanLog(t, dir) }, "n/a", "35.5 GiB"},
		{"GPU logs alone", func(t *testing.T, dir string) { writeSMILogs(t, dir, false) }, "n/a", "n/a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.write(t, dir)
			run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			f := analyze.Analyze(run, analyze.Options{})
			b, err := marshalSummary(BuildSummary(f, fixedOptions))
			if err != nil {
				t.Fatal(err)
			}
			for _, key := range []string{`"peak_allocated_bytes"`, `"peak_reserved_bytes"`} {
				if n := strings.Count(string(b), key); n < len(f.Devices) {
					t.Errorf("summary.json has %s %d times for %d devices", key, n, len(f.Devices))
				}
			}
			s, err := ParseSummary(b)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Devices) != len(f.Devices) {
				t.Fatalf("%d devices in summary.json, %d analysed", len(s.Devices), len(f.Devices))
			}
			var wantAlloc, wantRes *int64
			for i, d := range f.Devices {
				sd := s.Devices[i]
				if got, want := knownBytesText(sd.PeakAllocatedBytes), knownBytesCell(d.PeakAllocated).Text; got != want {
					t.Errorf("%v: summary.json peak allocated %s, analyze %s", d.DeviceKey, got, want)
				}
				if got, want := knownBytesText(sd.PeakReservedBytes), knownBytesCell(d.PeakReserved).Text; got != want {
					t.Errorf("%v: summary.json peak reserved %s, analyze %s", d.DeviceKey, got, want)
				}
				it := buildDevice(f, d)
				if it.PeakAllocated.Text != knownBytesText(sd.PeakAllocatedBytes) || it.PeakReserved.Text != knownBytesText(sd.PeakReservedBytes) {
					t.Errorf("%v: report shows %s / %s, summary.json %s / %s", d.DeviceKey, it.PeakAllocated.Text, it.PeakReserved.Text,
						knownBytesText(sd.PeakAllocatedBytes), knownBytesText(sd.PeakReservedBytes))
				}
				wantAlloc, wantRes = maxKnown(wantAlloc, sd.PeakAllocatedBytes), maxKnown(wantRes, sd.PeakReservedBytes)
			}
			r := OverviewRunFromSummary(s)
			if knownBytesText(r.PeakAllocated) != knownBytesText(wantAlloc) || knownBytesText(r.PeakReserved) != knownBytesText(wantRes) {
				t.Errorf("overview %s / %s, summary.json's largest %s / %s", knownBytesText(r.PeakAllocated), knownBytesText(r.PeakReserved),
					knownBytesText(wantAlloc), knownBytesText(wantRes))
			}
			if a, rs := knownBytesText(r.PeakAllocated), knownBytesText(r.PeakReserved); a != tc.wantAlloc || rs != tc.wantRes {
				t.Errorf("overview %s / %s, want %s / %s", a, rs, tc.wantAlloc, tc.wantRes)
			}
		})
	}
}

// TestParseSummaryOlderPeaks: a summary.json written before
// devices[].peak_allocated_bytes and peak_reserved_bytes existed (an
// unchanged run of a batch, reported by an older gpureport) gets the
// peaks that version's overview showed, from its snapshots, else its
// memory_stats readings; a field that is there, null included, is kept,
// whatever the arrays say.
func TestParseSummaryOlderPeaks(t *testing.T) {
	const head = `{"schema": "gpureport/summary/v1", "run": "r", "inputs": {"snapshots": 1}, "verdict": {}, "devices": [`
	snap := func(alloc, res int64) string {
		return `{"allocated_bytes": ` + strconv.FormatInt(alloc, 10) + `, "reserved_bytes": ` + strconv.FormatInt(res, 10) + `}`
	}
	const gib = 1 << 30
	for _, tc := range []struct {
		name               string
		devices            []string
		wantAlloc, wantRes []string // per device
		runAlloc, runRes   string   // the overview's
	}{
		{"snapshots", []string{`{"device": 0, "snapshots": [` + snap(gib, 2*gib) + `, ` + snap(3*gib, 2*gib) + `]}`},
			[]string{"3.00 GiB"}, []string{"2.00 GiB"}, "3.00 GiB", "2.00 GiB"},
		{"snapshots win over memory_stats", []string{`{"device": 0, "snapshots": [` + snap(2*gib, 3*gib) + `], "memory_stats": {"allocated_max_bytes": 9663676416, "reserved_max_bytes": 9663676416}}`},
			[]string{"2.00 GiB"}, []string{"3.00 GiB"}, "2.00 GiB", "3.00 GiB"},
		{"reserved-only memory_stats", []string{`{"device": 0, "snapshots": [], "memory_stats": {"allocated_max_bytes": null, "reserved_max_bytes": 37580963840}}`},
			[]string{"n/a"}, []string{"35.0 GiB"}, "n/a", "35.0 GiB"},
		{"GPU log alone beside snapshots", []string{`{"device": 0, "snapshots": []}`, `{"device": 1, "snapshots": [` + snap(gib, gib) + `]}`},
			[]string{"n/a", "1.00 GiB"}, []string{"n/a", "1.00 GiB"}, "1.00 GiB", "1.00 GiB"},
		{"fields kept", []string{`{"device": 0, "peak_allocated_bytes": null, "peak_reserved_bytes": 1024, "snapshots": [` + snap(gib, gib) + `]}`},
			[]string{"n/a"}, []string{"1.00 KiB"}, "n/a", "1.00 KiB"},
		{"one field missing", []string{`{"device": 0, "peak_reserved_bytes": 1024, "snapshots": [` + snap(gib, gib) + `]}`},
			[]string{"1.00 GiB"}, []string{"1.00 KiB"}, "1.00 GiB", "1.00 KiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseSummary([]byte(head + strings.Join(tc.devices, ", ") + `]}`))
			if err != nil {
				t.Fatal(err)
			}
			for i, d := range s.Devices {
				if a, r := knownBytesText(d.PeakAllocatedBytes), knownBytesText(d.PeakReservedBytes); a != tc.wantAlloc[i] || r != tc.wantRes[i] {
					t.Errorf("device %d: peaks %s / %s, want %s / %s", i, a, r, tc.wantAlloc[i], tc.wantRes[i])
				}
			}
			r := OverviewRunFromSummary(s)
			if a, rs := knownBytesText(r.PeakAllocated), knownBytesText(r.PeakReserved); a != tc.runAlloc || rs != tc.runRes {
				t.Errorf("overview %s / %s, want %s / %s", a, rs, tc.runAlloc, tc.runRes)
			}
		})
	}
}

// TestParseSummaryDeviceTypes: a summary.json written before device_type
// existed reads as CUDA everywhere it names a device (its devices, leak
// suspects, leak sites and OOMs), and the batch overview names its
// suspects' devices "cuda:N"; a device_type that is there is kept, and
// names the device.
func TestParseSummaryDeviceTypes(t *testing.T) {
	const head = `{"schema": "gpureport/summary/v1", "run": "r", "inputs": {"snapshots": 1}, `
	for _, tc := range []struct {
		name, typ string // typ: the device_type written, "" for none
		want      string // every type read
		device    string // the overview's suspect device
	}{
		{"older summary.json", "", "cuda", "rank 2 · cuda:1"},
		{"CUDA", `"cuda"`, "cuda", "rank 2 · cuda:1"},
		{"XPU", `"xpu"`, "xpu", "rank 2 · xpu:1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			typ := ""
			if tc.typ != "" {
				typ = `, "device_type": ` + tc.typ
			}
			b := head + `"devices": [{"device": 1` + typ + `, "rank": 2, "snapshots": []}], ` +
				`"verdict": {"leak_suspects": [{"site": "a.py:1", "fingerprint": "f", "device": 1` + typ + `, "rank": 2, "growth_bytes_per_step": 1024}], ` +
				`"leak_sites": [{"site": "a.py:1", "device": 1` + typ + `, "rank": 2}]}, ` +
				`"ooms": [{"path": "train.log", "device": 1` + typ + `, "rank": 2, "class": "capacity"}]}`
			s, err := ParseSummary([]byte(b))
			if err != nil {
				t.Fatal(err)
			}
			got := []string{s.Devices[0].DeviceType, s.Verdict.LeakSuspects[0].DeviceType, s.Verdict.LeakSites[0].DeviceType, s.OOMs[0].DeviceType}
			for i, g := range got {
				if g != tc.want {
					t.Errorf("device type %d: %q, want %q (all: %q)", i, g, tc.want, got)
				}
			}
			r := OverviewRunFromSummary(s)
			if len(r.Suspects) != 1 || r.Suspects[0].Device != tc.device {
				t.Errorf("overview suspects %+v, want one on %s", r.Suspects, tc.device)
			}
		})
	}
}
