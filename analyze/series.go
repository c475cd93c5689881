package analyze

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"gpureport/ingest"
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
}

// BuildSeries groups the run's snapshots into one series per (rank,
// device), orders each series and places it on an axis, as design.md says:
//
//   - order by the trace's latest time_us when every snapshot of the
//     series has one, else by the file-name step when every one has a step,
//     else by file modification time (ties broken by path);
//   - the axis is the step when every snapshot has one, else hours since
//     the first snapshot.
//
// A file contributes a point to every device its rank uses anywhere in
// the run, with zero usage where the file has no segments on it (an empty
// snapshot is a real observation: nothing was allocated). Series are
// ordered by rank, then device.
func BuildSeries(snaps []*ingest.SnapshotFile) []*Series {
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
		devs := map[int]bool{}
		for _, f := range files {
			for _, d := range f.Snapshot.Devices() {
				devs[d] = true
			}
		}
		if len(devs) == 0 {
			devs[0] = true
		}
		for _, dev := range sortedKeys(devs) {
			out = append(out, buildOne(DeviceKey{Rank: rank, Device: dev}, files, latest))
		}
	}
	return out
}

func buildOne(key DeviceKey, files []*ingest.SnapshotFile, latest map[*ingest.SnapshotFile]int64) *Series {
	s := &Series{DeviceKey: key}
	allTime, allStep := true, true
	for _, f := range files {
		if latest[f] == 0 {
			allTime = false
		}
		if f.Step == ingest.NoStep {
			allStep = false
		}
	}
	files = slices.Clone(files)
	switch {
	case allTime:
		s.Order = OrderTraceTime
		slices.SortStableFunc(files, func(a, b *ingest.SnapshotFile) int {
			return cmp.Or(cmp.Compare(latest[a], latest[b]), cmp.Compare(a.Step, b.Step), cmp.Compare(a.Path, b.Path))
		})
	case allStep:
		s.Order = OrderStep
		slices.SortStableFunc(files, func(a, b *ingest.SnapshotFile) int {
			return cmp.Or(cmp.Compare(a.Step, b.Step), cmp.Compare(a.Path, b.Path))
		})
	default:
		s.Order = OrderModTime
		slices.SortStableFunc(files, func(a, b *ingest.SnapshotFile) int {
			return cmp.Or(a.ModTime.Compare(b.ModTime), cmp.Compare(a.Path, b.Path))
		})
	}
	s.Axis = AxisHours
	if allStep && (!allTime || stepsIncrease(files)) {
		s.Axis = AxisStep
	}
	s.Files = files
	if s.Axis == AxisHours && len(files) > 1 {
		first := pointTime(files[0], latest[files[0]], allTime)
		last := pointTime(files[len(files)-1], latest[files[len(files)-1]], allTime)
		if last.Sub(first).Hours() < MinHoursSpan {
			s.Axis = AxisSnapshot
		}
	}
	for i, f := range files {
		p := Point{Path: f.Path, Step: f.Step}
		if us := latest[f]; us != 0 {
			p.Time = time.UnixMicro(us).UTC()
		}
		p.Usage = DeviceUsage(f.Snapshot, key.Device)
		p.Pools = PoolUsages(f.Snapshot, key.Device)
		t := pointTime(f, latest[f], allTime)
		if i == 0 {
			s.Start = t
		}
		switch s.Axis {
		case AxisStep:
			p.X = float64(f.Step)
		case AxisSnapshot:
			p.X = float64(i)
		default:
			p.X = t.Sub(s.Start).Hours()
		}
		s.Points = append(s.Points, p)
	}
	markPhases(s)
	return s
}

// Snapshot phase (design.md): periodic dumps at the same point of a step
// form the trend; a dump at another phase is evidence for its event. A
// snapshot is taken off-phase when
//
//   - its path marks it: a file or folder name with an "oom" or "exit"
//     word (torchtitan writes its out-of-memory dump to
//     memory_snapshot/iteration_N_exit/), or
//   - the data show it: the device's trace holds an OOM event after which
//     nothing was allocated (only frees as the failed step unwound), so
//     the file was written by an OOM observer or except handler, in the
//     middle of the failing step, with its activations alive.
//
// A series keeps at least one trend point: a run whose only snapshot is
// an OOM dump is fitted on it (there is nothing else).

