package analyze

import (
	"math"
	"math/rand/v2"
	"testing"
)

// sameSiteRun returns n snapshots of one line (metrics.py:40) that keeps
// kept new blocks of keptSize per snapshot at addresses of their own
// (born, and never freed), beside 0..maxChurn transient 64 MiB tensors of
// the same stack alive at each dump, at fresh addresses: what a line like
// hist.append(torch.stack(xs).mean(0).detach()) shows with
// stacks="python". keep decides, for the block born at snapshot b, the
// last snapshot it is alive at (n-1: kept for good).
func sameSiteRun(n, kept int, keptSize int64, maxChurn int, seed uint64, keep func(b, k int) bool) [][]sblock {
	site := stackAt("metrics.py", 40, "update")
	rng := rand.New(rand.NewPCG(seed, 11))
	out := make([][]sblock, n)
	next := 100000
	for k := range n {
		for b := 0; b <= k; b++ {
			if !keep(b, k) {
				continue
			}
			for j := range kept {
				out[k] = append(out[k], sblock{addr: slot(b*kept + j), size: keptSize, frames: site})
			}
		}
		for range rng.IntN(maxChurn + 1) {
			out[k] = append(out[k], sblock{addr: slot(next), size: 64 * mib, frames: site})
			next++
		}
	}
	return out
}

// TestSurvivalNominates: a line that keeps a small tensor every step and
// also makes big transient tensors is a leak, at the kept bytes' rate,
// though its live bytes are noise; the same line's bounded forms (a cache
// cleared now and then, a copy made once, a ring buffer, a cache whose
// entries settle) are not.
func TestSurvivalNominates(t *testing.T) {
	const n = 12
	always := func(b, k int) bool { return true }
	tests := []struct {
		name  string
		snaps [][]sblock
		leak  bool
	}{
		// 100 blocks of 16 KiB a dump, dumps 100 steps apart: +16 KiB/step.
		{"kept beside same-site churn", sameSiteRun(n, 100, 16<<10, 20, 1, always), true},
		{"kept beside same-site churn, another draw", sameSiteRun(n, 100, 16<<10, 20, 2, always), true},
		// Nothing kept: the churn alone.
		{"churn alone", sameSiteRun(n, 0, 16<<10, 20, 3, always), false},
		// A cache cleared every 4 dumps: its blocks die at the clear.
		{"cache cleared every 4 dumps", sameSiteRun(n, 100, 16<<10, 20, 4, func(b, k int) bool { return b/4 == k/4 }), false},
		// A copy made once (an EMA), at dump 3, kept to the end.
		{"made once", sameSiteRun(n, 100, 16<<10, 20, 5, func(b, k int) bool { return b == 3 }), false},
		// A ring buffer: each dump's blocks live 3 dumps.
		{"ring buffer", sameSiteRun(n, 100, 16<<10, 20, 6, func(b, k int) bool { return k-b < 3 }), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Analyze(blocksRun(tt.snaps), Options{})
			CheckProse(t, t.Name(), f)
			if f.Verdict.Leak != tt.leak {
				t.Fatalf("leak %v, want %v (suspects %d)", f.Verdict.Leak, tt.leak, len(f.Devices[0].Suspects))
			}
			if !tt.leak {
				return
			}
			sp := f.Devices[0].Suspects[0]
			if sp.Site != "metrics.py:40" || sp.Survival == nil || sp.Survival.Form != SurvivalKept || sp.Survival.Live == nil {
				t.Fatalf("suspect %s, survival %+v", sp.Site, sp.Survival)
			}
			// The rate is the kept bytes', with an interval around it.
			if want := float64(16 << 10); math.Abs(sp.Trend.Slope-want) > 1 || !(sp.Trend.Lo <= sp.Trend.Slope && sp.Trend.Slope <= sp.Trend.Hi) || !(sp.Trend.Lo > 0) {
				t.Errorf("trend %.0f [%.0f, %.0f], want %.0f", sp.Trend.Slope, sp.Trend.Lo, sp.Trend.Hi, want)
			}
			if sp.Trend.Metric != "kept_bytes" || sp.Survival.Live.State == StateGrowing {
				t.Errorf("trend of %s; live bytes %s", sp.Trend.Metric, sp.Survival.Live.State)
			}
		})
	}
}

// TestKeptNomineeGuard: kept bytes that grow while the group's live bytes
// are shown to grow more slowly (their interval wholly below the kept
// bytes') are a container trading transient bytes for lasting ones, not
// a leak; an interval that reaches the kept rate, or none, lets it be.
func TestKeptNomineeGuard(t *testing.T) {
	sv := newSurvival()
	run := blocksRun(sameSiteRun(12, 10, mib, 0, 1, func(b, k int) bool { return true }))
	for _, f := range run.Snapshots {
		sv.Observe(f.Snapshot, 0, newSignatureCache(&f.Snapshot.Stacks))
	}
	x := make([]float64, 12)
	keep := make([]int, 12)
	for i := range x {
		x[i], keep[i] = float64(100*(i+1)), i
	}
	ac := attributionContext{x: x, keep: keep, per: AxisStep, refLevel: stats2GiB, rules: DefaultTrendRules()}
	key := SignatureOf(stackAt("metrics.py", 40, "update")).Key
	later := sv.laterBirths()
	rate := float64(10*mib) / 100
	for _, tt := range []struct {
		name   string
		lo, hi float64
		want   bool
	}{
		{"noisy live bytes", -5 * rate, 20 * rate, true},
		{"live bytes without an interval", math.NaN(), math.NaN(), true},
		{"live bytes shown to grow more slowly", -rate / 10, rate / 10, false},
	} {
		live := Trend{State: StateFlat, Slope: 0, Lo: tt.lo, Hi: tt.hi}
		if ev := keptNominee(sv, later, key, &live, ac); (ev != nil) != tt.want {
			t.Errorf("%s: nominee %+v, want %v", tt.name, ev, tt.want)
		}
	}
}
