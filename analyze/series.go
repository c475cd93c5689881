package analyze

import (
	"cmp"
	"gpureport/internal/natural"
	"math"
	"slices"
	"time"

	"gpureport/ingest"
	"gpureport/input"
	"gpureport/internal/units"
)

// Series is the ordered snapshots of one (rank, device), before any
// fitting: the raw material of every per-device analysis.
type Series struct {
	DeviceKey
	// Order is the rule that ordered the points, Axis their x axis.
	Order OrderRule
	Axis  Axis
	// Points are the device's snapshots in order.
	Points []Point
	// Files are the snapshot files behind Points, in the same order.
	Files []*ingest.SnapshotFile
	// Start is the time of the first point (trace time or modification
	// time), the origin of AxisHours.
	Start time.Time
	// StepsPerEpoch is true when the file-name steps count within each
	// epoch (epoch1_step100 after epoch0_step300): the files are ordered
	// by epoch, then step, and the axis is time or the snapshot order,
	// not the step, which would put the epochs' dumps on top of each
	// other.
	StepsPerEpoch bool
	// ModTimesWritten is true when the files' modification times are
	// when they were written, not copy times (copyTimes), so that a file
	// without a trace time can still be placed in time by its file time,
	// whatever ordered the series.
	ModTimesWritten bool
	// pts are the point entries of the files read without their
	// devices' segments (pointentry.go); nil when there are none.
	pts pointEntries
}

// SnapshotTimes gives each point the time its snapshot was taken, when
// one is known: the trace's latest time, else a timestamp in its file name
// (written by the dumping script), else its file time when the files'
// times are write times (ModTimesWritten), even when steps in the names
// ordered the series; the zero time otherwise. GPU readings are matched
// to snapshots at these times: the GPU-log join, the placement of readings
// on the step axis and the reconciliation of used with reserved memory.
func (s *Series) SnapshotTimes() []time.Time {
	ts := make([]time.Time, len(s.Points))
	for i, p := range s.Points {
		ts[i] = p.Time
		if !ts[i].IsZero() || i >= len(s.Files) {
			continue
		}
		switch f := s.Files[i]; {
		case f.OrderKind == ingest.OrderTimestamp:
			ts[i] = time.Unix(0, f.Order).UTC()
		case s.ModTimesWritten:
			ts[i] = f.ModTime
		}
	}
	return ts
}

// MinHoursAxisSpan is the least time, in hours, that a series' snapshots
// must span for an hours axis and per-hour rates: 0.1 h (6 minutes). A
// per-hour rate from less than that extrapolates more than tenfold past
// what was observed, and periodic snapshots of a training run are minutes
// apart, so a shorter span is a burst of dumps or of file copies (copying
// a run's files gives them modification times seconds apart). Below it the
// axis is the snapshot order (AxisSnapshot).
const MinHoursAxisSpan = 0.1

// copyTimeRatio flags modification times as copy times when the trace
// times of the same files span more than this many times the modification
// times' span: files written during a run are dated about when their
// traces end, so their spans agree within a small factor; a copy squeezes
// days of trace time into seconds. 10 leaves room for dumps written late
// (slow disks, gzip) while catching any copy that took under a tenth of
// the run's time.
const copyTimeRatio = 10

