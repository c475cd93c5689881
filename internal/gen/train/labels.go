package train

import (
	"fmt"
	"math"
	"strings"

	"gpureport/internal/gen/layout"
	"gpureport/internal/labels"
)

// GeneratorName is labels.json's generator field.
const GeneratorName = "gpureport internal/gen"

// Labels is labels.json: the ground truth of a corpus.
type Labels = labels.File[Label]

// Label is the ground truth of one case (one run directory).
type Label struct {
	labels.Case
	// Truth holds the measured details behind Expect.
	Truth Truth `json:"truth"`
}

// Truth is what the simulator measured, for checking an analysis beyond
// the four verdict flags. Byte counts are block bytes (after rounding).
type Truth struct {
	GPU        string `json:"gpu"`
	Ranks      int    `json:"ranks"`
	Snapshots  int    `json:"snapshots"`
	FirstStep  int    `json:"first_step"`
	LastStep   int    `json:"last_step"`
	Interval   int    `json:"interval_steps"`
	Phase      Phase  `json:"phase"`
	Torch      string `json:"torch_version"`
	Format     string `json:"format"`
	Container  string `json:"container"`
	Protocol   int    `json:"protocol"`
	MaxEntries int    `json:"max_entries"`
	// Reserved and allocated bytes of the first and last snapshot (the
	// leaking rank's, else rank 0's).
	ReservedFirst  int64 `json:"reserved_first"`
	ReservedLast   int64 `json:"reserved_last"`
	AllocatedFirst int64 `json:"allocated_first"`
	AllocatedLast  int64 `json:"allocated_last"`
	InactiveLast   int64 `json:"inactive_last"`
	LargestFree    int64 `json:"largest_free_last"`
	// Leak: request size per leaking step, schedule, and the live bytes at
	// the leak site in the first and last snapshot.
	LeakBytesPerEvent int64   `json:"leak_bytes_per_event,omitempty"`
	LeakEvery         int     `json:"leak_every_steps,omitempty"`
	LeakBurstPeriod   int     `json:"leak_burst_period,omitempty"`
	LeakBurstLen      int     `json:"leak_burst_len,omitempty"`
	LeakLiveFirst     int64   `json:"leak_live_first,omitempty"`
	LeakLiveLast      int64   `json:"leak_live_last,omitempty"`
	LeakGrowthPerStep float64 `json:"leak_growth_bytes_per_step,omitempty"`
	// OneTime: the one-off buffer (not a leak).
	OneTimeSite  string `json:"one_time_site,omitempty"`
	OneTimeStep  int    `json:"one_time_step,omitempty"`
	OneTimeBytes int64  `json:"one_time_bytes,omitempty"`
	// EmptyCacheEvery is the empty_cache() period in steps.
	EmptyCacheEvery int `json:"empty_cache_every,omitempty"`
	// OutsideGrowth is the growth of memory outside the allocator between
	// the first and last snapshot.
	OutsideGrowth int64 `json:"outside_growth_bytes,omitempty"`
	// OOM details.
	OOM *OOMTruth `json:"oom,omitempty"`
	// OOMDumpPath is the OOM dump's file ("" when none was taken).
	OOMDumpPath string `json:"oom_dump_path,omitempty"`
	// LeakRatePerStep is the leak's growth per step as a share of the
	// first snapshot's allocated bytes.
	LeakRatePerStep float64 `json:"leak_rate_per_step,omitempty"`
	// ReservedGrowthSteps counts the dump intervals in which reserved
	// memory rose by more than 1% (growth in steps).
	ReservedGrowthSteps int `json:"reserved_growth_steps"`
	// Knobs are the case's variations (knobs.go).
	Knobs Knobs `json:"knobs"`
	// StepsInNames is true when file names carry training steps (not
	// indices, epochs or timestamps).
	StepsInNames bool `json:"steps_in_names"`
	// GPUMap is the nvidia-smi index of each rank's device (the join an
	// analysis should find); DevicesOfRun the (rank, device) pairs with
	// segments.
	GPUMap       []int `json:"gpu_map"`
	DevicesOfRun int   `json:"devices_of_run"`
	// Files are the snapshot files with their rank, step and dump time,
	// periodic and OOM dumps, in dump order.
	Files []FileTruth `json:"files"`
}

