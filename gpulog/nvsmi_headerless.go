package gpulog

import (
	"fmt"
	"strings"
	"time"

	"gpureport/internal/units"
)

// Header-less query CSVs whose field order is none of knownOrders are
// read when their columns can be told apart by their values, over the
// first inferRows rows: a user's own `--query-gpu=timestamp,index,
// memory.used,memory.total --format=csv,noheader[,nounits]` is the common
// case. Each column must be one of:
//
//   - a timestamp, a GPU UUID ("GPU-..."), a PCI bus id, or text (the GPU
//     name), at most one of each;
//   - a memory value: "N MiB", or with nounits a bare integer;
//   - the GPU index: the first bare integer column, before any memory
//     column, whose values are all below maxGPUIndex, when another bare
//     integer column follows it;
//   - another measurement with a unit ("22 %", "60 W", "45 C"), ignored.
//
// One memory column is memory.used. Of two, memory.total is the one that
// never changes for a GPU and is at least the other in every row; the
// other is memory.used. Three (used, free and total) cannot be told apart
// from free by their values, and a file with any other column stays
// unread: DecodeLog then asks for the header line, as before.

// inferRows is how many header-less rows the inference looks at: enough
// to see every GPU of a node several times.
const inferRows = 64

// maxGPUIndex bounds the values of a GPU index column: more GPUs than this
// on one node is not a node.
const maxGPUIndex = 64

// pendingRow is a header-less row waiting for the inference.
type pendingRow struct {
	n    int
	line string
}

// inferHeaderless returns the header the rows' values imply (its keys
// name the columns for the log's note), or false when they do not fit
// one. Rows of another width than the first are left to fail against it.
func inferHeaderless(rows []pendingRow) (*csvHeader, bool) {
	if len(rows) == 0 {
		return nil, false
	}
	width := len(strings.Split(rows[0].line, ","))
	if width < 2 {
		return nil, false
	}
	var table [][]string
	for _, r := range rows {
		if f := strings.Split(r.line, ","); len(f) == width {
			table = append(table, f)
		}
	}
	keys := make([]string, width)
	unitsOf := make([]string, width)
	var mem, bare []int
	seen := map[string]bool{}
	for c := range width {
		kind := columnKind(table, c)
		switch kind {
		case "":
			return nil, false
		case "memory":
			mem = append(mem, c)
			unitsOf[c] = "MiB"
		case "bare":
			bare = append(bare, c)
		case "measure":
			keys[c] = fmt.Sprintf("(column %d)", c+1)
		default:
			if seen[kind] {
				return nil, false
			}
			seen[kind] = true
			keys[c] = kind
		}
	}
	// The index: the first bare column, all values small, followed by
	// another bare or memory column. The other bare columns are memory
	// values logged without units (nounits), only when no column has one.
	if len(bare) > 0 && (len(bare) > 1 || len(mem) > 0) && bare[0] < minCol(mem, width) && allBelow(table, bare[0], maxGPUIndex) {
		keys[bare[0]] = "index"
		bare = bare[1:]
	}
	if len(bare) > 0 {
		if len(mem) > 0 {
			return nil, false
		}
		mem = bare
	}
	switch len(mem) {
	case 1:
		keys[mem[0]] = "memory.used"
	case 2:
		used, total, ok := usedAndTotal(table, mem[0], mem[1], keys)
		if !ok {
			return nil, false
		}
		keys[used], keys[total] = "memory.used", "memory.total"
	default:
		return nil, false
	}
	h := &csvHeader{col: map[string]int{}, text: -1, keys: keys, units: unitsOf}
	for i, k := range keys {
		h.col[k] = i
	}
	h.resolve()
	return h, true
}

// columnKind says what column c holds in every row: "timestamp",
// "uuid", "pci.bus_id", "name", "memory" (a MiB value), "bare" (an
// integer without a unit), "measure" (a number with another unit), or ""
// when the rows disagree or the values are none of these.
func columnKind(table [][]string, c int) string {
	kind := ""
	for _, row := range table {
		v := strings.TrimSpace(row[c])
		k := valueKind(v)
		if k == "" || (kind != "" && k != kind) {
			return ""
		}
		kind = k
	}
	return kind
}

// valueKind is columnKind for one value.
func valueKind(v string) string {
	switch {
	case v == "" || isNA(v):
		return ""
	case strings.Contains(v, ":") && !isBusID(v):
		if _, _, ok := parseStamp(v, time.UTC); ok {
			return "timestamp"
		}
		return ""
	case strings.HasPrefix(v, "GPU-"):
		return "uuid"
	case isBusID(v):
		return "pci.bus_id"
	}
	num, unit := units.SplitUnit(v)
	if num == "" {
		return "name"
	}
	if _, ok := parseNumber(num, ""); !ok {
		return "name"
	}
	switch {
	case unit == "MiB":
		return "memory"
	case unit != "":
		return "measure"
	}
	if _, ok := atoi(num); ok {
		return "bare"
	}
	return "measure"
}

// usedAndTotal tells memory.used from memory.total among columns a and b:
// total never changes for a GPU (by the index column, when keys has one)
// and is at least used in every row.
func usedAndTotal(table [][]string, a, b int, keys []string) (used, total int, ok bool) {
	index := -1
	for i, k := range keys {
		if k == "index" || k == "uuid" || k == "pci.bus_id" {
			index = i
			break
		}
	}
	isTotal := func(t, u int) bool {
		per := map[string]string{}
		for _, row := range table {
			gpu := ""
			if index >= 0 {
				gpu = strings.TrimSpace(row[index])
			}
			tv := strings.TrimSpace(row[t])
			if prev, seen := per[gpu]; seen && prev != tv {
				return false
			}
			per[gpu] = tv
			tb, ok1 := parseBytes(tv, mib)
			ub, ok2 := parseBytes(row[u], mib)
			if !ok1 || !ok2 || ub > tb {
				return false
			}
		}
		return true
	}
	ta, tb := isTotal(a, b), isTotal(b, a)
	switch {
	case ta && !tb:
		return b, a, true
	case tb && !ta:
		return a, b, true
	}
	return 0, 0, false
}

// allBelow reports whether column c holds integers below limit in every
// row.
func allBelow(table [][]string, c, limit int) bool {
	for _, row := range table {
		n, ok := atoi(strings.TrimSpace(row[c]))
		if !ok || n >= limit {
			return false
		}
	}
	return true
}

// minCol is the smallest column of cols, or def when there is none.
func minCol(cols []int, def int) int {
	if len(cols) == 0 {
		return def
	}
	return cols[0]
}
