package report

import (
	"fmt"
	"math"
	"slices"
	"time"

	"gpureport/analyze"
	"gpureport/analyze/roles"
	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/placement"
	"gpureport/snapshot"
)

// Hand-built Findings fixtures, realistic and complete: a two-rank run of
// 12 snapshots every 100 steps with a planted leak on rank 1, nvidia-smi
// readings, an OOM at the end, fragmentation, notes and skipped inputs.

var fixtureStart = time.Date(2025, 3, 14, 9, 0, 0, 0, time.UTC)

const gib = 1 << 30
const mibB = 1 << 20

// fixtureFindings returns the fixture Findings and the matching decoded
// run (for the segment map).
func fixtureFindings() (*analyze.Findings, *ingest.Run) {
	f := &analyze.Findings{
		RunDir:   "/data/experiments/run42",
		Location: "Europe/Berlin",
		Inputs: analyze.Inputs{
			Snapshots: 24,
			Logs: []analyze.LogInfo{
				{Path: "logs/nvidia-smi.csv", Format: gpulog.FormatQueryCSV, Samples: 240, GPUs: 2, SkippedLines: 1,
					Problems: []gpulog.LineProblem{{Line: 77, Reason: "3 fields, want 5"}}},
			},
			Skipped: []ingest.Skipped{{Path: "rank1/snapshot_step_1300.pickle", Reason: "truncated pickle at offset 4096: unexpected EOF"}},
		},
		Notes: []analyze.Note{{Kind: analyze.NoteCoverage, Device: analyze.DeviceKey{Rank: 0, Device: 0}, Level: analyze.CoveragePartial, Share: 0.62}},
	}
	run := &ingest.Run{Dir: f.RunDir, Location: time.UTC}
	for rank := 0; rank < 2; rank++ {
		d := &analyze.Device{
			DeviceKey: analyze.DeviceKey{Rank: rank, Device: 0},
			Capacity:  80 * gib,
			Order:     analyze.OrderTraceTime, Axis: analyze.AxisStep,
			Coverage: analyze.Coverage{LiveWithStack: 0.62 + 0.3*float64(rank)},
		}
		leak := int64(0)
		if rank == 1 {
			leak = 48 * mibB
		}
		g := &analyze.GPUSeries{Total: 80 * gib, Sources: []string{"logs/nvidia-smi.csv"}}
		for i := 0; i < 12; i++ {
			step := int64(100 * (i + 1))
			alloc := 20*gib + int64(i)*leak + int64(i%3)*64*mibB
			res := alloc + 6*gib + int64(i)*leak/4
			u := analyze.Usage{
				Reserved: res, Allocated: alloc, Active: alloc + 8*mibB, Requested: alloc - 30*mibB,
				Inactive: res - alloc - 8*mibB, LargestFree: 2*gib - int64(i)*64*mibB,
				Segments: 40 + i, Blocks: 900 + 10*i, TraceEntries: 50000,
			}
			u.InternalWaste = u.Active - u.Requested
			p := analyze.Point{
				Path: fmt.Sprintf("rank%d/snapshot_step_%d.pickle", rank, step), Step: step,
				Time: fixtureStart.Add(time.Duration(i) * 10 * time.Minute), X: float64(step), Usage: u,
				Pools: []analyze.PoolUsage{
					{Pool: "small", Usage: analyze.Usage{Reserved: 2 * gib, Allocated: gib, Active: gib, Inactive: gib, LargestFree: 2 * mibB}},
					{Pool: "large", Usage: analyze.Usage{Reserved: res - 2*gib, Allocated: alloc - gib, Active: alloc - gib, Inactive: res - alloc - gib, LargestFree: u.LargestFree}},
				},
			}
			p.Roles = fixtureRoles(alloc, int64(i)*leak)
			d.Points = append(d.Points, p)
			for k := 0; k < 10; k++ {
				t := p.Time.Add(time.Duration(k) * time.Minute)
				g.Times = append(g.Times, t)
				g.X = append(g.X, float64(step)+float64(k)*10)
				used := res + 900*mibB + int64(k)*mibB
				g.Used = append(g.Used, used)
				g.MaxUsed = max(g.MaxUsed, used)
			}
		}
		d.GPU = g
		slope, lo, hi := float64(leak)/100, float64(leak)/100*0.9, float64(leak)/100*1.1
		state := analyze.StateGrowing
		pval := 1e-6
		if rank == 0 {
			slope, lo, hi, state, pval = 120_000, -2e5, 4.4e5, analyze.StateFlat, 0.41
		}
		at := analyze.Trend{Metric: "allocated_bytes", Per: "step", N: 10, Slope: slope, Lo: lo, Hi: hi,
			Intercept: 20*gib - slope*100, PValue: pval, StepPValue: 0.002, Method: "Theil-Sen", FitFrom: 2, FitX0: 300, FitX1: 1200,
			Growth: slope * 900, Level: 20 * gib, R2: 0.97, ChangePoint: -1, State: state, Pattern: analyze.PatternSteady,
			Why: analyze.TrendWhy{Rule: analyze.RuleGrows, MinPoints: 6, Alpha: 0.01}}
		if rank == 0 {
			at.Pattern, at.Why.Rule = analyze.PatternNoisy, analyze.RuleNoGrowth
		}
		if rank == 1 {
			// As analyze.Project computes it, with a 40 GiB limit so the
			// projection falls within the horizon.
			limit := float64(40 * gib)
			left := limit - (at.Intercept + slope*1200)
			at.Projection = &analyze.Projection{Capacity: int64(limit), Outside: 80*gib - int64(limit), ExtrapolationRuns: 10,
				Remaining: left / slope, RemainingLo: left / hi, RemainingHi: left / lo}
			at.Projection.X, at.Projection.XLo, at.Projection.XHi = 1200+at.Projection.Remaining, 1200+at.Projection.RemainingLo, 1200+at.Projection.RemainingHi
			pace := 10.0 / 60 / 100 // hours per step
			at.Projection.Hours, at.Projection.HoursLo, at.Projection.HoursHi = at.Projection.Remaining*pace, at.Projection.RemainingLo*pace, at.Projection.RemainingHi*pace
		}
		d.Trends = []analyze.Trend{at,
			{Metric: "reserved_bytes", Per: "step", N: 10, Slope: slope * 1.25, Lo: lo * 1.25, Hi: hi * 1.25, Intercept: 26 * gib, PValue: pval, Method: "Theil-Sen", FitFrom: 2, State: state,
				Growth: slope * 1.25 * 900, Why: at.Why},
		}
		d.PrimaryMetric, d.Status = analyze.MetricAllocated, analyze.Status(state)
		d.GPUJoin = &analyze.Join{GPU: rank, Method: placement.JoinByRank, Guess: true}
		d.Coverage.Level = "partial"
		d.Coverage.MinLiveWithStack = 0.5
		d.Coverage.PerPoint = []float64{0.5, d.Coverage.LiveWithStack}
		d.Reconciliation = &analyze.Reconciliation{Matched: 12, Level: 900 * mibB, Why: analyze.OutsideWhy{Rule: analyze.OutsideFlat},
			Trend: &analyze.Trend{Metric: analyze.MetricNonPyTorch, Per: "step", N: 12, Slope: 0, Lo: -2e5, Hi: 2e5, PValue: 0.5, State: analyze.StateFlat,
				Pattern: analyze.PatternFlat, Why: analyze.TrendWhy{Rule: analyze.RuleNoGrowth}}}
		d.TraceWindow = &analyze.TraceWindow{Path: d.Points[11].Path, Entries: 50000, Start: fixtureStart.Add(110 * time.Minute), End: fixtureStart.Add(2 * time.Hour),
			PeakAllocated: 21 * gib, NeverFreedBytes: 96 * mibB, NeverFreedBlocks: 2, UnknownFrees: 12,
			NeverFreed: []analyze.LiveGroup{{Signature: analyze.Signature{Site: "train.py:57", Function: "train_step", Fingerprint: "7f3a9c01d2e4"}, Bytes: 96 * mibB, Blocks: 2}}}
		d.TraceWindow.Peak = &analyze.TracePeak{Allocated: 21 * gib, Index: 31250, Time: fixtureStart.Add(115 * time.Minute),
			Roles: *fixtureRoles(21*gib, int64(11)*leak)}
		for k := 0; k < 40; k++ {
			a := 20*gib + int64(k%8)*256*mibB
			d.TraceWindow.Timeline = append(d.TraceWindow.Timeline, analyze.TimelinePoint{Index: k * 1250, Allocated: a, Reserved: 26 * gib})
		}
		for gi, site := range []string{"train.py:57", "model.py:88", "optim.py:12"} {
			g := analyze.Group{Signature: analyze.Signature{Site: site, Function: []string{"train_step", "forward", "step"}[gi], Fingerprint: fmt.Sprintf("%012x", 0xabc000+gi)}}
			for i := range d.Points {
				g.Bytes = append(g.Bytes, int64(gi+1)*gib+int64(i)*leak*int64(1-min(gi, 1)))
				g.Blocks = append(g.Blocks, 100*(gi+1))
			}
			if gi == 0 {
				g.Fingerprint = "7f3a9c01d2e4b5a6"
				g.Stack = fixtureSuspect(d, "train.py", 57, "train_step", "", 0).Stack
				g.User = []bool{false, false, false, true, true, false}
			}
			d.Groups = append(d.Groups, g)
		}
		d.Groups = append(d.Groups, analyze.Group{Signature: analyze.Signature{Site: "(other)"}, Other: true, Bytes: make([]int64, 12), Blocks: make([]int, 12)})
		fr := &analyze.Fragmentation{Why: analyze.FragWhy{Rule: analyze.FragSawTooth, Releases: 3}}
		for _, p := range d.Points {
			fr.Points = append(fr.Points, analyze.FragPoint{Inactive: p.Usage.Inactive, LargestFree: p.Usage.LargestFree,
				External: p.Usage.ExternalFragmentation(), InternalWaste: p.Usage.InternalWaste, PinnedSegments: 3, PinnedBytes: 40 * mibB})
		}
		fr.Fragmented = rank == 1
		if fr.Fragmented {
			fr.Why = analyze.FragWhy{Rule: analyze.FragCacheJumps, Periodic: 12, Last: fr.Points[11], Rises: 4, Risen: 1536 * mibB, Missed: 2}
		}
		d.Fragmentation = fr
		if rank == 1 {
			d.Suspects = []analyze.Suspect{fixtureSuspect(d, "train.py", 57, "train_step", "7f3a9c01d2e4b5a6", leak),
				fixtureSuspect(d, "data/cache.py", 12, "remember", "0c11d00d5eedf00d", 2*mibB)}
			d.Suspects[1].Suppressed = "known: dataset cache"
			// Each suspect names its group, as analyze's do: the leak is
			// group 0; the cache gets a group of its own before "other".
			cache := analyze.Group{Signature: analyze.Signature{Site: d.Suspects[1].Site, Function: d.Suspects[1].Function, Fingerprint: d.Suspects[1].Fingerprint},
				Stack: d.Suspects[1].Stack, User: d.Suspects[1].User, Bytes: d.Suspects[1].Bytes, Blocks: d.Suspects[1].Blocks}
			d.Groups = slices.Insert(d.Groups, len(d.Groups)-1, cache)
			d.Suspects[0].Group, d.Suspects[1].Group = 0, len(d.Groups)-2
			d.Suspects[0].Confidence, d.Suspects[0].Share = "high", 0.98
			d.Suspects[0].Roles = &analyze.SuspectRoles{Role: roles.Activations, Evidence: roles.ByLifetime}
			d.Suspects[0].Roles.Bytes[roles.Activations] = d.Suspects[0].Bytes[11] - 2*mibB
			d.Suspects[0].Roles.Bytes[roles.Unknown] = 2 * mibB
			d.Suspects[0].Evidence = []analyze.Evidence{{Kind: analyze.EvidenceGrowth}, {Kind: analyze.EvidenceShape, Bytes: 10, Of: 43},
				{Kind: analyze.EvidenceCoverage, Share: 0.92}}
			d.LeakSites = []analyze.LeakSite{{Site: "train.py:57", Function: "train_step", Trend: d.Suspects[0].Trend, Suspects: []int{0},
				Severity: analyze.SeverityMedium, Projection: at.Projection, Bytes: d.Suspects[0].Bytes}}
		}
		for i := range d.Suspects {
			sp := &d.Suspects[i]
			sp.LastShare = float64(sp.Bytes[11]) / float64(d.Points[11].Usage.Allocated)
		}
		for _, p := range d.Points {
			d.PeakAllocated, d.PeakReserved = max(d.PeakAllocated, p.Usage.Allocated), max(d.PeakReserved, p.Usage.Reserved)
		}
		f.Devices = append(f.Devices, d)
		last := fixtureSnapshotFile(d.Points[len(d.Points)-1].Path, rank)
		d.Segments = fixtureSegments(last.Snapshot, len(d.Suspects) > 0)
		run.Snapshots = append(run.Snapshots, last)
	}
	f.Ranks = &analyze.RankComparison{
		Ranks: []analyze.RankSummary{
			{Rank: 0, PeakAllocated: f.Devices[0].Points[11].Usage.Allocated, PeakReserved: f.Devices[0].Points[11].Usage.Reserved, Slope: 120_000},
			{Rank: 1, PeakAllocated: f.Devices[1].Points[11].Usage.Allocated, PeakReserved: f.Devices[1].Points[11].Usage.Reserved, Slope: float64(48*mibB) / 100,
				Growing: true, Suspects: 1, TopSuspect: "train.py:57"},
		},
		Outlier: 1, OutlierSuspect: "7f3a9c01d2e4b5a6", OutlierRef: &analyze.SuspectRef{DeviceKey: analyze.DeviceKey{Rank: 1, Device: 0}, Index: 0},
		Skew: 528 * mibB, Growing: 1, Of: 2, Others: []int{0},
	}
	f.OOMs = []analyze.OOM{{
		Path: "rank1/snapshot_step_1200.pickle", Rank: 1, Device: 0, Time: fixtureStart.Add(2 * time.Hour),
		Requested: 2 * gib, DeviceFree: 512 * mibB, Reserved: 78 * gib, Allocated: 71 * gib, CachedFree: 7 * gib, LargestFree: 1300 * mibB,
		Cause: "fragmentation",
		Site:  "train.py:60", Function: "train_step", Reconstructed: true, FreedAfter: 3 * gib, EstimatedCapacity: 78*gib + 512*mibB,
		Stack:           []snapshot.Frame{{File: "/usr/lib/python3.11/site-packages/torch/nn/functional.py", Line: 2210, Name: "linear"}, {File: "/home/alice/proj/train.py", Line: 60, Name: "train_step"}},
		User:            []bool{false, true},
		TopLive:         []analyze.LiveGroup{{Signature: analyze.Signature{Site: "train.py:57", Function: "train_step", Fingerprint: "7f3a9c01d2e4"}, Bytes: 40 * gib, Blocks: 400}},
		Settings:        snapshot.AllocatorSettings{Present: true, Conf: "max_split_size_mb:512", MaxSplitSize: 512 * mibB, Raw: []snapshot.KeyValue{{Key: "max_split_size", Value: "536870912"}, {Key: "expandable_segments", Value: "False"}}},
		Recommendations: []analyze.Recommendation{{Kind: analyze.StepExpandable}},
		Roles:           fixtureRoles(71*gib, 528*mibB),
		Phase:           "forward",
		Ranks:           2,
	}}
	f.Held = &analyze.Held{Device: analyze.DeviceKey{Rank: 1, Device: 0}, OOM: 0, Point: -1}
	f.Thresholds = analyze.Thresholds{Alpha: 0.01, SuspectAlpha: 0.001, MinPoints: 6, MinGrowthBytes: 64 * mibB, MinGrowthShare: 0.02, ExtrapolationRuns: 10}
	rank1 := analyze.DeviceKey{Rank: 1, Device: 0}
	f.Verdict = analyze.Verdict{
		Leak: true, OOM: true, Fragmentation: true, Severity: "critical",
		Reasons: []analyze.Reason{
			{Kind: analyze.ReasonLeak, Device: rank1, Suspects: 1},
			{Kind: analyze.ReasonFragmentation, Device: rank1},
			{Kind: analyze.ReasonOOM, Device: rank1, Index: 0},
		},
		Suspects:   []analyze.SuspectRef{{DeviceKey: rank1, Index: 0}},
		OOMs:       1,
		OOMCauses:  []analyze.OOMCause{analyze.CauseFragmentation},
		Suppressed: []analyze.SuppressedRule{{Rule: "known: dataset cache", Suspects: 1}},
	}
	f.NextSteps = []analyze.NextStep{
		{Kind: analyze.StepExpandable, OOM: 0, Recommendation: analyze.Recommendation{Kind: analyze.StepExpandable}},
		{Kind: analyze.StepLookSite, OOM: -1, Suspect: analyze.SuspectRef{DeviceKey: rank1, Index: 0}},
	}
	return f, run
}

