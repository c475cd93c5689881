package train

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"time"

	"gpureport/internal/gen/layout"
	"gpureport/internal/labels"
)

// Scenario names, as labels.json spells them.
const (
	ScClean            = "clean"
	ScWarmup           = "warmup-plateau"
	ScOneTime          = "one-time-step"
	ScLeakSteady       = "leak-steady"
	ScLeakSlow         = "leak-slow"
	ScLeakIntermittent = "leak-intermittent"
	ScFrag             = "fragmentation"
	ScFragOOM          = "fragmentation-oom"
	ScOutside          = "outside-allocator"
	ScMultiRank        = "multi-rank-leak"
	ScSawtooth         = "sawtooth-empty-cache"
	ScGrowthOOM        = "growth-to-oom"
	// ScSeqTail is fragmentation from variable batch shapes: a
	// heavy-tailed sequence-length distribution makes reserved memory grow
	// in steps at flat allocated memory.
	ScSeqTail = "seq-heavy-tail"
	// ScSeqTailOOM is the same run pushed until a long batch fails to
	// allocate (a fragmentation or a capacity OOM, as measured).
	ScSeqTailOOM = "seq-heavy-tail-oom"
	// ScBounded is a bounded container of recent tensors of heavy-tailed
	// sizes (a rolling window, a replay buffer at its cap, the last
	// evaluations' outputs): its bytes wander, it is not a leak.
	ScBounded = "bounded-container"
	// ScKVPhases is periodic generation phases whose key/value caches
	// grow and are freed after, with dumps inside phases: not a leak.
	ScKVPhases = "kv-cache-phases"
	// ScGraphPool is CUDA graphs (or torch.compile's cudagraph trees)
	// captured once or twice into private pools: not a leak.
	ScGraphPool = "graph-pool"
	// ScHealthyLong is a long healthy run (hundreds of snapshots) with
	// gradient accumulation, mixed precision and variable shapes: neither
	// leak nor fragmentation.
	ScHealthyLong = "healthy-long"
	// ScLeakVerySlow is a leak of 0.05-0.3% of allocated memory per
	// snapshot over hundreds of snapshots.
	ScLeakVerySlow = "leak-very-slow"
	// ScLeakBackward is a leak made in the backward pass, whose stacks
	// have C++ frames only, beside Python-stacked activations.
	ScLeakBackward = "leak-backward"
	// ScLeakConcat is a history tensor re-created bigger at every step
	// (torch.cat): one block that grows, none that survives.
	ScLeakConcat = "leak-concat"
)

// Scenarios lists the corpus scenarios in corpus order.
func Scenarios() []string {
	return []string{ScClean, ScWarmup, ScOneTime, ScLeakSteady, ScLeakSlow, ScLeakIntermittent,
		ScFrag, ScFragOOM, ScOutside, ScMultiRank, ScSawtooth, ScGrowthOOM, ScSeqTail, ScSeqTailOOM,
		ScBounded, ScKVPhases, ScGraphPool, ScHealthyLong, ScLeakVerySlow, ScLeakBackward, ScLeakConcat}
}

// Expect is what truly happened in a run, as labels.json's expect holds
// it: docs/design.md's verdict flags and the OOM cause, measured from the
// simulation.
type Expect = labels.Flags

// OOM causes, as docs/design.md defines them.
const (
	CauseLeak          = "leak"
	CauseFragmentation = "fragmentation"
	CauseCapacity      = "capacity"
)

// intent returns what a scenario plants.
func intent(sc string) Expect {
	switch sc {
	case ScLeakSteady, ScLeakSlow, ScLeakIntermittent, ScMultiRank, ScLeakVerySlow, ScLeakBackward, ScLeakConcat:
		return Expect{Leak: true}
	case ScFrag:
		return Expect{Fragmentation: true}
	case ScFragOOM:
		return Expect{Fragmentation: true, OOM: true, OOMCause: CauseFragmentation}
	case ScOutside:
		return Expect{OutsideAllocatorLeak: true}
	case ScGrowthOOM:
		return Expect{Leak: true, OOM: true, OOMCause: CauseLeak}
	case ScSeqTail:
		return Expect{Fragmentation: true}
	case ScSeqTailOOM:
		return Expect{OOM: true}
	}
	return Expect{}
}