// FileTruth is one snapshot file's ground truth.
type FileTruth struct {
	Path   string `json:"path"`
	Rank   int    `json:"rank"`
	Step   int    `json:"step"`
	TimeUS int64  `json:"time_us"`
	OOM    bool   `json:"oom,omitempty"`
}

// OOMTruth describes the failed allocation.
type OOMTruth struct {
	Rank        int    `json:"rank"`
	Step        int    `json:"step"`
	Site        string `json:"site"`
	Requested   int64  `json:"requested_bytes"`
	Rounded     int64  `json:"rounded_bytes"`
	DeviceFree  int64  `json:"device_free_bytes"`
	Reserved    int64  `json:"reserved_bytes"`
	Inactive    int64  `json:"inactive_bytes"`
	LargestFree int64  `json:"largest_free_bytes"`
	// LeakLive is the planted leak's live bytes at the failure.
	LeakLive int64 `json:"leak_live_bytes"`
	// Cause is docs/design.md's OOM cause (Expect.OOMCause).
	Cause string `json:"cause"`
	// Dump is how the OOM was dumped (observer, exit, none).
	Dump OOMDump `json:"dump"`
}

// Judge measures what happened in a run (labels from the simulation, as
// docs/design.md defines them) and checks it against what the scenario meant
// to plant; an error says why the case is not usable (the caller draws
// again). Trend truths come from the periodic dumps only: an OOM dump is
// taken at another phase and is evidence for the OOM, not a trend point.
func Judge(scenario string, sp *Spec, res *Result) (Label, error) {
	lab := Label{Case: labels.Case{Scenario: scenario, Seed: sp.Seed, CapacityBytes: sp.Capacity(), LeakSites: []string{}}}
	rank := 0
	if sp.Leak != nil {
		rank = sp.LeakRank
	}
	var snaps []SnapInfo
	t := &lab.Truth
	paths := map[string]bool{}
	for _, s := range res.Snapshots {
		if paths[s.Path] {
			return lab, fmt.Errorf("two snapshots named %s", s.Path)
		}
		paths[s.Path] = true
		t.Files = append(t.Files, FileTruth{Path: s.Path, Rank: s.Rank, Step: s.Step, TimeUS: s.TimeUS, OOM: s.OOM})
		if s.OOM {
			t.OOMDumpPath = s.Path
		}
		if s.Rank == rank && !s.OOM {
			snaps = append(snaps, s)
		}
	}
	if len(snaps) < 4 {
		return lab, fmt.Errorf("only %d snapshots", len(snaps))
	}
	first, last := snaps[0], snaps[len(snaps)-1]
	t.GPU, t.Ranks, t.Snapshots, t.FirstStep, t.LastStep = sp.GPU.Name, sp.Ranks, len(snaps), first.Step, last.Step
	t.Interval, t.Phase, t.Torch, t.Format, t.Container = sp.Interval, sp.Phase, sp.Version, string(sp.format()), string(sp.container())
	t.Protocol, t.MaxEntries = sp.protocol(), sp.MaxEntries
	t.ReservedFirst, t.ReservedLast, t.AllocatedFirst, t.AllocatedLast = first.Reserved, last.Reserved, first.Allocated, last.Allocated
	t.InactiveLast, t.LargestFree, t.EmptyCacheEvery = last.Inactive, last.LargestFree, sp.EmptyCacheEvery
	t.OutsideGrowth = res.OutsideEnd - res.OutsideStart
	t.Knobs = sp.Knobs
	t.StepsInNames = sp.Knobs.Naming.StepInName()
	t.GPUMap = make([]int, sp.Ranks)
	for i := range t.GPUMap {
		t.GPUMap[i] = sp.smiIndex(i)
	}
	t.DevicesOfRun = sp.Ranks
	e := &lab.Expect
	if l := sp.Leak; l != nil {
		t.LeakBytesPerEvent, t.LeakEvery, t.LeakBurstPeriod, t.LeakBurstLen = l.Bytes, l.Every, l.BurstPeriod, l.BurstLen
		t.LeakLiveFirst, t.LeakLiveLast = first.LeakLive, last.LeakLive
		if last.Step > first.Step {
			t.LeakGrowthPerStep = float64(last.LeakLive-first.LeakLive) / float64(last.Step-first.Step)
		}
		if first.Allocated > 0 {
			t.LeakRatePerStep = t.LeakGrowthPerStep / float64(first.Allocated)
		}
		e.Leak = leakRises(snaps) >= minLeakRises
		if e.Leak {
			lab.LeakSites = []string{res.LeakSite}
			if sp.Ranks > 1 {
				r := sp.LeakRank
				lab.LeakRank = &r
			}
		}
	}
	if o := sp.OneTime; o != nil {
		t.OneTimeSite, t.OneTimeStep, t.OneTimeBytes = o.Site, o.Step, last.OneTimeLive
	}
	if o := res.OOM; o != nil {
		e.OOM = true
		e.OOMCause = o.Cause()
		t.OOM = &OOMTruth{Rank: o.Rank, Step: o.Step, Site: o.Site, Requested: o.Requested, Rounded: o.Rounded,
			DeviceFree: o.DeviceFree, Reserved: o.Reserved, Inactive: o.Inactive, LargestFree: o.LargestFree,
			LeakLive: o.LeakLive, Cause: e.OOMCause, Dump: sp.oomDump()}
	}
	t.ReservedGrowthSteps = reservedSteps(snaps)
	e.Fragmentation = e.OOMCause == CauseFragmentation || (sp.EmptyCacheEvery == 0 && anyRankFragGrowth(sp, res))
	e.OutsideAllocatorLeak = sp.OutsideGrowthMiBHour > 0 && float64(t.OutsideGrowth) > 0.02*float64(sp.Capacity())
	if err := accept(scenario, *e); err != nil {
		return lab, err
	}
	capB := float64(sp.Capacity())
	switch scenario {
	case ScClean, ScWarmup, ScOneTime, ScOutside:
		// No sustained growth of reserved memory in the second half.
		mid := snaps[len(snaps)/2]
		if float64(last.Reserved-mid.Reserved) > 0.05*capB {
			return lab, fmt.Errorf("reserved grew by %d bytes in the second half", last.Reserved-mid.Reserved)
		}
	}
	lab.Description = describe(scenario, sp, res)
	return lab, nil
}

