// Package realsnap gives the tests of the packages above snapshot the
// real snapshots of ../shared/testdata-real, decoded (package testutil
// finds them, and cannot decode them: snapshot's own tests import it).
// Only tests import it.
package realsnap

import (
	"iter"
	"testing"

	"gpureport/internal/testutil"
	"gpureport/snapshot"
)

// Each yields the files first, then every real snapshot, decoded in full
// one at a time, with its path. A file the decoder refuses is passed over:
// the decoder's own tests cover those.
func Each(tb testing.TB, first ...string) iter.Seq2[string, *snapshot.Snapshot] {
	tb.Helper()
	paths := append(first, testutil.RealFiles(tb, "snapshots", "*.pickle", "*.pkl")...)
	return func(yield func(string, *snapshot.Snapshot) bool) {
		for _, p := range paths {
			s, _, err := snapshot.DecodeFile(p, snapshot.DecodeOptions{})
			if err != nil {
				continue
			}
			if !yield(p, s) {
				return
			}
		}
	}
}