// accept checks what a case measured against what its scenario plants.
// Most scenarios must show exactly their intent; a heavy-tail OOM may
// end as a fragmentation or a capacity OOM, and the containers, KV phases
// and graph captures may fragment the cache (the fragmentation flag
// following the measurement).
func accept(scenario string, e Expect) error {
	want := intent(scenario)
	switch scenario {
	case ScSeqTailOOM:
		if e.OOM && !e.Leak && !e.OutsideAllocatorLeak && e.OOMCause != CauseLeak {
			return nil
		}
	case ScBounded, ScKVPhases, ScGraphPool:
		// Growth that is not a leak, beside whatever the cache does:
		// tensors of new sizes can fragment it (the flag follows the
		// measurement).
		e.Fragmentation = false
		if e == want {
			return nil
		}
	default:
		if e == want {
			return nil
		}
	}
	return fmt.Errorf("planned %+v, happened %+v", want, e)
}

// CaseSeed derives a case's seed from the corpus seed, the scenario and
// the case index.
func CaseSeed(corpus uint64, scenario string, i int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s/%d", corpus, scenario, i)
	return splitmix(h.Sum64())
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Draw returns the spec of one case of scenario, every parameter drawn
// from the scenario's ranges with seed (the same seed always gives the
// same spec). Some scenarios calibrate a parameter with a dry simulation
// (slow leaks against the measured noise, OOM timing against the measured
// headroom).
func Draw(scenario string, seed uint64) (*Spec, error) {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	kr := knobRNG(seed)
	sp := baseSpec(r, seed)
	sp.Name = scenario
	drawSeq(kr, scenario, sp)
	switch scenario {
	case ScClean:
		// Flat from the first snapshot: no dump before the optimizer state
		// exists.
		sp.FirstDump = max(sp.FirstDump, 1)
	case ScWarmup:
		sp.FirstDump = 0
		sp.Interval = 2 + r.IntN(9)
		sp.Phase = []Phase{PhaseStart, PhaseAfterForward, PhaseAfterBackward}[r.IntN(3)]
		sp.RecordAfterSetup = false
		sp.GradsToNone = false
		sp.SeqMin = max(8, int(float64(sp.SeqMax)*(0.3+0.3*r.Float64())))
	case ScOneTime:
		site := OneTimeSites()[r.IntN(len(OneTimeSites()))]
		step := int(float64(sp.Steps()) * (0.3 + 0.4*r.Float64()))
		n := int64(float64(sp.Capacity()) * (0.03 + 0.1*r.Float64()))
		if site == "ema.py:31" {
			n = sp.paramBytes()
		}
		sp.OneTime = &OneTime{Site: site, Step: step, Bytes: n}
	case ScLeakSteady, ScMultiRank:
		if scenario == ScMultiRank {
			sp.Ranks = 4
			sp.LeakRank = r.IntN(4)
			sp.NCCLMiB = 200 + int64(r.IntN(400))
			sp.Wrappers = []string{"ddp"}
			sp.Snapshots = min(sp.Snapshots, 24)
		}
		every := 1 + r.IntN(4)
		total := float64(sp.Capacity()) * (0.04 + 0.16*r.Float64())
		sp.Leak = leakFor(r, sp, every, 0, 0, total)
	case ScLeakIntermittent:
		period := 20 + r.IntN(60)
		if sp.Steps() < 4*period {
			sp.Interval = max(sp.Interval, (4*period+sp.Snapshots-1)/sp.Snapshots)
		}
		total := float64(sp.Capacity()) * (0.05 + 0.12*r.Float64())
		sp.Leak = leakFor(r, sp, 1, period, 1+r.IntN(4), total)
	case ScLeakSlow:
		// Three kinds of slow leak: hidden in the activations' noise of
		// mid-step dumps; a rate of 0.1-0.4% of allocated memory per step;
		// and a tiny but certain one (0.3-1% of allocated over the whole
		// run, dumped at the step boundary where nothing else moves,
		// sometimes over only 5-8 snapshots).
		variant := kr.IntN(3)
		if sp.Phase == PhaseEnd || sp.Phase == PhaseStart {
			sp.Phase = []Phase{PhaseAfterForward, PhaseAfterBackward, PhaseRandom}[r.IntN(3)]
		}
		if variant == 2 {
			sp.Phase = []Phase{PhaseEnd, PhaseStart}[kr.IntN(2)]
			sp.FirstDump = max(sp.FirstDump, 1)
			if kr.Float64() < 0.5 {
				sp.Snapshots = 5 + kr.IntN(4)
			}
		}
		sp.SeqMin = max(8, int(float64(sp.SeqMax)*(0.4+0.4*r.Float64())))
		noise, mean, err := allocatedNoise(sp)
		if err != nil {
			return nil, err
		}
		total := math.Max(noise*(1.5+2.5*r.Float64()), 0.003*float64(sp.Capacity()))
		switch variant {
		case 1:
			// Capped so the run does not run out of memory.
			rate := mean * 0.001 * math.Pow(4, kr.Float64())
			total = math.Min(rate*float64(sp.Steps()), 0.15*float64(sp.Capacity()))
		case 2:
			total = mean * (0.003 + 0.007*kr.Float64())
		}
		sp.Leak = leakFor(r, sp, 1+r.IntN(2), 0, 0, total)
	case ScFrag, ScFragOOM:
		sp.Phase = []Phase{PhaseEnd, PhaseStart}[r.IntN(2)]
		sp.Expandable, sp.MaxSplitSize = false, 0
		sp.FirstDump = max(sp.FirstDump, 1)
		head, dr, err := headroom(sp)
		if err != nil {
			return nil, err
		}
		// The temporaries must not fit in the activation cache.
		minBig := 1.2 * float64(dr.largestFree)
		stages := 12 + r.IntN(20)
		pins := 6 + r.IntN(10)
		if scenario == ScFrag {
			// All levels together stay well inside the headroom.
			sum := head * (0.25 + 0.3*r.Float64())
			ratio := 2 + 2*r.Float64()
			start := math.Max(2*sum/(float64(stages)*(1+ratio)), minBig)
			sp.Frag = &Frag{BigStart: int64(start), BigEnd: int64(start * ratio), Stages: stages, Pins: pins}
		} else {
			// The pinned levels fill the headroom at 50-85% of the run.
			at := float64(stages-1) * (0.5 + 0.35*r.Float64())
			sizeAt := head / float64(pins)
			start := math.Max(sizeAt*(0.25+0.3*r.Float64()), minBig)
			step := math.Max(sizeAt-start, 0) / at
			sp.Frag = &Frag{BigStart: int64(start), BigEnd: int64(start + step*float64(stages-1)), Stages: stages, Pins: pins}
			sp.UntilOOM = true
			sp.MaxSteps = 3 * sp.Steps()
		}
	case ScOutside:
		hours := float64(sp.Steps()) * sp.StepSeconds / 3600
		total := float64(sp.GPU.TotalMiB) * (0.04 + 0.12*r.Float64())
		sp.OutsideGrowthMiBHour = total / hours
		if kr.Float64() < 0.5 {
			// Growth at every evaluation (NCCL communicators, eval
			// buffers): 4-12 steps of growth over the run.
			sp.OutsideStepSeconds = float64(sp.Steps()) * sp.StepSeconds / float64(4+kr.IntN(9))
		}
	case ScSawtooth:
		sp.EmptyCacheEvery = 3 + r.IntN(10)
		if sp.Interval%sp.EmptyCacheEvery == 0 {
			sp.Interval++
		}
		sp.Phase = []Phase{PhaseEnd, PhaseAfterBackward}[r.IntN(2)]
		sp.SeqMin = max(8, int(float64(sp.SeqMax)*(0.2+0.3*r.Float64())))
	case ScGrowthOOM:
		sp.Expandable = false
		head, dr, err := headroom(sp)
		if err != nil {
			return nil, err
		}
		// Leak in pieces from a twentieth to twice the cached free
		// memory, and reach the headroom at 60-85% of the planned steps.
		// Small pieces leave cached free memory at the OOM larger than
		// the request: still a leak OOM (docs/design.md decides leak first).
		piece := math.Max(float64(dr.inactive)*(0.7+1.3*r.Float64()), 0.01*float64(sp.Capacity()))
		if kr.Float64() < 0.5 {
			piece = math.Max(float64(dr.inactive)*(0.05+0.5*kr.Float64()), 1<<20)
		}
		total := head * (1.15 + 0.5*r.Float64())
		every := max(1, int(float64(sp.Steps())*piece/total))
		sp.Leak = leakFor(r, sp, every, 0, 0, total)
		sp.UntilOOM = true
		sp.MaxSteps = 3 * sp.Steps()
	case ScSeqTail, ScSeqTailOOM:
		if err := seqTail(kr, scenario, sp); err != nil {
			return nil, err
		}
	case ScBounded, ScKVPhases, ScGraphPool, ScHealthyLong, ScLeakVerySlow, ScLeakBackward, ScLeakConcat:
		if err := drawHard(r, kr, scenario, sp); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown scenario %q (want one of %v)", scenario, Scenarios())
	}
	drawKnobs(kr, scenario, sp)
	if scenario == ScMultiRank && kr.Float64() < 0.35 {
		// One rank also holds more than the others, from the start.
		sp.Heavy = &HeavyRank{Rank: kr.IntN(sp.Ranks), Bytes: int64(float64(sp.Capacity()) * (0.03 + 0.07*kr.Float64())), Blocks: 1 + kr.IntN(4)}
		sp.Knobs.Guise = "a heavy rank"
	}
	if sp.UntilOOM && sp.MaxEntries == 0 {
		// The OOM must be visible: its event is the last in the trace.
		sp.MaxEntries = 300 + r.IntN(2700)
	}
	if sp.UntilOOM && sp.Knobs.OOMDump == OOMExit {
		// An exit dump follows the oom event with two events per freed
		// block (a few hundred): keep the event in the ring.
		sp.MaxEntries = max(sp.MaxEntries, 3000)
	}
	if err := sp.Validate(); err != nil {
		return nil, err
	}
	return sp, nil
}

// baseSpec draws the parameters every scenario shares.
func baseSpec(r *rand.Rand, seed uint64) *Spec {
	gpus := GPUs()
	g := gpus[r.IntN(len(gpus))]
	eras := Eras()
	var era Era
	switch x := r.Float64(); {
	case x < 0.05:
		era = eras[0] // 2.0 history
	case x < 0.15:
		era = eras[1] // 2.1 frames
	default:
		era = eras[2+r.IntN(len(eras)-2)]
	}
	sp := &Spec{
		Seed:    seed,
		Start:   time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC).Add(time.Duration(r.IntN(90*24*3600)) * time.Second),
		GPU:     g,
		Ranks:   1,
		Version: era.Version,
		Project: []string{"/home/user/proj", "/workspace/llm-finetune", "/home/alice/research/gpt", "/mnt/data/jobs/exp42/src"}[r.IntN(4)],
		SitePackages: fmt.Sprintf([]string{"/opt/conda/lib/python%s/site-packages", "/home/user/.venv/lib/python%s/site-packages",
			"/usr/local/lib/python%s/dist-packages"}[r.IntN(3)], era.Python),
		CppStacks:   r.Float64() < 0.6,
		OutsideRank: -1,
	}
	sp.Protocol = weighted(r, []float64{0.08, 0.10}, 5, 2, 4)
	sp.Container = weighted(r, []float64{0.10, 0.15}, layout.Gzip, layout.Zip, layout.Plain)
	if r.Float64() < 0.1 {
		sp.MaxEntries = 0
	} else {
		sp.MaxEntries = int(300 * math.Pow(10, r.Float64()))
	}
	sp.RecordAfterSetup = r.Float64() < 0.4
	switch x := r.Float64(); {
	case x < 0.08 && era.Version >= "2.2":
		sp.Expandable = true
	case x < 0.16:
		sp.MaxSplitSize = int64(64<<r.IntN(4)) << 20
	}

	// The model: parameters, gradients and AdamW state take a share of
	// the device; activations another.
	capB := float64(sp.Capacity())
	sp.Layers = 2 + r.IntN(5)
	sp.Vocab = []int{32000, 32768, 50257, 50304}[r.IntN(4)]
	sp.ParamBytes = 4
	sp.ActBytes = 2
	if r.Float64() < 0.2 {
		sp.ActBytes = 4
	}
	params := (0.05 + 0.2*r.Float64()) * capB / 16
	L, V := float64(sp.Layers), float64(sp.Vocab)
	h := (-V + math.Sqrt(V*V+48*L*params)) / (24 * L)
	sp.Hidden = max(256, int(h)/128*128)
	sp.Heads = max(4, sp.Hidden/128)
	sp.SeqMax = []int{256, 512, 1024, 2048}[r.IntN(4)]
	sp.SeqMin = max(8, int(float64(sp.SeqMax)*(0.5+0.45*r.Float64())))
	ab := float64(sp.ActBytes)
	perSeq := float64(sp.SeqMax) * (L*(19*float64(sp.Hidden)*ab+2*float64(sp.Heads)*float64(sp.SeqMax)*ab) + V*(2*ab+4))
	sp.Batch = max(1, int((0.04+0.16*r.Float64())*capB/perSeq))
	sp.GradsToNone = r.Float64() < 0.7

	sp.Snapshots = 8 + r.IntN(33)
	sp.Interval = 5 + r.IntN(26)
	if sp.Snapshots*sp.Interval > 1000 {
		sp.Interval = max(2, 1000/sp.Snapshots)
	}
	sp.FirstDump = []int{sp.Interval, 0, sp.Interval / 2}[r.IntN(3)]
	sp.TailSteps = r.IntN(6)
	sp.Phase = weighted(r, []float64{0.4, 0.55, 0.7, 0.85}, PhaseEnd, PhaseAfterForward, PhaseAfterBackward, PhaseStart, PhaseRandom)
	sp.StepSeconds = 0.2 + 2.3*r.Float64()
	sp.StepJitter = 0.02 + 0.08*r.Float64()
	sp.ContextMiB = 300 + int64(r.IntN(400))
	sp.SmiInterval = float64(1 + r.IntN(5))
	sp.SmiNoiseMiB = 5 * r.Float64()
	sp.SmiLead = 3 + 17*r.Float64()
	sp.SmiTail = 3 + 12*r.Float64()
	return sp
}

