package analyze

import (
	"gpureport/analyze/roles"
	"gpureport/ingest"
	"gpureport/snapshot"
)

// What holds the memory (docs/design.md's roles; docs/roles.md). Package
// analyze/roles decides the role of every live block; this stage puts its
// decisions where the reports read them:
//
//   - every snapshot of a device gets its roles (Point.Roles), which sum
//     to the snapshot's allocated bytes;
//   - every leak suspect gets the roles of its live blocks at the last
//     snapshot (Suspect.Roles): "the leak is activations kept across
//     steps";
//   - an OOM gets the roles of the blocks alive at its trace event
//     (explainOOM), and a capacity OOM the levers that would shrink its
//     largest roles (classifyOOM);
//   - the trace window's peak has its roles already (TraceWindowOf);
//   - the run gets the moment its one line of roles is about (Held): the
//     first OOM whose roles are known, else the peak snapshot of the
//     device that allocated most.

// pointRoles classifies the live memory of each snapshot of a device
// (stage 5), into dr.roles, and keeps the last snapshot's decisions. It
// runs beside attribution, which reads the device's points, so it writes
// only dr's fields of its own; joinRoles puts them in the points.
func (a *analysis) pointRoles(dr *deviceRun) {
	s, d := dr.s, dr.d
	if s == nil {
		return
	}
	n := min(len(s.Files), len(d.Points))
	dr.roles = make([]roles.Breakdown, n)
	var sc *roles.Scene
	for i, f := range s.Files[:n] {
		last := i == len(s.Files)-1
		if !last {
			// The last snapshot's decisions are read (joinRoles); the
			// others' breakdowns alone.
			if bd, ok := cachedRoles(f, s.DeviceKey, a.opt.SideVersion); ok {
				dr.roles[i] = bd
				continue
			}
		} else if ds, bd, ok := cachedLastRoles(f, s.DeviceKey, a.opt.SideVersion); ok {
			// Its scene is made by joinRoles, and only for suspects.
			dr.roles[i] = bd
			dr.last = lastRoles{file: f, at: i, decisions: ds}
			continue
		}
		// A file read without its segments has them read again (the
		// last file of a series has them already).
		sc = roles.SceneReusing(sc, blocksOf(f), s.Device)
		sc.Memo = a.stacks
		if !last {
			dr.roles[i] = roles.ClassifyBreakdown(sc)
			cacheRoles(f, s.DeviceKey, a.opt.SideVersion, &dr.roles[i])
			continue
		}
		ds, bd := classifyLast(f, s.DeviceKey, a.opt.SideVersion, sc)
		dr.roles[i] = bd
		dr.last = lastRoles{file: f, at: i, scene: sc, decisions: ds}
	}
}

// lastRoles is what roles.Classify decided for the blocks of a device's
// last snapshot, file, point at: its scene's blocks, in order, and the
// decisions (from the cache: each decision's role and evidence only, all
// setSuspectRoles reads, and the scene not yet made).
type lastRoles struct {
	file      *ingest.SnapshotFile
	at        int
	scene     *roles.Scene
	decisions []roles.Decision
}

// joinRoles gives each point of a device its roles, and each leak
// suspect the roles of its blocks at the last snapshot (stage 5, after
// attribution has found the suspects).
func (a *analysis) joinRoles(dr *deviceRun) {
	if l := dr.last; l.file != nil && len(dr.d.Suspects) > 0 {
		if l.scene == nil {
			// The decisions came from the cache: the scene of the
			// large model's 175k blocks is made only now, and an entry
			// that does not fit it is decided afresh.
			l.scene = roles.SceneReusing(nil, l.file.Snapshot, dr.s.Device)
			l.scene.Memo = a.stacks
			if len(l.scene.Blocks) != len(l.decisions) {
				l.decisions, dr.roles[l.at] = classifyLast(l.file, dr.s.DeviceKey, a.opt.SideVersion, l.scene)
			}
		}
		setSuspectRoles(dr.d, newRunSignatureCache(&l.file.Snapshot.Stacks, a.sigs), l.scene, l.decisions)
	}
	for i := range dr.roles {
		dr.d.Points[i].Roles = &dr.roles[i]
	}
	dr.roles, dr.last = nil, lastRoles{}
}

