package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"gpureport/analyze"
	"gpureport/internal/units"
	"gpureport/report/words"
)

// The segment map draws a device's last snapshot: its largest segments
// in address order, each a bar of its blocks, the blocks of a leak
// suspect marked.

// Limits of the segment map.
const (
	// maxMapSegments bounds the segments drawn: the largest are kept,
	// the rest counted.
	maxMapSegments = 64
	// maxMapBlocks bounds the cells of one segment's bar: tiny neighbours
	// of one state are merged.
	maxMapBlocks = 160
)

// segmentMapItem is the last snapshot's segments of a device.
type segmentMapItem struct {
	Device   string
	Path     string
	Segments []segmentRow
	// Omitted counts the segments left out and OmittedBytes their bytes.
	Omitted      int
	OmittedBytes string
}

// segmentRow is one segment's bar.
type segmentRow struct {
	Label string
	// Width is the bar's width, in proportion to the segment's size
	// against the largest segment drawn.
	Width  string
	Blocks []blockCell
}

// blockCell is one cell of a segment's bar: a block, or a run of tiny
// blocks of one state.
type blockCell struct {
	Class string
	Width string
	Title string
}

// buildSegmentMap lays out device d's segment map, nil without one.
func buildSegmentMap(d *analyze.Device) *segmentMapItem {
	sm := d.Segments
	if len(d.Points) == 0 || sm == nil {
		return nil
	}
	segs := make([]*analyze.MapSegment, len(sm.Segments))
	for i := range sm.Segments {
		segs[i] = &sm.Segments[i]
	}
	m := &segmentMapItem{Device: words.Device(d.DeviceKey), Path: d.Points[len(d.Points)-1].Path}
	if len(segs) > maxMapSegments {
		slices.SortStableFunc(segs, func(a, b *analyze.MapSegment) int { return cmp.Compare(b.Size, a.Size) })
		var rest int64
		for _, sg := range segs[maxMapSegments:] {
			rest += sg.Size
		}
		m.Omitted, m.OmittedBytes = len(segs)-maxMapSegments, units.Bytes(rest)
		segs = segs[:maxMapSegments]
		slices.SortStableFunc(segs, func(a, b *analyze.MapSegment) int { return cmp.Compare(a.Address, b.Address) })
	}
	var largest int64
	for _, sg := range segs {
		largest = max(largest, sg.Size)
	}
	for _, sg := range segs {
		row := segmentRow{Label: fmt.Sprintf("0x%x · %s · %s pool · stream %d", sg.Address, units.Bytes(sg.Size), sg.Pool, sg.Stream)}
		if sg.Expandable {
			row.Label += " · expandable"
		}
		if largest > 0 {
			row.Width = fmt.Sprintf("%.3f%%", 100*float64(sg.Size)/float64(largest))
		}
		row.Blocks = segmentBlocks(d, sg)
		m.Segments = append(m.Segments, row)
	}
	return m
}

// segmentBlocks turns a segment's blocks into cells; tiny neighbours of
// one state (and suspect) are merged so a segment has at most
// maxMapBlocks cells.
func segmentBlocks(d *analyze.Device, sg *analyze.MapSegment) []blockCell {
	if sg.Size <= 0 {
		return nil
	}
	minSize := sg.Size / maxMapBlocks
	type run struct {
		state   string
		size    int64
		n       int
		first   analyze.MapBlock
		suspect string
	}
	var runs []run
	for _, b := range sg.Blocks {
		sus := ""
		if b.Suspect >= 0 && b.Suspect < len(d.Suspects) {
			sus = "leak suspect: " + d.Suspects[b.Suspect].Site
		}
		if k := len(runs); k > 0 && runs[k-1].state == b.State && runs[k-1].suspect == sus && (b.Size < minSize || runs[k-1].size < minSize) {
			runs[k-1].size += b.Size
			runs[k-1].n++
			continue
		}
		runs = append(runs, run{state: b.State, size: b.Size, n: 1, first: b, suspect: sus})
	}
	cells := make([]blockCell, 0, len(runs))
	for _, r := range runs {
		c := blockCell{Class: "b-" + strings.ReplaceAll(r.state, "_", "-"), Width: fmt.Sprintf("%.3f%%", 100*float64(r.size)/float64(sg.Size))}
		if r.n > 1 {
			c.Title = fmt.Sprintf("%d %s blocks, %s", r.n, r.state, units.Bytes(r.size))
		} else {
			c.Title = fmt.Sprintf("%s block, %s at 0x%x", r.state, units.Bytes(r.size), r.first.Address)
			if r.first.HasFrame {
				c.Title += "\n" + frameText(r.first.Frame)
			}
		}
		if r.suspect != "" {
			c.Class += " b-suspect"
			c.Title += "\n" + r.suspect
		}
		cells = append(cells, c)
	}
	return cells
}
