// Package bykey gathers values by key: the map entry a loop adds to,
// made the first time its key comes up (a group of blocks by stack, a
// series of readings by GPU, a pool by its id).
package bykey

// Entry returns m[k], first storing fresh() there when k has no entry
// (or a nil one). fresh is called only then, once per new key, so it may
// also note the order in which keys came.
func Entry[K comparable, V any](m map[K]*V, k K, fresh func() *V) *V {
	if v := m[k]; v != nil {
		return v
	}
	v := fresh()
	m[k] = v
	return v
}
