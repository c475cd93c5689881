package analyze

import (
	"log/slog"
	"slices"

	"gpureport/analyze/roles"
	"gpureport/ingest"
	"gpureport/snapshot"
)

// A re-run read every cached snapshot's digest whole, and two thirds of
// reading one was its devices' segments and blocks, which the analysis
// reads of a file that is not its series' last only for a few sums: the
// pools' usages (Series.measure), the fragmentation sums and whether a
// segment is expandable (analyzeFragmentation), the devices that have
// segments (RankDevices), and the largest segment new since the periodic
// file before (largestNewSegment). The point entry keeps these, per
// device, beside the file's digest (a side entry of the whole file, made
// by this build of the analysis like the others: sideentry.go). The
// loader reads the digest of a file that has one without its devices'
// segments (ingest.LoadOptions.PointKind); the analysis reads the entry
// instead. Where it needs a file's blocks after all (the last snapshot of
// a series, a roles or groups entry that is missing, the survival fold
// past its checkpoint, a pair of files the entry did not measure), it
// reads them again (ingest.SnapshotFile.WithSegments): slower, never
// wrong.

// PointKind is the side entry kind of a snapshot file's point entry made
// by build version of the analysis (Options.SideVersion), "" (none)
// without a version: what ingest.LoadOptions.PointKind takes.
func PointKind(version string) string {
	if version == "" {
		return ""
	}
	return "point." + version
}

// pointEntry is a snapshot file's point entry: the devices that have
// segments in the file, in ascending order, each with its sums.
type pointEntry struct {
	devices []pointDevice
}

// pointDevice is what the analysis reads of one device's segments in a
// snapshot file that is not its series' last.
type pointDevice struct {
	dev  int
	sums segmentSums
	// pools is PoolUsages of the device.
	pools []PoolUsage
	// prev is the content key of the periodic file before this one in
	// its series when grown was measured, "" when it was not; grown is
	// largestNewSegment from that file to this one, in bytes.
	prev  string
	grown int64
}

// device returns the sums of device dev, nil when the file has no
// segments on it.
func (e *pointEntry) device(dev int) *pointDevice {
	i, ok := slices.BinarySearchFunc(e.devices, dev, func(p pointDevice, d int) int { return p.dev - d })
	if !ok {
		return nil
	}
	return &e.devices[i]
}

// pointEntries are the point entries of a run's files whose devices'
// segments were left unread (ingest.SnapshotFile.SegmentsUnread); it is
// only read once the analysis has begun.
type pointEntries map[*ingest.SnapshotFile]*pointEntry

// of returns f's point entry, nil when f's segments were read (at load,
// or since: the last file of a series) and are what the stages read.
func (pts pointEntries) of(f *ingest.SnapshotFile) *pointEntry {
	if !f.SegmentsUnread() {
		return nil
	}
	return pts[f]
}

// devicesOf returns the devices with segments in f, ascending: from its
// point entry, else from its segments.
func (pts pointEntries) devicesOf(f *ingest.SnapshotFile) []int {
	e := pts.of(f)
	if e == nil {
		return segmentDevices(f)
	}
	devs := make([]int, len(e.devices))
	for i, p := range e.devices {
		devs[i] = p.dev
	}
	return devs
}

// readPointEntries reads the point entry of each file of files whose
// devices' segments were left unread; a file whose entry does not read
// back has its segments read after all (ingest.SnapshotFile.ReadSegments).
// It writes the files, before any stage reads them.
func readPointEntries(files []*ingest.SnapshotFile) pointEntries {
	var pts pointEntries
	for _, f := range files {
		if !f.SegmentsUnread() {
			continue
		}
		if e, ok := decodePointEntry(f.PointEntry()); ok {
			if pts == nil {
				pts = pointEntries{}
			}
			pts[f] = e
			continue
		}
		readSegments(f)
	}
	return pts
}

// readSegments reads the devices' segments of f, left unread, into
// f.Snapshot; it logs a failure, which leaves f without segments.
func readSegments(f *ingest.SnapshotFile) {
	if err := f.ReadSegments(); err != nil {
		slog.Warn("snapshot read without its segments", "file", f.Path, "err", err)
	}
}

