package analyze

import (
	"slices"
	"strings"

	"gpureport/analyze/roles"
)

// What to try next. Each OOM carries the changes to try for it
// (OOM.Recommendations, set by classifyOOM); the run's list
// (Findings.NextSteps) gathers them, each change once, then adds one step
// per raised flag, in this order:
//
//   - a leak with a site: where to look, by what the top suspect's site
//     is: one of several sites growing in lockstep (one object keeps them
//     alive: look at what the training loop keeps), CUDA-graph or
//     torch.compile memory that goes on growing (graphs recorded for new
//     shapes: pad to shape buckets or mark the dimension dynamic), an autograd node
//     (backward's tensors kept across steps), C++ frames only (record
//     Python stacks too), or a line of user code;
//   - a leak without a site: record stacks (or, when some stacks were
//     recorded, record them for the backward thread too);
//   - a leak seen in memory_stats readings only: record snapshots;
//   - memory outside the allocator that grows: in other processes only,
//     or in this one;
//   - fragmentation: padding shapes when expandable segments are already
//     on (and the garbage-collection threshold, unless an OOM already
//     suggested it), else expandable segments, unless an OOM already
//     suggested them;
//   - an OOM no snapshot was taken at (Findings.MissedOOM): take one.

// decideNextSteps sets f.NextSteps from the OOMs and the verdict.
func decideNextSteps(f *Findings) {
	type key struct {
		kind  StepKind
		mib   int64
		site  string
		lever roles.LeverKind
	}
	seen := map[key]bool{}
	offered := map[StepKind]bool{}
	var out []NextStep
	for i, o := range f.OOMs {
		for _, r := range o.Recommendations {
			k := key{kind: r.Kind, mib: r.MaxSplitMiB, lever: r.Lever.Kind}
			if r.Kind == StepFixLeak {
				k.site = o.LeakSite
			}
			if seen[k] {
				continue
			}
			seen[k] = true
			offered[r.Kind] = true
			out = append(out, NextStep{Kind: r.Kind, OOM: i, Recommendation: r})
		}
	}
	step := func(kind StepKind) *NextStep {
		out = append(out, NextStep{Kind: kind, OOM: -1})
		return &out[len(out)-1]
	}
	v := &f.Verdict
	if top := f.topSuspect(); top != nil && v.Leak {
		d, sp := f.device(top.DeviceKey), f.Suspect(*top)
		kind := StepLookSite
		switch native := d.siteKind(sp) == SiteNative; {
		case len(d.Lockstep) > 0 && slices.Contains(d.Lockstep, d.SiteIndex(top.Index)):
			kind = StepLookLockstep
		case slices.ContainsFunc(sp.Evidence, func(e Evidence) bool { return e.Kind == EvidenceGraphGrowth }):
			kind = StepBucketShapes
		case native && strings.HasSuffix(sp.Site, AutogradSiteSuffix):
			kind = StepLookAutograd
		case native:
			kind = StepLookNative
		}
		step(kind).Suspect = *top
	}
	stackless, withStacks := false, false
	for _, d := range f.Devices {
		if d.StacklessLeak() {
			stackless = true
			withStacks = withStacks || d.Coverage.MinLiveWithStack > 0
		}
	}
	if stackless {
		step(StepRecordStacks).WithStacks = withStacks
	}
	if v.Leak && f.topSuspect() == nil && v.NoSite == NoSiteSnapshots {
		step(StepRecordSnapshots)
	}
	if others := outsideInOthers(f); len(others) > 0 {
		step(StepOutsideOthers).Devices = others
	} else if v.OutsideAllocatorLeak {
		step(StepOutsideAllocator)
	}
	switch {
	case !v.Fragmentation:
	case f.SplitExpandable():
		if !offered[StepRemoveMaxSplit] {
			step(StepRemoveMaxSplit)
		}
	case f.expandableAlready():
		step(StepPadShapes).GCThreshold = !offered[StepGCThreshold]
	case !offered[StepExpandable]:
		step(StepTryExpandable)
	}
	if f.MissedOOM != nil {
		step(StepSnapshotAtOOM)
	}
	f.NextSteps = out
}

// topSuspect returns the verdict's first suspect that exists, nil when
// none does.
func (f *Findings) topSuspect() *SuspectRef {
	for i := range f.Verdict.Suspects {
		if f.Suspect(f.Verdict.Suspects[i]) != nil {
			return &f.Verdict.Suspects[i]
		}
	}
	return nil
}

// device returns the device of key k, nil when there is none.
func (f *Findings) device(k DeviceKey) *Device {
	for _, d := range f.Devices {
		if d.DeviceKey == k {
			return d
		}
	}
	return nil
}

// siteKind is the kind of frame a suspect's site is (its group's), ""
// when the group is not known.
func (d *Device) siteKind(sp *Suspect) SiteKind {
	if g := sp.Group; g >= 0 && g < len(d.Groups) {
		return d.Groups[g].Kind
	}
	return ""
}

// outsideInOthers lists the devices whose growth outside the allocator
// the per-process readings put in other processes only; nil unless that
// holds for every device that grows outside it.
func outsideInOthers(f *Findings) []DeviceKey {
	var devs []DeviceKey
	for _, d := range f.Devices {
		if rc := d.Reconciliation; rc != nil && rc.OutsideLeak {
			if rc.Owner != OwnerOthers {
				return nil
			}
			devs = append(devs, d.DeviceKey)
		}
	}
	return devs
}
