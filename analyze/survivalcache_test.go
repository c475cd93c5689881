package analyze

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"gpureport/ingest"
	"gpureport/internal/testutil"
	"gpureport/internal/testutil/realsnap"
)

// randomFold returns n snapshots' live blocks of a random run that meets
// every branch of Survival.fold (see TestSurvivalMergeMatchesMap), with
// each snapshot's latest time.
func randomFold(rng *rand.Rand, n, groups int) ([][]liveBlock, []int64) {
	var snaps [][]liveBlock
	var times []int64
	var us int64 = 1000
	for range n {
		var cur []liveBlock
		for range rng.IntN(40) {
			b := liveBlock{id: blockID{addr: uint64(rng.IntN(12)) << 20, size: int64(1+rng.IntN(3)) << 10, group: int32(rng.IntN(groups))}}
			b.req = b.id.size - int64(rng.IntN(512)) // the allocator's rounding
			switch rng.IntN(4) {
			case 0:
				b.life.us = us - int64(rng.IntN(2000))
			case 1:
				b.life.us = us + int64(rng.IntN(100))
			}
			cur = append(cur, b)
			if rng.IntN(8) == 0 {
				cur = append(cur, b)
			}
		}
		rng.Shuffle(len(cur), func(i, j int) { cur[i], cur[j] = cur[j], cur[i] })
		us += 500
		snaps = append(snaps, cur)
		times = append(times, us)
	}
	return snaps, times
}

// TestSurvivalResumesRisen folds 8 history tensors of one group, each
// re-created at a new address with the rows appended since the snapshot
// before (rows of 8 widths, their requests rounded up to 512 bytes), and
// resumes it from the checkpoint after every snapshot: the rises of the
// snapshot before the checkpoint (the previous requested sizes and the
// last rise) must carry over, so that Risen counts as in a straight fold,
// every snapshot but the first two. The same without requested sizes,
// blocks rounded up to 2 MiB segments: the rises' uncertainties carry
// over too (and the smallest rises, within the rounding, leave Risen at
// the half of Recreated that judges the group re-created bigger).
func TestSurvivalResumesRisen(t *testing.T) {
	const n, keys = 9, 8
	for _, known := range []bool{true, false} {
		var snaps [][]liveBlock
		rows, next := int64(0), uint64(0)
		for k := range n {
			rows += int64(1 + 2*(k%2) + k/2)
			var cur []liveBlock
			for w := range int64(keys) {
				req := rows*(w+1)*1000 + 4
				b := liveBlock{id: blockID{addr: next << 24, size: (req + 511) / 512 * 512}, req: req}
				if !known {
					b.id.size = (rows*(w+1)*mib/3 + 2*mib - 1) / (2 * mib) * (2 * mib)
					b.req = b.id.size // the decoder's stand-in
				}
				cur = append(cur, b)
				next++
			}
			snaps = append(snaps, cur)
		}
		fold := func(from *Survival, snaps [][]liveBlock, at int) *Survival {
			sv := from
			if sv == nil {
				sv = newSurvival()
				sv.group("hist")
			}
			for i, cur := range snaps {
				sv.fold(slices.Clone(cur), int64(at+i))
			}
			return sv
		}
		want := fold(nil, snaps, 0)
		if g := want.Group("hist"); g.Recreated != n-1 || known && g.Risen != n-2 || !allRecreated(g) {
			t.Fatalf("known %v, straight fold: recreated %d, risen %d, want %d, %d", known, g.Recreated, g.Risen, n-1, n-2)
		}
		for k := 1; k < n; k++ {
			back, ok := decodeSurvival(fold(nil, snaps[:k], 0).encode())
			if !ok {
				t.Fatalf("known %v, after %d: does not read back", known, k)
			}
			if got := fold(back, snaps[k:], k); !bytes.Equal(got.encode(), want.encode()) {
				t.Errorf("known %v, resumed after %d: %+v, want %+v", known, k, *got.Group("hist"), *want.Group("hist"))
			}
		}
	}
}

