package report

import (
	"gpureport/analyze"
	"gpureport/analyze/roles"
	"gpureport/report/words"
)

// summary.json's roles, pools and trace-window peak (docs/design.md:
// "Roles of live memory", "Pools"): what holds each snapshot's memory,
// at each OOM and at the trace's peak, and the levers of a capacity OOM.

// SummaryPool is one pool of a snapshot: its segment_pool_id, kind
// (default, cuda_graph, cudagraph_trees, mempool, symmetric) and name (a
// MemPool's, "" when none), its part of the default pool (small, large)
// or "private", and its accounting in bytes. Fragmentation is 1 −
// largest free block / free bytes; stranded free bytes lie in segments
// that also hold live blocks (empty_cache() cannot return them),
// reusable free bytes in whole free segments.
type SummaryPool struct {
	PoolID            [2]int64 `json:"pool_id"`
	Pool              string   `json:"pool"`
	Kind              string   `json:"kind"`
	Name              string   `json:"name,omitempty"`
	ReservedBytes     int64    `json:"reserved_bytes"`
	AllocatedBytes    int64    `json:"allocated_bytes"`
	Fragmentation     float64  `json:"fragmentation"`
	StrandedFreeBytes int64    `json:"stranded_free_bytes"`
	ReusableFreeBytes int64    `json:"reusable_free_bytes"`
}

// SummaryTraceWindow is a device's trace-window peak: the most memory
// allocated at any event of the last snapshot's trace (blocks alive
// before the trace began count until it frees them), the event's index
// (-1: the state before the first event) and time, and the roles alive
// then. LowerBound says the trace and the segments disagree and the peak
// is only known to be at least this; roles are then absent.
type SummaryTraceWindow struct {
	Path               string           `json:"path"`
	Entries            int              `json:"entries"`
	PeakAllocatedBytes int64            `json:"peak_allocated_bytes"`
	Time               *string          `json:"time"`
	EventIndex         int              `json:"event_index"`
	LowerBound         bool             `json:"lower_bound,omitempty"`
	RolesBytes         map[string]int64 `json:"roles_bytes,omitempty"`
	Notes              []string         `json:"notes,omitempty"`
}

// SummaryLever is a change that would shrink one role at a capacity
// OOM: its name, the role, the bytes it would free (an estimate) and
// how the estimate was made.
type SummaryLever struct {
	Lever string `json:"lever"`
	Role  string `json:"role"`
	Bytes int64  `json:"bytes"`
	Basis string `json:"basis"`
}

// rolesJSON is a role table as summary.json writes it: {role: bytes},
// every role present (0 where none).
func rolesJSON(b *[roles.NumRoles]int64) map[string]int64 {
	m := make(map[string]int64, roles.NumRoles)
	for r := range roles.NumRoles {
		m[r.String()] = b[r]
	}
	return m
}

// evidenceJSON is, per role that holds bytes, the bytes each kind of
// evidence decided: {role: {"user_label": n, "frame_rule": n,
// "lifetime": n, "none": n}}.
func evidenceJSON(bd *roles.Breakdown) map[string]map[string]int64 {
	keys := [roles.NumEvidence]string{"user_label", "frame_rule", "lifetime", "none"}
	m := map[string]map[string]int64{}
	for r := range roles.NumRoles {
		if bd.Bytes[r] == 0 {
			continue
		}
		e := make(map[string]int64, roles.NumEvidence)
		for k := range roles.NumEvidence {
			e[keys[k]] = bd.ByEvidence[r][k]
		}
		m[r.String()] = e
	}
	return m
}

// summarySnapshotRoles adds a snapshot's roles and pools to ss.
func summarySnapshotRoles(ss *SummarySnapshot, p *analyze.Point) {
	if bd := p.Roles; bd != nil {
		ss.RolesBytes, ss.RolesEvidence = rolesJSON(&bd.Bytes), evidenceJSON(bd)
		ss.RolesCertainty = words.Certainty(bd)
	}
	for _, pu := range p.Pools {
		ss.Pools = append(ss.Pools, SummaryPool{
			PoolID: pu.ID, Pool: pu.Pool, Kind: pu.Kind.String(), Name: pu.Name,
			ReservedBytes: pu.Reserved, AllocatedBytes: pu.Allocated, Fragmentation: round6(pu.ExternalFragmentation()),
			StrandedFreeBytes: pu.StrandedFree, ReusableFreeBytes: pu.ReusableFree,
		})
	}
}

// summaryTraceWindow is a device's trace-window peak; nil without one.
func summaryTraceWindow(w *analyze.TraceWindow) *SummaryTraceWindow {
	if w == nil || w.Peak == nil {
		return nil
	}
	p := w.Peak
	st := &SummaryTraceWindow{Path: w.Path, Entries: w.Entries, PeakAllocatedBytes: p.Allocated, Time: timePtr(p.Time),
		EventIndex: p.Index, LowerBound: p.LowerBound, Notes: words.TracePeakNotes(p)}
	if !p.LowerBound {
		st.RolesBytes = rolesJSON(&p.Roles.Bytes)
	}
	return st
}

// summaryOOMRoles adds an OOM's roles, phase and levers to so.
func summaryOOMRoles(so *SummaryOOM, o *analyze.OOM) {
	if o.Roles == nil {
		return
	}
	so.RolesBytes, so.Phase = rolesJSON(&o.Roles.Bytes), o.Phase
	for _, l := range o.Levers {
		so.Levers = append(so.Levers, SummaryLever{Lever: l.Kind.String(), Role: l.Role.String(), Bytes: l.Bytes, Basis: l.Basis})
	}
	so.LeversMostFreedBytes = roles.MostFreed(o.Levers)
}

// summarySuspectRoles adds a suspect's roles to ss.
func summarySuspectRoles(ss *SummarySuspect, sp *analyze.Suspect) {
	if sr := sp.Roles; sr != nil {
		ss.Role, ss.RolesBytes = sr.Role.String(), rolesJSON(&sr.Bytes)
	}
}