// minLeakRises is how many times a planted leak's live bytes must rise
// from one periodic snapshot to the next for the case to be labelled a
// leak. A single rise is a one-time step, which docs/design.md says is not
// a leak: nothing in the snapshots tells it from a buffer allocated once
// (a leak in pieces so large that the device runs out at the third is one
// such case). Two rises are the least that shows growth repeating.
const minLeakRises = 2

// leakRises counts the periodic snapshots (of the leak's rank, in order)
// whose planted leak holds more live bytes than at the snapshot before.
func leakRises(snaps []SnapInfo) int {
	n := 0
	for i := 1; i < len(snaps); i++ {
		if snaps[i].LeakLive > snaps[i-1].LeakLive {
			n++
		}
	}
	return n
}

// Cause is docs/design.md's OOM cause, decided in its order: leak when the
// request would have fit without the planted leak's bytes; fragmentation
// when device free plus cached free memory was at least the request;
// capacity otherwise.
func (o *OOMInfo) Cause() string {
	switch {
	case o.LeakLive > 0 && o.DeviceFree+o.LeakLive >= o.Rounded:
		return CauseLeak
	case o.DeviceFree+o.Inactive >= o.Rounded:
		return CauseFragmentation
	}
	return CauseCapacity
}

// fragGrowth reports whether the periodic dumps show docs/design.md's growth
// form of fragmentation: reserved memory grows while allocated memory
// does not, the growth is held as cached free (inactive) memory, and it
// comes in at least two dump intervals (a single jump is warm-up). The
// growth must exceed 10% of the first reserved bytes and 3% of the device
// (smaller changes are the allocator settling, not a trend an analysis
// should be asked to find), and allocated may move by at most a tenth of
// it. Allocated memory's movement is that of its floor, the least of the
// last third of the dumps against the first third's: a dump holds the
// persistent memory plus what its point in the step holds, and memory
// that wanders (activations caught at random phases, a container of
// variable-size tensors) does not count as moving for where its first and
// last dump happen to fall.
// Everything is the default pool's: a private pool (a CUDA graph's) keeps
// its memory for its own replays.
func fragGrowth(sp *Spec, snaps []SnapInfo) bool {
	first, last := snaps[0], snaps[len(snaps)-1]
	reserved := func(s SnapInfo) int64 { return s.Reserved - s.PrivateReserved }
	inactive := func(s SnapInfo) int64 { return s.Inactive - s.PrivateInactive }
	grew := float64(reserved(last) - reserved(first))
	k := max(1, len(snaps)/3)
	level := func(part []SnapInfo) float64 {
		v := float64(part[0].Allocated - part[0].PrivateAllocated)
		for _, s := range part[1:] {
			v = min(v, float64(s.Allocated-s.PrivateAllocated))
		}
		return v
	}
	return grew > 0.1*float64(reserved(first)) && grew > 0.03*float64(sp.Capacity()) &&
		math.Abs(level(snaps[len(snaps)-k:])-level(snaps[:k])) < 0.1*grew &&
		float64(inactive(last)-inactive(first)) > 0.5*grew &&
		reservedSteps(snaps) >= 2
}

