package analyze

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"gpureport/ingest"
	"gpureport/input"
	"gpureport/snapshot"
)

// namedFile wraps a snapshot as a run's file whose name gave no step but
// maybe an order (ingest.ParseName), modified at mtime.
func namedFile(s *snapshot.Snapshot, path string, mtime time.Time) *ingest.SnapshotFile {
	n := ingest.ParseName(path)
	return &ingest.SnapshotFile{
		Source: input.Source{Path: path, ModTime: mtime},
		Step:   n.Step, Order: n.Order, OrderKind: n.OrderKind, Rank: n.Rank, Phase: n.Phase, Epoch: n.Epoch, Snapshot: s,
	}
}

// liveSnap is a snapshot with size bytes live on device 0 and, when
// traceUS is not 0, one trace event at that time.
func liveSnap(size int64, traceUS int64) *snapshot.Snapshot {
	b := newSnap().segment(0, live(size, stackAt("train.py", 10, "step")), free(4*mib))
	if traceUS != 0 {
		b.event(0, snapshot.ActionAlloc, 0x1000, 512, traceUS, nil)
	}
	return b.done()
}

func TestBuildSeriesOrderAndAxis(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	// Each case names its files in a scrambled order; sizes grow with the
	// true order, so the ordered series must grow.
	type in struct {
		name    string
		mtime   time.Time
		traceUS int64
		pos     int // true position in the run
	}
	tests := []struct {
		name  string
		files []in
		order OrderRule
		axis  Axis
		// written is Series.ModTimesWritten: file times seconds apart or
		// equal are copy times.
		written bool
	}{
		{"a stepless OOM dump beside stepped ones keeps the step axis", []in{{"oom_snapshot.pickle", t0, 0, 2}, {"snap_step_2.pickle", t0, 0, 1}, {"snap_step_1.pickle", t0, 0, 0}},
			OrderStep, AxisStep, false},
		// The same with trace times of seconds: the dump sorts last by
		// time, and its missing step is no decrease of the steps.
		{"a stepless OOM dump beside stepped ones, every file with a trace time", []in{{"oom_snapshot.pickle", t0, t0.Add(20 * time.Second).UnixMicro(), 2}, {"snap_step_2.pickle", t0, t0.Add(10 * time.Second).UnixMicro(), 1}, {"snap_step_1.pickle", t0, t0.UnixMicro(), 0}},
			OrderTraceTime, AxisStep, false},
		{"a stamp-less OOM dump beside timestamped ones sorts last", []in{{"oom_snapshot.pickle", t0.Add(2 * time.Hour), 0, 2}, {"snap_20260302_100000.pickle", t0.Add(time.Hour), 0, 1}, {"snap_20260302_090000.pickle", t0, 0, 0}},
			OrderNameTime, AxisHours, true},
		{"steps", []in{{"snap_step_20.pickle", t0, 0, 1}, {"snap_step_3.pickle", t0.Add(time.Hour), 0, 0}, {"snap_step_100.pickle", t0.Add(2 * time.Hour), 0, 2}},
			OrderStep, AxisStep, true},
		{"index names are an order, not steps, with real file times", []in{{"mem_snapshot_2.pkl", t0.Add(time.Hour), 0, 1}, {"mem_snapshot_10.pkl", t0.Add(3 * time.Hour), 0, 2}, {"mem_snapshot_1.pkl", t0, 0, 0}},
			OrderNameIndex, AxisHours, true},
		{"epoch names are not steps", []in{{"snapshot_epoch4.pickle", t0.Add(3 * time.Hour), 0, 2}, {"snapshot_epoch2.pickle", t0, 0, 0}, {"snapshot_epoch3.pickle", t0.Add(time.Hour), 0, 1}},
			OrderNameEpoch, AxisHours, true},
		{"timestamp names give the time axis", []in{{"snap_20260302_120000.pickle", t0, 0, 2}, {"snap_20260302_090000.pickle", t0, 0, 0}, {"snap_20260302_100000.pickle", t0, 0, 1}},
			OrderNameTime, AxisHours, false},
		{"index names copied within seconds: order, no hours", []in{{"mem_snapshot_3.pkl", t0.Add(300 * time.Millisecond), 0, 2}, {"mem_snapshot_1.pkl", t0.Add(100 * time.Millisecond), 0, 0}, {"mem_snapshot_2.pkl", t0, 0, 1}},
			OrderNameIndex, AxisSnapshot, false},
		{"unnamed files copied within seconds: by path", []in{{"b_snap.pickle", t0, 0, 1}, {"a_snap.pickle", t0.Add(400 * time.Millisecond), 0, 0}, {"c_snap.pickle", t0.Add(200 * time.Millisecond), 0, 2}},
			OrderPath, AxisSnapshot, false},
		{"copy times seconds apart while trace times span days", []in{{"b_snap.pickle", t0.Add(time.Second), t0.Add(-day).UnixMicro(), 1}, {"a_snap.pickle", t0.Add(3 * time.Second), 0, 0}, {"c_snap.pickle", t0.Add(2 * time.Second), t0.Add(day).UnixMicro(), 2}},
			OrderPath, AxisSnapshot, false},
		{"unnamed files written hours apart: file times", []in{{"y_snap.pickle", t0, 0, 0}, {"x_snap.pickle", t0.Add(time.Hour), 0, 1}, {"z_snap.pickle", t0.Add(2 * time.Hour), 0, 2}},
			OrderModTime, AxisHours, true},
		{"trace times of seconds: no per-hour axis", []in{{"c.pickle", t0, t0.Add(20 * time.Second).UnixMicro(), 2}, {"a.pickle", t0, t0.UnixMicro(), 0}, {"b.pickle", t0, t0.Add(10 * time.Second).UnixMicro(), 1}},
			OrderTraceTime, AxisSnapshot, false},
		{"trace times of days", []in{{"c.pickle", t0, t0.Add(2 * day).UnixMicro(), 2}, {"a.pickle", t0, t0.UnixMicro(), 0}, {"b.pickle", t0, t0.Add(day).UnixMicro(), 1}},
			OrderTraceTime, AxisHours, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Live bytes grow with the true position, so the ordered
			// series must grow.
			var files []*ingest.SnapshotFile
			for _, f := range tt.files {
				files = append(files, namedFile(liveSnap(int64(f.pos+1)*mib, f.traceUS), f.name, f.mtime))
			}
			sorted := BuildSeries(files)
			if len(sorted) != 1 {
				t.Fatalf("%d series", len(sorted))
			}
			s := sorted[0]
			if s.ModTimesWritten != tt.written {
				t.Errorf("ModTimesWritten %v, want %v", s.ModTimesWritten, tt.written)
			}
			if s.Order != tt.order || s.Axis != tt.axis {
				t.Errorf("order %q axis %q, want %q %q", s.Order, s.Axis, tt.order, tt.axis)
			}
			for i := 1; i < len(s.Points); i++ {
				if s.Points[i].Usage.Allocated <= s.Points[i-1].Usage.Allocated {
					t.Errorf("point %d (%s) out of order: %v", i, s.Points[i].Path, pathsOf(s))
				}
				if s.Points[i].X < s.Points[i-1].X {
					t.Errorf("x goes back at %d: %v", i, s.Points[i].X)
				}
			}
			for _, p := range s.Points {
				if oom := strings.HasPrefix(p.Path, "oom_"); oom != (p.Phase != "") {
					t.Errorf("%s: phase %q", p.Path, p.Phase)
				}
			}
			if s.Axis == AxisSnapshot && s.Points[len(s.Points)-1].X != float64(len(s.Points)-1) {
				t.Errorf("snapshot axis ends at %v", s.Points[len(s.Points)-1].X)
			}
		})
	}
}

