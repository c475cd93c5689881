package report

import (
	"gpureport/analyze"
	"gpureport/analyze/roles"
	"gpureport/internal/units"
	"gpureport/report/words"
)

// What holds a device's memory (docs/design.md's roles and pools): a
// stacked chart of the roles over the snapshots, a table of the roles at
// the peak snapshot, at each OOM of the device and at the trace window's
// peak, the pools at the peak snapshot and how sure the roles are.

// roleColors are the roles' colors in the stacked charts, in the roles'
// order: the model's own memory in blues and greens, the step's
// transient memory in oranges, the rest in greys.
var roleColors = [roles.NumRoles]string{
	"#1d4ed8", "#60a5fa", "#059669", "#f59e0b", "#fbbf24",
	"#a855f7", "#ec4899", "#14b8a6", "#9ca3af", "#d1d5db",
}

// rolesItem is a device's roles; nil when none of its snapshots has them.
type rolesItem struct {
	// Chart stacks the roles' bytes over the snapshots.
	Chart chartSpec
	// Moments are the role tables: the peak snapshot, each OOM of the
	// device, the trace window's peak.
	Moments []roleMoment
	// Pools are the pools at the peak snapshot.
	Pools []rolePoolRow
	// Certainty says how sure the roles at the peak snapshot are.
	Certainty string
	// Snapshots are the roles of every snapshot, for the workbook, and
	// MomentRows those of the OOMs and the trace's peak.
	Snapshots, MomentRows []roleSnapshotRow
}

// roleMoment is the roles at one moment: its title ("peak snapshot",
// "OOM at ..."), the file, the allocated total and a row per role
// holding bytes, largest first.
type roleMoment struct {
	Title, Path string
	Allocated   Cell
	Rows        []roleRow
}

// roleRow is one role at a moment: its bytes, share of the allocated
// bytes and the shares of them decided by a user label, a frame rule and
// a lifetime.
type roleRow struct {
	Role                   string
	Bytes, Share           Cell
	Label, Frame, Lifetime Cell
}

// rolePoolRow is one pool: its kind (and name), accounting and free
// memory split into stranded and reusable.
type rolePoolRow struct {
	Pool, Kind                         string
	Reserved, Allocated, Fragmentation Cell
	StrandedFree, ReusableFree         Cell
}

// roleSnapshotRow is the roles of one snapshot or moment: its device,
// what moment it is ("snapshot", "OOM", "trace peak"), the snapshot's
// index (0 for another moment), file, position on the axis and the bytes
// of each role.
type roleSnapshotRow struct {
	Device    string
	Moment    string
	Index     int
	Path      string
	X         Cell
	Allocated Cell
	Bytes     [roles.NumRoles]Cell
}

// buildRoles builds device d's roles item; nil without roles.
func buildRoles(f *analyze.Findings, d *analyze.Device) *rolesItem {
	peak := d.PeakPoint()
	if peak < 0 || d.Points[peak].Roles == nil {
		return nil
	}
	it := &rolesItem{Chart: rolesChart(d)}
	pp := &d.Points[peak]
	it.Moments = append(it.Moments, roleMomentOf(words.RolesAtPeak(peak+1), pp.Path, pp.Roles))
	// The dumps taken at an OOM or at exit: the state the job died in,
	// beside the roles rebuilt at the OOM's own event below.
	for i := range d.Points {
		p := &d.Points[i]
		if i != peak && p.Roles != nil && (p.Phase == analyze.PhaseOOMDump || p.Phase == analyze.PhaseExitDump) {
			it.Moments = append(it.Moments, roleMomentOf(words.RolesAtDump(i+1), p.Path, p.Roles))
		}
	}
	for i := range f.OOMs {
		o := &f.OOMs[i]
		if o.Roles == nil || o.Rank != d.Rank || o.Device != d.Device || d.Host {
			continue
		}
		it.Moments = append(it.Moments, roleMomentOf(words.RolesAtOOM(o), o.Path, o.Roles))
		it.MomentRows = append(it.MomentRows, roleRowOf(d, "OOM", 0, o.Path, noneCell(UnitNumber), o.Roles))
	}
	if tw := d.TraceWindow; tw != nil && tw.Peak != nil && !tw.Peak.LowerBound {
		it.Moments = append(it.Moments, roleMomentOf(words.RolesAtTracePeak(tw.Peak.Index), tw.Path, &tw.Peak.Roles))
		it.MomentRows = append(it.MomentRows, roleRowOf(d, "trace peak", 0, tw.Path, noneCell(UnitNumber), &tw.Peak.Roles))
	}
	for _, pu := range pp.Pools {
		kind := pu.Kind.String()
		if pu.Name != "" {
			kind += " " + pu.Name
		}
		it.Pools = append(it.Pools, rolePoolRow{Pool: pu.Pool, Kind: kind, Reserved: byteCell(pu.Reserved), Allocated: byteCell(pu.Allocated),
			Fragmentation: shareCell(pu.ExternalFragmentation()), StrandedFree: byteCell(pu.StrandedFree), ReusableFree: byteCell(pu.ReusableFree)})
	}
	it.Certainty = words.Certainty(pp.Roles)
	for i := range d.Points {
		p := &d.Points[i]
		if p.Roles == nil {
			continue
		}
		it.Snapshots = append(it.Snapshots, roleRowOf(d, "snapshot", i+1, p.Path, numberCell(p.X), p.Roles))
	}
	return it
}

