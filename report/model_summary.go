package report

import (
	"slices"

	"gpureport/analyze"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/internal/units"
	"gpureport/placement"
	"gpureport/report/words"
)

// summary.json's model: its fields from the Findings, its sentences the
// view's (package words), so it says what the other reports say.

// summaryOf builds summary.json of f, whose view v is being built (its
// devices, suspects and sentences done), less the time and version.
func summaryOf(f *analyze.Findings, v *view) *Summary {
	s := &Summary{
		Schema:   SummarySchema,
		Run:      f.RunDir,
		Location: f.Location,
		Inputs: SummaryInputs{
			Snapshots: f.Inputs.Snapshots,
			GPULogs:   []SummaryLog{},
			Skipped:   []SummarySkipped{},
		},
		Devices: []SummaryDevice{},
		OOMs:    []SummaryOOM{},
		Notes:   append([]string{}, v.Notes...),
	}
	for _, l := range v.GPULogs {
		s.Inputs.GPULogs = append(s.Inputs.GPULogs, SummaryLog{
			Path: l.Path, Format: l.Format, Samples: l.samples, SampleKinds: l.kinds, GPUs: l.gpus, SkippedLines: l.skippedRaw,
			Notes: l.Notes, SkipCounts: l.skipCounts,
		})
	}
	if op := v.OtherProcesses; op != nil {
		s.OtherProcesses = processesJSON(op)
	}
	s.Capture, s.OOMWithoutSnapshot = summaryCapture(f.Capture), summaryMissedOOM(f.MissedOOM)
	for _, sk := range v.Skipped {
		s.Inputs.Skipped = append(s.Inputs.Skipped, SummarySkipped{Path: sk.Path, Reason: sk.Reason})
	}
	for _, d := range v.Devices {
		s.Devices = append(s.Devices, d.json)
	}
	fv := f.Verdict
	s.Verdict = SummaryVerdict{
		Leak: fv.Leak, OutsideAllocatorLeak: fv.OutsideAllocatorLeak, Fragmentation: fv.Fragmentation, OOM: fv.OOM, OOMsHandled: fv.OOMsHandled,
		MemoryGrows: fv.MemoryGrows, LeakSuspects: []SummarySuspect{}, LeakSites: []SummaryLeakSite{},
		Severity: v.Severity, Headline: v.Headline, Reasons: append([]string{}, v.Reasons...),
		Suppressed: SummarySuppressed{Rules: []SummarySuppressor{}},
	}
	for _, r := range fv.Suppressed {
		s.Verdict.Suppressed.Suspects += r.Suspects
		s.Verdict.Suppressed.Rules = append(s.Verdict.Suppressed.Rules, SummarySuppressor{Rule: r.Rule, Suspects: r.Suspects})
	}
	type siteKey struct {
		k analyze.DeviceKey
		j int
	}
	sites := map[siteKey]bool{}
	for _, it := range v.top() {
		s.Verdict.LeakSuspects = append(s.Verdict.LeakSuspects, it.json)
		d := device(f, it.Key)
		if j := d.SiteIndex(it.index); j >= 0 && !sites[siteKey{it.Key, j}] {
			sites[siteKey{it.Key, j}] = true
			s.Verdict.LeakSites = append(s.Verdict.LeakSites, summaryLeakSite(d, j))
		}
	}
	for i := range f.OOMs {
		o := &f.OOMs[i]
		so := SummaryOOM{
			Path: o.Path, SummaryDeviceID: deviceID(o.Key()), Time: timePtr(o.Time),
			RequestedBytes: o.Requested, DeviceFreeBytes: o.DeviceFree, ReservedBytes: o.Reserved,
			AllocatedBytes: o.Allocated, CachedFreeBytes: o.CachedFree, LargestFreeBytes: o.LargestFree,
			Class: string(o.Cause), Explanation: v.OOMs[i].Explanation,
			MissingBytes: o.Missing, LeakedBytes: o.LeakedBytes, LeakSite: o.LeakSite,
			Handled: o.Handled, RepeatedIn: o.RepeatedIn,
		}
		if o.Message != nil && o.Message.PinnedHost {
			so.Memory = analyze.HostPinnedKind
		}
		if o.Outside > 0 {
			so.OutsideBytes = o.Outside
			if m := o.Said(); m != nil && m.OtherProcesses > 0 {
				so.OtherProcessesBytes, so.OtherPID = m.OtherProcesses, m.LargestOtherPID
			}
		}
		if o.Cause == analyze.CauseLeak && o.Earlier > 0 {
			so.Earlier, so.EarlierPer = num(o.Earlier), string(o.LeakPer)
		}
		summaryOOMRoles(&so, o)
		s.OOMs = append(s.OOMs, so)
	}
	for _, n := range v.NextSteps {
		s.NextSteps = append(s.NextSteps, n.String())
	}
	s.RolesHeld = v.Held
	return s
}

