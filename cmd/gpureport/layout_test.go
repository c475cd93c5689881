package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpureport/report"
)

// TestIndexNamedCopiedRun reports a run of index-named snapshots whose
// file times are seconds apart (a copied run): no slope may be per step
// or per hour, the devices say their order and axis, and every device
// listed has segments.
func TestIndexNamedCopiedRun(t *testing.T) {
	snap := tinySnapshot(t)
	dir := t.TempDir()
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	for i, name := range []string{"mem_snapshot_1.pkl", "mem_snapshot_2.pkl", "mem_snapshot_10.pkl"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, snap, 0o644); err != nil {
			t.Fatal(err)
		}
		mt := t0.Add(time.Duration(i) * 200 * time.Millisecond)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "report")
	code, stdout, errs := runTB(t, "-q", "-o", out, dir)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, errs)
	}
	s, err := report.ReadSummary(filepath.Join(out, report.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Devices) == 0 {
		t.Fatal("no devices")
	}
	for _, d := range s.Devices {
		if d.Axis != "snapshot" || d.Order == "" {
			t.Errorf("device %d: order %q axis %q, want the snapshot axis", d.Device, d.Order, d.Axis)
		}
		if d.Trend.SlopeBytesPerHour != nil || d.Trend.SlopeBytesPerStep != nil {
			t.Errorf("device %d: a per-hour or per-step slope from a copied, step-less run: %+v", d.Device, d.Trend)
		}
		for _, sn := range d.Snapshots {
			if sn.Step != nil {
				t.Errorf("device %d: %s has step %d from an index name", d.Device, sn.Path, *sn.Step)
			}
		}
	}
	if strings.Contains(stdout, "per hour") {
		t.Errorf("stdout speaks of hours:\n%s", stdout)
	}
}
