// Package slicecap makes room in slices that grow to hundreds of thousands
// of elements. Go's append grows a large slice by about a quarter at a
// time, which copies it dozens of times into fresh memory on its way to
// its final size (a large model's 175k blocks some 28 times); doubling
// copies it a handful of times.
package slicecap

// Doubling returns s with room for n more elements: s itself when it has
// the room, else a copy whose capacity is at least twice cap(s) (and at
// least min). The elements of s are kept; a caller that hands out
// subslices of the old array keeps those valid, since the old array is
// left as it is.
func Doubling[S ~[]E, E any](s S, n, min int) S {
	if len(s)+n <= cap(s) {
		return s
	}
	grown := make(S, len(s), max(len(s)+n, 2*cap(s), min))
	copy(grown, s)
	return grown
}