// deviceID is device k's identity in summary.json, decided here once
// for every entry that names a device: pinned host memory is kind
// host_pinned, device type "host", never the CUDA device of its index.
func deviceID(k analyze.DeviceKey) SummaryDeviceID {
	id := SummaryDeviceID{Device: k.Device, DeviceType: k.Type.String(), Rank: keyRank(k), PID: k.PID, Run: k.Run.N, RunFolder: k.Run.Folder, MIG: k.MIG, Name: words.Device(k)}
	if k.Host {
		id.DeviceType, id.Kind = HostDeviceType, analyze.HostPinnedKind
	}
	return id
}

// device returns the device of key k, nil when there is none.
func device(f *analyze.Findings, k analyze.DeviceKey) *analyze.Device {
	for _, d := range f.Devices {
		if d.DeviceKey == k {
			return d
		}
	}
	return nil
}

// summaryDevice is device d in summary.json; it is its view item.
func summaryDevice(f *analyze.Findings, d *analyze.Device, it deviceItem) SummaryDevice {
	sd := SummaryDevice{
		SummaryDeviceID: deviceID(d.DeviceKey), Order: string(d.Order), Axis: string(d.Axis),
		Snapshots: []SummarySnapshot{}, Trends: []SummaryTrend{},
		StackCoverage: round6(d.Coverage.LiveWithStack), Verdict: string(d.Status),
	}
	if d.Capacity > 0 {
		c := d.Capacity
		sd.CapacityBytes = &c
	}
	sd.PeakAllocatedBytes, sd.PeakReservedBytes = knownBytes(d.PeakAllocated), knownBytes(d.PeakReserved)
	sd.TraceWindow = summaryTraceWindow(d)
	for i := range d.Points {
		p := &d.Points[i]
		ss := SummarySnapshot{Path: p.Path, Time: timePtr(p.Time), Phase: string(p.Phase), SummaryUsage: UsageFields(p.Usage)}
		summarySnapshotRoles(&ss, p)
		if p.Step != input.NoStep {
			st := p.Step
			ss.Step = &st
		}
		sd.Snapshots = append(sd.Snapshots, ss)
	}
	if g := d.GPU; g != nil {
		gi := d.GPUIndex
		sd.GPUSamples = &SummaryGPUSamples{Samples: len(g.Used), MemoryUsedMaxBytes: g.MaxUsed, MemoryTotalBytes: g.Total,
			GPU: &gi, Join: string(d.GPUJoinMethod), JoinAmbiguous: d.GPUJoinAmbiguous}
	}
	if u := d.UsedShare; u != nil {
		sd.GPUShare = &SummaryGPUShare{Samples: len(u.Percent), MemoryUsedMaxPercent: u.MaxPercent, Sources: u.Sources}
	}
	if it.Processes != nil {
		if sd.GPUSamples == nil {
			sd.GPUSamples = &SummaryGPUSamples{}
		}
		sd.GPUSamples.Processes = processesJSON(it.Processes)
	}
	if d.MemoryStats != nil {
		sd.MemoryStats = summaryMemoryStats(d)
	}
	// The device's trend is its primary trend: what its verdict and its
	// row in every report describe.
	sd.Trend = SummaryTrend{Metric: analyze.MetricAllocated, CI95: []*float64{}, Verdict: string(d.Status)}
	for _, r := range it.Trends {
		sd.Trends = append(sd.Trends, r.json)
		if r.Metric == d.PrimaryMetric {
			sd.Trend = r.json
		}
	}
	if d.Fragmentation != nil {
		sd.Fragmented = d.Fragmentation.Fragmented
	}
	return sd
}