// fixtureRoles is a fixture's roles of alloc allocated bytes, leaked of
// them activations kept across steps: a model trained with Adam in fp32
// (optimizer state twice the parameters), decided mostly by frame rules.
func fixtureRoles(alloc, leaked int64) *roles.Breakdown {
	bd := &roles.Breakdown{Allocated: alloc}
	fixed := map[roles.Role]int64{
		roles.Parameters: alloc / 8, roles.Gradients: alloc / 8, roles.OptimizerState: alloc / 4,
		roles.Inputs: 256 * mibB, roles.Workspace: 32 * mibB, roles.Other: 48 * mibB, roles.Unknown: 200 * mibB,
		roles.Temporaries: 96 * mibB,
	}
	rest := alloc
	for r, n := range fixed {
		bd.Bytes[r] = n
		rest -= n
	}
	bd.Bytes[roles.Activations] = rest
	for r := range roles.NumRoles {
		bd.Blocks[r] = int(bd.Bytes[r] / (4 * mibB))
		switch r {
		case roles.Unknown, roles.Other:
			bd.ByEvidence[r][roles.ByNothing] = bd.Bytes[r]
		case roles.Activations:
			bd.ByEvidence[r][roles.ByLifetime] = bd.Bytes[r] - leaked/2
			bd.ByEvidence[r][roles.ByFrame] = leaked / 2
		case roles.Temporaries:
			bd.ByEvidence[r][roles.ByLifetime] = bd.Bytes[r]
		default:
			bd.ByEvidence[r][roles.ByFrame] = bd.Bytes[r]
		}
	}
	bd.Rules = []roles.RuleShare{
		{Rule: "forward alloc alive after its op", Role: roles.Activations, Evidence: roles.ByLifetime, Bytes: bd.Bytes[roles.Activations]},
		{Rule: "no frames, allocated before the trace began", Role: roles.Unknown, Evidence: roles.ByNothing, Bytes: bd.Bytes[roles.Unknown]},
	}
	return bd
}