// markPhases sets Point.Phase on the off-phase snapshots of s.
func markPhases(s *Series) {
	phase := make([]string, len(s.Files))
	off := 0
	for i, f := range s.Files {
		switch {
		case pathMarksOffPhase(f.Path):
			phase[i] = "marked by its path as an exit or OOM dump"
		case traceEndsAtOOM(f.Snapshot, s.Device):
			phase[i] = "OOM dump: its trace ends at an OOM (only frees after it)"
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

// pathMarksOffPhase reports whether a path names an exit or OOM dump: a
// component with the word "oom" or "exit" between separators (_ - . /).
func pathMarksOffPhase(path string) bool {
	words := strings.FieldsFunc(strings.ToLower(path), func(r rune) bool {
		return r == '/' || r == '\\' || r == '_' || r == '-' || r == '.'
	})
	for _, w := range words {
		if w == "oom" || w == "exit" {
			return true
		}
	}
	return false
}

// traceEndsAtOOM reports whether device dev's trace in snap holds an OOM
// event after which nothing was allocated or mapped.
func traceEndsAtOOM(snap *ingest.Snapshot, dev int) bool {
	if dev >= len(snap.Traces) {
		return false
	}
	tr := snap.Traces[dev]
	for i := len(tr) - 1; i >= 0; i-- {
		switch tr[i].Action {
		case ingest.ActionOOM:
			return true
		case ingest.ActionAlloc, ingest.ActionSegmentAlloc, ingest.ActionSegmentMap:
			return false
		}
	}
	return false
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
func fitKept(metric, per string, x, y []float64, keep []int, r TrendRules) Trend {
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

// MinHoursSpan is the least time, in hours, that snapshots without steps
// must span for rates per hour: one minute. Below it (file times from a
// copy, a run of seconds) the series is placed by snapshot order instead
// (AxisSnapshot).
const MinHoursSpan = 1.0 / 60

// stepsIncrease reports whether the file-name steps of files, in trace
// time order, never decrease. When they do, the numbers in the names are
// not steps (a timestamp's milliseconds, an index that restarts, an
// epoch counter beside restarting steps), and the series falls back to
// the hours axis of its trace times.
func stepsIncrease(files []*ingest.SnapshotFile) bool {
	for i := 1; i < len(files); i++ {
		if files[i].Step < files[i-1].Step {
			return false
		}
	}
	return true
}

// pointTime is the time used for the hours axis: the trace time when every
// file has one, else the modification time.
func pointTime(f *ingest.SnapshotFile, latestUS int64, traceTime bool) time.Time {
	if traceTime {
		return time.UnixMicro(latestUS).UTC()
	}
	return f.ModTime
}

// PoolUsages splits device dev's usage by pool: the default pool's small
// and large segments, and each private pool (CUDA graphs, MemPool) apart.
// Pools are listed small, large, then private pools by id.
func PoolUsages(s *ingest.Snapshot, dev int) []PoolUsage {
	type key struct {
		private [2]int64
		pool    ingest.Pool
	}
	m := map[key]*PoolUsage{}
	var keys []key
	for i := range s.Segments {
		seg := &s.Segments[i]
		if seg.Device != dev {
			continue
		}
		k := key{pool: seg.Pool}
		name := seg.Pool.String()
		if seg.PrivatePool != [2]int64{} {
			k = key{private: seg.PrivatePool}
			name = fmt.Sprintf("private (%d, %d)", seg.PrivatePool[0], seg.PrivatePool[1])
		}
		pu := m[k]
		if pu == nil {
			pu = &PoolUsage{Pool: name}
			m[k] = pu
			keys = append(keys, k)
		}
		pu.add(seg)
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.private[0], b.private[0]), cmp.Compare(a.private[1], b.private[1]), cmp.Compare(a.pool, b.pool))
	})
	out := make([]PoolUsage, 0, len(keys))
	for _, k := range keys {
		pu := m[k]
		pu.Inactive = pu.Reserved - pu.Active
		pu.InternalWaste = pu.Active - pu.Requested
		out = append(out, *pu)
	}
	return out
}

// JoinGPU collects the GPU log readings of one device, in time order, and
// places them on the series axis: hours since Start on AxisHours; on
// AxisStep by linear interpolation of step against trace time between
// snapshots that have both (NaN outside that range or without two such
// snapshots). gpu is the nvidia-smi index of the device.
func JoinGPU(s *Series, logs []*ingest.GPULog, gpu int) *GPUSeries {
	return joinGPUPlaced(logs, gpu, seriesPlacer(s, 0))
}

// interpolate maps t through the piecewise-linear function given by knots
// (sorted by their first coordinate); NaN outside the knots' range.
func interpolate(knots [][2]float64, t float64) float64 {
	if t < knots[0][0] || t > knots[len(knots)-1][0] {
		return math.NaN()
	}
	for i := 1; i < len(knots); i++ {
		a, b := knots[i-1], knots[i]
		if t <= b[0] {
			if b[0] == a[0] {
				return b[1]
			}
			return a[1] + (t-a[0])/(b[0]-a[0])*(b[1]-a[1])
		}
	}
	return knots[len(knots)-1][1]
}

func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