// anyRankFragGrowth reports whether the periodic dumps of any rank show
// fragGrowth: the fragmentation flag is the run's, and a rank other than
// the leaking one fragments its cache just as well. Dumps before the
// first optimizer step are left out when enough remain: the optimizer
// state it creates, and the cache's first filling, are the warm-up
// docs/design.md does not count.
func anyRankFragGrowth(sp *Spec, res *Result) bool {
	byRank := map[int][]SnapInfo{}
	for _, s := range res.Snapshots {
		if !s.OOM {
			byRank[s.Rank] = append(byRank[s.Rank], s)
		}
	}
	warm := max(sp.Accum, 1)
	for r, snaps := range byRank {
		i := 0
		for i < len(snaps) && snaps[i].Step < warm {
			i++
		}
		if len(snaps)-i >= 5 {
			byRank[r] = snaps[i:]
		}
	}
	for _, snaps := range byRank {
		if fragGrowth(sp, snaps) {
			return true
		}
	}
	return false
}

// reservedSteps counts the dump intervals in which reserved memory rose by
// more than 1% of the first dump's reserved bytes (a new segment of any
// size that matters, not rounding).
func reservedSteps(snaps []SnapInfo) int {
	n := 0
	for i := 1; i < len(snaps); i++ {
		d := (snaps[i].Reserved - snaps[i].PrivateReserved) - (snaps[i-1].Reserved - snaps[i-1].PrivateReserved)
		if float64(d) > 0.01*float64(snaps[0].Reserved-snaps[0].PrivateReserved) {
			n++
		}
	}
	return n
}

func (s *Spec) format() layout.Format {
	if s.Format != "" {
		return s.Format
	}
	e, _ := EraByVersion(s.Version)
	return e.Layout.Format
}

func (s *Spec) container() layout.Container {
	if s.Container == "" {
		return layout.Plain
	}
	return s.Container
}

func (s *Spec) protocol() int {
	switch {
	case s.Cpp || s.Container == layout.Zip:
		return 2
	case s.Protocol == 0:
		return 4
	}
	return s.Protocol
}