func fixtureSuspect(d *analyze.Device, file string, line int, fn, fp string, perPoint int64) analyze.Suspect {
	s := analyze.Suspect{
		Fingerprint: fp, Site: fmt.Sprintf("%s:%d", file, line), Function: fn,
		Stack: []snapshot.Frame{
			{File: "??", Name: "c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc(int, unsigned long, CUstream_st*)"},
			{File: "/usr/lib/python3.11/site-packages/torch/_tensor.py", Line: 1512, Name: "__torch_function__"},
			{File: "/usr/lib/python3.11/site-packages/torch/nn/functional.py", Line: 2210, Name: "embedding"},
			{File: "/home/alice/proj/" + file, Line: line, Name: fn},
			{File: "/home/alice/proj/train.py", Line: 140, Name: "main"},
			{File: "/usr/lib/python3.11/runpy.py", Line: 88, Name: "_run_code"},
		},
		User: []bool{false, false, false, true, true, false},
	}
	for i := range d.Points {
		s.Bytes = append(s.Bytes, 64*mibB+int64(i)*perPoint)
		s.Blocks = append(s.Blocks, 10+i*3)
	}
	s.Trend = analyze.Trend{Metric: "suspect_bytes", Per: "step", N: len(d.Points), Slope: float64(perPoint) / 100, Growth: float64(perPoint) * 11,
		Lo: float64(perPoint) / 100 * 0.95, Hi: float64(perPoint) / 100 * 1.05, Intercept: float64(64*mibB) - float64(perPoint), PValue: 2e-5, Method: "Theil-Sen", Test: "Mann-Kendall, one-sided, exact", State: analyze.StateGrowing,
		Pattern: analyze.PatternSteady, Why: analyze.TrendWhy{Rule: analyze.RuleGrows}}
	return s
}

