package analyze

import (
	"encoding/binary"
	"slices"

	"gpureport/analyze/roles"
	"gpureport/ingest"
	"gpureport/snapshot"
)

// A re-run reads every snapshot's digest from the cache, and then spent
// most of its time on two per-snapshot stages whose output is a function
// of one file's content and one device alone: the roles of its live
// blocks (a roles.Breakdown) and its live blocks summed by stack
// signature (groupLive). Both are kept beside the file's digest as side
// entries (sideentry.go), as the OOM explanations are (oomcache.go): a
// re-run after one more snapshot classifies and groups only the new one.
// An entry that does not read back, or names a stack the file's table does
// not hold, is ignored and made again: it is never trusted.

// cachedRoles returns the roles breakdown of device key in file f from
// its side entry, and whether there is one that reads back and is valid.
func cachedRoles(f *ingest.SnapshotFile, key DeviceKey, version string) (roles.Breakdown, bool) {
	b, ok := sideBytes(f, sideKind("roles", version, key))
	if !ok {
		return roles.Breakdown{}, false
	}
	return decodeBreakdown(b)
}

// cacheRoles keeps bd, the roles breakdown of device key in file f, as
// f's side entry, when it reads back the same.
func cacheRoles(f *ingest.SnapshotFile, key DeviceKey, version string, bd *roles.Breakdown) {
	keepCheckedSide(f, sideKind("roles", version, key), inBundle, bd,
		func(bd *roles.Breakdown) ([]byte, error) { return encodeBreakdown(bd), nil }, decodeBreakdown)
}

// breakdownFormat is the first byte of an encoded roles breakdown. (The
// entry was JSON, whose decoding by reflection took half a millisecond a
// snapshot: most of the roles stage of a re-run.)
const breakdownFormat = 1

// encodeBreakdown writes bd as breakdownFormat, then varints: the number
// of roles and of kinds of evidence (a shape the reader must share), the
// allocated bytes, each role's bytes and blocks, each role's bytes by
// evidence, and the rules (their count plus one, 0 for a nil list), each
// its name (length and bytes), role, evidence, bytes and blocks.
func encodeBreakdown(bd *roles.Breakdown) []byte {
	out := make([]byte, 0, 16+binary.MaxVarintLen64*(3*int(roles.NumRoles)+int(roles.NumRoles)*int(roles.NumEvidence))+len(bd.Rules)*40)
	out = append(out, breakdownFormat)
	out = binary.AppendUvarint(out, uint64(roles.NumRoles))
	out = binary.AppendUvarint(out, uint64(roles.NumEvidence))
	out = binary.AppendVarint(out, bd.Allocated)
	for r := range roles.NumRoles {
		out = binary.AppendVarint(out, bd.Bytes[r])
		out = binary.AppendVarint(out, int64(bd.Blocks[r]))
		for e := range roles.NumEvidence {
			out = binary.AppendVarint(out, bd.ByEvidence[r][e])
		}
	}
	// The count is one more than the rules, 0 for none at all (a nil
	// list and an empty one write differently in the reports' JSON).
	rules := uint64(0)
	if bd.Rules != nil {
		rules = uint64(len(bd.Rules)) + 1
	}
	out = binary.AppendUvarint(out, rules)
	for _, rs := range bd.Rules {
		out = binary.AppendUvarint(out, uint64(len(rs.Rule)))
		out = append(out, rs.Rule...)
		out = binary.AppendUvarint(out, uint64(rs.Role))
		out = binary.AppendUvarint(out, uint64(rs.Evidence))
		out = binary.AppendVarint(out, rs.Bytes)
		out = binary.AppendVarint(out, int64(rs.Blocks))
	}
	return out
}

