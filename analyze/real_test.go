package analyze

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"gpureport/analyze/roles"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/internal/testutil"
	"gpureport/snapshot"
)

// oneSnapshotRun wraps a decoded real file as a run of one snapshot.
func oneSnapshotRun(t testing.TB, path string) *ingest.Run {
	t.Helper()
	s, c, err := snapshot.DecodeFile(path, snapshot.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return &ingest.Run{
		Dir:      filepath.Dir(path),
		Location: time.UTC,
		Snapshots: []*ingest.SnapshotFile{{
			Source:    input.Source{Path: filepath.Base(path)},
			Container: c, Step: ingest.StepFromName(filepath.Base(path)), Rank: input.NoRank, Snapshot: s,
		}},
	}
}

// TestRealSnapshotsAnalyse runs Analyze on every real snapshot as a
// one-snapshot run: no panic, a device per device with segments, usage
// that matches the accounting, a verdict, and groups that sum to the live
// bytes.
func TestRealSnapshotsAnalyse(t *testing.T) {
	files := testutil.RealFiles(t, "snapshots", "*.pickle", "*.pkl")
	for _, path := range files {
		t.Run(testutil.Rel(t, path), func(t *testing.T) {
			run := oneSnapshotRun(t, path)
			f := Analyze(run, Options{})
			CheckProse(t, t.Name(), f)
			snap := run.Snapshots[0].Snapshot
			var segDevs []int
			for i := range snap.Segments {
				if !slices.Contains(segDevs, snap.Segments[i].Device) {
					segDevs = append(segDevs, snap.Segments[i].Device)
				}
			}
			if want := max(1, len(segDevs)); len(segDevs) > 0 && len(f.Devices) != want {
				t.Errorf("%d devices, snapshot has segments on %v", len(f.Devices), segDevs)
			}
			if f.Verdict.Severity == "" {
				t.Errorf("empty verdict %+v", f.Verdict)
			}
			for _, d := range f.Devices {
				if len(d.Points) != 1 {
					t.Fatalf("device %d: %d points", d.Device, len(d.Points))
				}
				u := d.Points[0].Usage
				var sum int64
				for _, g := range d.Groups {
					sum += g.Bytes[0]
				}
				if sum != u.Allocated {
					t.Errorf("device %d: groups sum to %d, allocated %d", d.Device, sum, u.Allocated)
				}
				if d.Trends[0].Status() != StatusInsufficient {
					t.Errorf("device %d: one snapshot gave trend verdict %q", d.Device, d.Trends[0].Status())
				}
				if len(d.Suspects) != 0 {
					t.Errorf("device %d: suspects from one snapshot", d.Device)
				}
				if tw := d.TraceWindow; tw != nil {
					last := tw.Timeline[len(tw.Timeline)-1]
					if last.Allocated != u.Allocated || last.Reserved != u.Reserved {
						t.Errorf("device %d: timeline ends at %d/%d, snapshot says %d/%d", d.Device, last.Allocated, last.Reserved, u.Allocated, u.Reserved)
					}
					for _, p := range tw.Timeline {
						if p.Reserved < 0 {
							t.Errorf("device %d: negative reserved %d at event %d", d.Device, p.Reserved, p.Index)
							break
						}
					}
				}
			}
		})
	}
}

// TestRealExpandableOOMExplanation checks the OOM explanation of the
// expandable-segments 3-GPU file against numbers worked out by hand from
// the pickle (python3: the oom entry of device_traces[1], the 87
// free_requested events after it, and device 1's segments).
func TestRealExpandableOOMExplanation(t *testing.T) {
	path := testutil.RealFiles(t, "snapshots", "code_location_expandable_multigpu_oom.pickle")[0]
	f := Analyze(oneSnapshotRun(t, path), Options{})
	CheckProse(t, t.Name(), f)
	if len(f.OOMs) != 1 {
		t.Fatalf("%d OOMs, want 1", len(f.OOMs))
	}
	o := f.OOMs[0]
	checks := []struct {
		name      string
		got, want int64
		tol       int64
	}{
		{"device", int64(o.Device), 1, 0},
		{"requested", o.Requested, 5308694528, 0},
		{"device free", o.DeviceFree, 95682560, 0},
		// Device 1 reserves 84,202,749,952 bytes in 9 segments; no
		// segment event follows the OOM.
		{"reserved", o.Reserved, 84202749952, 0},
		// 403,507,712 live at the snapshot + 83,659,845,648 freed after
		// the OOM (requested sizes; the replay rounds each up to 512 B).
		{"allocated", o.Allocated, 403507712 + 83659845648, 87 * 512},
		{"freed after", o.FreedAfter, 83659845648, 87 * 512},
		{"cached free", o.CachedFree, 84202749952 - 403507712 - 83659845648, 87 * 512},
	}
	for _, c := range checks {
		if d := c.got - c.want; d < -c.tol || d > c.tol {
			t.Errorf("%s = %d, want %d (±%d)", c.name, c.got, c.want, c.tol)
		}
	}
	if o.Cause != "capacity" {
		t.Errorf("class %q, want capacity", o.Cause)
	}
	if o.LargestFree >= o.Requested || o.LargestFree > o.CachedFree {
		t.Errorf("largest free %d with %d cached free and %d requested", o.LargestFree, o.CachedFree, o.Requested)
	}
	if !o.Reconstructed || o.Site != "models.py:181" || o.Function != "update_nodes" {
		t.Errorf("reconstructed %v, site %q function %q", o.Reconstructed, o.Site, o.Function)
	}
	if !o.Settings.ExpandableSegments || o.Settings.Conf != "expandable_segments:True" {
		t.Errorf("settings %+v", o.Settings)
	}
	if o.Cause != CauseCapacity || !o.Expandable || !(o.FreedAfter > 0) {
		t.Errorf("cause %q, expandable %v, freed after %d: want a capacity OOM with expandable segments, freed as the step unwound", o.Cause, o.Expandable, o.FreedAfter)
	}
	// The forward pass of update_nodes holds the memory: the levers are
	// checkpointing and a smaller micro-batch, and expandable segments,
	// already on, are kept.
	if o.Roles == nil || o.Phase != "forward" || o.Roles.Allocated-o.Allocated < -87*512 || o.Roles.Allocated-o.Allocated > 87*512 ||
		o.Roles.Fraction(roles.Activations) < 0.9 {
		t.Errorf("roles at the OOM in %q: %+v of %d allocated", o.Phase, o.Roles, o.Allocated)
	}
	var kinds []roles.LeverKind
	for _, r := range o.Recommendations {
		kinds = append(kinds, r.Lever.Kind)
	}
	if n := len(o.Recommendations); n != 3 || o.Recommendations[0].Kind != StepLever || o.Recommendations[1].Kind != StepLever ||
		o.Recommendations[2].Kind != StepKeepExpandable || kinds[0] != roles.ActivationCheckpointing || kinds[1] != roles.SmallerMicroBatch {
		t.Errorf("recommendations %+v", o.Recommendations)
	}
	if len(o.TopLive) == 0 || o.TopLive[0].Bytes < 10<<30 {
		t.Errorf("top live groups at the OOM: %+v", o.TopLive)
	}
	if !f.Verdict.OOM || f.Verdict.Severity != "critical" || f.Verdict.Fragmentation {
		t.Errorf("verdict %+v", f.Verdict)
	}
	for _, r := range o.Recommendations {
		t.Logf("try %s", r.Kind)
	}
	for _, g := range o.TopLive {
		t.Logf("live at OOM: %s %s %d bytes in %d blocks", g.Site, g.Function, g.Bytes, g.Blocks)
	}
}