// fixtureSegments lays out a fixture snapshot's segments as the analysis
// does (analyze.SegmentMap), its allocated blocks the leak suspect's when
// suspect is set.
func fixtureSegments(s *snapshot.Snapshot, suspect bool) *analyze.SegmentMap {
	m := &analyze.SegmentMap{}
	for _, sg := range s.Segments {
		ms := analyze.MapSegment{Address: sg.Address, Size: sg.TotalSize, Pool: sg.Pool.String(), Stream: sg.Stream}
		for _, b := range sg.Blocks {
			mb := analyze.MapBlock{Address: b.Address, Size: b.Size, State: b.State.String(), Suspect: -1}
			if fr := s.Stacks.StackFrames(b.Stack); len(fr) > 0 {
				mb.Frame, mb.HasFrame = fr[0], true
			}
			if suspect && b.State != snapshot.StateInactive {
				mb.Suspect = 0
			}
			ms.Blocks = append(ms.Blocks, mb)
		}
		m.Segments = append(m.Segments, ms)
	}
	return m
}

// fixtureSnapshotFile builds a small decoded snapshot with three segments
// for the segment map.
func fixtureSnapshotFile(path string, rank int) *ingest.SnapshotFile {
	s := &snapshot.Snapshot{Generation: snapshot.GenTimed}
	fr := s.Stacks.InternFrame(snapshot.Frame{File: "/home/alice/proj/train.py", Line: 57, Name: "train_step"})
	stack := s.Stacks.InternStack([]snapshot.FrameID{fr})
	addr := uint64(0x7f0000000000)
	for i := 0; i < 3; i++ {
		seg := snapshot.Segment{Device: 0, Address: addr, TotalSize: 20 * mibB, Pool: snapshot.PoolLarge}
		b := addr
		for j, sz := range []int64{8 * mibB, 2 * mibB, 6 * mibB, 4 * mibB} {
			st := snapshot.StateActiveAllocated
			if j%2 == 1 {
				st = snapshot.StateInactive
			}
			seg.Blocks = append(seg.Blocks, snapshot.Block{Address: b, Size: sz, RequestedSize: sz, State: st, Stack: stack})
			b += uint64(sz)
		}
		s.Segments = append(s.Segments, &seg)
		addr += 32 * mibB
	}
	s.Stacks.Seal()
	return &ingest.SnapshotFile{Source: input.Source{Path: path}, Step: 1200, Rank: rank, Snapshot: s}
}

