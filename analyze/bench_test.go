package analyze

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"gpureport/ingest"
	"gpureport/input"
	"gpureport/internal/gen/train"
	"gpureport/snapshot"
)

// bigRun builds a run of n snapshots, each with about entries trace
// events and blocks live blocks over distinct stacks, plus an nvidia-smi
// log. To fit in memory the snapshots share one trace and one stack table
// (the analysis only reads them); their segments differ, with a planted
// leak.
func bigRun(n, entries, blocks int) *ingest.Run {
	rng := rand.New(rand.NewPCG(1, 1))
	b := newSnap()
	var stacks [][]snapshot.Frame
	for i := range 1000 {
		st := stackAt(fmt.Sprintf("mod%d.py", i%37), 10+i, fmt.Sprintf("f%d", i%91))
		// Deep stacks, as real ones are (up to ~100 frames).
		for j := range 40 {
			st = append(st, torchFrame("nn/modules/module.py", 1700+j, "_call_impl"))
		}
		stacks = append(stacks, st)
	}
	ids := make([]snapshot.StackID, len(stacks))
	for i, st := range stacks {
		ids[i] = b.stack(st)
	}
	tr := make([]snapshot.TraceEntry, 0, entries)
	t := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC).UnixMicro()
	for len(tr) < entries {
		addr := uint64(0x7f0000000000 + rng.IntN(1<<30)&^511)
		size := int64(512 * (1 + rng.IntN(4096)))
		st := ids[rng.IntN(len(ids))]
		t += 3
		tr = append(tr,
			snapshot.TraceEntry{Action: snapshot.ActionAlloc, Addr: addr, Size: size, TimeUS: t, Stack: st},
			snapshot.TraceEntry{Action: snapshot.ActionFreeRequested, Addr: addr, Size: size, TimeUS: t + 1, Stack: st},
			snapshot.TraceEntry{Action: snapshot.ActionFreeCompleted, Addr: addr, Size: size, TimeUS: t + 2, Stack: st})
	}
	b.s.Stacks.Seal()
	stacksTable := b.s.Stacks

	run := &ingest.Run{Dir: "big", Location: time.UTC}
	for i := range n {
		s := &snapshot.Snapshot{Generation: snapshot.GenTimed, Stacks: stacksTable, Traces: [][]snapshot.TraceEntry{tr}}
		addr := uint64(0x7f0000000000)
		per := 64
		for k := 0; k < blocks; k += per {
			seg := snapshot.Segment{Device: 0, Address: addr, Pool: snapshot.PoolLarge}
			for j := range per {
				size := int64(1 << 20)
				if (k+j)%10 == 0 && (k+j)/10 > i*blocks/(10*n) {
					seg.Blocks = append(seg.Blocks, snapshot.Block{Address: addr, Size: size, State: snapshot.StateInactive})
				} else {
					seg.Blocks = append(seg.Blocks, snapshot.Block{Address: addr, Size: size, RequestedSize: size, State: snapshot.StateActiveAllocated, Stack: ids[(k+j)%len(ids)]})
				}
				seg.TotalSize += size
				addr += uint64(size)
			}
			s.Segments = append(s.Segments, &seg)
		}
		step := int64(100 * (i + 1))
		run.Snapshots = append(run.Snapshots, &ingest.SnapshotFile{
			Source: input.Source{Path: fmt.Sprintf("snapshot_step_%06d.pickle", step)}, Step: step, Rank: input.NoRank, Snapshot: s,
		})
	}
	return run
}

// BenchmarkAnalyze measures Analyze on 100 snapshots of 1M trace entries
// and 20k live blocks each: the issue asks for seconds, not minutes.
func BenchmarkAnalyze(b *testing.B) {
	for _, c := range []struct{ n, entries, blocks int }{{10, 100_000, 2000}, {100, 1_000_000, 20_000}} {
		b.Run(fmt.Sprintf("snapshots=%d/entries=%d", c.n, c.entries), func(b *testing.B) {
			run := bigRun(c.n, c.entries, c.blocks)
			b.ResetTimer()
			for b.Loop() {
				f := Analyze(run, Options{})
				if len(f.Devices) != 1 {
					b.Fatal("no device")
				}
			}
		})
	}
}

// BenchmarkFitTrend measures one trend verdict on 40 points.
func BenchmarkFitTrend(b *testing.B) {
	y := gen(40, 1, shapes["leak under phase noise"])
	x := xs(40)
	for b.Loop() {
		FitTrend(MetricAllocated, "step", x, y, DefaultTrendRules())
	}
}

// BenchmarkGroupLive measures the grouping of one snapshot's live blocks.
func BenchmarkGroupLive(b *testing.B) {
	run := bigRun(1, 1000, 20_000)
	s := run.Snapshots[0].Snapshot
	for b.Loop() {
		GroupLive(s, 0)
	}
}

// BenchmarkSurvivalFold measures following a large model's live blocks
// (175k, over 3,000 groups) from one snapshot into the next, where a
// tenth of them are new: the merge Survival.fold does per periodic
// snapshot.
func BenchmarkSurvivalFold(b *testing.B) {
	const blocks = 175_000
	snaps := [2][]liveBlock{}
	for k := range snaps {
		for i := range blocks {
			addr := uint64(i) << 20
			if k == 1 && i%10 == 0 {
				addr++ // a new block where one went away
			}
			snaps[k] = append(snaps[k], liveBlock{id: blockID{addr: addr, size: 1 << 20, group: int32(i % 3000)}})
		}
	}
	sv := newSurvival()
	for g := range 3000 {
		sv.group(fmt.Sprint(g))
	}
	cur := make([]liveBlock, blocks)
	i := 0
	for b.Loop() {
		copy(cur, snaps[i%2])
		sv.fold(cur, int64(i))
		i++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/blocks, "ns/block")
}

