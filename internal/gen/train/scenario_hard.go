package train

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// drawHard draws the scenarios of growth that is not a leak and of leaks
// that are hard to see (plants.go): r is the spec's random stream, kr the
// knobs' (the guise and the class's own parameters come from kr, so that
// the base spec stays what the seed gives every scenario).
func drawHard(r, kr *rand.Rand, scenario string, sp *Spec) error {
	capB := float64(sp.Capacity())
	switch scenario {
	case ScBounded:
		drawBounded(kr, sp)
	case ScKVPhases:
		drawKV(kr, sp)
	case ScGraphPool:
		steps := sp.Steps()
		g := &GraphCapture{Steps: []int{int(float64(steps) * 0.15 * kr.Float64())},
			Bytes: int64(capB * (0.02 + 0.06*kr.Float64())), Blocks: 3 + kr.IntN(10), Compiled: kr.Float64() < 0.5}
		guise := "captured once"
		if kr.Float64() < 0.5 {
			// A second capture (a new shape, or a recompilation) steps
			// the pools up once more.
			g.Steps = append(g.Steps, int(float64(steps)*(0.3+0.4*kr.Float64())))
			guise = "captured twice"
		}
		if g.Compiled {
			guise += ", torch.compile"
		} else {
			guise += ", torch.cuda.graph"
		}
		sp.Graph, sp.Knobs.Guise = g, guise
	case ScHealthyLong:
		longRun(kr, sp, 100, 200, 4)
		sp.Accum = []int{1, 2, 4, 8}[kr.IntN(4)]
		sp.AMP = kr.Float64() < 0.6
		if sp.AMP {
			sp.ActBytes = 2
		}
		// Variable shapes: uniform lengths, all of them seen early.
		sp.SeqMin = max(8, int(float64(sp.SeqMax)*(0.3+0.6*kr.Float64())))
		sp.Knobs.SeqDist = SeqUniform
		sp.Knobs.Guise = fmt.Sprintf("accumulation %d, amp %v", max(sp.Accum, 1), sp.AMP)
	case ScLeakVerySlow:
		return drawVerySlow(r, kr, sp)
	case ScLeakBackward:
		// Stacks must record C++ frames (stacks="all", PyTorch 2.1+):
		// without them the backward pass's blocks have no stack at all.
		sp.CppStacks = true
		if sp.Version == "2.0" {
			sp.Version = "2.1" // the same Python, so the paths stay
		}
		sp.Leak = leakFor(r, sp, 1+kr.IntN(4), 0, 0, capB*(0.04+0.16*kr.Float64()))
		sp.Leak.Site = BackwardLeakSite
	case ScLeakConcat:
		sp.Leak = leakFor(r, sp, 1+kr.IntN(4), 0, 0, capB*(0.04+0.12*kr.Float64()))
		sp.Leak.Site, sp.Leak.Mode = ConcatLeakSite, LeakConcat
	}
	return nil
}

// drawBounded plants one of the three containers, holding 2-8% of the
// device in tensors of log-normal sizes (σ 0.6-1.3 of the log: a heavy
// tail, truncated).
func drawBounded(kr *rand.Rand, sp *Spec) {
	kind := []BoundedKind{BoundedWindow, BoundedReplay, BoundedEvalCache}[kr.IntN(3)]
	b := &Bounded{Kind: kind, Sigma: 0.6 + 0.7*kr.Float64(), Every: 1, Add: 1}
	steps := sp.Steps()
	switch kind {
	case BoundedWindow:
		// A window spanning half a dump interval to four of them: wider
		// windows make consecutive snapshots alike.
		b.Cap = max(2, int(math.Round(float64(sp.Interval)*(0.5+3.5*kr.Float64()))))
	case BoundedReplay:
		// Full at 15-35% of the run, overwriting its oldest after.
		b.Add = 1 + kr.IntN(4)
		b.Cap = max(2*b.Add, int(float64(b.Add*steps)*(0.15+0.2*kr.Float64())))
	case BoundedEvalCache:
		b.Every = max(2, int(math.Round(float64(sp.Interval)*(0.5+2.5*kr.Float64()))))
		b.Add = 2 + kr.IntN(7)
		b.Cap = b.Add * (1 + kr.IntN(3))
	}
	total := float64(sp.Capacity()) * (0.02 + 0.06*kr.Float64())
	mean := total / float64(b.Cap)
	b.Median = max(512, int64(mean/math.Exp(b.Sigma*b.Sigma/2)))
	// Truncated two σ above the median (the longest outputs are cut at a
	// maximum length), and at half the container.
	b.Max = max(b.Median, min(int64(float64(b.Median)*math.Exp(2*b.Sigma)), int64(total/2)))
	sp.Bounded, sp.Knobs.Guise = b, string(kind)
}