// weighted draws one of vals with one r.Float64(): vals[i] for the first
// cumulative bound bounds[i] the draw is below, the last value when it is
// below none (len(vals) = len(bounds)+1).
func weighted[T any](r *rand.Rand, bounds []float64, vals ...T) T {
	x := r.Float64()
	for i, b := range bounds {
		if x < b {
			return vals[i]
		}
	}
	return vals[len(bounds)]
}

// paramBytes returns the bytes of the model's parameters.
func (s *Spec) paramBytes() int64 {
	h, p := int64(s.Hidden), int64(s.ParamBytes)
	per := 12*h*h + 13*h
	return (int64(s.Layers)*per + int64(s.Vocab+s.SeqMax)*h + 2*h) * p
}

// leakFor returns a leak at a random site that totals about total bytes
// over the planned steps.
func leakFor(r *rand.Rand, sp *Spec, every, period, burst int, total float64) *Leak {
	l := &Leak{Site: LeakSites()[r.IntN(len(LeakSites()))], Every: every, StartStep: r.IntN(max(sp.FirstDump, 1)), BurstPeriod: period, BurstLen: burst}
	events := 0
	for st := 0; st < sp.Steps(); st++ {
		if l.leaksAt(st) {
			events++
		}
	}
	l.Bytes = max(512, int64(total/float64(max(events, 1))))
	return l
}