// largeFindings is a synthetic large run: 8 devices x 100 snapshots with
// 1M trace entries each, a day of one-second nvidia-smi readings per
// device and 50 suspects with 120-frame stacks.
func largeFindings() *analyze.Findings {
	f := &analyze.Findings{RunDir: "/data/big", Inputs: analyze.Inputs{Snapshots: 800}}
	for dev := 0; dev < 8; dev++ {
		d := &analyze.Device{DeviceKey: analyze.DeviceKey{Rank: dev, Device: 0}, Capacity: 80 * gib, Axis: analyze.AxisStep, Order: analyze.OrderStep, PrimaryMetric: analyze.MetricAllocated, Status: analyze.StatusGrowing}
		for i := 0; i < 100; i++ {
			a := 10*gib + int64(i)*100*mibB
			d.Points = append(d.Points, analyze.Point{Path: fmt.Sprintf("rank%d/snapshot_%05d.pickle", dev, i*50), Step: int64(i * 50), X: float64(i * 50),
				Usage: analyze.Usage{Allocated: a, Reserved: a + gib, Active: a, Requested: a, Inactive: gib, LargestFree: gib / 3, Segments: 3000, Blocks: 200000, TraceEntries: 1_000_000}})
		}
		g := &analyze.GPUSeries{Total: 80 * gib}
		for k := 0; k < 86_400; k++ {
			g.Times = append(g.Times, fixtureStart.Add(time.Duration(k)*time.Second))
			g.X = append(g.X, float64(k)*5000/86400)
			g.Used = append(g.Used, 12*gib+int64(k)*100_000+int64(math.Sin(float64(k))*float64(mibB)))
		}
		g.MaxUsed = g.Used[len(g.Used)-1]
		d.GPU = g
		d.Trends = []analyze.Trend{{Metric: "allocated_bytes", Per: "step", N: 100, Slope: 2 * mibB, Lo: 1.9 * mibB, Hi: 2.1 * mibB, Intercept: 10 * gib, PValue: 1e-9, Method: "OLS", State: "growing"}}
		for s := 0; s < 7; s++ {
			sus := analyze.Suspect{Fingerprint: fmt.Sprintf("%016x", dev*100+s), Site: fmt.Sprintf("model.py:%d", s), Function: "forward"}
			for k := 0; k < 120; k++ {
				sus.Stack = append(sus.Stack, snapshot.Frame{File: fmt.Sprintf("/usr/lib/python3/site-packages/torch/nn/modules/module_%d.py", k), Line: k, Name: fmt.Sprintf("_call_impl_%d", k)})
				sus.User = append(sus.User, k%10 == 0)
			}
			for i := range d.Points {
				sus.Bytes = append(sus.Bytes, int64(i)*mibB)
				sus.Blocks = append(sus.Blocks, i)
			}
			sus.Trend = analyze.Trend{Per: "step", N: 100, Slope: mibB / 50, Lo: mibB / 60, Hi: mibB / 40, PValue: 1e-5, State: "growing"}
			d.Suspects = append(d.Suspects, sus)
		}
		f.Devices = append(f.Devices, d)
	}
	f.Verdict = analyze.Verdict{Leak: true, Severity: "critical"}
	return f
}