// TestSurvivalResumesFromCheckpoint folds random runs straight through,
// and again with the state encoded and decoded after every snapshot: the
// state at the end (its encoding) and every group's survival must be the
// same, and a state must encode to what it was decoded from.
func TestSurvivalResumesFromCheckpoint(t *testing.T) {
	for seed := range uint64(100) {
		rng := rand.New(rand.NewPCG(seed, 11))
		const groups = 4
		n := 1 + rng.IntN(10)
		snaps, times := randomFold(rng, n, groups)
		newSv := func() *Survival {
			sv := newSurvival()
			for g := range groups {
				// Keys of several lengths, one empty (a group keyed "").
				sv.group(fmt.Sprint(g)[:min(g, 1)] + string(make([]byte, g*7)))
			}
			return sv
		}
		want := newSv()
		for i, cur := range snaps {
			want.fold(slices.Clone(cur), times[i])
		}
		wantBytes := want.encode()
		for k := range n + 1 {
			sv := newSv()
			for i := range k {
				sv.fold(slices.Clone(snaps[i]), times[i])
			}
			b := sv.encode()
			back, ok := decodeSurvival(b)
			if !ok {
				t.Fatalf("seed %d: the state after %d snapshots does not read back: % x", seed, k, b)
			}
			if again := back.encode(); !bytes.Equal(again, b) {
				t.Fatalf("seed %d, after %d: decoded state encodes differently:\n% x\n% x", seed, k, again, b)
			}
			for i := k; i < n; i++ {
				back.fold(slices.Clone(snaps[i]), times[i])
			}
			if got := back.encode(); !bytes.Equal(got, wantBytes) {
				t.Fatalf("seed %d: resumed after %d snapshots, the state differs from a straight fold:\n% x\n% x", seed, k, got, wantBytes)
			}
			for key := range want.index {
				if g, w := back.Group(key), want.Group(key); fmt.Sprint(*g) != fmt.Sprint(*w) {
					t.Fatalf("seed %d, resumed after %d, group %q: %+v, want %+v", seed, k, key, *g, *w)
				}
			}
		}
	}
}

// TestDecodeSurvivalRefuses checks that a state that is not whole is
// refused, never read: every strict prefix of a real state, and states
// made wrong in one field.
func TestDecodeSurvivalRefuses(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 11))
	snaps, times := randomFold(rng, 6, 3)
	sv := newSurvival()
	for g := range 3 {
		sv.group(fmt.Sprint("group", g))
	}
	for i, cur := range snaps {
		sv.fold(cur, times[i])
	}
	b := sv.encode()
	if len(sv.live) == 0 {
		t.Fatal("the run left no live block to check")
	}
	for n := range len(b) {
		if _, ok := decodeSurvival(b[:n]); ok {
			t.Errorf("a state cut to %d of %d bytes was read", n, len(b))
		}
	}
	// A state of two live blocks out of order, of a group beyond the
	// groups, born after the last snapshot.
	bad := func(mod func(*Survival)) []byte {
		c, ok := decodeSurvival(b)
		if !ok {
			t.Fatal("the state does not read back")
		}
		mod(c)
		return c.encode()
	}
	for name, e := range map[string][]byte{
		"wrong format":        append([]byte{survivalFormat + 1}, b[1:]...),
		"trailing byte":       append(slices.Clone(b), 0),
		"blocks out of order": bad(func(c *Survival) { c.live = append(c.live, c.live[0]) }),
		"unknown group":       bad(func(c *Survival) { c.live[len(c.live)-1].id.group = 9 }),
		"born after the last": bad(func(c *Survival) { c.live[0].life.born = int32(c.points) }),
		"series too long":     bad(func(c *Survival) { c.groups[0].grow(c.points + 1) }),
		"turnover too long":   bad(func(c *Survival) { c.groups[0].turnover = c.points + 1 }),
	} {
		if _, ok := decodeSurvival(e); ok {
			t.Errorf("%s: read", name)
		}
	}
}

