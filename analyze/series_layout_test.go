package analyze

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"gpureport/ingest"
	"gpureport/snapshot"
)

// TestStepsPerEpochAndExtras checks the order, axis, phases and notes of
// series whose names count steps within epochs, or hold one dump without
// a step beside stepped ones. Each file's live memory is its position in
// the true order (MiB), so the wanted order is 1, 2, 3, ...
func TestStepsPerEpochAndExtras(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	type in struct {
		name string
		pos  int // true position, from 1
		// mtime is minutes after t0 (negative: all files at t0, copy
		// times); traceS, seconds of trace time after t0 (0: none).
		mtime, traceS int
	}
	tests := []struct {
		name  string
		files []in
		order OrderRule
		axis  Axis
		// x are the points' positions in order; noStep the paths of
		// the points with PhaseNoStep.
		x      []float64
		noStep []string
		notes  []NoteKind
	}{
		{"per-epoch steps in the file name, copy times", []in{
			{"epoch1_step100.pickle", 4, -1, 0}, {"epoch0_step200.pickle", 2, -1, 0}, {"epoch2_step100.pickle", 7, -1, 0},
			{"epoch0_step100.pickle", 1, -1, 0}, {"epoch1_step300.pickle", 6, -1, 0}, {"epoch0_step300.pickle", 3, -1, 0}, {"epoch1_step200.pickle", 5, -1, 0}},
			OrderEpochStep, AxisSnapshot, []float64{0, 1, 2, 3, 4, 5, 6}, nil, []NoteKind{NoteStepsPerEpoch}},
		{"per-epoch steps under epoch folders, file times an hour apart", []in{
			{"epoch_01/iter_000100.pickle", 3, 120, 0}, {"epoch_00/iter_000100.pickle", 1, 0, 0}, {"epoch_00/iter_000200.pickle", 2, 60, 0}, {"epoch_01/iter_000200.pickle", 4, 180, 0}},
			OrderEpochStep, AxisHours, []float64{0, 1, 2, 3}, nil, []NoteKind{NoteStepsPerEpoch}},
		{"per-epoch steps with trace times", []in{
			{"epoch1_step10.pickle", 3, -1, 1200}, {"epoch0_step10.pickle", 1, -1, 0 + 1}, {"epoch0_step20.pickle", 2, -1, 600}, {"epoch1_step20.pickle", 4, -1, 1800}},
			OrderTraceTime, AxisHours, []float64{0, 599.0 / 3600, 1199.0 / 3600, 1799.0 / 3600}, nil, []NoteKind{NoteStepsPerEpoch}},
		// Steps that go on across epochs are global: the step axis stays.
		{"global steps beside epochs", []in{
			{"epoch1_step400.pickle", 3, -1, 0}, {"epoch0_step100.pickle", 1, -1, 0}, {"epoch0_step200.pickle", 2, -1, 0}, {"epoch1_step500.pickle", 4, -1, 0}},
			OrderStep, AxisStep, []float64{100, 200, 400, 500}, nil, nil},
		{"a final dump without a step, written last", []in{
			{"snapshot_step_10.pickle", 1, 0, 0}, {"snapshot_step_20.pickle", 2, 10, 0}, {"final_snapshot.pickle", 5, 50, 0}, {"snapshot_step_30.pickle", 3, 20, 0}, {"snapshot_step_40.pickle", 4, 30, 0}},
			OrderStep, AxisStep, []float64{10, 20, 30, 40, 40}, []string{"final_snapshot.pickle"}, []NoteKind{NoteNoStep}},
		{"a stepless copy placed by its file time", []in{
			{"snapshot_step_10.pickle", 1, 0, 0}, {"snapshot_step_20.pickle", 2, 10, 0}, {"keep.pickle", 3, 15, 0}, {"snapshot_step_30.pickle", 4, 20, 0}, {"snapshot_step_40.pickle", 5, 30, 0}},
			OrderStep, AxisStep, []float64{10, 20, 20, 30, 40}, []string{"keep.pickle"}, []NoteKind{NoteNoStep}},
		{"a stepless dump among copied files goes last", []in{
			{"snapshot_step_10.pickle", 1, -1, 0}, {"snapshot_step_20.pickle", 2, -1, 0}, {"latest.pickle", 5, -1, 0}, {"snapshot_step_30.pickle", 3, -1, 0}, {"snapshot_step_40.pickle", 4, -1, 0}},
			OrderStep, AxisStep, []float64{10, 20, 30, 40, 40}, []string{"latest.pickle"}, []NoteKind{NoteNoStep}},
		{"a stepless dump with trace times among stepped ones", []in{
			{"snapshot_step_10.pickle", 1, -1, 1}, {"snapshot_step_20.pickle", 2, -1, 600}, {"extra.pickle", 3, -1, 900}, {"snapshot_step_30.pickle", 4, -1, 1200}, {"snapshot_step_40.pickle", 5, -1, 1800}},
			OrderTraceTime, AxisStep, []float64{10, 20, 20, 30, 40}, []string{"extra.pickle"}, []NoteKind{NoteNoStep}},
		// Two stepless dumps of five are too many to be extras: no steps.
		{"too many stepless dumps", []in{
			{"snapshot_step_10.pickle", 1, 0, 0}, {"a.pickle", 2, 10, 0}, {"snapshot_step_20.pickle", 3, 20, 0}, {"b.pickle", 4, 30, 0}, {"snapshot_step_30.pickle", 5, 40, 0}},
			OrderModTime, AxisHours, []float64{0, 10.0 / 60, 20.0 / 60, 30.0 / 60, 40.0 / 60}, nil, nil},
		{"two dumps at one step", []in{
			{"snapshot_step_10.pickle", 1, 0, 0}, {"snapshot_step_20.pickle", 2, 10, 0}, {"snapshot_step_20_copy.pickle", 3, 11, 0}, {"snapshot_step_30.pickle", 4, 20, 0}},
			OrderStep, AxisStep, []float64{10, 20, 20, 30}, nil, []NoteKind{NoteSameStep}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var files []*ingest.SnapshotFile
			for _, f := range tt.files {
				var us int64
				if f.traceS != 0 {
					us = t0.Add(time.Duration(f.traceS) * time.Second).UnixMicro()
				}
				mt := t0
				if f.mtime >= 0 {
					mt = t0.Add(time.Duration(f.mtime) * time.Minute)
				}
				files = append(files, namedFile(liveSnap(int64(f.pos)*mib, us), f.name, mt))
			}
			f := Analyze(&ingest.Run{Dir: "run", Snapshots: files, Location: time.UTC}, Options{})
			if len(f.Devices) != 1 {
				t.Fatalf("%d devices", len(f.Devices))
			}
			d := f.Devices[0]
			if d.Order != tt.order || d.Axis != tt.axis {
				t.Errorf("order %q axis %q, want %q %q", d.Order, d.Axis, tt.order, tt.axis)
			}
			var x []float64
			var noStep []string
			for i, p := range d.Points {
				if p.Usage.Allocated != int64(i+1)*mib {
					t.Errorf("point %d is %s (%d MiB)", i, p.Path, p.Usage.Allocated/mib)
				}
				x = append(x, p.X)
				if p.Phase == PhaseNoStep {
					noStep = append(noStep, p.Path)
				}
			}
			if fmt.Sprintf("%.6f", x) != fmt.Sprintf("%.6f", tt.x) {
				t.Errorf("x %v, want %v", x, tt.x)
			}
			if !slices.Equal(noStep, tt.noStep) {
				t.Errorf("no-step points %v, want %v", noStep, tt.noStep)
			}
			var kinds []NoteKind
			for _, n := range f.Notes {
				switch n.Kind {
				case NoteStepsPerEpoch, NoteSameStep, NoteNoStep, NoteAxisSnapshot, NoteStepsNotIncreasing:
					kinds = append(kinds, n.Kind)
				}
				if n.Kind == NoteSameStep && (n.Paths != [2]string{"snapshot_step_20.pickle", "snapshot_step_20_copy.pickle"} || n.Step != 20) {
					t.Errorf("same-step note %+v", n)
				}
			}
			if !slices.Equal(kinds, tt.notes) {
				t.Errorf("notes %v, want %v", kinds, tt.notes)
			}
		})
	}
}