// setSuspectRoles sets the roles of each leak suspect of d from the
// decisions ds on the blocks of scene sc (the last snapshot), whose
// stacks cache signs: a block belongs to the suspect of its stack's
// signature.
func setSuspectRoles(d *Device, cache *signatureCache, sc *roles.Scene, ds []roles.Decision) {
	if len(d.Suspects) == 0 {
		return
	}
	byFP := map[string][]int{}
	for i := range d.Suspects {
		byFP[d.Suspects[i].Fingerprint] = append(byFP[d.Suspects[i].Fingerprint], i)
	}
	type acc struct {
		bytes    [roles.NumRoles]int64
		evidence [roles.NumEvidence]int64
	}
	accs := make([]*acc, len(d.Suspects))
	for j, b := range sc.Blocks {
		for _, i := range byFP[cache.get(b.Stack).Fingerprint] {
			if accs[i] == nil {
				accs[i] = &acc{}
			}
			accs[i].bytes[ds[j].Role] += b.Size
			accs[i].evidence[ds[j].Evidence] += b.Size
		}
	}
	for i, ac := range accs {
		if ac == nil {
			continue
		}
		d.Suspects[i].Roles = &SuspectRoles{Bytes: ac.bytes, Role: roles.Role(argmax(ac.bytes[:])), Evidence: roles.Evidence(argmax(ac.evidence[:]))}
	}
}

// argmax returns the index of the largest value, the first of equals.
func argmax(v []int64) int {
	best := 0
	for i, x := range v {
		if x > v[best] {
			best = i
		}
	}
	return best
}

// oomRoles sets the roles of the live memory at the OOM at trace event
// idx of device dev of the full snapshot snap, and the phase of the step
// it happened in: the blocks alive then, classified as at a dump (what
// was freed after the OOM was the failed step unwinding, not the blocks'
// natural lifetimes), with the failing operation's blocks in flight.
func oomRoles(o *OOM, snap *snapshot.Snapshot, dev, idx int, memo *roles.StackMemo) {
	sc := roles.SceneAt(snap, dev, idx)
	if sc == nil {
		return
	}
	e := snap.Traces[dev][idx]
	sc.Future, sc.OOM, sc.Memo = false, &e, memo
	bd := roles.ClassifyBreakdown(sc)
	o.Roles, o.Phase = &bd, sc.OOMPhase()
}

// oomLevers returns the levers of a capacity OOM: what changing each of
// its large roles would free (roles.Levers), leaving out what is in use,
// the allocator's expandable segments among them. The cached free memory
// is no lever here: a capacity OOM lacked more than the cache held, so
// no allocator setting can make room (docs/design.md).
func oomLevers(o *OOM) []roles.Lever {
	if o.Roles == nil {
		return nil
	}
	set := o.Settings
	set.ExpandableSegments = set.ExpandableSegments || o.Expandable
	return roles.Levers(o.Roles, roles.LeverInput{Settings: set, Ranks: o.Ranks, DuringForward: o.Phase == "forward"})
}

// PeakPoint returns the index in Points of the snapshot of most allocated
// memory (the first of equals), -1 without snapshots.
func (d *Device) PeakPoint() int {
	peak := -1
	for i, p := range d.Points {
		if peak < 0 || p.Usage.Allocated > d.Points[peak].Usage.Allocated {
			peak = i
		}
	}
	return peak
}

// heldMoment decides the moment of the run's one line of roles: the
// first OOM (in time order) whose roles are known, else the peak snapshot
// of the CUDA device that allocated most (the pinned host memory when the
// run has no CUDA device with roles); nil when no roles are known.
func heldMoment(f *Findings) *Held {
	for i, o := range f.OOMs {
		if o.Roles != nil {
			return &Held{Device: DeviceKey{Rank: o.Rank, Device: o.Device, PID: o.PID}, OOM: i, Point: -1}
		}
	}
	var best *Device
	for _, d := range f.Devices {
		p := d.PeakPoint()
		if p < 0 || d.Points[p].Roles == nil {
			continue
		}
		if best == nil || best.Host && !d.Host || best.Host == d.Host && d.Points[p].Usage.Allocated > best.Points[best.PeakPoint()].Usage.Allocated {
			best = d
		}
	}
	if best == nil {
		return nil
	}
	return &Held{Device: best.DeviceKey, OOM: -1, Point: best.PeakPoint()}
}

// dataRanks counts the ranks of a run's CUDA devices: the ranks a lever
// that shards spreads a role over (1 for a run without ranks).
func dataRanks(devs []*Device) int {
	ranks := map[int]bool{}
	for _, d := range devs {
		if !d.Host && len(d.Points) > 0 {
			ranks[d.Rank] = true
		}
	}
	return len(ranks)
}
