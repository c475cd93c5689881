package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"gpureport/internal/testutil"
	"gpureport/snapshot"
)

// summarySnapshot is one entry of summary.json's devices[].snapshots[].
type summarySnapshot struct {
	Path        string `json:"path"`
	Reserved    int64  `json:"reserved_bytes"`
	Allocated   int64  `json:"allocated_bytes"`
	Active      int64  `json:"active_bytes"`
	Requested   int64  `json:"requested_bytes"`
	Inactive    int64  `json:"inactive_bytes"`
	LargestFree int64  `json:"largest_free_bytes"`
	Segments    int    `json:"segments"`
	Blocks      int    `json:"blocks"`
	Trace       int    `json:"trace_entries"`
}

// TestRealSnapshotsSummaryExact reports the folder of all 51 real snapshots
// in one run and checks every snapshot entry of summary.json, per device,
// against the totals PyTorch itself stored in each segment (total_size,
// allocated_size, active_size, requested_size), the block and segment
// counts, the largest inactive block and the trace length, read from the
// decoded file independently of the analysis.
func TestRealSnapshotsSummaryExact(t *testing.T) {
	dir := testutil.RealDir(t, "snapshots")
	out := t.TempDir()
	code, stdout, stderr := runCmd(t, "-q", "-o", out, dir)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Inputs struct {
			Snapshots int               `json:"snapshots"`
			Skipped   []json.RawMessage `json:"skipped"`
		} `json:"inputs"`
		Devices []struct {
			Device    int               `json:"device"`
			Snapshots []summarySnapshot `json:"snapshots"`
		} `json:"devices"`
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Inputs.Snapshots != 51 || len(sum.Inputs.Skipped) != 0 {
		t.Fatalf("inputs: %d snapshots, %d skipped; want 51, 0", sum.Inputs.Snapshots, len(sum.Inputs.Skipped))
	}
	decoded := map[string]*snapshot.Snapshot{}
	checked := 0
	for _, d := range sum.Devices {
		for _, got := range d.Snapshots {
			s := decoded[got.Path]
			if s == nil {
				var err error
				s, _, err = snapshot.DecodeFile(filepath.Join(dir, filepath.FromSlash(got.Path)), snapshot.DecodeOptions{})
				if err != nil {
					t.Fatal(err)
				}
				decoded[got.Path] = s
			}
			var want summarySnapshot
			want.Path = got.Path
			for _, seg := range s.Segments {
				if seg.Device != d.Device {
					continue
				}
				want.Segments++
				want.Reserved += seg.TotalSize
				want.Allocated += seg.AllocatedSize
				want.Active += seg.ActiveSize
				want.Requested += seg.RequestedSize
				want.Blocks += len(seg.Blocks)
				for _, blk := range seg.Blocks {
					if !blk.State.Active() {
						want.LargestFree = max(want.LargestFree, blk.Size)
					}
				}
			}
			want.Inactive = want.Reserved - want.Active
			want.Trace = s.TraceEntries(d.Device)
			if got != want {
				t.Errorf("%s device %d:\n got  %+v\n want %+v", got.Path, d.Device, got, want)
			}
			checked++
		}
	}
	if len(decoded) != 51 {
		t.Errorf("summary.json lists %d distinct snapshot files, want 51", len(decoded))
	}
	t.Logf("checked %d (snapshot, device) entries", checked)
}
