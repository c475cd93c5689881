package words

import (
	"fmt"
	"strings"

	"gpureport/analyze"
	"gpureport/internal/units"
)

// Outside says what memory outside the caching allocator (nvidia-smi used
// minus reserved) does on a device, with the numbers, and whose growth
// it is when per-process readings tell; "" without a reconciliation.
func Outside(d *analyze.Device) string {
	rc := d.Reconciliation
	if rc == nil {
		return ""
	}
	w := &rc.Why
	var s string
	switch w.Rule {
	case analyze.OutsideUnmatched:
		return fmt.Sprintf("the snapshots carry no times and reserved memory changes (%s), so they cannot be matched to GPU readings closely enough to measure memory outside the allocator", w.ReservedPattern)
	case analyze.OutsideWithinError:
		t := rc.Trend
		return fmt.Sprintf("memory outside the caching allocator stays at about %s: it grows %s over the run (%s), less than the %s that matching snapshots to GPU readings can err by",
			units.Bytes(int64(rc.Level)), units.BytesF(t.Growth), units.PValue(t.PValue), units.BytesF(w.MinGrowth))
	case analyze.OutsideGrows:
		t := rc.Trend
		s = fmt.Sprintf("memory outside the caching allocator (%s − reserved) grows %s, %s, from a level of %s: NCCL, cuBLAS/cuDNN workspaces, extensions or other processes, not PyTorch tensors",
			DeviceUsed(d), units.RateCI(t.Slope, t.Lo, t.Hi, t.Per), units.PValue(t.PValue), units.Bytes(int64(rc.Level)))
		s += owners(d)
	case analyze.OutsideFlat:
		s = fmt.Sprintf("memory outside the caching allocator stays at about %s: %s", units.Bytes(int64(rc.Level)), TrendReason(rc.Trend))
	case analyze.OutsideInferred:
		ut := d.Trend(analyze.MetricGPUUsed)
		return fmt.Sprintf("%s grows %s, %s over the run, while reserved memory grows about %s; the snapshots carry no times to match them to readings, so the difference is inferred from the two series",
			DeviceUsed(d), units.Rate(ut.Slope, ut.Per), units.Bytes(int64(w.UsedGrowth)), units.Bytes(int64(w.ReservedGrowth))) + owners(d)
	case analyze.OutsideTooFew:
		return fmt.Sprintf("only %d snapshots could be matched in time to a GPU reading (within %s); at least %d are needed", rc.Matched, w.Window, w.MinPoints)
	default:
		return ""
	}
	if w.Estimated {
		s += "; the snapshots carry no times, so each was placed by its step on an even pace over the GPU log's busy period"
	}
	return s
}

// owners says whose memory grows outside the allocator, from the
// per-process readings on the device's GPU: "; per-process readings on
// its GPU: ..."; "" when they do not tell.
func owners(d *analyze.Device) string {
	o := d.Reconciliation.Why.Owners
	if o == nil || d.Processes == nil {
		return ""
	}
	ps := d.Processes.Series
	grows := func(i int) string {
		p := &ps[i]
		return Process(p) + " grows " + units.Rate(p.Trend.Slope, p.Trend.Per)
	}
	list := func(idx []int, name func(int) string, sep string) string {
		s := make([]string, len(idx))
		for k, i := range idx {
			s[k] = name(i)
		}
		return strings.Join(s, sep)
	}
	growing := list(o.Growing, grows, "; ")
	if o.Own >= 0 {
		own := &ps[o.Own]
		switch {
		case own.Trend != nil && own.Trend.State == analyze.StateGrowing && len(o.Growing) > 0:
			return "; per-process readings on its GPU: this run's process " + grows(o.Own) + ", and other processes grow too: " + growing
		case own.Trend != nil && own.Trend.State == analyze.StateGrowing:
			return "; per-process readings on its GPU: this run's process " + grows(o.Own)
		}
		return "; per-process readings on its GPU put the growth in other processes: " + growing + "; this run's process, " + Process(own) + ", the one holding the allocator's reserved memory, does not grow"
	}
	s := "; per-process readings on its GPU: " + growing
	if n := len(o.Still); n > 0 {
		verb := "do"
		if n == 1 {
			verb = "does"
		}
		s += "; " + list(o.Still, func(i int) string { return Process(&ps[i]) }, ", ") + " " + verb + " not"
	}
	return s
}