// roleRowOf is the workbook's row of breakdown bd of device d.
func roleRowOf(d *analyze.Device, moment string, index int, path string, x Cell, bd *roles.Breakdown) roleSnapshotRow {
	r := roleSnapshotRow{Device: words.Device(d.DeviceKey), Moment: moment, Index: index, Path: path, X: x, Allocated: byteCell(bd.Allocated)}
	for k := range roles.NumRoles {
		r.Bytes[k] = byteCell(bd.Bytes[k])
	}
	return r
}

// roleMomentOf is the table of breakdown bd at one moment.
func roleMomentOf(title, path string, bd *roles.Breakdown) roleMoment {
	m := roleMoment{Title: title, Path: path, Allocated: byteCell(bd.Allocated)}
	for _, rs := range words.ByBytes(&bd.Bytes) {
		r := rs.Role
		m.Rows = append(m.Rows, roleRow{Role: words.Role(r), Bytes: byteCell(rs.Bytes), Share: shareCell(bd.Fraction(r)),
			Label: shareCell(bd.Share(r, roles.ByLabel)), Frame: shareCell(bd.Share(r, roles.ByFrame)), Lifetime: shareCell(bd.Share(r, roles.ByLifetime))})
	}
	return m
}

// rolesChart stacks the bytes of each role over a device's snapshots, on
// a category axis of the snapshots' positions (echarts stacks only
// there); a role that holds nothing in any snapshot is left out. Every
// series has a point at every snapshot, and long series are thinned at
// the same snapshots for every role.
func rolesChart(d *analyze.Device) chartSpec {
	var idx []int
	maxV := 0.0
	var held [roles.NumRoles]bool
	for i, p := range d.Points {
		if p.Roles == nil {
			continue
		}
		idx = append(idx, i)
		maxV = max(maxV, float64(p.Roles.Allocated))
		for r, n := range p.Roles.Bytes {
			held[r] = held[r] || n > 0
		}
	}
	if n := len(idx); n > maxChartPoints {
		keep := make([]int, 0, maxChartPoints)
		for k := range maxChartPoints {
			keep = append(keep, idx[k*(n-1)/(maxChartPoints-1)])
		}
		idx = keep
	}
	unit, size := unitFor(maxV)
	spec := chartSpec{id: "roles-" + deviceAnchor(d.DeviceKey), xName: words.DeviceAxis(d), yName: unit, zoom: true, height: 340,
		categories: make([]string, 0, len(idx))}
	for _, i := range idx {
		spec.categories = append(spec.categories, units.Number(d.Points[i].X))
	}
	for r := range roles.NumRoles {
		if !held[r] {
			continue
		}
		pts := make([]xy, 0, len(idx))
		for _, i := range idx {
			p := &d.Points[i]
			pts = append(pts, xy{p.X, float64(p.Roles.Bytes[r]) / size})
		}
		spec.series = append(spec.series, seriesSpec{name: words.Role(r), points: pts, stack: "roles", area: 0.75, color: roleColors[r], symbols: len(pts) <= 60})
	}
	return spec
}