func pathsOf(s *Series) []string {
	var out []string
	for _, p := range s.Points {
		out = append(out, p.Path)
	}
	return out
}

// TestDevicesOfTheRun builds a 4-rank run on an 8-GPU node: every rank's
// snapshots list all 8 GPUs (device_traces), some with stray trace events,
// but each rank has segments only on its own GPU. The run has 4 devices,
// and their notes are folded by kind.
func TestDevicesOfTheRun(t *testing.T) {
	var snaps []*ingest.SnapshotFile
	for rank := range 4 {
		for step := range 3 {
			b := newSnap().segment(rank, live(int64(step+1)*mib, stackAt("train.py", 10, "step")))
			for dev := range 8 {
				// An empty list per visible GPU, and on the others a
				// stray free of a block the trace never saw: the
				// "ring buffer full" signature.
				b.event(dev, snapshot.ActionFreeCompleted, 0x9000+uint64(dev), 512, int64(step+1)*1_000_000, nil)
			}
			snaps = append(snaps, file(b.done(), fmt.Sprintf("rank%d/snap_step_%d.pickle", rank, step), int64(step), rank))
		}
	}
	f := Analyze(&ingest.Run{Dir: "run", Snapshots: snaps, Location: time.UTC}, Options{})
	if len(f.Devices) != 4 {
		t.Fatalf("%d devices, want 4", len(f.Devices))
	}
	for i, d := range f.Devices {
		if d.Rank != i || d.Device != i {
			t.Errorf("device %d is rank %d cuda:%d", i, d.Rank, d.Device)
		}
	}
	// One trace-window note per device, which the reports fold into one
	// (words.Notes).
	var overflow []DeviceKey
	for _, n := range f.Notes {
		if n.Kind == NoteTraceOverflow {
			overflow = append(overflow, n.Device)
		}
	}
	if want := []DeviceKey{{Rank: 0, Device: 0}, {Rank: 1, Device: 1}, {Rank: 2, Device: 2}, {Rank: 3, Device: 3}}; fmt.Sprint(overflow) != fmt.Sprint(want) {
		t.Errorf("trace notes on %v, want %v", overflow, want)
	}
}

func TestRankDevicesFallback(t *testing.T) {
	traceOnly := newSnap().event(2, snapshot.ActionAlloc, 0x1000, 512, 1, nil).done()
	empty := newSnap().done()
	tests := []struct {
		name  string
		snaps []*snapshot.Snapshot
		want  []int
	}{
		{"segments decide", []*snapshot.Snapshot{newSnap().segment(3, live(mib, nil)).event(0, snapshot.ActionAlloc, 1, 1, 1, nil).done()}, []int{3}},
		{"segments in any snapshot", []*snapshot.Snapshot{newSnap().segment(1, live(mib, nil)).done(), newSnap().segment(2, live(mib, nil)).done()}, []int{1, 2}},
		{"devices interleaved in a snapshot", []*snapshot.Snapshot{newSnap().segment(4, live(mib, nil)).segment(4, live(mib, nil)).segment(1, live(mib, nil)).segment(4, live(mib, nil)).segment(0, live(mib, nil)).done()}, []int{0, 1, 4}},
		{"no segments anywhere: devices with trace events", []*snapshot.Snapshot{traceOnly}, []int{2}},
		{"nothing at all: device 0", []*snapshot.Snapshot{empty}, []int{0}},
	}
	for _, tt := range tests {
		var files []*ingest.SnapshotFile
		for i, s := range tt.snaps {
			files = append(files, file(s, fmt.Sprintf("s_step_%d.pickle", i), int64(i), input.NoRank))
		}
		if got := RankDevices(files); fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
