package ingest

import (
	"strings"
	"testing"

	"gpureport/input"
	"gpureport/internal/testutil"
)

// FuzzParseName checks that any path parses without panic into a
// consistent NameInfo: steps and ranks are not negative unless absent, an
// order is set only with its kind, and a path without digits has neither
// a step, an order nor a rank. Seeds are the real snapshots' names and
// the names common trainers write (placement's TestPlaceRunLayouts lays
// out whole runs of them).
func FuzzParseName(f *testing.F) {
	for _, p := range testutil.RealFiles(f, "snapshots", "*") {
		f.Add(testutil.Rel(f, p))
	}
	for _, s := range []string{
		"outputs/memory_snapshot/iteration_24_exit/rank1_memory_snapshot.pickle",
		"r3/mem_snapshot_3.pkl", "local_rank_2/snapshot_epoch4.pickle",
		"snapshot_20231114_221320.pickle", "snapshot_1700000000123.pickle.gz",
		"step_10/sub/iter_7/snap.pickle", `win\rank2\snap_step_9.pkl`,
		"gpu-node-a_Sep_30_23_52_00.pickle", "trainer_Dec_31_23_59_59.pickle", "epoch_03/iter_000100.pickle",
		"checkpoint-500/memory_snapshot.pickle", "epoch2_step100.pickle.bz2",
		"mem_2024-05-01_10-40.pickle", "mem_20240501_1040.pickle", "mem_2024-05-01T10-40_rank3.pickle",
		"host_Sep_30_23_52.pickle", "mem_20240501_12345.pickle",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		n := ParseName(p)
		if n.Step < input.NoStep || n.Rank < input.NoRank {
			t.Errorf("%q: step %d rank %d", p, n.Step, n.Rank)
		}
		if n.Epoch < NoEpoch {
			t.Errorf("%q: epoch %d", p, n.Epoch)
		}
		if tp := TimelessPath(p); n.OrderKind != OrderTimestamp && tp != strings.ReplaceAll(p, `\`, "/") {
			t.Errorf("%q: no timestamp read, but TimelessPath gives %q", p, tp)
		}
		if n.OrderKind == OrderNone && n.Order != 0 {
			t.Errorf("%q: order %d without a kind", p, n.Order)
		}
		if !strings.ContainsAny(p, "0123456789") && (n.Step != input.NoStep || n.OrderKind != OrderNone || n.Rank != input.NoRank) {
			t.Errorf("%q: no digits but %+v", p, n)
		}
		if n != ParseName(p) {
			t.Errorf("%q: not deterministic", p)
		}
	})
}
