// Package natural orders names as a person reads them: runs of digits
// compare as numbers, so step_9 comes before step_10 and node2 before
// node10.
package natural

import (
	"cmp"
	"slices"
	"strings"
)

// Compare compares a and b with their digit runs compared as numbers
// (leading zeros ignored) and every other byte as itself; it returns -1, 0
// or +1 as cmp.Compare does.
func Compare(a, b string) int {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da != "" && db != "" {
			ta, tb := strings.TrimLeft(da, "0"), strings.TrimLeft(db, "0")
			if c := cmp.Or(cmp.Compare(len(ta), len(tb)), strings.Compare(ta, tb)); c != 0 {
				return c
			}
			a, b = a[len(da):], b[len(db):]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// digits is the run of decimal digits s starts with.
func digits(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

// Consecutive numbers blocks one after another, in the natural order of
// their names (Compare, then byte order; a name given twice keeps the
// order given): block i takes sizes[i] numbers from first[i], and order lists
// the blocks as numbered. It is how the GPUs of several machines, each of
// which numbers its own from 0, are numbered as one run's (a block per
// machine, sized its highest GPU index plus 1): node2's GPU 0 follows
// node1's last GPU, and node10's follows node9's, as torchrun numbers
// global ranks across nodes. A block of size 0 takes no number.
func Consecutive(names []string, sizes []int) (first, order []int) {
	order = make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(Compare(names[a], names[b]), strings.Compare(names[a], names[b]))
	})
	first = make([]int, len(names))
	next := 0
	for _, i := range order {
		first[i] = next
		next += max(sizes[i], 0)
	}
	return first, order
}
