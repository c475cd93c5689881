package analyze

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"gpureport/ingest"
)

// The run verdict raises four independent flags:
//
//   - Leak: some device has an unsuppressed leak suspect (a stack group
//     whose live bytes grow under the trend rules), or its live memory in
//     blocks without stacks grows under the same rules: a leak no stack
//     can name;
//   - OutsideAllocatorLeak: memory outside the caching allocator grows
//     (reconcile.go);
//   - Fragmentation: a device is fragmented (fragmentation.go) or an OOM
//     was a fragmentation OOM;
//   - OOM: a snapshot's trace holds an `oom` event.
//
// A device without snapshots but with torch.cuda.memory_stats() readings
// (memstats.go) raises Leak when its allocated trend grows (no site: the
// reason says how to record snapshots), and any device raises OOM when its
// num_ooms counter rises between two readings, unless its snapshots
// already explain an OOM.
//
// Severity: "critical" for an OOM, or a leak projected to exhaust the
// device within the run's own length again; "warning" for any other
// flag; "info" when no flag is raised but the data were too thin for a
// verdict; "ok" otherwise.

func decideVerdict(f *Findings) {
	v := &f.Verdict
	type ref struct {
		SuspectRef
		slope float64
	}
	var refs []ref
	critical := false
	insufficient := false
	var statsOOMs int64
	statsLeak := false
	for _, d := range f.Devices {
		where := deviceName(d.DeviceKey)
		for i := range d.Suspects {
			sp := &d.Suspects[i]
			if sp.Suppressed != "" {
				continue
			}
			refs = append(refs, ref{SuspectRef{d.DeviceKey, i}, sp.Trend.Slope})
		}
		n := 0
		for i := range d.Suspects {
			if d.Suspects[i].Suppressed == "" {
				n++
			}
		}
		at := d.Trend(MetricAllocated)
		if n > 0 {
			v.Leak = true
			top := d.Suspects[0]
			v.Reasons = append(v.Reasons, fmt.Sprintf("leak on %s: %d suspect(s); the top one, %s in %s (fingerprint %s), grows %s, %s",
				where, n, top.Site, top.Function, top.Fingerprint, fmtRate(top.Trend.Slope, top.Trend.Lo, top.Trend.Hi, top.Trend.Per), fmtP(top.Trend.PValue)))
		} else if nt := d.Coverage.NoStackTrend; nt != nil && nt.Verdict == VerdictGrowing {
			v.Leak = true
			v.Reasons = append(v.Reasons, fmt.Sprintf("leak on %s without a site: live memory in blocks without stacks grows %s, %s; only %.0f%% of live bytes carry stacks",
				where, fmtRate(nt.Slope, nt.Lo, nt.Hi, nt.Per), fmtP(nt.PValue), 100*d.Coverage.MinLiveWithStack))
		}
		ooms, leak := memStatsVerdict(f, d, v)
		statsOOMs += ooms
		if leak {
			v.Leak, statsLeak = true, true
		}
		if at != nil && at.Verdict == VerdictInsufficient {
			insufficient = true
		}
		if span, ok := deviceSpan(d); v.Leak && at != nil && at.Projection != nil && !at.Projection.Beyond && ok {
			if at.Projection.Remaining <= span {
				critical = true
				v.Reasons = append(v.Reasons, fmt.Sprintf("%s: at this rate allocated memory reaches %s in about %.0f %ss (interval %.0f to %.0f), within the run's own length",
					where, fmtBytes(at.Projection.Capacity), at.Projection.Remaining, at.Per, at.Projection.RemainingLo, at.Projection.RemainingHi))
			}
		}
		if d.Reconciliation != nil && d.Reconciliation.OutsideLeak {
			v.OutsideAllocatorLeak = true
			v.Reasons = append(v.Reasons, fmt.Sprintf("leak outside the allocator on %s: %s", where, d.Reconciliation.Reason))
		}
		if d.Fragmentation != nil && d.Fragmentation.Fragmented {
			v.Fragmentation = true
			v.Reasons = append(v.Reasons, fmt.Sprintf("fragmentation on %s: %s", where, d.Fragmentation.Reason))
		}
	}
	for _, o := range f.OOMs {
		v.OOM = true
		critical = true
		if o.Class == "fragmentation" {
			v.Fragmentation = true
		}
		v.Reasons = append(v.Reasons, oomReason(o))
	}
	slices.SortStableFunc(refs, func(a, b ref) int {
		return cmp.Or(cmp.Compare(b.slope, a.slope), cmp.Compare(a.Rank, b.Rank), cmp.Compare(a.Device, b.Device), cmp.Compare(a.Index, b.Index))
	})
	for _, r := range refs {
		v.Suspects = append(v.Suspects, r.SuspectRef)
	}

	if statsOOMs > 0 {
		v.OOM = true
		critical = true
	}
	switch {
	case critical:
		v.Severity = "critical"
	case v.Leak || v.OutsideAllocatorLeak || v.Fragmentation:
		v.Severity = "warning"
	case insufficient || len(f.Devices) == 0:
		v.Severity = "info"
	default:
		v.Severity = "ok"
	}
	var parts []string
	if v.Leak {
		if len(v.Suspects) > 0 {
			top := f.Suspect(v.Suspects[0])
			parts = append(parts, fmt.Sprintf("leak at %s (%s per %s)", top.Site, fmtSigned(top.Trend.Slope), top.Trend.Per))
		} else if statsLeak {
			parts = append(parts, "leak (no site: no snapshots)")
		} else {
			parts = append(parts, "leak (no site: stacks missing)")
		}
	}
	if v.OutsideAllocatorLeak {
		parts = append(parts, "memory outside PyTorch grows")
	}
	if v.Fragmentation {
		parts = append(parts, "fragmentation")
	}
	if v.OOM {
		parts = append(parts, fmt.Sprintf("%d OOM", int64(len(f.OOMs))+statsOOMs))
	}
	switch {
	case len(parts) > 0:
		v.Headline = capitalize(strings.Join(parts, "; "))
	case v.Severity == "info":
		v.Headline = "No verdict: too few snapshots for a trend"
	default:
		v.Headline = "No leak, fragmentation or OOM found"
	}
}

// deviceName is "rank r, device d" or "device d".
func deviceName(k DeviceKey) string {
	if k.Rank == ingest.NoRank {
		return fmt.Sprintf("device %d", k.Device)
	}
	return fmt.Sprintf("rank %d, device %d", k.Rank, k.Device)
}

// Flags lists the verdict's raised flags by the names --fail-on uses:
// "leak", "outside-leak", "oom", "fragmentation".
func (v Verdict) Flags() []string {
	var out []string
	if v.Leak {
		out = append(out, "leak")
	}
	if v.OutsideAllocatorLeak {
		out = append(out, "outside-leak")
	}
	if v.OOM {
		out = append(out, "oom")
	}
	if v.Fragmentation {
		out = append(out, "fragmentation")
	}
	return out
}

// deviceSpan is the length of a device's series on its axis: from the
// first to the last snapshot, or, without snapshots, over its placed
// memory_stats readings; false when it has fewer than two.
func deviceSpan(d *Device) (float64, bool) {
	if n := len(d.Points); n > 1 {
		return d.Points[n-1].X - d.Points[0].X, true
	}
	if len(d.Points) == 0 && d.MemoryStats != nil {
		if x0, x1, ok := finiteRange(d.MemoryStats.X); ok && x1 > x0 {
			return x1 - x0, true
		}
	}
	return 0, false
}