// decodeBreakdown reads a breakdown encodeBreakdown wrote. It refuses
// (false) a wrong format or shape, a truncated or overlong entry, a count
// larger than the bytes left, and a breakdown that is not Valid.
func decodeBreakdown(b []byte) (roles.Breakdown, bool) {
	var bd roles.Breakdown
	if len(b) == 0 || b[0] != breakdownFormat {
		return bd, false
	}
	r := varints{b: b[1:], ok: true}
	if r.uint() != uint64(roles.NumRoles) || r.uint() != uint64(roles.NumEvidence) {
		return bd, false
	}
	bd.Allocated = r.int()
	for ro := range roles.NumRoles {
		bd.Bytes[ro] = r.int()
		bd.Blocks[ro] = int(r.int())
		for e := range roles.NumEvidence {
			bd.ByEvidence[ro][e] = r.int()
		}
	}
	// Each rule takes at least five bytes.
	n := r.uint()
	if !r.ok || n > uint64(len(r.b))/5+1 {
		return bd, false
	}
	if n > 0 {
		bd.Rules = make([]roles.RuleShare, n-1)
	}
	for i := range bd.Rules {
		l := r.uint()
		if !r.ok || l > uint64(len(r.b)) {
			return roles.Breakdown{}, false
		}
		rs := &bd.Rules[i]
		rs.Rule = string(r.b[:l])
		r.b = r.b[l:]
		role, evidence := r.uint(), r.uint()
		if role >= uint64(roles.NumRoles) || evidence >= uint64(roles.NumEvidence) {
			return roles.Breakdown{}, false
		}
		rs.Role, rs.Evidence = roles.Role(role), roles.Evidence(evidence)
		rs.Bytes, rs.Blocks = r.int(), int(r.int())
	}
	if !r.ok || len(r.b) != 0 || !bd.Valid() {
		return roles.Breakdown{}, false
	}
	return bd, true
}

// lastRolesEntry is the side entry of a device's last snapshot: its
// breakdown and, per live block in the scene's order, the role and the
// evidence decided (two bytes a block), which is all of the decisions the
// suspects' roles read. The last snapshot's blocks were classified afresh
// on every run for these decisions alone.
type lastRolesEntry struct {
	Breakdown roles.Breakdown
	Decided   []byte
}

// cachedLastRoles returns the decisions and breakdown of device key in
// file f from its side entry, and whether there is one that reads back
// and is valid. The decisions are its scene's blocks' in order: the
// caller checks their number against the scene's blocks when it makes
// the scene.
func cachedLastRoles(f *ingest.SnapshotFile, key DeviceKey, version string) ([]roles.Decision, roles.Breakdown, bool) {
	b, ok := sideBytes(f, sideKind("lastroles", version, key))
	if !ok {
		return nil, roles.Breakdown{}, false
	}
	e, ok := decodeLastRoles(b)
	if !ok {
		return nil, roles.Breakdown{}, false
	}
	ds := make([]roles.Decision, len(e.Decided)/2)
	for i := range ds {
		ds[i] = roles.Decision{Role: roles.Role(e.Decided[2*i]), Evidence: roles.Evidence(e.Decided[2*i+1])}
	}
	return ds, e.Breakdown, true
}

// lastRolesFormat is the first byte of an encoded lastroles entry. (The
// entry was JSON, whose two bytes a block went through base64 and
// reflection: a large model's 161k blocks took 9 ms to read back and 5 to
// write, on a re-run's path.)
const lastRolesFormat = 1

// encodeLastRoles writes e as lastRolesFormat, the length of its encoded
// breakdown (uvarint), the breakdown (encodeBreakdown), and then the
// decided pairs, two bytes a block, to the end.
func encodeLastRoles(e *lastRolesEntry) ([]byte, error) {
	bd := encodeBreakdown(&e.Breakdown)
	out := make([]byte, 0, 1+binary.MaxVarintLen64+len(bd)+len(e.Decided))
	out = append(out, lastRolesFormat)
	out = binary.AppendUvarint(out, uint64(len(bd)))
	out = append(out, bd...)
	return append(out, e.Decided...), nil
}

// decodeLastRoles reads an entry encodeLastRoles wrote; its Decided is
// b's memory. It refuses another format, a breakdown that does not read
// or overruns b, and what validLastRoles refuses.
func decodeLastRoles(b []byte) (lastRolesEntry, bool) {
	if len(b) == 0 || b[0] != lastRolesFormat {
		return lastRolesEntry{}, false
	}
	n, k := binary.Uvarint(b[1:])
	if k <= 0 || n > uint64(len(b)-1-k) {
		return lastRolesEntry{}, false
	}
	at := 1 + k + int(n)
	bd, ok := decodeBreakdown(b[1+k : at])
	if !ok {
		return lastRolesEntry{}, false
	}
	e := lastRolesEntry{Breakdown: bd, Decided: b[at:len(b):len(b)]}
	if !validLastRoles(&e) {
		return lastRolesEntry{}, false
	}
	return e, true
}