func mibs(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

func describe(scenario string, sp *Spec, res *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: ", scenario)
	switch {
	case sp.Bounded != nil:
		bd := sp.Bounded
		fmt.Fprintf(&b, "bounded container (%s) of at most %d tensors, %d added every %d step(s), log-normal sizes (median %s, sigma %.2f, at most %s): not a leak", bd.Kind, bd.Cap, bd.Add, bd.Every, mibs(bd.Median), bd.Sigma, mibs(bd.Max))
	case sp.KV != nil:
		kv := sp.KV
		fmt.Fprintf(&b, "generation phases of %d steps every %d steps: %d KV caches re-created %d tokens longer per step from a %d-token prompt (%s per token), freed after each phase", kv.Len, kv.Every, kv.Layers, kv.Tokens, kv.Prompt, mibs(kv.TokenBytes))
	case sp.Graph != nil:
		fmt.Fprintf(&b, "CUDA graph captured at steps %v into private pools (%s static in %d blocks each, compiled %v): not a leak", sp.Graph.Steps, mibs(sp.Graph.Bytes), sp.Graph.Blocks, sp.Graph.Compiled)
	case sp.Leak != nil && sp.Leak.Mode == LeakConcat:
		fmt.Fprintf(&b, "history tensor at %s re-created %s bigger every %d step(s) from step %d (torch.cat)", res.LeakSite, mibs(sp.Leak.Bytes), sp.Leak.Every, sp.Leak.StartStep)
	case scenario == ScHealthyLong:
		fmt.Fprintf(&b, "healthy: gradient accumulation over %d steps, mixed precision %v, uniform sequence lengths", max(sp.Accum, 1), sp.AMP)
	case sp.Knobs.SeqDist.heavy() && sp.Frag == nil && sp.Leak == nil:
		fmt.Fprintf(&b, "%s sequence lengths (shape %.2f, median %d, truncated at %d tokens): reserved grows in steps at flat allocated", sp.Knobs.SeqDist, sp.Knobs.SeqShape, sp.SeqMin, sp.SeqMax)
	case sp.Leak != nil && sp.Leak.BurstPeriod > 0:
		fmt.Fprintf(&b, "leak of %s per step at %s in bursts of %d steps every %d steps from step %d", mibs(sp.Leak.Bytes), res.LeakSite, sp.Leak.BurstLen, sp.Leak.BurstPeriod, sp.Leak.StartStep)
	case sp.Leak != nil:
		fmt.Fprintf(&b, "leak of %s every %d step(s) at %s from step %d", mibs(sp.Leak.Bytes), sp.Leak.Every, res.LeakSite, sp.Leak.StartStep)
	case sp.Frag != nil:
		fmt.Fprintf(&b, "curriculum temporaries growing %s -> %s in %d levels at data.py:118, each level's segment pinned by a small tensor (data.py:124, %d kept)",
			mibs(sp.Frag.BigStart), mibs(sp.Frag.BigEnd), sp.Frag.Stages, sp.Frag.Pins)
	case sp.OneTime != nil:
		fmt.Fprintf(&b, "one-time buffer of %s at %s at step %d (not a leak)", mibs(sp.OneTime.Bytes), sp.OneTime.Site, sp.OneTime.Step)
	case sp.OutsideGrowthMiBHour > 0:
		fmt.Fprintf(&b, "memory outside the allocator grows %.0f MiB/hour", sp.OutsideGrowthMiBHour)
		if sp.OutsideStepSeconds > 0 {
			fmt.Fprintf(&b, " in steps every %.0f s (evaluations)", sp.OutsideStepSeconds)
		}
		b.WriteString("; reserved flat")
	case sp.EmptyCacheEvery > 0:
		fmt.Fprintf(&b, "torch.cuda.empty_cache() every %d steps with variable sequence lengths; allocated flat", sp.EmptyCacheEvery)
	case scenario == ScWarmup:
		fmt.Fprintf(&b, "caching warm-up and AdamW state at step 0, then flat")
	default:
		fmt.Fprintf(&b, "no planted growth")
	}
	if sp.Ranks > 1 {
		fmt.Fprintf(&b, " on rank %d of %d", sp.LeakRank, sp.Ranks)
	}
	if res.OOM != nil {
		fmt.Fprintf(&b, "; out of memory at step %d (%s requested, cause %s, dump %s)", res.OOM.Step, mibs(res.OOM.Rounded), res.OOM.Cause(), sp.oomDump())
	}
	if sp.EmptyCacheEvery > 0 && scenario != ScSawtooth {
		fmt.Fprintf(&b, "; empty_cache() every %d steps", sp.EmptyCacheEvery)
	}
	fmt.Fprintf(&b, ". %d snapshots every %d steps from step %d (%s), %s, PyTorch %s %s layout, pickle protocol %d, %s; %d-block GPT hidden %d batch %d x %d-%d tokens",
		sp.Snapshots, sp.Interval, sp.FirstDump, sp.Phase, sp.GPU.Name, sp.Version, sp.format(), sp.protocol(), sp.container(),
		sp.Layers, sp.Hidden, sp.Batch, sp.SeqMin, sp.SeqMax)
	if sp.MaxEntries == 0 {
		b.WriteString(", no trace (state only)")
	} else {
		fmt.Fprintf(&b, ", trace of %d entries", sp.MaxEntries)
	}
	b.WriteString(sp.knobSummary())
	return b.String()
}