// summaryTrend is a trend in summary.json.
func summaryTrend(t *analyze.Trend) SummaryTrend {
	st := SummaryTrend{Metric: t.Metric, CI95: ci(*t), PValue: num(t.PValue), Verdict: string(t.Status()), Method: words.Method(t), Points: t.N,
		Pattern: string(t.Pattern), Reason: words.TrendReason(t), State: string(t.State), Test: t.Test, MoreNeeded: t.MoreNeeded}
	switch t.Per {
	case "hour":
		st.SlopeBytesPerHour = num(t.Slope)
	case "reading":
		st.SlopeBytesPerReading = num(t.Slope)
	case "snapshot":
		st.SlopeBytesPerSnapshot = num(t.Slope)
	default:
		st.SlopeBytesPerStep = num(t.Slope)
	}
	// The growth per hour wherever analyze knows the axis's pace: an
	// hours axis's slope, or a step axis's at its device's hours per step.
	if h, ok := t.SlopePerHour(); ok {
		st.SlopeBytesPerHour = num(h)
	}
	st.Source = t.Source
	st.RanOut = summaryRanOut(t.RanOut)
	if b := t.Bounded; b != nil {
		st.Bounded = &SummaryBounded{Site: b.Site, Function: b.Function, Containers: b.Containers, SlopeBytes: b.Slope, Turnover: b.Turnover, Text: words.Bounded(b)}
	}
	if p := t.Projection; p != nil {
		st.CapacityAt = num(p.X)
		st.RemainingToCapacity = num(p.Remaining)
		if p.Hours > 0 {
			st.HoursToCapacity = num(p.Hours)
		}
	}
	return st
}

// processesJSON lists a process set for summary.json.
func processesJSON(set *processSet) []SummaryProcess {
	out := []SummaryProcess{}
	for _, r := range set.Rows {
		out = append(out, r.json)
	}
	return out
}

// summaryProcess is one process in summary.json.
func summaryProcess(p *analyze.ProcessSeries) SummaryProcess {
	sp := SummaryProcess{
		PID: p.PID, Name: p.Name, Samples: len(p.Used), UsedMaxBytes: p.Peak, UsedLastBytes: p.Last,
		Sources: append([]string{}, p.Sources...), GPUID: p.GPUID,
	}
	if pr := p.Projection; pr != nil && pr.Hours > 0 {
		h := pr.Hours
		sp.HoursToCapacity = &h
	}
	if p.GPU >= 0 {
		g := p.GPU
		sp.GPU = &g
	}
	if n := len(p.Times); n > 0 {
		sp.FirstTime, sp.LastTime = timePtr(p.Times[0]), timePtr(p.Times[n-1])
	}
	if p.Trend != nil {
		st := summaryTrend(p.Trend)
		sp.Trend = &st
		sp.Growing = p.Trend.State == analyze.StateGrowing
	}
	return sp
}

// summaryMemoryStats summarises a device's memory_stats readings.
func summaryMemoryStats(d *analyze.Device) *SummaryMemoryStats {
	m := d.MemoryStats
	known := knownBytes
	sm := &SummaryMemoryStats{
		Samples: len(m.Readings), Sources: append([]string{}, m.Sources...), Order: m.Order, Primary: len(d.Points) == 0,
		AllocatedMaxBytes: known(m.Max.Allocated), AllocatedLastBytes: known(m.Last.Allocated),
		ReservedMaxBytes: known(m.Max.Reserved), ReservedLastBytes: known(m.Last.Reserved),
		ActiveMaxBytes:        known(m.Max.Active),
		InactiveSplitMaxBytes: known(m.Max.InactiveSplit), InactiveSplitLastBytes: known(m.Last.InactiveSplit),
		NumAllocRetries: known(m.Last.NumAllocRetries), NumOOMs: known(m.Last.NumOOMs),
		Trends: []SummaryTrend{}, OOMs: []SummaryStatsOOM{},
	}
	if r := m.Retries; r != nil {
		sm.AllocRetriesGrowing, sm.AllocRetries = r.Growing, words.Retries(r)
	}
	for i := range m.Trends {
		sm.Trends = append(sm.Trends, summaryTrend(&m.Trends[i]))
	}
	step := func(r analyze.Reading) *int64 {
		if r.Step == input.NoStep {
			return nil
		}
		s := r.Step
		return &s
	}
	for _, o := range m.OOMs {
		sm.OOMs = append(sm.OOMs, SummaryStatsOOM{
			Step: step(o.At), Time: timePtr(o.At.Time), PreviousStep: step(o.Prev), PreviousTime: timePtr(o.Prev.Time),
			NumOOMsBefore: o.Before, NumOOMsAfter: o.After, AllocatedBytes: known(o.Allocated), ReservedBytes: known(o.Reserved),
			Handled: o.Handled,
		})
	}
	return sm
}