// validLastRoles accepts an entry of a valid breakdown and pairs of a
// role and an evidence in range.
func validLastRoles(e *lastRolesEntry) bool {
	if !e.Breakdown.Valid() || len(e.Decided)%2 != 0 {
		return false
	}
	for i := 0; i < len(e.Decided); i += 2 {
		if roles.Role(e.Decided[i]) >= roles.NumRoles || roles.Evidence(e.Decided[i+1]) >= roles.NumEvidence {
			return false
		}
	}
	return true
}

// classifyLast classifies the blocks of scene sc, device key's in file f
// (its series' last snapshot), and keeps the decisions and breakdown as
// f's side entries (cacheLastRoles): what the analysis and PrepareNew
// both do to a last snapshot, so that the entries are the same whichever
// makes them.
func classifyLast(f *ingest.SnapshotFile, key DeviceKey, version string, sc *roles.Scene) ([]roles.Decision, roles.Breakdown) {
	ds, bd := roles.Classify(sc)
	cacheLastRoles(f, key, version, ds, &bd)
	return ds, bd
}

// traceWindowKept is TraceWindowOf device dev of file f (the series'
// last snapshot, device key), kept as f's side entry (cacheTraceWindow);
// the analysis and PrepareNew both make it so.
func traceWindowKept(f *ingest.SnapshotFile, key DeviceKey, dev int, version string, memo *roles.StackMemo) *TraceWindow {
	w := TraceWindowOf(f, dev, memo)
	cacheTraceWindow(f, key, version, w)
	return w
}

// cacheLastRoles keeps ds and bd, the decisions and breakdown of device
// key in file f, as f's side entry.
//
// It keeps bd as f's roles entry too: when the run grows, f is no longer
// the last snapshot and is read as the others are, not classified again
// (an ordinary snapshot's 10k blocks: 20-25 ms, a tenth of the analysis
// of a re-run after one more snapshot).
func cacheLastRoles(f *ingest.SnapshotFile, key DeviceKey, version string, ds []roles.Decision, bd *roles.Breakdown) {
	cacheRoles(f, key, version, bd)
	e := lastRolesEntry{Breakdown: *bd, Decided: make([]byte, 0, 2*len(ds))}
	for _, d := range ds {
		e.Decided = append(e.Decided, byte(d.Role), byte(d.Evidence))
	}
	keepCheckedSide(f, sideKind("lastroles", version, key), alone, &e, encodeLastRoles, decodeLastRoles)
}

// cachedTraceWindow returns the trace window of device key in file f
// (its last snapshot) from its side entry, and whether there is one that
// reads back and is valid. The window is what TraceWindowOf makes of the
// file in full: kept, a re-run decodes the last snapshot in full no more
// and classifies none of its trace's blocks.
func cachedTraceWindow(f *ingest.SnapshotFile, key DeviceKey, version string) (*TraceWindow, bool) {
	b, ok := sideBytes(f, sideKind("window", version, key))
	if !ok {
		return nil, false
	}
	w, ok := decodeWindow(b)
	if !ok || !w.valid() {
		return nil, false
	}
	w.Path = f.Path // the file's path in this run, wherever the run is
	return &w, true
}

// cacheTraceWindow keeps w, the trace window of device key in file f, as
// f's side entry (when it reads back the same). A file without a window
// keeps none: TraceWindowOf returns nil for a file that no longer
// decodes, too, which may not be the file's content.
func cacheTraceWindow(f *ingest.SnapshotFile, key DeviceKey, version string, w *TraceWindow) {
	if w != nil {
		keepCheckedSide(f, sideKind("window", version, key), alone, w, encodeWindow, decodeWindow)
	}
}

// cachedGroups returns groupLive's groups of device key in file f from
// its side entry, their signatures from cache (the file's table), and
// whether there is one that reads back.
func cachedGroups(f *ingest.SnapshotFile, key DeviceKey, version string, cache *signatureCache) (map[string]*groupAcc, bool) {
	b, ok := sideBytes(f, sideKind("groups", version, key))
	if !ok {
		return nil, false
	}
	return decodeGroups(b, cache)
}

// cacheGroups keeps gs, groupLive's groups of device key in file f, as
// f's side entry.
func cacheGroups(f *ingest.SnapshotFile, key DeviceKey, version string, gs map[string]*groupAcc) {
	setSide(f, sideKind("groups", version, key), inBundle, encodeGroups(gs))
}

// groupsFormat is the first byte of an encoded groups entry.
const groupsFormat = 1