// BuildSeries groups the run's snapshots into one series per (rank,
// device), orders each series and places it on an axis, as docs/design.md says:
//
//   - order by the trace's latest time_us when every snapshot of the
//     series has one, else by the file-name step when every one has a
//     step, else by a file-name timestamp, epoch or dump counter when every
//     one has the same kind (ingest.OrderKind), else by file modification
//     time, unless those are copy times (copyTimes): then by the natural
//     sort of the paths;
//   - the axis is the step when every snapshot has one, else hours since
//     the first snapshot (trace time, file-name timestamp, or modification
//     time that is not a copy time) when those span at least
//     MinHoursAxisSpan, else the snapshot's position (AxisSnapshot);
//   - an OOM-phase dump (ingest.PhaseOOM) that lacks the step or name
//     order of the periodic dumps sorts after them (on a step axis at the
//     last step) instead of taking their axis away; its Point keeps the
//     phase so trends can leave it out.
//
// The devices of a rank are those with segments in some snapshot of that
// rank (docs/design.md: a GPU a snapshot merely lists, with an empty or stray
// trace, is not a device of the run); a rank whose snapshots have no
// segments anywhere keeps the devices with trace events, else device 0,
// so its snapshots still show. A file contributes a point to every device
// of its rank, with zero usage where the file has no segments on it (an
// empty snapshot is a real observation: nothing was allocated). Series are
// ordered by rank, then device; then come the ranks' pinned host memory
// (docs/design.md's host_pinned device: DeviceKey.Host, device 0 of
// snapshot.Snapshot.Host), a series of the files that recorded it.
func BuildSeries(snaps []*ingest.SnapshotFile) []*Series {
	series := orderSeries(snaps, nil)
	for _, s := range series {
		s.measure()
	}
	return series
}

// orderSeries is BuildSeries without the points' pools and usage
// (Series.measure): the series, their files in order, and each point's
// place, time and phase.
func orderSeries(snaps []*ingest.SnapshotFile, pts pointEntries) []*Series {
	byRank := map[int][]*ingest.SnapshotFile{}
	for _, f := range snaps {
		byRank[f.Rank] = append(byRank[f.Rank], f)
	}
	var out []*Series
	// The latest trace time scans every event of a file: compute it once.
	latest := make(map[*ingest.SnapshotFile]int64, len(snaps))
	for _, f := range snaps {
		latest[f] = f.Snapshot.LatestTimeUS()
	}
	for _, rank := range sortedKeys(byRank) {
		files := byRank[rank]
		for _, dev := range rankDevices(files, pts) {
			out = append(out, buildOne(DeviceKey{Rank: rank, Device: dev, PID: files[0].PID, Run: files[0].Run}, observing(files, dev, pts), latest, pts))
		}
	}
	for _, rank := range sortedKeys(byRank) {
		if host := hostFiles(byRank[rank], latest); host != nil {
			out = append(out, buildOne(DeviceKey{Rank: rank, Host: true, PID: files0PID(byRank[rank]), Run: files0Run(byRank[rank])}, host, latest, nil))
		}
	}
	return out
}

// hostFiles returns the pinned host memory of a rank's snapshot files
// (ingest.SnapshotFile.HostFile), each placed in time where its file is
// (latest, updated); nil unless some file has host segments: like a CUDA
// device, the host_pinned device exists where memory was pinned. Files
// that did not record host memory are left out, not taken as empty.
func hostFiles(files []*ingest.SnapshotFile, latest map[*ingest.SnapshotFile]int64) []*ingest.SnapshotFile {
	var out []*ingest.SnapshotFile
	segments := false
	for _, f := range files {
		if h := f.HostFile(); h != nil {
			latest[h] = latest[f]
			segments = segments || len(h.Snapshot.Segments) > 0
			out = append(out, h)
		}
	}
	if !segments {
		return nil
	}
	return out
}

