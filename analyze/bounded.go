package analyze

import (
	"cmp"
	"slices"
)

// A time to capacity follows the verdict's reasoning. A device's
// allocated memory can grow for a while because a bounded container's
// sizes drift (a ring buffer of the last K hidden states under a
// sequence-length curriculum): attribution finds the stack group that
// grows, survival shows it turns its blocks over (what it keeps does
// not grow), and the verdict is no leak. A straight line through that
// drift reaches the device's capacity on paper, but the container holds
// at most K entries of the largest size it is given; forecasting that the
// device fills would contradict the verdict beside it. So, on a device
// with no leak (no unsuppressed suspect, no stackless leak), a growing
// trend of the allocator's memory (allocated, reserved) whose growth the
// turned-over groups account for gets no projection: Trend.Bounded says
// why in its place, in every output. "Account for": their summed growth
// reaches at least the low end of the trend's 95% interval, so no growth
// beyond the containers' is established. Growth the containers do not
// account for (another group's, growth spread too thin to attribute)
// keeps its forecast. Decided once, here, after attribution; the reports
// word Bounded where a forecast would be.

// container is a stack group whose live bytes grow in blocks that turn
// over (survivalEvidence's turned-over form).
type container struct {
	site, function string
	// slope is the group's live bytes' growth, bytes per unit of the
	// device's axis; turnover its longest lifetime of a freed block, in
	// snapshots.
	slope    float64
	turnover int
}

// boundProjections replaces the projections of device d's growing
// allocator trends with Trend.Bounded when its turned-over groups turned
// account for the growth and no leak is left on d (see above).
func boundProjections(d *Device, turned []container) {
	if len(turned) == 0 || len(d.LeakSites) > 0 || d.StacklessLeak() {
		return
	}
	var sum float64
	for _, c := range turned {
		sum += c.slope
	}
	top := slices.MaxFunc(turned, func(a, b container) int { return cmp.Compare(a.slope, b.slope) })
	for i := range d.Trends {
		t := &d.Trends[i]
		if t.Metric != MetricAllocated && t.Metric != MetricReserved || t.State != StateGrowing || t.Projection == nil {
			continue
		}
		if !(sum >= t.Lo) {
			continue
		}
		t.Projection = nil
		t.Bounded = &Bounded{Site: top.site, Function: top.function, Containers: len(turned), Slope: sum, Turnover: top.turnover}
	}
}
