package report

import (
	"slices"
	"testing"

	"gpureport/analyze"
	"gpureport/analyze/roles"
	"gpureport/report/words"
)

// TestBuildRoles: a device's roles item tables the peak snapshot, every
// OOM or exit dump, each OOM of the device with roles and the trace's
// peak; its chart stacks every role that holds bytes on a category axis
// of the snapshots, a point per snapshot, and no role that holds none.
func TestBuildRoles(t *testing.T) {
	f, _ := fixtureFindings()
	d := f.Devices[1]
	d.Points[5].Phase = analyze.PhaseOOMDump
	it := buildRoles(f, d)
	if it == nil {
		t.Fatal("no roles item")
	}
	var titles []string
	for _, m := range it.Moments {
		titles = append(titles, m.Title)
	}
	want := []string{"At the peak snapshot (#12)", "At the OOM or exit dump (#6)", "At the OOM at 2025-03-14T11:00:00Z (in forward)", "At the peak inside the last trace (event 31250)"}
	if !slices.Equal(titles, want) {
		t.Errorf("moments %q, want %q", titles, want)
	}
	if n := len(it.Moments[0].Rows); n != 9 || it.Moments[0].Rows[0].Role != "activations" {
		t.Errorf("peak table %+v: want the 9 roles holding bytes, activations first", it.Moments[0].Rows)
	}
	c := it.Chart
	if len(c.categories) != len(d.Points) || len(c.series) != 9 {
		t.Fatalf("chart: %d categories, %d series; want %d and 9", len(c.categories), len(c.series), len(d.Points))
	}
	for _, s := range c.series {
		if s.stack != "roles" || len(s.points) != len(d.Points) || s.name == words.Role(roles.GraphPools) {
			t.Errorf("series %s: stack %q, %d points", s.name, s.stack, len(s.points))
		}
	}
	if len(it.Snapshots) != 12 || len(it.MomentRows) != 2 || it.MomentRows[0].Moment != "OOM" {
		t.Errorf("workbook rows: %d snapshots, moments %+v", len(it.Snapshots), it.MomentRows)
	}
	// A device without roles has no item.
	bare := &analyze.Device{Points: []analyze.Point{{}}}
	if buildRoles(f, bare) != nil {
		t.Error("a device without roles has a roles item")
	}
}