// drawKV plants generation phases every 1.5-5 dump intervals (not a
// multiple of the interval, so that dumps land at different points of
// the phases), of 2-9 steps, whose caches peak at 3-10% of the device.
func drawKV(kr *rand.Rand, sp *Spec) {
	every := max(3, int(math.Round(float64(sp.Interval)*(1.5+3.5*kr.Float64()))))
	if every%sp.Interval == 0 {
		every++
	}
	kv := &KVPhases{Every: every, Len: 2 + kr.IntN(min(8, every-2)), Layers: sp.Layers,
		Tokens: 16 << kr.IntN(4), Prompt: 64 << kr.IntN(4)}
	peak := float64(sp.Capacity()) * (0.03 + 0.07*kr.Float64())
	kv.TokenBytes = max(512, int64(peak/float64(kv.Layers*(kv.Prompt+kv.Tokens*kv.Len))))
	// At least two dumps inside a phase.
	for range sp.Interval {
		in := 0
		for _, d := range sp.DumpSteps() {
			if d%kv.Every < kv.Len {
				in++
			}
		}
		if in >= 2 {
			break
		}
		sp.FirstDump++
	}
	sp.KV = kv
	sp.Knobs.Guise = "phases of 2-4 steps"
	if kv.Len > 4 {
		sp.Knobs.Guise = "phases of 5-9 steps"
	}
}

// longRun makes a run of minSnaps to minSnaps+spread snapshots, every 1 to
// maxInterval steps, with a trace ring of at most 1000 events (the files
// stay small).
func longRun(kr *rand.Rand, sp *Spec, minSnaps, spread, maxInterval int) {
	sp.Snapshots = minSnaps + kr.IntN(spread+1)
	sp.Interval = 1 + kr.IntN(maxInterval)
	sp.FirstDump = max(1, min(sp.FirstDump, sp.Interval))
	sp.MaxEntries = min(sp.MaxEntries, 1000)
}

// drawVerySlow plants a leak of 0.05-0.3% of the mean allocated memory
// per snapshot over 150-400 snapshots, measured on a dry run, in pieces
// small enough (a few MiB) to pin the segments they land in. A run the
// device cannot hold that long is shortened, down to 150 snapshots.
func drawVerySlow(r, kr *rand.Rand, sp *Spec) error {
	longRun(kr, sp, 150, 250, 3)
	_, mean, err := allocatedNoise(sp)
	if err != nil {
		return err
	}
	head, _, err := headroom(sp)
	if err != nil {
		return err
	}
	rate := mean * (0.0005 + 0.0025*kr.Float64()) // bytes per snapshot
	if n := int(0.6 * head / rate); n < sp.Snapshots {
		if n < 150 {
			return errors.New("the device cannot hold 150 snapshots of this leak")
		}
		sp.Snapshots = n
	}
	sp.Leak = leakFor(r, sp, 1+kr.IntN(2), 0, 0, rate*float64(sp.Snapshots))
	switch share := rate / mean; {
	case share < 0.001:
		sp.Knobs.Guise = "under 0.1% per snapshot"
	case share < 0.002:
		sp.Knobs.Guise = "0.1-0.2% per snapshot"
	default:
		sp.Knobs.Guise = "over 0.2% per snapshot"
	}
	return nil
}
