package analyze

import (
	"encoding/binary"
	"slices"

	"gpureport/analyze/frames"
	"gpureport/ingest"
	"gpureport/snapshot"
)

// A re-run after one more snapshot read every cached snapshot's groups
// entry (pointcache.go) only to sum them into the same series as the
// last run: 199 side entries read, decoded and their signatures looked
// up, the longest path of a re-run's analysis (15-20 ms of 30 for 200
// ordinary snapshots). The sums themselves, after every file of a
// device's series, are kept as a side entry of the series' last file: a
// checkpoint like the survival fold's (survivalcache.go), named by the
// chain of the content keys of every file of the series, in order. A
// re-run whose files begin with that chain starts from the sums and reads
// the groups of the files after it only; any other change (a file
// changed, removed or inserted before the end) finds no checkpoint for
// its chain, and the files' own groups entries are summed, as before. An
// entry that does not read back is ignored and made again.

// groupSeries is one group's sums over a series (buildGroups): its
// signature, live bytes and blocks at each point, its peak and the point
// of the peak, the group there (at: its representative stack and
// private bytes), and the file and stack where it first appeared (which
// name its signature in a checkpoint).
type groupSeries struct {
	sig    Signature
	bytes  []int64
	blocks []int
	peak   int64
	peakAt int
	// at is the group in the peak point's snapshot (its
	// representative stack, its private bytes), kept when the peak
	// moves, so that no point's groups are held after it is read.
	at         *groupAcc
	firstFile  int
	firstStack snapshot.StackID
}

// groupSums are buildGroups' sums: each group by its signature key and
// by the Signature pointer a run's memo gave it, and the keys in the
// order the groups first appeared.
type groupSums struct {
	byKey map[string]*groupSeries
	bySig map[*Signature]*groupSeries
	order []string
}

// groupsCheckpoint is the group sums' chainCheckpoint: its files are all
// the series' files.
type groupsCheckpoint struct{ chainCheckpoint }

func newGroupsCheckpoint(files []*ingest.SnapshotFile, key DeviceKey, version string) *groupsCheckpoint {
	return &groupsCheckpoint{newChainCheckpoint("groupsums", files, key, version)}
}

// resume returns the sums of the longest chain of first files that has a
// checkpoint, with their points' sums of live bytes without frames and of
// all live bytes set in sg, and how many files they cover (0: no
// checkpoint; empty sums).
func (ck *groupsCheckpoint) resume(memo *frames.StackMemo[*Signature], sg *seriesGroups) (groupSums, int) {
	var sums groupSums
	k := ck.find(func(b []byte, k int) bool {
		var ok bool
		sums, ok = decodeGroupSums(b, ck.files[:k], memo, sg)
		return ok
	})
	if k == 0 {
		return groupSums{byKey: map[string]*groupSeries{}, bySig: map[*Signature]*groupSeries{}}, 0
	}
	return sums, k
}

// save keeps sums, which cover every file, with sg's sums of the points,
// as the checkpoint of their chain, unless they were resumed from that
// checkpoint (from is how many files it covered).
func (ck *groupsCheckpoint) save(sums groupSums, sg *seriesGroups, from int) {
	ck.keep(from, func() []byte { return encodeGroupSums(sums, sg, len(ck.files)) })
}

// groupSumsFormat is the first byte of encoded group sums.
const groupSumsFormat = 1