// encodeGroups writes gs as groupsFormat, then a count and, for each
// group in the order of its first stack, six varints: the first stack
// (whose signature names the group), bytes, blocks, the representative
// stack and its bytes, and the bytes in private pools. Keys are not
// written: they are the first stacks' signatures in the file's table.
func encodeGroups(gs map[string]*groupAcc) []byte {
	accs := make([]*groupAcc, 0, len(gs))
	for _, a := range gs {
		accs = append(accs, a)
	}
	slices.SortFunc(accs, func(a, b *groupAcc) int { return int(a.first) - int(b.first) })
	out := make([]byte, 0, 1+binary.MaxVarintLen64*(1+6*len(accs)))
	out = append(out, groupsFormat)
	out = binary.AppendUvarint(out, uint64(len(accs)))
	for _, a := range accs {
		out = binary.AppendUvarint(out, uint64(a.first))
		out = binary.AppendVarint(out, a.bytes)
		out = binary.AppendUvarint(out, uint64(a.blocks))
		out = binary.AppendUvarint(out, uint64(a.rep))
		out = binary.AppendVarint(out, a.repBytes)
		out = binary.AppendVarint(out, a.private)
	}
	return out
}

// decodeGroups reads an entry encodeGroups wrote, naming each group by its
// first stack's signature in cache. It refuses (false) a wrong format, a
// truncated or overlong entry, a count larger than the bytes left, a
// stack the table does not hold, a group of no block, and two groups of
// one signature.
func decodeGroups(b []byte, cache *signatureCache) (map[string]*groupAcc, bool) {
	if len(b) == 0 || b[0] != groupsFormat {
		return nil, false
	}
	r := varints{b: b[1:], ok: true}
	count := r.uint()
	// Each group takes at least six bytes.
	if !r.ok || count > uint64(len(r.b))/6 {
		return nil, false
	}
	stacks := uint64(cache.st.Len())
	out := make(map[string]*groupAcc, count)
	for range count {
		first, bytes, blocks := r.uint(), r.int(), r.uint()
		rep, repBytes, private := r.uint(), r.int(), r.int()
		if !r.ok || first >= stacks || rep >= stacks || blocks == 0 || blocks > 1<<40 {
			return nil, false
		}
		a := &groupAcc{first: snapshot.StackID(first), bytes: bytes, blocks: int(blocks),
			rep: snapshot.StackID(rep), repBytes: repBytes, private: private}
		a.sig = cache.get(a.first)
		if out[a.sig.Key] != nil {
			return nil, false
		}
		out[a.sig.Key] = a
	}
	if len(r.b) != 0 {
		return nil, false
	}
	return out, true
}

// appendDeltas appends each of vs as a varint of its difference from the
// one before (the first from 0): a series that changes at few points
// takes about a byte a point. The survival fold's and the group sums'
// checkpoints write their series so.
func appendDeltas[T int | int64](out []byte, vs []T) []byte {
	var prev int64
	for _, v := range vs {
		out = binary.AppendVarint(out, int64(v)-prev)
		prev = int64(v)
	}
	return out
}

// readDeltas fills vs from the differences appendDeltas wrote.
func readDeltas[T int | int64](r *varints, vs []T) {
	var prev int64
	for i := range vs {
		prev += r.int()
		vs[i] = T(prev)
	}
}

// varintWriter appends varints to b: what varints reads back.
type varintWriter struct{ b []byte }

func (w *varintWriter) int(v int64)   { w.b = binary.AppendVarint(w.b, v) }
func (w *varintWriter) uint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }

// ints appends each of vs.
func (w *varintWriter) ints(vs ...int64) {
	for _, v := range vs {
		w.int(v)
	}
}

// str appends a string as varints.str reads it: its length and bytes.
func (w *varintWriter) str(s string) {
	w.uint(uint64(len(s)))
	w.b = append(w.b, s...)
}

// varints reads varints from b until one fails, after which ok is false
// and every read returns 0.
type varints struct {
	b  []byte
	ok bool
}

func (r *varints) uint() uint64 {
	v, n := binary.Uvarint(r.b)
	return r.took(v, n)
}

func (r *varints) int() int64 {
	v, n := binary.Varint(r.b)
	return int64(r.took(uint64(v), n))
}

// str reads a string: a uvarint length and that many bytes.
func (r *varints) str() string {
	n := r.uint()
	if !r.ok || n > uint64(len(r.b)) {
		r.ok = false
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// took advances past a varint of n bytes (n <= 0: none could be read)
// and returns its value v.
func (r *varints) took(v uint64, n int) uint64 {
	if n <= 0 || !r.ok {
		r.ok = false
		return 0
	}
	r.b = r.b[n:]
	return v
}
