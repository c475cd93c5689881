package analyze

import (
	"cmp"
	"math"
	"slices"

	"gpureport/gpulog"
	"gpureport/internal/stats"
	"gpureport/internal/units"
)

// The trend of printed peaks. Some training logs print one figure of the
// caching allocator, torch.cuda.max_memory_allocated() (MMEngine's and
// MMCV's "memory:", detectron2's "max_mem:", torchvision's "max mem:",
// fairseq's gb_free against its total; gpulog/trainlog_peak.go): readings
// of peak allocated memory only. Their trend (MetricPeakAllocated, fitted
// on the readings that give a peak and no current figure) is the device's
// primary trend when nothing else gives one, and a growing one is a
// memory_grows warning, projected against the capacity as any trend of a
// device without snapshots (projectMemStats). What the peak means decides
// how far the trend rules apply:
//
//   - A peak per interval (reset after each line: MMEngine, fairseq; as
//     torchtitan's peak reserved memory, read as reserved) is the
//     interval's high-water mark: the steady memory plus the largest
//     batch's activations in that interval. Under a steady workload it
//     wanders around a level; a leak raises the steady memory, so the
//     floor of the peaks rises with it, by the leak's rate. That is the
//     series FitTrend is built for (a persistent floor plus non-negative
//     excursions, fitted on its floor), under the same rules and
//     significance as any other series.
//   - A peak since the process started (never reset: MMCV 1.x, detectron2,
//     torchvision; gpulog.MemoryStatsSample.PeakSinceStart) is the running
//     maximum of those interval peaks, so it only rises. Under a steady
//     workload with inputs of varying size it rises at each new largest
//     batch, in jumps that grow rarer and then level off; the trend rules
//     were not made for that shape: the running maximum of 400 stationary
//     series of 20 to 200 normal readings each is called growing in 20 to
//     26% of them (their Mann-Kendall test sees the rise, and the jumps do
//     not stop for long enough for the plateau rule). What tells a leak
//     apart is how often it rises: the interval peaks of a steady workload
//     are exchangeable, so reading i is a new largest with chance 1/i and
//     independently of the others (Rényi's record theorem), about ln n +
//     0.58 rises over n readings; a leak that adds more than the peaks'
//     spread between readings raises it at nearly every one. A growing
//     trend of such a peak stands only when its rises are more than a
//     steady workload gives at Alpha (recordsPValue, the record test of
//     Foster and Stuart, 1954); otherwise it is flat by RuleRatchet.
//     Ties (the printed MiB) and rises within dropTolerance count as no
//     rise, which only makes a steady workload's count smaller; a fall (a
//     new process, or detectron2's TorchMemoryStats hook resetting the
//     peak) starts the count over, its first reading again a new largest.
//     A leak slower than the peaks' spread raises the running peak only
//     now and then and may stay unseen: the test asks for the rises a
//     leak makes, not for the level.

// peakOnly reports whether a reading gives a peak and no current figure.
func peakOnly(r *gpulog.MemoryStatsSample) bool {
	return r.PeakAllocated > 0 && r.Allocated < 0 && r.Reserved < 0
}

// peakTrend fits the trend of a memory_stats group's peak-only readings
// (MetricPeakAllocated), nil when it has none.
func peakTrend(ms *MemoryStatsSeries, per units.Per, rules TrendRules) *Trend {
	type pt struct{ x, y float64 }
	var pts []pt
	sinceStart := false
	for i := range ms.Readings {
		r := &ms.Readings[i]
		if x := ms.X[i]; peakOnly(r) && !math.IsNaN(x) && !math.IsInf(x, 0) {
			pts = append(pts, pt{x, float64(r.PeakAllocated)})
			// One peak since start among them makes the series a
			// running maximum where it holds.
			sinceStart = sinceStart || r.PeakSinceStart
		}
	}
	if len(pts) == 0 {
		return nil
	}
	slices.SortStableFunc(pts, func(a, b pt) int { return cmp.Compare(a.x, b.x) })
	x, y := make([]float64, len(pts)), make([]float64, len(pts))
	for i, p := range pts {
		x[i], y[i] = p.x, p.y
	}
	// The record test counts rises reading by reading, before binning
	// merges them.
	raw := slices.Clone(y)
	x, y = binMedians(x, y, maxMemStatsPoints)
	r := rules
	r.RefLevel = stats.Median(y)
	t := FitTrend(MetricPeakAllocated, per, x, y, r)
	t.Source = SourceMemoryStats
	if sinceStart && t.State == StateGrowing {
		t.Why.Rises, t.Why.RisesExpected, t.Why.RisesP = recordsTest(raw)
		if !(t.Why.RisesP < r.Alpha) {
			t.State, t.Pattern, t.Why.Rule = StateFlat, PatternPlateau, RuleRatchet
		}
	}
	return &t
}

// recordsTest counts the rises of a running peak y (its first reading,
// and each after a fall, count as one: a new largest), and returns them
// with their mean under a steady workload and the chance of at least as
// many (recordsPValue).
func recordsTest(y []float64) (rises int, expected, p float64) {
	tol := dropTolerance(y)
	probs := make([]float64, 0, len(y))
	i := 0 // readings since the count started over
	for k := range y {
		switch {
		case k == 0 || y[k] < y[k-1]-tol:
			i = 1
			rises++
		default:
			i++
			if y[k] > y[k-1]+tol {
				rises++
			}
		}
		probs = append(probs, 1/float64(i))
	}
	for _, q := range probs {
		expected += q
	}
	return rises, expected, recordsPValue(probs, rises)
}

// maxRecordsCells bounds the exact computation of recordsPValue (readings
// times rises, about 80 MB of float64 work at most and well under a
// second); beyond it the Chernoff bound, which is never below the exact
// chance, answers.
const maxRecordsCells = 10_000_000

// recordsPValue is the chance that independent Bernoulli events with the
// chances probs (1/i for the i-th reading of a steady workload) number at
// least k: exact (the Poisson-binomial distribution up to k-1) when it is
// small enough to compute, else the Chernoff bound exp(-mu)(e mu/k)^k,
// an upper bound (so a test on it is conservative).
func recordsPValue(probs []float64, k int) float64 {
	if k <= 0 {
		return 1
	}
	if len(probs)*k > maxRecordsCells {
		var mu float64
		for _, q := range probs {
			mu += q
		}
		return recordsBound(mu, k)
	}
	// dist[j] is the chance of exactly j events so far, for j < k.
	dist := make([]float64, k)
	dist[0] = 1
	for _, q := range probs {
		for j := k - 1; j >= 1; j-- {
			dist[j] = dist[j]*(1-q) + dist[j-1]*q
		}
		dist[0] *= 1 - q
	}
	below := 0.0
	for _, v := range dist {
		below += v
	}
	return math.Max(0, math.Min(1, 1-below))
}

// recordsBound is the Chernoff bound on the chance that independent
// Bernoulli events with mean count mu number at least k:
// exp(-mu)(e mu/k)^k for k above mu, else 1.
func recordsBound(mu float64, k int) float64 {
	kf := float64(k)
	if kf <= mu {
		return 1
	}
	return math.Min(1, math.Exp(-mu+kf*(1+math.Log(mu/kf))))
}
