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
	// NeverFreed sums up what the window allocated and never freed.
	NeverFreed *SummaryNeverFreed `json:"never_freed,omitempty"`
}

// maxSummaryNeverFreed bounds the never-freed sites summary.json and
// summary.md list: the few largest say where the window's memory stayed.
const maxSummaryNeverFreed = 5

// SummaryNeverFreed is what a trace window allocated and never freed
// (analyze.TraceWindow.NeverFreed): bytes and blocks, the window's span
// (first and last event; null without times), the largest sites, and the
// possible leak the analysis saw in it (analyze.WindowLeak), absent when
// none.
type SummaryNeverFreed struct {
	Bytes       int64                   `json:"bytes"`
	Blocks      int                     `json:"blocks"`
	Start       *string                 `json:"start"`
	End         *string                 `json:"end"`
	SpanSeconds *float64                `json:"span_seconds"`
	Sites       []SummaryNeverFreedSite `json:"sites"`
	Leak        *SummaryWindowLeak      `json:"leak,omitempty"`
}

// SummaryNeverFreedSite is one never-freed group of a trace window: its
// site, bytes and blocks, and the training steps the window shows beside
// it (analyze.LiveGroup.Turnovers; absent for a group of few blocks).
type SummaryNeverFreedSite struct {
	Site        string `json:"site"`
	Function    string `json:"function"`
	Fingerprint string `json:"fingerprint"`
	Bytes       int64  `json:"bytes"`
	Blocks      int    `json:"blocks"`
	Steps       int    `json:"steps,omitempty"`
}

// SummaryWindowLeak is a possible leak seen in one snapshot's trace: the
// site of the steady never-freed stream, its bytes and blocks, the steps
// it outlived, its rate per step and per second of the window, and the
// p-value of its rise over the window's parts.
type SummaryWindowLeak struct {
	Site                 string  `json:"site"`
	Function             string  `json:"function"`
	Fingerprint          string  `json:"fingerprint"`
	Bytes                int64   `json:"bytes"`
	Blocks               int     `json:"blocks"`
	Steps                int     `json:"steps"`
	GrowthBytesPerStep   float64 `json:"growth_bytes_per_step"`
	GrowthBytesPerSecond float64 `json:"growth_bytes_per_second"`
	PValue               float64 `json:"p_value"`
}

// summaryNeverFreed is what device d's trace window allocated and never
// freed, with its possible leak.
func summaryNeverFreed(d *analyze.Device) *SummaryNeverFreed {
	w := d.TraceWindow
	nf := &SummaryNeverFreed{Bytes: w.NeverFreedBytes, Blocks: w.NeverFreedBlocks, Start: timePtr(w.Start), End: timePtr(w.End), Sites: []SummaryNeverFreedSite{}}
	if !w.Start.IsZero() && !w.End.IsZero() {
		span := round6(w.End.Sub(w.Start).Seconds())
		nf.SpanSeconds = &span
	}
	for _, g := range w.NeverFreed[:min(len(w.NeverFreed), maxSummaryNeverFreed)] {
		nf.Sites = append(nf.Sites, SummaryNeverFreedSite{Site: g.Site, Function: g.Function, Fingerprint: g.Fingerprint, Bytes: g.Bytes, Blocks: g.Blocks, Steps: g.Turnovers})
	}
	if wl := d.WindowLeak; wl != nil {
		g := &w.NeverFreed[wl.Group]
		nf.Leak = &SummaryWindowLeak{Site: g.Site, Function: g.Function, Fingerprint: g.Fingerprint, Bytes: g.Bytes, Blocks: g.Blocks, Steps: wl.Steps,
			GrowthBytesPerStep: round6(wl.PerStep), GrowthBytesPerSecond: round6(wl.PerSecond()), PValue: wl.Trend.PValue}
	}
	return nf
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

// summaryTraceWindow is a device's trace-window peak and what it never
// freed; nil without one.
func summaryTraceWindow(d *analyze.Device) *SummaryTraceWindow {
	w := d.TraceWindow
	if w == nil || w.Peak == nil {
		return nil
	}
	p := w.Peak
	st := &SummaryTraceWindow{Path: w.Path, Entries: w.Entries, PeakAllocatedBytes: p.Allocated, Time: timePtr(p.Time),
		EventIndex: p.Index, LowerBound: p.LowerBound, Notes: words.TracePeakNotes(p)}
	if !p.LowerBound {
		st.RolesBytes = rolesJSON(&p.Roles.Bytes)
	}
	st.NeverFreed = summaryNeverFreed(d)
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