// encodeGroupSums writes the sums of a series' first k files as
// groupSumsFormat, then varints: k; the points' live bytes without frames
// and all live bytes, each as its difference from the one before; the
// number of groups and, for each in the order of first appearance, the
// file and stack of its first appearance, the point of its peak, the
// representative stack and private bytes there, then its bytes and its
// blocks at each point, each as its difference from the one before (a
// group's figures change at few points, so most take a byte). Signature
// keys are not written: the first stacks' signatures are; nor the peak,
// which is the bytes at its point.
func encodeGroupSums(sums groupSums, sg *seriesGroups, k int) []byte {
	out := make([]byte, 0, 16+2*k+len(sums.order)*(12+2*k))
	out = append(out, groupSumsFormat)
	out = binary.AppendUvarint(out, uint64(k))
	out = appendDeltas(out, sg.noStack[:k])
	out = appendDeltas(out, sg.liveAll[:k])
	out = binary.AppendUvarint(out, uint64(len(sums.order)))
	for _, key := range sums.order {
		a := sums.byKey[key]
		out = binary.AppendUvarint(out, uint64(a.firstFile))
		out = binary.AppendUvarint(out, uint64(a.firstStack))
		out = binary.AppendUvarint(out, uint64(a.peakAt))
		out = binary.AppendUvarint(out, uint64(a.at.rep))
		out = binary.AppendVarint(out, a.at.private)
		out = appendDeltas(out, a.bytes[:k])
		out = appendDeltas(out, a.blocks[:k])
	}
	return out
}

// decodeGroupSums reads sums encodeGroupSums wrote of files, the first
// files of a series of len(sg.liveAll) files, naming each group by its
// first stack's signature (memo, the run's). On success it sets the
// points' sums in sg; on refusal (false) it changes nothing. It refuses a
// wrong format, a truncated or overlong entry, a file count other than
// len(files), a count larger than the bytes left, a stack a file's table
// does not hold, a peak point past the files, negative blocks, and two
// groups of one signature.
func decodeGroupSums(b []byte, files []*ingest.SnapshotFile, memo *frames.StackMemo[*Signature], sg *seriesGroups) (groupSums, bool) {
	n := len(sg.liveAll)
	if len(b) == 0 || b[0] != groupSumsFormat || len(files) > n {
		return groupSums{}, false
	}
	r := varints{b: b[1:], ok: true}
	k := r.uint()
	// The points take at least two bytes each; each group five, and two
	// a point.
	if !r.ok || k != uint64(len(files)) || 2*k > uint64(len(r.b)) {
		return groupSums{}, false
	}
	noStack, liveAll := make([]int64, k), make([]int64, k)
	readDeltas(&r, noStack)
	readDeltas(&r, liveAll)
	count := r.uint()
	if !r.ok || count > uint64(len(r.b))/(5+2*k) {
		return groupSums{}, false
	}
	sums := groupSums{
		byKey: make(map[string]*groupSeries, count),
		bySig: make(map[*Signature]*groupSeries, count),
		order: make([]string, 0, count),
	}
	caches := map[uint64]*signatureCache{}
	for range count {
		file, first, peakAt := r.uint(), r.uint(), r.uint()
		rep, private := r.uint(), r.int()
		if !r.ok || file >= k || peakAt >= k ||
			first >= uint64(files[file].Snapshot.Stacks.Len()) || rep >= uint64(files[peakAt].Snapshot.Stacks.Len()) {
			return groupSums{}, false
		}
		a := &groupSeries{bytes: make([]int64, n), blocks: make([]int, n), peakAt: int(peakAt),
			firstFile: int(file), firstStack: snapshot.StackID(first)}
		readDeltas(&r, a.bytes[:k])
		readDeltas(&r, a.blocks[:k])
		if !r.ok || slices.ContainsFunc(a.blocks[:k], func(b int) bool { return b < 0 || b > 1<<40 }) {
			return groupSums{}, false
		}
		a.peak = a.bytes[peakAt]
		a.at = &groupAcc{bytes: a.peak, rep: snapshot.StackID(rep), private: private}
		c := caches[file]
		if c == nil {
			c = newRunSignatureCache(&files[file].Snapshot.Stacks, memo)
			caches[file] = c
		}
		sig := c.get(a.firstStack)
		if sums.byKey[sig.Key] != nil {
			return groupSums{}, false
		}
		a.sig = *sig
		sums.byKey[sig.Key], sums.bySig[sig] = a, a
		sums.order = append(sums.order, sig.Key)
	}
	if !r.ok || len(r.b) != 0 {
		return groupSums{}, false
	}
	copy(sg.noStack, noStack)
	copy(sg.liveAll, liveAll)
	return sums, true
}
