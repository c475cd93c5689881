package report

import (
	"fmt"

	"github.com/xuri/excelize/v2"

	"gpureport/analyze/roles"
	"gpureport/report/words"
)

// rolesCols are the Roles sheet's columns: the row's device, moment,
// snapshot, position and allocated bytes, then one column per role
// (columns G on, in the roles' order), all in GiB.
var rolesCols = func() []xcolumn[roleSnapshotRow] {
	cols := []xcolumn[roleSnapshotRow]{
		xt("Device", 18, func(r roleSnapshotRow) string { return r.Device }),
		xt("Moment", 11, func(r roleSnapshotRow) string { return r.Moment }),
		xc("#", 6, "", func(r roleSnapshotRow) Cell {
			if r.Index == 0 {
				return emptyCell()
			}
			return countCell(r.Index, false)
		}),
		xt("File", 40, func(r roleSnapshotRow) string { return r.Path }),
		xc("X", 10, fmtNum, func(r roleSnapshotRow) Cell { return r.X }),
		xc("Allocated", 12, fmtGiB, func(r roleSnapshotRow) Cell { return r.Allocated }),
	}
	for k := range roles.NumRoles {
		cols = append(cols, xc(words.Role(k), 12, fmtGiB, func(r roleSnapshotRow) Cell { return r.Bytes[k] }))
	}
	return cols
}()

// rolesFirstCol is the column letter of the first role's column.
const rolesFirstCol = 'G'

// roles lists the roles of every device's snapshots, then those at its
// OOMs and trace peaks, with a native stacked area chart per device below.
func (w *xlsxWriter) roles() error {
	var rows, moments []roleSnapshotRow
	for _, d := range w.v.Devices {
		if d.Roles != nil {
			rows = append(rows, d.Roles.Snapshots...)
			moments = append(moments, d.Roles.MomentRows...)
		}
	}
	return itemSheet(w, "Roles", "tRoles", rolesCols, append(rows, moments...), w.rolesCharts)
}

// rolesCharts adds one stacked area chart per device with roles (up to
// maxXLSXCharts) below the Roles table, the roles' GiB against X, a
// series for each role that holds bytes in some snapshot of the device.
func (w *xlsxWriter) rolesCharts(tableRows int) error {
	row := 2 // first data row
	top := tableRows + 4
	charts := 0
	for _, d := range w.v.Devices {
		if d.Roles == nil || len(d.Roles.Snapshots) == 0 {
			continue
		}
		n := len(d.Roles.Snapshots)
		first, last := row, row+n-1
		row += n
		if charts >= maxXLSXCharts || last > maxXLSXRows+1 {
			continue
		}
		ref := func(col rune) string { return fmt.Sprintf("'Roles'!$%c$%d:$%c$%d", col, first, col, last) }
		var series []excelize.ChartSeries
		for k := range roles.NumRoles {
			held := false
			for _, s := range d.Roles.Snapshots {
				held = held || s.Bytes[k].Value > 0
			}
			if !held {
				continue
			}
			col := rolesFirstCol + rune(k)
			series = append(series, excelize.ChartSeries{Name: fmt.Sprintf("'Roles'!$%c$1", col), Categories: ref('E'), Values: ref(col),
				Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{roleColors[k]}}})
		}
		if len(series) == 0 {
			continue
		}
		chart := &excelize.Chart{
			Type:      excelize.AreaStacked,
			Series:    series,
			Title:     excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "What holds the memory, " + d.Label + " (GiB)"}}},
			Legend:    excelize.ChartLegend{Position: "right"},
			XAxis:     excelize.ChartAxis{Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: d.Prov.Axis}}}},
			YAxis:     excelize.ChartAxis{Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "GiB"}}}},
			Dimension: excelize.ChartDimension{Width: 700, Height: 300},
		}
		if err := w.f.AddChart("Roles", fmt.Sprintf("A%d", top), chart); err != nil {
			return err
		}
		charts++
		top += 17
	}
	return nil
}