// summarySuspect is suspect i of device d in summary.json's
// leak_suspects.
func summarySuspect(d *analyze.Device, i int) SummarySuspect {
	sus := &d.Suspects[i]
	ss := SummarySuspect{
		Site: sus.Site, Function: sus.Function, Fingerprint: sus.Fingerprint,
		SummaryDeviceID: deviceID(d.DeviceKey),
		CI95:            ci(sus.Trend), PValue: num(sus.Trend.PValue), Confidence: string(sus.Confidence), Evidence: words.Evidence(d, i),
		Points: sus.Trend.N, State: string(sus.Trend.State), Test: sus.Trend.Test, Severity: string(sus.Severity),
	}
	ss.RanOut = summaryRanOut(sus.RanOut)
	if p := sus.Projection; p != nil {
		ss.RemainingToCapacity = num(p.Remaining)
		if p.Hours > 0 {
			ss.HoursToCapacity = num(p.Hours)
		}
	}
	switch sus.Trend.Per {
	case "hour":
		ss.GrowthBytesPerHour = num(sus.Trend.Slope)
	case "snapshot":
		ss.GrowthBytesPerSnapshot = num(sus.Trend.Slope)
	default:
		ss.GrowthBytesPerStep = num(sus.Trend.Slope)
	}
	if n := len(sus.Bytes); n > 0 {
		ss.LastBytes = sus.Bytes[n-1]
	}
	summarySuspectRoles(&ss, sus)
	return ss
}

// summaryLeakSite is leak site j of device d in summary.json.
func summaryLeakSite(d *analyze.Device, j int) SummaryLeakSite {
	ls := &d.LeakSites[j]
	sl := SummaryLeakSite{Site: ls.Site, Function: ls.Function, SummaryDeviceID: deviceID(d.DeviceKey), AccumulatingPaths: ls.Accumulating, Severity: string(ls.Severity),
		Lockstep: slices.Contains(d.Lockstep, j)}
	for _, i := range ls.Suspects {
		sl.Fingerprints = append(sl.Fingerprints, d.Suspects[i].Fingerprint)
	}
	t := ls.Trend
	t.Projection, t.RanOut = ls.Projection, ls.RanOut
	sl.Trend = summaryTrend(&t)
	return sl
}

func summaryCapture(c *analyze.Capture) *SummaryCapture {
	if c == nil {
		return nil
	}
	s := &SummaryCapture{
		Manifests: c.Manifests, KitVersions: nonNil(c.KitVersions), TorchVersions: nonNil(c.TorchVersions),
		CUDAVersions: nonNil(c.CUDAVersions), WorldSize: c.WorldSize, Ranks: nonNil(c.Ranks), MissingRanks: nonNil(c.MissingRanks),
		Every: c.Every, MaxEntries: c.MaxEntries, Stacks: c.Stacks,
		Used:    SummaryCaptureUsed{Snapshots: c.Snapshots, OOMSnapshots: c.OOMSnapshots, MemoryStatsLogs: c.MemoryStatsLogs, GPULogs: c.GPULogs},
		Skipped: nonNil(c.Skipped), UUIDJoins: []SummaryDeviceRef{},
		OOMs: c.OOMs, OOMsWithoutSnapshot: c.OOMsWithoutSnapshot,
		NoOOMObserverRanks: nonNil(c.NoObserver), UnstoppedRanks: nonNil(c.Unstopped),
		DumpGatherSecondsMax: c.GatherMax.Seconds(), DumpWriteSecondsMax: c.WriteMax.Seconds(), DumpBytesMean: c.DumpBytes,
		ErrorCount: c.ErrorCount, Errors: words.CaptureErrors(c), Problems: nonNil(c.Problems),
	}
	if c.TraceEntries >= 0 {
		n := c.TraceEntries
		s.TraceEntriesMax = &n
	}
	for _, k := range c.UUIDJoins {
		s.UUIDJoins = append(s.UUIDJoins, SummaryDeviceRef{Rank: rankPtr(k.Rank), Device: k.Device})
	}
	return s
}