// keepPointEntries stores the point entry of each snapshot file of the
// devices' series that was read with its segments (or whose entry gained
// a pair of files it had not measured), once the series' stages are done:
// its pools from the series' points, its sums and pairs from the
// fragmentation stage (deviceRun.points).
func (a *analysis) keepPointEntries(devs []*deviceRun) {
	kind := PointKind(a.opt.SideVersion)
	if kind == "" {
		return
	}
	type building struct {
		e       pointEntry
		devices []int // the devices with segments in the file
		changed bool
	}
	byFile := map[*ingest.SnapshotFile]*building{}
	var order []*ingest.SnapshotFile
	for _, dr := range devs {
		s := dr.s
		if s == nil || s.Host || len(dr.points) != len(s.Files) {
			continue
		}
		for i, f := range s.Files {
			pm := &dr.points[i]
			e := s.pts.of(f)
			if e != nil && !pm.paired || f.DigestKey() == "" {
				continue
			}
			b := byFile[f]
			if b == nil {
				b = &building{devices: s.pts.devicesOf(f)}
				if e != nil {
					b.e.devices = slices.Clone(e.devices)
				}
				byFile[f] = b
				order = append(order, f)
			}
			if e != nil {
				// Read from the entry: only its pair is new.
				if p := b.e.device(s.Device); p != nil {
					p.prev, p.grown, b.changed = pm.prev, pm.grown, true
				}
				continue
			}
			if !slices.Contains(b.devices, s.Device) {
				continue
			}
			b.e.devices = append(b.e.devices, pointDevice{dev: s.Device, sums: pm.sums, pools: s.Points[i].Pools, prev: pm.prev, grown: pm.grown})
			b.changed = true
		}
	}
	for _, f := range order {
		b := byFile[f]
		if !b.changed {
			continue
		}
		slices.SortFunc(b.e.devices, func(x, y pointDevice) int { return x.dev - y.dev })
		// Every device with segments must be there: a device that has no
		// series here would read back as one without segments.
		if len(b.e.devices) != len(b.devices) {
			continue
		}
		keepCheckedSide(f, kind, inBundle, &b.e, func(e *pointEntry) ([]byte, error) { return encodePointEntry(e), nil }, func(b []byte) (pointEntry, bool) {
			e, ok := decodePointEntry(b)
			if !ok {
				return pointEntry{}, false
			}
			return *e, true
		})
	}
}

// segmentDevices returns the devices of f's segments, ascending. A
// snapshot lists a device's segments together: one look a run of them,
// where a map write a segment (thousands a snapshot, over hundreds of
// snapshots) cost 11 ms of a re-run of 400.
func segmentDevices(f *ingest.SnapshotFile) []int {
	var devs []int
	last := 0
	for i, sg := range f.Snapshot.Segments {
		if i == 0 || sg.Device != last {
			last = sg.Device
			if !slices.Contains(devs, last) {
				devs = append(devs, last)
			}
		}
	}
	slices.Sort(devs)
	return devs
}

// pointEntryFormat is the first byte of an encoded point entry.
const pointEntryFormat = 1

// encodePointEntry writes e as pointEntryFormat, then varints: the number
// of devices, and per device its index, its sums (segmentSums, in field
// order, the expandable flag as 0 or 1), its pools (their count, then
// each one's name, id, kind, MemPool name, evidence and Usage in field
// order; strings as length and bytes), the previous file's key and the
// largest new segment.
func encodePointEntry(e *pointEntry) []byte {
	w := varintWriter{b: []byte{pointEntryFormat}}
	w.uint(uint64(len(e.devices)))
	for i := range e.devices {
		p := &e.devices[i]
		fp := &p.sums.frag
		expandable := int64(0)
		if p.sums.expandable {
			expandable = 1
		}
		w.ints(int64(p.dev), expandable, fp.SplitInactive, fp.FreeSegmentBytes, int64(fp.PinnedSegments), fp.PinnedBytes,
			fp.PrivatePoolBytes, fp.PrivateAllocated, fp.PrivateInactive, fp.OversizeFree)
		w.uint(uint64(len(p.pools)))
		for j := range p.pools {
			pu := &p.pools[j]
			w.str(pu.Pool)
			w.ints(pu.ID[0], pu.ID[1], int64(pu.Kind))
			w.str(pu.Name)
			u := &pu.Usage
			w.ints(int64(pu.KindDecided), u.Reserved, u.Allocated, u.Active, u.Requested, u.Inactive, u.LargestFree,
				u.InternalWaste, u.StrandedFree, u.ReusableFree, int64(u.Segments), int64(u.Blocks), int64(u.TraceEntries))
		}
		w.str(p.prev)
		w.ints(p.grown)
	}
	return w.b
}