// TestSurvivalCheckpointInCache loads a growing copy of the sample run's
// snapshots through a digest cache and follows the survival checkpoint:
// a run with one more file resumes from the last run's and ends where a
// straight fold ends; the same files resume at their end; a changed or a
// removed file earlier in the run finds no checkpoint and folds from the
// start.
func TestSurvivalCheckpointInCache(t *testing.T) {
	names := testutil.SampleSnapshots(t, 6)
	dir := t.TempDir()
	cache := &ingest.DigestCache{Dir: t.TempDir()}
	put := func(from, to string, mtime time.Time) {
		t.Helper()
		testutil.CopyFile(t, from, filepath.Join(dir, filepath.Base(to)), mtime)
	}
	at := func(i int) time.Time { return time.Date(2026, 1, 1, 0, i, 0, 0, time.UTC) }
	for i, n := range names[:5] {
		put(n, n, at(i))
	}
	key := DeviceKey{Device: 0}
	// fold loads dir and resumes its files' survival; it returns the
	// files observed before (the checkpoint's) and the state after all.
	fold := func() (int, []byte) {
		t.Helper()
		run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC, Jobs: 2, Digest: true, Cache: cache})
		if err != nil {
			t.Fatal(err)
		}
		files := slices.Clone(run.Snapshots)
		slices.SortFunc(files, func(a, b *ingest.SnapshotFile) int { return cmp.Compare(a.Step, b.Step) })
		ck := newSurvivalCheckpoint(files, key, "test-1")
		if len(ck.chains) != len(files) {
			t.Fatalf("%d chains for %d cached files", len(ck.chains), len(files))
		}
		sv, from := ck.resume()
		for _, f := range files[from:] {
			sv.Observe(f.Snapshot, 0, newSignatureCache(&f.Snapshot.Stacks))
		}
		ck.save(sv, from)
		straight := newSurvival()
		for _, f := range files {
			straight.Observe(f.Snapshot, 0, newSignatureCache(&f.Snapshot.Stacks))
		}
		got, want := sv.encode(), straight.encode()
		if !bytes.Equal(got, want) {
			t.Fatalf("resumed after %d of %d files, the state differs from a straight fold", from, len(files))
		}
		if len(straight.live) == 0 || straight.points != len(files) {
			t.Fatalf("the fold saw %d snapshots and %d live blocks", straight.points, len(straight.live))
		}
		return from, got
	}
	for _, c := range []struct {
		name   string
		change func()
		from   int
	}{
		{"first run", func() {}, 0},
		{"one more file", func() { put(names[5], names[5], at(5)) }, 5},
		{"the same files", func() {}, 6},
		{"a file changed before the end", func() { put(names[3], names[2], at(9)) }, 0},
		{"the same files again", func() {}, 6},
		{"a file removed", func() { os.Remove(filepath.Join(dir, filepath.Base(names[4]))) }, 0},
	} {
		c.change()
		if from, _ := fold(); from != c.from {
			t.Errorf("%s: resumed after %d files, want %d", c.name, from, c.from)
		}
	}
}

// FuzzDecodeSurvival feeds arbitrary bytes, seeded with the states of the
// sample run's fold after each snapshot, of each real snapshot observed
// alone and of random folds, to the survival checkpoint's reader: it must
// never panic, and a state it reads must fold on (observe once more) and
// read back the same once encoded again.
func FuzzDecodeSurvival(f *testing.F) {
	run := newSurvival()
	sample := samplePaths(f)
	for p, d := range realsnap.Each(f, sample...) {
		if slices.Contains(sample, p) {
			run.Observe(d, 0, newSignatureCache(&d.Stacks))
			f.Add(run.encode())
		}
		for _, dev := range d.Devices() {
			sv := newSurvival()
			sv.Observe(d, dev, newSignatureCache(&d.Stacks))
			// The fuzzer mutates small inputs far faster; a state of
			// thousands of blocks adds nothing a smaller one lacks.
			if b := sv.encode(); len(b) <= 64<<10 {
				f.Add(b)
			}
		}
	}
	rng := rand.New(rand.NewPCG(5, 11))
	snaps, times := randomFold(rng, 4, 3)
	sv := newSurvival()
	for g := range 3 {
		sv.group(fmt.Sprint(g))
	}
	for i, cur := range snaps {
		sv.fold(cur, times[i])
		f.Add(sv.encode())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sv, ok := decodeSurvival(data)
		if !ok {
			return
		}
		b := sv.encode()
		again, ok := decodeSurvival(b)
		if !ok || !bytes.Equal(again.encode(), b) {
			t.Fatalf("% x read, encoded as % x, does not read back the same", data, b)
		}
		var cur []liveBlock
		for _, l := range sv.live {
			cur = append(cur, liveBlock{id: l.id})
		}
		sv.fold(cur, sv.prevUS+1)
		for key := range sv.index {
			if g := sv.Group(key); g == nil || len(g.Kept) != sv.points {
				t.Fatalf("% x: group %q after one more snapshot: %+v", data, key, g)
			}
		}
	})
}