func summaryMissedOOM(m *analyze.MissedOOM) *SummaryMissedOOM {
	if m == nil {
		return nil
	}
	s := &SummaryMissedOOM{Sources: m.Sources, Ranks: []*int{}, Kit: m.Kit, Reason: string(m.Reason)}
	for _, r := range m.Ranks {
		s.Ranks = append(s.Ranks, rankPtr(r))
	}
	return s
}

// nonNil is s, or an empty slice for nil: summary.json lists are [],
// never null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// knownBytes is a byte count for summary.json: nil (null) when unknown
// (negative, gpulog.Unknown).
func knownBytes(v int64) *int64 {
	if v < 0 {
		return nil
	}
	return &v
}

// UsageFields converts a Usage to its summary.json fields.
func UsageFields(u analyze.Usage) SummaryUsage {
	return SummaryUsage{
		ReservedBytes: u.Reserved, AllocatedBytes: u.Allocated, ActiveBytes: u.Active,
		RequestedBytes: u.Requested, InactiveBytes: u.Inactive, LargestFreeBytes: u.LargestFree,
		Segments: u.Segments, Blocks: u.Blocks, TraceEntries: u.TraceEntries,
	}
}

// Flagged returns the verdict's four flags as an analyze.Verdict (the
// flags only), so a verdict read back from summary.json answers Has,
// Flags and FlagText as a fresh one does.
func (v SummaryVerdict) Flagged() analyze.Verdict {
	return analyze.Verdict{Leak: v.Leak, OutsideAllocatorLeak: v.OutsideAllocatorLeak, Fragmentation: v.Fragmentation, OOM: v.OOM}
}

func ci(t analyze.Trend) []*float64 {
	lo, hi := num(t.Lo), num(t.Hi)
	if lo == nil && hi == nil {
		return []*float64{}
	}
	return []*float64{lo, hi}
}

// summaryRanOut is r in summary.json, nil when r is.
func summaryRanOut(r *analyze.RanOut) *SummaryRanOut {
	if r == nil {
		return nil
	}
	s := &SummaryRanOut{From: string(r.From), Path: r.Path, Line: r.Line, Text: words.RanOut(r)}
	if r.Step != input.NoStep {
		s.Step = &r.Step
	}
	if !r.Time.IsZero() {
		ts := units.Timestamp(r.Time)
		s.Time = &ts
	}
	return s
}

// keyRank is the rank of device k in summary.json: the rank the job gave
// it (DeviceKey.JobRank), null when it has none: no rank in its paths, a
// process told apart by its pid, a separate run of a script without
// ranks.
func keyRank(k analyze.DeviceKey) *int {
	return rankPtr(k.JobRank())
}

// Key is the device key the identity names.
func (id SummaryDeviceID) Key() analyze.DeviceKey {
	k := analyze.DeviceKey{Rank: input.NoRank, Device: id.Device, Type: placement.ParseDeviceType(id.DeviceType), MIG: id.MIG, PID: id.PID}
	if id.Rank != nil {
		k.Rank = *id.Rank
	}
	if id.Run > 0 {
		k.Run = ingest.ScriptRun{N: id.Run, Folder: id.RunFolder, Rank: k.Rank}
	}
	if id.Kind == analyze.HostPinnedKind || id.DeviceType == HostDeviceType {
		k.Type, k.Host = analyze.CUDA, true
	}
	return k
}
