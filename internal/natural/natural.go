// Package natural orders names as a person reads them: runs of digits
// compare as numbers, so step_9 comes before step_10 and node2 before
// node10.
package natural

import (
	"cmp"
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