// dry simulates sp without writing files.
func dry(sp *Spec) (*Result, error) {
	c := *sp
	c.Leak, c.UntilOOM = nil, false
	return Run(&c, "")
}

// allocatedNoise returns the standard deviation and the mean of allocated
// bytes over the dumps of sp without any planted leak.
func allocatedNoise(sp *Spec) (sd, mean float64, err error) {
	res, err := dry(sp)
	if err != nil {
		return 0, 0, err
	}
	var xs []float64
	for _, s := range res.Snapshots {
		xs = append(xs, float64(s.Allocated))
		mean += float64(s.Allocated)
	}
	return stddev(xs), mean / float64(max(len(xs), 1)), nil
}

// dryStats are measurements of a run without planted behaviour.
type dryStats struct {
	// largestFree and inactive are the largest values seen in any dump.
	largestFree, inactive int64
}

// headroom returns the device bytes left beyond the run's peak (reserved
// plus memory outside the allocator) without planted behaviour.
func headroom(sp *Spec) (float64, dryStats, error) {
	c := *sp
	c.Frag = nil
	res, err := dry(&c)
	if err != nil {
		return 0, dryStats{}, err
	}
	var peak int64
	var ds dryStats
	for _, s := range res.Snapshots {
		peak = max(peak, s.Reserved)
		ds.largestFree = max(ds.largestFree, s.LargestFree)
		ds.inactive = max(ds.inactive, s.Inactive)
	}
	h := float64(sp.Capacity()-peak-res.OutsideEnd) * 0.95
	if h < float64(sp.Capacity())*0.1 {
		return 0, ds, errors.New("no headroom")
	}
	return h, ds, nil
}

func stddev(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	var m float64
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	var v float64
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return math.Sqrt(v / float64(len(xs)-1))
}