// decodePointEntry reads an entry encodePointEntry wrote. It refuses
// (false) a wrong format, a truncated or overlong entry, a count larger
// than the bytes left, devices out of order, and a kind or evidence
// outside its range.
func decodePointEntry(b []byte) (*pointEntry, bool) {
	if len(b) == 0 || b[0] != pointEntryFormat {
		return nil, false
	}
	r := varints{b: b[1:], ok: true}
	// A device takes at least 13 bytes, a pool at least 17.
	n := r.uint()
	if !r.ok || n > uint64(len(r.b))/13 {
		return nil, false
	}
	e := &pointEntry{}
	if n > 0 {
		e.devices = make([]pointDevice, n)
	}
	for i := range e.devices {
		p := &e.devices[i]
		p.dev = int(r.int())
		if i > 0 && p.dev <= e.devices[i-1].dev {
			return nil, false
		}
		switch r.int() {
		case 0:
		case 1:
			p.sums.expandable = true
		default:
			return nil, false
		}
		fp := &p.sums.frag
		fp.SplitInactive, fp.FreeSegmentBytes, fp.PinnedSegments, fp.PinnedBytes = r.int(), r.int(), int(r.int()), r.int()
		fp.PrivatePoolBytes, fp.PrivateAllocated, fp.PrivateInactive, fp.OversizeFree = r.int(), r.int(), r.int(), r.int()
		np := r.uint()
		if !r.ok || np > uint64(len(r.b))/17 {
			return nil, false
		}
		p.pools = make([]PoolUsage, np)
		for j := range p.pools {
			pu := &p.pools[j]
			pu.Pool = r.str()
			pu.ID = [2]int64{r.int(), r.int()}
			kind := r.int()
			pu.Name = r.str()
			decided := r.int()
			if kind < 0 || kind > int64(roles.PoolSymmetric) || decided < 0 || decided > int64(roles.PoolByNoFrames) {
				return nil, false
			}
			pu.Kind, pu.KindDecided = roles.PoolKind(kind), roles.PoolEvidence(decided)
			u := &pu.Usage
			u.Reserved, u.Allocated, u.Active, u.Requested, u.Inactive, u.LargestFree = r.int(), r.int(), r.int(), r.int(), r.int(), r.int()
			u.InternalWaste, u.StrandedFree, u.ReusableFree = r.int(), r.int(), r.int()
			u.Segments, u.Blocks, u.TraceEntries = int(r.int()), int(r.int()), int(r.int())
		}
		p.prev = r.str()
		p.grown = r.int()
		if !r.ok {
			return nil, false
		}
	}
	if !r.ok || len(r.b) != 0 {
		return nil, false
	}
	return e, true
}

// pointMeasure is what the fragmentation stage measured of one file of a
// series for its point entry: its segment sums and, when paired, the
// largest segment new since the periodic file before it (whose content
// key is prev), measured from the two files' segments in this run.
type pointMeasure struct {
	sums   segmentSums
	paired bool
	prev   string
	grown  int64
}

// entryDevice returns the point entry's sums of the series' device for
// point i, and whether the file's segments were left unread (else it
// returns nil, false); nil, true is a file without segments on the
// device.
func (s *Series) entryDevice(i int) (*pointDevice, bool) {
	e := s.pts.of(s.Files[i])
	if e == nil {
		return nil, false
	}
	return e.device(s.Device), true
}

// segmentSums returns the sums of the series' device's segments at point
// i (segmentSumsOf), from the point entry when its file has one.
func (s *Series) segmentSums(i int) segmentSums {
	if p, ok := s.entryDevice(i); ok {
		if p == nil {
			return segmentSums{}
		}
		return p.sums
	}
	return segmentSumsOf(s.Files[i].Snapshot, s.Device)
}

// pools returns the pools' usages of the series' device at point i
// (PoolUsages), from the point entry when its file has one.
func (s *Series) pools(i int) []PoolUsage {
	if p, ok := s.entryDevice(i); ok {
		if p == nil {
			return []PoolUsage{}
		}
		return p.pools
	}
	return PoolUsages(s.Files[i].Snapshot, s.Device)
}

// grownSince returns largestNewSegment from point pi of the series to
// point ci: from ci's point entry when it measured the same pair, else
// from the two files' segments, read again where they were left unread,
// and then recorded in pm.
func (s *Series) grownSince(sizes map[uint64]int64, pi, ci int, pm *pointMeasure) int64 {
	prev, cur := s.Files[pi], s.Files[ci]
	pm.prev = prev.DigestKey()
	if p, ok := s.entryDevice(ci); ok {
		if p == nil {
			// No segment of the device in cur: none is new.
			return 0
		}
		if p.prev != "" && p.prev == pm.prev {
			pm.grown = p.grown
			return p.grown
		}
	}
	pm.grown = largestNewSegment(sizes, blocksOf(prev), blocksOf(cur), s.Device)
	pm.paired = true
	return pm.grown
}

// blocksOf returns f's digest with its devices' segments
// (ingest.SnapshotFile.WithSegments), read again when they were left
// unread; where that fails, it logs why and returns f.Snapshot.
func blocksOf(f *ingest.SnapshotFile) *snapshot.Snapshot {
	s, err := f.WithSegments()
	if err != nil {
		slog.Warn("snapshot read without its segments", "file", f.Path, "err", err)
		return f.Snapshot
	}
	return s
}