// TestListedDeviceGivesNoPoint: a rank whose dumps put memory on cuda:0
// at some steps and on cuda:1 at others (their device_traces list both
// GPUs) has no zero points: a file gives a device a point only when it
// has segments or trace events there, or has no segments anywhere.
func TestListedDeviceGivesNoPoint(t *testing.T) {
	var files []*ingest.SnapshotFile
	for i := range 6 {
		dev := i % 2
		s := newSnap().segment(dev, live(int64(i+1)*mib, stackAt("train.py", 10, "step")))
		s.s.Traces = make([][]snapshot.TraceEntry, 2) // both GPUs listed, no events
		files = append(files, file(s.done(), fmt.Sprintf("snap_step_%d.pickle", i), int64(i), -1))
	}
	files = append(files, file(newSnap().done(), "snap_step_6.pickle", 6, -1))
	series := BuildSeries(files)
	if len(series) != 2 {
		t.Fatalf("%d series", len(series))
	}
	for dev, want := range [][]string{
		{"snap_step_0.pickle", "snap_step_2.pickle", "snap_step_4.pickle", "snap_step_6.pickle"},
		{"snap_step_1.pickle", "snap_step_3.pickle", "snap_step_5.pickle", "snap_step_6.pickle"},
	} {
		if got := pathsOf(series[dev]); !slices.Equal(got, want) {
			t.Errorf("cuda:%d points %v, want %v", dev, got, want)
		}
	}
}