// BenchmarkSurvivalObserve measures following the large benchmark
// shape's live blocks (175k, a mixture-of-experts model's parameters and
// optimizer state, with its trace's allocation times) into a survival
// fold, as each periodic snapshot of a large model is: its blocks listed
// with their groups and birth times, then merged.
func BenchmarkSurvivalObserve(b *testing.B) {
	var buf bytes.Buffer
	if _, err := train.WriteShape(&buf, train.Large); err != nil {
		b.Fatal(err)
	}
	s, _, err := snapshot.Decode(bytes.NewReader(buf.Bytes()), int64(buf.Len()), snapshot.DecodeOptions{})
	if err != nil {
		b.Fatal(err)
	}
	s = snapshot.Reduce(s)
	cache := newSignatureCache(&s.Stacks)
	sv := newSurvival()
	for b.Loop() {
		sv.Observe(s, 0, cache)
	}
}

// BenchmarkSurvivalCheckpoint measures the survival fold's checkpoint
// (survivalcache.go) of an ordinary run's state after 200 snapshots
// (10k live blocks over 3,000 groups, each group's two series 200 long):
// encoding it (a run that adds snapshots writes one) and decoding it (a
// re-run reads one instead of folding every snapshot again). It reports
// the entry's size.
func BenchmarkSurvivalCheckpoint(b *testing.B) {
	const blocks, groups, points = 10_000, 3000, 200
	sv := newSurvival()
	for g := range groups {
		sv.group(fmt.Sprintf("user|train.py:%d:step|model.py:%d:forward", g, g))
	}
	cur := make([]liveBlock, blocks)
	for k := range points {
		for i := range cur {
			addr := uint64(i) << 20
			if i%10 == k%10 {
				addr++ // a tenth of the blocks replaced each snapshot
			}
			cur[i] = liveBlock{id: blockID{addr: addr, size: int64(1+i%7) << 16, group: int32(i % groups)}}
		}
		sv.fold(cur, int64(k))
	}
	enc := sv.encode()
	b.Run("encode", func(b *testing.B) {
		b.SetBytes(int64(len(enc)))
		for b.Loop() {
			sv.encode()
		}
		b.ReportMetric(float64(len(enc)), "entry-bytes")
	})
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(enc)))
		for b.Loop() {
			if _, ok := decodeSurvival(enc); !ok {
				b.Fatal("the state does not read back")
			}
		}
	})
}

// BenchmarkOOMReplay measures rebuilding the memory at an OOM at the
// start of a 10k-event trace (stateAt: every event walked back) over a
// large model's 175k pieces.
func BenchmarkOOMReplay(b *testing.B) {
	s := bigRun(1, 10_000, 175_000).Snapshots[0].Snapshot
	for b.Loop() {
		m := newMemState(s, 0)
		m.stateAt(s, 0, 0)
		if len(m.pieces) == 0 {
			b.Fatal("no pieces")
		}
	}
}

// ordinarySegments returns a snapshot shaped as the bench's ordinary
// one's device 0: 3,100 segments in address order, alternating between
// the small and large pools, of 3 to 4 blocks (about 10k in all), and
// next, the same but every tenth segment resized.
func ordinarySegments() (prev, next *snapshot.Snapshot) {
	prev, next = &snapshot.Snapshot{}, &snapshot.Snapshot{}
	states := []snapshot.BlockState{snapshot.StateActiveAllocated, snapshot.StateInactive, snapshot.StateActiveAllocated, snapshot.StateActivePendingFree}
	for i := range 3100 {
		addr := uint64(0x7f0000000000 + i<<22)
		seg := &snapshot.Segment{Address: addr, TotalSize: 2 << 20, Pool: snapshot.PoolSmall + snapshot.Pool(i%2)}
		for j := range 3 + i%2 {
			seg.Blocks = append(seg.Blocks, snapshot.Block{Address: addr + uint64(j)<<18, Size: 1 << 18, RequestedSize: 1<<18 - 100, State: states[j]})
		}
		prev.Segments = append(prev.Segments, seg)
		if i%10 == 0 {
			c := *seg
			c.TotalSize *= 2
			seg = &c
		}
		next.Segments = append(next.Segments, seg)
	}
	return prev, next
}

// BenchmarkPointUsage measures a point's accounting, as BuildSeries makes
// it for every snapshot: the pools' usage and the device's, summed from
// them (pools), against the device's read from the blocks again
// (pools+device, as before).
func BenchmarkPointUsage(b *testing.B) {
	s, _ := ordinarySegments()
	b.Run("pools", func(b *testing.B) {
		for b.Loop() {
			usageOfPools(PoolUsages(s, 0), s.TraceEntries(0))
		}
	})
	b.Run("pools+device", func(b *testing.B) {
		for b.Loop() {
			PoolUsages(s, 0)
			DeviceUsage(s, 0)
		}
	})
}

// BenchmarkLargestNewSegment measures the largest new segment between
// two ordinary snapshots, by the merge of their address-ordered lists
// and by the map that any two lists take.
func BenchmarkLargestNewSegment(b *testing.B) {
	prev, next := ordinarySegments()
	sizes := map[uint64]int64{}
	b.Run("merged", func(b *testing.B) {
		for b.Loop() {
			largestNewSegment(sizes, prev, next, 0)
		}
	})
	b.Run("mapped", func(b *testing.B) {
		for b.Loop() {
			largestNewSegmentMapped(sizes, prev, next, 0)
		}
	})
}
