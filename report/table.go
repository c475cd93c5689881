package report

import (
	"fmt"
	"math"
	"time"

	"gpureport/input"
	"gpureport/internal/units"
)

// The view model's items hold each value twice, as pprof's
// report.TextItem does: raw, with its unit, for the workbook's number
// cells and summary.json, and as the text every writer prints. A Cell is
// one such value. Items are typed structs whose fields are Cells; a
// writer reaches a value by its field, never by a column's header, and a
// table's columns (column) say for each header which field it shows.

// Unit says what a Cell's raw Value counts.
type Unit string

// Units of Cell values.
const (
	// UnitNone marks a cell with no number (text only).
	UnitNone Unit = ""
	// UnitBytes counts bytes.
	UnitBytes Unit = "bytes"
	// UnitShare is a fraction, 0..1 (printed as a percentage).
	UnitShare Unit = "share"
	// UnitCount is a whole number (a count, an index, a step).
	UnitCount Unit = "count"
	// UnitNumber is a plain number: a position on a device's axis.
	UnitNumber Unit = "number"
	// UnitTime is a moment in Unix milliseconds (UTC).
	UnitTime Unit = "time"
	// UnitPValue is a p-value, 0..1.
	UnitPValue Unit = "p-value"
	// UnitStep is a step number on a device's axis ("step 3,467");
	// UnitSteps an amount of steps ("3,327 steps"). A device counted in
	// readings or snapshots uses them too.
	UnitStep  Unit = "step"
	UnitSteps Unit = "steps"
	// UnitHours is an amount of hours.
	UnitHours Unit = "hours"
	// UnitEmpty marks a cell with no value at all, blank in every
	// format (where UnitNone is text, possibly empty).
	UnitEmpty Unit = "empty"
)

// Cell is one value of the view: Text is how every writer prints it
// (formatted by internal/units, "n/a" where the value does not exist);
// Value is the raw number in Unit, NaN for a text-only or missing value.
type Cell struct {
	Text  string
	Value float64
	Unit  Unit
}

// textCell is a cell of text only.
func textCell(s string) Cell { return Cell{Text: s, Value: math.NaN()} }

// byteCell is a byte count.
func byteCell(n int64) Cell { return Cell{Text: units.Bytes(n), Value: float64(n), Unit: UnitBytes} }

// rateCell is a growth rate in bytes per unit of per ("step", "hour"):
// "+12.3 MiB/step", "n/a" (and no value) when unknown.
func rateCell(bytesPer float64, per units.Per) Cell {
	c := Cell{Text: "n/a", Value: math.NaN(), Unit: Unit("bytes/" + per)}
	if finite(bytesPer) {
		c.Text, c.Value = units.Rate(bytesPer, per), bytesPer
	}
	return c
}

// countCell is a whole number, its text plain ("1234") or with
// thousands separators (units.Count).
func countCell[N int | int64](n N, sep bool) Cell {
	s := fmt.Sprint(n)
	if sep {
		s = units.Count(int64(n))
	}
	return Cell{Text: s, Value: float64(n), Unit: UnitCount}
}

// shareCell is a fraction 0..1, printed as a percentage.
func shareCell(x float64) Cell { return Cell{Text: units.Percent(x), Value: x, Unit: UnitShare} }

// numberCell is a position on a device's axis.
func numberCell(x float64) Cell { return Cell{Text: units.Number(x), Value: x, Unit: UnitNumber} }

// pValueCell is a p-value: "p=0.032", "p<0.001".
func pValueCell(p float64) Cell { return Cell{Text: units.PValue(p), Value: p, Unit: UnitPValue} }

// timeCell is a moment, its text as the table prints it (text(t)); the
// zero time has no value.
func timeCell(t time.Time, text func(time.Time) string) Cell {
	if t.IsZero() {
		return Cell{Value: math.NaN(), Unit: UnitTime}
	}
	return Cell{Text: text(t), Value: float64(t.UnixMilli()), Unit: UnitTime}
}

// emptyCell is a cell with no value.
func emptyCell() Cell { return Cell{Value: math.NaN(), Unit: UnitEmpty} }

// noneCell is a missing value of a unit: no text, no value.
func noneCell(u Unit) Cell { return Cell{Value: math.NaN(), Unit: u} }

// rankCellOf is a device's rank, empty when the run has no ranks.
func rankCellOf(r int) Cell {
	if r == input.NoRank {
		return noneCell(UnitCount)
	}
	return countCell(r, false)
}

// axisCell is an amount of x on a device's axis, or the position x when
// at: hours on an hour axis, else steps.
func axisCell(x float64, per units.Per, at bool) Cell {
	c := Cell{Text: units.AxisAmount(x, per), Value: x, Unit: UnitSteps}
	switch {
	case !finite(x):
		return emptyCell()
	case per == units.PerHour:
		c.Unit = UnitHours
	case at:
		c.Unit = UnitStep
	}
	return c
}

// oomByteCell is a byte figure of an OOM: "unknown", with no value, for a
// figure the input did not give (a training log's message has no largest
// free block, an NCCL message no free memory), marked -1 (gpulog.Unknown).
func oomByteCell(n int64) Cell {
	if n < 0 {
		return Cell{Text: "unknown", Value: math.NaN(), Unit: UnitBytes}
	}
	return byteCell(n)
}

// column is a column of a table of items of type R: its header, how it
// is laid out, and the field of an item it shows.
type column[R any] struct {
	// Name is the column's header.
	Name string
	// Num right-aligns the column (figures); Code marks untrusted
	// identifiers (sites, functions, fingerprints) that Markdown shows as
	// code spans.
	Num, Code bool
	// Of is the item's cell in this column.
	Of func(R) Cell
}

// Column heads a column of a format-neutral Table.
type Column struct {
	Name      string
	Num, Code bool
}

// Row is one row of a Table; Anchor, when set, is the HTML id fragment
// its first cell links to.
type Row struct {
	Anchor string
	Cells  []Cell
}

// Table is a table laid out from items: its columns and one row per item,
// each with a Cell per column, for the writers that lay out any table
// alike (the page's key figures, summary.md's tables).
type Table struct {
	Columns []Column
	Rows    []Row
}

// tableOf lays out items in columns cols; anchor, when not nil, gives
// each row's anchor.
func tableOf[R any](items []R, cols []column[R], anchor func(R) string) Table {
	t := Table{Columns: make([]Column, len(cols))}
	for i, c := range cols {
		t.Columns[i] = Column{Name: c.Name, Num: c.Num, Code: c.Code}
	}
	for _, it := range items {
		r := Row{Cells: make([]Cell, len(cols))}
		for i, c := range cols {
			r.Cells[i] = c.Of(it)
		}
		if anchor != nil {
			r.Anchor = anchor(it)
		}
		t.Rows = append(t.Rows, r)
	}
	return t
}

// nan is a missing number.
func nan() float64 { return math.NaN() }