// observing returns the files of a rank that observe device dev: those
// with segments or trace events on it, and those with no segments on any
// device (an empty snapshot: nothing was allocated, a real observation).
// A file whose memory is all on other devices merely lists dev (its
// device_traces name every GPU the process could see): it gives dev no
// point, as it would give it no device (docs/design.md), instead of a
// point of zeros among the dumps that do hold dev's memory.
func observing(files []*ingest.SnapshotFile, dev int, pts pointEntries) []*ingest.SnapshotFile {
	var out []*ingest.SnapshotFile
	for _, f := range files {
		segs := pts.devicesOf(f)
		if len(segs) == 0 || slices.Contains(segs, dev) || slices.Contains(f.Snapshot.Devices(), dev) {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return files
	}
	return out
}

// RankDevices returns the devices of one rank's snapshot files: those with
// segments in some file; when no file has any, those with trace events;
// else device 0.
func RankDevices(files []*ingest.SnapshotFile) []int {
	return rankDevices(files, nil)
}

// rankDevices is RankDevices, the devices of a file read without its
// segments taken from its point entry in pts.
func rankDevices(files []*ingest.SnapshotFile, pts pointEntries) []int {
	devs := map[int]bool{}
	for _, f := range files {
		for _, d := range pts.devicesOf(f) {
			devs[d] = true
		}
	}
	if len(devs) == 0 {
		for _, f := range files {
			for _, d := range f.Snapshot.Devices() {
				devs[d] = true
			}
		}
	}
	if len(devs) == 0 {
		devs[0] = true
	}
	return sortedKeys(devs)
}

func buildOne(key DeviceKey, files []*ingest.SnapshotFile, latest map[*ingest.SnapshotFile]int64, pts pointEntries) *Series {
	s := &Series{DeviceKey: key, pts: pts}
	// An OOM or exit dump that lacks the step or name order the periodic
	// dumps have (oom_snapshot.pickle beside snapshot_step_N.pickle) does
	// not take the step axis away from them: it was written when the run
	// failed, after the last periodic dump, so it sorts last.
	var periodic []*ingest.SnapshotFile
	for _, f := range files {
		if f.Phase != ingest.PhaseOOM {
			periodic = append(periodic, f)
		}
	}
	if len(periodic) == 0 {
		periodic = files
	}
	allTime, someTime := true, false
	for _, f := range files {
		if latest[f] == 0 {
			allTime = false
		} else {
			someTime = true
		}
	}
	// A periodic dump without a step beside dumps that have one (a
	// final_snapshot.pickle, a copy named by hand) is an extra: it does
	// not take the step axis from the others (stepExtras).
	extra := stepExtras(periodic)
	allStep := true
	nameKind := periodic[0].OrderKind
	for _, f := range periodic {
		if f.Step == input.NoStep && !extra[f] {
			allStep = false
		}
		if f.OrderKind != nameKind {
			nameKind = ingest.OrderNone
		}
	}
	late := func(f *ingest.SnapshotFile) int {
		switch {
		case extra[f]:
			return 1
		case f.Phase != ingest.PhaseOOM:
			return 0
		case allStep && f.Step == input.NoStep, !allStep && nameKind != ingest.OrderNone && f.OrderKind != nameKind:
			return 1
		}
		return 0
	}
	anyLate, lastStep := false, int64(0)
	for _, f := range files {
		anyLate = anyLate || late(f) == 1
		if f.Step != input.NoStep {
			lastStep = max(lastStep, f.Step)
		}
	}
	// Steps counted within each epoch: ordered by epoch, then step.
	epochOf := func(*ingest.SnapshotFile) int64 { return 0 }
	byEpoch := allStep && epochsOrder(periodic)
	if byEpoch {
		epochOf = func(f *ingest.SnapshotFile) int64 { return f.Epoch }
	}
	// Copy times also rule the file times out for the GPU-log join when
	// every file has a trace time; they only order files that have none.
	copyTimed := copyTimes(files, latest, someTime)
	copied := !allTime && copyTimed
	files = slices.Clone(files)
	byPath := func(a, b *ingest.SnapshotFile) int { return natural.Compare(a.Path, b.Path) }
	switch {
	case allTime:
		s.Order = OrderTraceTime
		slices.SortStableFunc(files, func(a, b *ingest.SnapshotFile) int {
			return cmp.Or(cmp.Compare(latest[a], latest[b]), cmp.Compare(epochOf(a), epochOf(b)), cmp.Compare(a.Step, b.Step), byPath(a, b))
		})
	case allStep:
		s.Order = OrderStep
		slices.SortStableFunc(files, func(a, b *ingest.SnapshotFile) int {
			return cmp.Or(cmp.Compare(late(a), late(b)), cmp.Compare(epochOf(a), epochOf(b)), cmp.Compare(a.Step, b.Step), byPath(a, b))
		})
		if len(extra) > 0 && !copyTimed {
			// Extras placed by their file times among the stepped dumps.
			files = placeExtras(files, extra)
		}
	case nameKind != ingest.OrderNone:
		s.Order = map[ingest.OrderKind]OrderRule{ingest.OrderTimestamp: OrderNameTime, ingest.OrderEpoch: OrderNameEpoch, ingest.OrderIndex: OrderNameIndex}[nameKind]
		slices.SortStableFunc(files, func(a, b *ingest.SnapshotFile) int {
			return cmp.Or(cmp.Compare(late(a), late(b)), cmp.Compare(a.Order, b.Order), byPath(a, b))
		})
	case copied:
		s.Order = OrderPath
		slices.SortStableFunc(files, byPath)
	default:
		s.Order = OrderModTime
		slices.SortStableFunc(files, func(a, b *ingest.SnapshotFile) int {
			return cmp.Or(a.ModTime.Compare(b.ModTime), byPath(a, b))
		})
	}
	// The time of each file on the hours axis, when one is usable.
	var timeOf func(f *ingest.SnapshotFile) time.Time
	switch {
	case allTime:
		timeOf = func(f *ingest.SnapshotFile) time.Time { return time.UnixMicro(latest[f]).UTC() }
	case nameKind == ingest.OrderTimestamp && !anyLate:
		timeOf = func(f *ingest.SnapshotFile) time.Time { return time.Unix(0, f.Order).UTC() }
	case !copied:
		timeOf = func(f *ingest.SnapshotFile) time.Time { return f.ModTime }
	}
	s.StepsPerEpoch = byEpoch && !stepsIncrease(byEpochStep(periodic))
	if s.StepsPerEpoch && s.Order == OrderStep {
		s.Order = OrderEpochStep
	}
	switch {
	case allStep && !s.StepsPerEpoch && (!allTime || stepsIncrease(files)):
		s.Axis = AxisStep
	case timeOf != nil && hoursSpan(files, timeOf) >= MinHoursAxisSpan:
		s.Axis = AxisHours
	default:
		s.Axis = AxisSnapshot
	}
	s.Files = files
	s.ModTimesWritten = !copyTimed
	prevStep := int64(input.NoStep)
	for i, f := range files {
		p := Point{Path: f.Path, Step: f.Step}
		if us := latest[f]; us != 0 {
			p.Time = time.UnixMicro(us).UTC()
		}
		if timeOf != nil && i == 0 {
			s.Start = timeOf(f)
		}
		switch s.Axis {
		case AxisStep:
			p.X = float64(f.Step)
			switch {
			case extra[f] && prevStep != input.NoStep:
				// An extra: at the step of the dump before it.
				p.X = float64(prevStep)
			case extra[f]:
				p.X = float64(firstStep(files))
			case f.Step == input.NoStep:
				// A stepless OOM dump: at or after the last step.
				p.X = float64(lastStep)
			}
		case AxisHours:
			p.X = timeOf(f).Sub(s.Start).Hours()
		default:
			p.X = float64(i)
		}
		if f.Step != input.NoStep {
			prevStep = f.Step
		}
		s.Points = append(s.Points, p)
	}
	markPhases(s, extra)
	return s
}

// maxExtraShare bounds the extras of a series (stepExtras): fewer than
// one dump in four. A stepless dump beside many stepped ones is a copy or
// a last dump named by hand; when more lack a step, the steps are no
// longer what orders the series.
const maxExtraShare = 0.25

// stepExtras returns the periodic dumps without a step in a series whose
// other periodic dumps have one: at least two of those, and the stepless
// ones fewer than maxExtraShare of all. Nil when there are none.
func stepExtras(periodic []*ingest.SnapshotFile) map[*ingest.SnapshotFile]bool {
	var none []*ingest.SnapshotFile
	for _, f := range periodic {
		if f.Step == input.NoStep {
			none = append(none, f)
		}
	}
	stepped := len(periodic) - len(none)
	if len(none) == 0 || stepped < 2 || float64(len(none)) >= maxExtraShare*float64(len(periodic)) {
		return nil
	}
	out := make(map[*ingest.SnapshotFile]bool, len(none))
	for _, f := range none {
		out[f] = true
	}
	return out
}

// placeExtras moves each extra of files (sorted with the extras last) to
// where its file time falls among the stepped dumps: after the last one
// modified at or before it.
func placeExtras(files []*ingest.SnapshotFile, extra map[*ingest.SnapshotFile]bool) []*ingest.SnapshotFile {
	out := make([]*ingest.SnapshotFile, 0, len(files))
	var extras []*ingest.SnapshotFile
	for _, f := range files {
		if extra[f] {
			extras = append(extras, f)
		} else {
			out = append(out, f)
		}
	}
	slices.SortStableFunc(extras, func(a, b *ingest.SnapshotFile) int { return a.ModTime.Compare(b.ModTime) })
	for _, e := range extras {
		at := 0
		for i, f := range out {
			if !extra[f] && !f.ModTime.After(e.ModTime) {
				at = i + 1
			}
		}
		out = slices.Insert(out, at, e)
	}
	return out
}

// firstStep is the step of the first file of files that has one.
func firstStep(files []*ingest.SnapshotFile) int64 {
	for _, f := range files {
		if f.Step != input.NoStep {
			return f.Step
		}
	}
	return 0
}

// epochsOrder reports whether the epochs in the names order the files
// before their steps: every periodic dump names an epoch, and not all the
// same one.
func epochsOrder(periodic []*ingest.SnapshotFile) bool {
	seen := map[int64]bool{}
	for _, f := range periodic {
		if f.Epoch == ingest.NoEpoch {
			return false
		}
		seen[f.Epoch] = true
	}
	return len(seen) > 1
}

// byEpochStep is files ordered by epoch, then step.
func byEpochStep(files []*ingest.SnapshotFile) []*ingest.SnapshotFile {
	out := slices.Clone(files)
	slices.SortStableFunc(out, func(a, b *ingest.SnapshotFile) int {
		return cmp.Or(cmp.Compare(a.Epoch, b.Epoch), cmp.Compare(a.Step, b.Step))
	})
	return out
}

// measure sets each point's pools and usage from its file: what reading
// every snapshot's blocks costs of the series, which the analysis does
// beside the stack groups (Analyze).
func (s *Series) measure() {
	for i, f := range s.Files {
		p := &s.Points[i]
		p.Pools = s.pools(i)
		p.Usage = usageOfPools(p.Pools, f.Snapshot.TraceEntries(s.Device))
	}
}

// Snapshot phase (docs/design.md): periodic dumps at the same point of a step
// form the trend; a dump at another phase is evidence for its event. A
// snapshot is taken off-phase when
//
//   - its path marks it: ingest.ParseName set ingest.PhaseOOM (a file or
//     folder name with an "oom", "exit" or "crash" word; torchtitan writes
//     its out-of-memory dump to memory_snapshot/iteration_N_exit/), or
//   - the data show it: the device's trace holds an OOM event after which
//     nothing was allocated (snapshot.Snapshot.TraceEndsAtOOM, which a digest
//     answers too; only frees as the failed step unwound), so
//     the file was written by an OOM observer or except handler, in the
//     middle of the failing step, with its activations alive.
//
// A series keeps at least one trend point: a run whose only snapshot is
// an OOM dump is fitted on it (there is nothing else).

// markPhases sets Point.Phase on the off-phase snapshots of s, and on its
// step extras (PhaseNoStep).
func markPhases(s *Series, extra map[*ingest.SnapshotFile]bool) {
	phase := make([]Phase, len(s.Files))
	off := 0
	for i, f := range s.Files {
		switch {
		case extra[f]:
			phase[i] = PhaseNoStep
		case f.Phase == ingest.PhaseOOM:
			phase[i] = PhaseExitDump
		case f.Snapshot.TraceEndsAtOOM(s.Device):
			phase[i] = PhaseOOMDump
		default:
			continue
		}
		off++
	}
	if off == 0 || off == len(s.Files) {
		return
	}
	for i := range s.Points {
		s.Points[i].Phase = phase[i]
	}
}

// trendIndex returns the indexes of the points that form the trend: the
// periodic ones.
func (s *Series) trendIndex() []int {
	return trendIndexOf(s.Points)
}

// trendIndexOf returns the indexes of the periodic points.
func trendIndexOf(pts []Point) []int {
	out := make([]int, 0, len(pts))
	for i, p := range pts {
		if p.Phase == "" {
			out = append(out, i)
		}
	}
	return out
}

// fitKept fits y against x over the points keep (indexes into both) and
// maps the trend's point indexes (FitFrom, ChangePoint) back to x's.
func fitKept(metric string, per units.Per, x, y []float64, keep []int, r TrendRules) Trend {
	if len(keep) == len(x) {
		return FitTrend(metric, per, x, y, r)
	}
	t := FitTrend(metric, per, pick(x, keep), pick(y, keep), r)
	if t.FitFrom >= 0 && t.FitFrom < len(keep) {
		t.FitFrom = keep[t.FitFrom]
	}
	if t.ChangePoint >= 0 && t.ChangePoint < len(keep) {
		t.ChangePoint = keep[t.ChangePoint]
	}
	return t
}

// stepsIncrease reports whether the file-name steps of files, in trace
// time order, never decrease. When they do, the numbers in the names are
// not steps (a timestamp's milliseconds, an index that restarts, an
// epoch counter beside restarting steps), and the series falls back to
// the hours axis of its trace times. Files without a step (a stepless
// OOM dump beside the periodic ones) are passed over: they sit at the
// last step.
func stepsIncrease(files []*ingest.SnapshotFile) bool {
	prev := int64(math.MinInt64)
	for _, f := range files {
		if f.Step == input.NoStep {
			continue
		}
		if f.Step < prev {
			return false
		}
		prev = f.Step
	}
	return true
}

// hoursSpan is the time between the earliest and latest file, in hours.
func hoursSpan(files []*ingest.SnapshotFile, timeOf func(*ingest.SnapshotFile) time.Time) float64 {
	if len(files) == 0 {
		return 0
	}
	lo, hi := timeOf(files[0]), timeOf(files[0])
	for _, f := range files[1:] {
		t := timeOf(f)
		if t.Before(lo) {
			lo = t
		}
		if t.After(hi) {
			hi = t
		}
	}
	return hi.Sub(lo).Hours()
}

// copyTimes reports whether the files' modification times are copy times,
// not the times they were written. Only modification times spanning less
// than MinHoursAxisSpan can be; they are copy times when the trace times
// of the files that have one span more than copyTimeRatio times as long
// (and at least MinHoursAxisSpan), or when the files were modified within
// copyBurst of each other on average.
func copyTimes(files []*ingest.SnapshotFile, latest map[*ingest.SnapshotFile]int64, someTime bool) bool {
	if len(files) < 2 {
		return false
	}
	mt := hoursSpan(files, func(f *ingest.SnapshotFile) time.Time { return f.ModTime })
	if mt >= MinHoursAxisSpan {
		return false
	}
	if someTime {
		var timed []*ingest.SnapshotFile
		for _, f := range files {
			if latest[f] != 0 {
				timed = append(timed, f)
			}
		}
		tt := hoursSpan(timed, func(f *ingest.SnapshotFile) time.Time { return time.UnixMicro(latest[f]) })
		if len(timed) >= 2 && tt > copyTimeRatio*mt && tt >= MinHoursAxisSpan {
			return true
		}
	}
	return mt*3600 <= copyBurst.Seconds()*float64(len(files)-1)
}

// copyBurst is the most time per file gap, on average, that modification
// times may show and still be taken for one copy: 2 s. Copying a snapshot
// takes well under a second to a few seconds, while a run that dumps
// snapshots does so at most every few steps, many seconds apart.
const copyBurst = 2 * time.Second

func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// files0PID is the pid placement gave a rank's files (all alike), 0 when
// none.
func files0PID(files []*ingest.SnapshotFile) int {
	if len(files) == 0 {
		return 0
	}
	return files[0].PID
}

// files0Run is the separate run placement gave a rank's files (all
// alike), the zero value when none.
func files0Run(files []*ingest.SnapshotFile) ingest.ScriptRun {
	if len(files) == 0 {
		return ingest.ScriptRun{}
	}
	return files[0].Run
}
