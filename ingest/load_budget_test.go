package ingest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"gpureport/input"
	"gpureport/internal/gen/layout"
	"gpureport/internal/testutil"
)

// TestLoadMemoryBound loads a run of real snapshots (bare, gzipped and
// torch.save'd) with four workers under several memory budgets and checks,
// at every admission, that the estimated decode memory in flight never
// exceeds the budget, and that a file estimated above the budget is
// decoded alone. The observer's calls are serialised and count a weight
// only while the semaphore holds it, so the check does not depend on
// timing.
func TestLoadMemoryBound(t *testing.T) {
	srcs := testutil.RealFiles(t, "snapshots", "cs336_ctx128_fullstep.pickle", "cs336_ctx256_fullstep.pickle",
		"wedsonlin_medium_512_training.pickle", "wedsonlin_medium_1024_training.pickle")
	dir := t.TempDir()
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var biggest int64
	for i, src := range srcs {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		write(filepath.Base(src), b)
		write("again_"+filepath.Base(src), b)
		if i == 0 {
			write("gz_step_1.pickle.gz", wrap(t, b, layout.Gzip))
			write("zip_step_2.pt", wrap(t, b, layout.Zip))
		}
		biggest = max(biggest, decodeMemoryBase+int64(len(b))*decodeMemoryNum/decodeMemoryDen)
	}
	const files = 10
	for _, budget := range []int64{biggest / 2, biggest*5/2 + 1, 1 << 40} {
		// Our own account of what is in flight, from admissions and
		// releases, so the semaphore's bookkeeping does not vouch for
		// itself.
		var sum, peak int64
		weights := map[string]int64{}
		run, err := load(context.Background(), dir, LoadOptions{Jobs: 4, MemoryBudget: budget}, func(rel string, w, inFlight int64) {
			sum += w
			if sum != inFlight {
				t.Errorf("budget %d: semaphore says %d in flight, admissions and releases say %d", budget, inFlight, sum)
			}
			if w < 0 {
				return
			}
			peak = max(peak, sum)
			weights[rel] = w
			if sum > budget {
				t.Errorf("budget %d: %d bytes in flight after admitting %s", budget, sum, rel)
			}
			if w == budget && sum != w {
				t.Errorf("budget %d: %s, estimated above the budget, decoded beside others (%d in flight)", budget, rel, sum)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(run.Snapshots) != files || len(weights) != files {
			t.Fatalf("budget %d: %d snapshots, %d admissions, want %d (skipped %v)", budget, len(run.Snapshots), len(weights), files, run.Skipped)
		}
		if peak == 0 || peak > budget || sum != 0 {
			t.Errorf("budget %d: peak %d, %d left in flight", budget, peak, sum)
		}
	}
}

// TestEstimateMemory: the estimate follows the decompressed size a
// container records, not the compressed file size.
func TestEstimateMemory(t *testing.T) {
	src := testutil.RealFiles(t, "snapshots", "cs336_ctx128_fullstep.pickle")[0]
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, data := range map[string][]byte{"a.pickle": b, "a.pickle.gz": wrap(t, b, layout.Gzip), "a.pt": wrap(t, b, layout.Zip)} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		c := Candidate{Path: p, Rel: name, Kind: KindSnapshot, Source: input.Source{Bytes: int64(len(data))}}
		want := decodeMemoryBase + int64(len(b))*streamMemoryNum/streamMemoryDen
		if name == "a.pickle" {
			want = decodeMemoryBase + int64(len(b))*decodeMemoryNum/decodeMemoryDen
		}
		if got := estimateMemory(c); got != want {
			t.Errorf("%s (%d bytes): estimate %d, want %d", name, len(data), got, want)
		}
	}
}

// wrap stores pickle b in container c as the generator does.
func wrap(tb testing.TB, b []byte, c layout.Container) []byte {
	tb.Helper()
	w, err := layout.Wrap(b, c)
	if err != nil {
		tb.Fatal(err)
	}
	return w
}
