package analyze

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"slices"

	"gpureport/ingest"
)

// A re-run after one more snapshot read every cached snapshot's live
// blocks again only to fold them through Survival, whose state after the
// old snapshots is the same as the last run's. That state, at the end of
// a device's series, is kept as a side entry of the series' last
// periodic file (sideentry.go): a checkpoint of the fold (docs/fold.md,
// section 5). Its kind names the chain of the content keys of every
// periodic file it observed, in order, so a re-run whose periodic files
// begin with that chain resumes from it and observes only the files
// after it; any other change (a file changed, removed or inserted before
// the end) finds no checkpoint for its chain and folds from the start.
// An entry that does not read back is ignored and made again.

// chainHex is how many hex digits of the chain's SHA-256 name a
// checkpoint (96 bits: two chains of one device and build that share a
// name by chance are beyond reach), short enough that the kind with a
// version and a device stays within a file name.
const chainHex = 24

// contentChains returns, for k = 1..len(files), the name of the chain of
// the first k files' content keys (chains[k-1]); the names stop at the
// first file whose digest is not in the cache. The survival fold's
// checkpoints and the group sums' (groupscache.go) are named so.
func contentChains(files []*ingest.SnapshotFile) []string {
	var out []string
	h := sha256.Sum256([]byte("gpureport survival chain"))
	for _, f := range files {
		key := f.DigestKey()
		if key == "" {
			break
		}
		h = sha256.Sum256(append(h[:], key...))
		out = append(out, hex.EncodeToString(h[:])[:chainHex])
	}
	return out
}

// chainCheckpoint finds and keeps the checkpoints of a fold over one
// series, side entries named what: files are the files the fold takes,
// in order, in the same build version of the analysis, for device key.
// The checkpoint of the first k files is kept beside the k-th and named
// by their chain (contentChains).
type chainCheckpoint struct {
	what    string
	files   []*ingest.SnapshotFile
	chains  []string
	version string
	key     DeviceKey
}

func newChainCheckpoint(what string, files []*ingest.SnapshotFile, key DeviceKey, version string) chainCheckpoint {
	ck := chainCheckpoint{what: what, files: files, key: key, version: version}
	if version != "" {
		ck.chains = contentChains(files)
	}
	return ck
}

func (ck *chainCheckpoint) kind(k int) string {
	return sideKind(ck.what, ck.version, ck.key, ck.chains[k-1])
}

// find returns the length of the longest chain of first files whose
// checkpoint read accepts (read is given its bytes and the length), 0
// when none does.
func (ck *chainCheckpoint) find(read func(b []byte, k int) bool) int {
	for k := len(ck.chains); k > 0; k-- {
		if b, ok := ck.files[k-1].Side(ck.kind(k)); ok && read(b, k) {
			return k
		}
	}
	return 0
}

// keep stores the bytes of encode as the checkpoint of all the files,
// unless the fold resumed from that checkpoint (from is how many files it
// covered) or the files have no chain.
func (ck *chainCheckpoint) keep(from int, encode func() []byte) {
	k := len(ck.files)
	if k == 0 || from == k || len(ck.chains) < k {
		return
	}
	ck.files[k-1].SetSideAlone(ck.kind(k), encode())
}

// survivalCheckpoint is the survival fold's chainCheckpoint: its files are
// the series' periodic files.
type survivalCheckpoint struct{ chainCheckpoint }

func newSurvivalCheckpoint(files []*ingest.SnapshotFile, key DeviceKey, version string) *survivalCheckpoint {
	return &survivalCheckpoint{newChainCheckpoint("survival", files, key, version)}
}

// resume returns the Survival of the longest chain of the first files that
// has a checkpoint, and how many files it observed (0: a new Survival).
func (ck *survivalCheckpoint) resume() (*Survival, int) {
	var sv *Survival
	k := ck.find(func(b []byte, _ int) bool {
		var ok bool
		sv, ok = decodeSurvival(b)
		return ok
	})
	if k == 0 {
		return newSurvival(), 0
	}
	return sv, k
}

// save keeps sv, which observed every file, as the checkpoint of their
// chain, unless it was resumed from that checkpoint (from is how many it
// had observed then).
func (ck *survivalCheckpoint) save(sv *Survival, from int) {
	if sv.points != len(ck.files) {
		return
	}
	ck.keep(from, sv.encode)
}

// survivalFormat is the first byte of an encoded Survival.
const survivalFormat = 4

// encode writes the fold's state as survivalFormat, then varints: the
// snapshots observed and the last one's latest time; the groups in index
// order, each its signature key, turnover, deaths, the snapshots where its
// largest block grew re-created and beside the one before, those where
// every rank rose in proportion (risen) and the last such rise per rank
// (its length, then each rank's bytes and uncertainty), and its two series
// (survivors, largest), each value as its difference from the one before;
// the live blocks in identity order, each its address as the difference
// from the one before, size, group, birth snapshot, trace time and the
// size less the bytes requested (the size itself where its snapshot gave
// no requested sizes: req 0).
func (sv *Survival) encode() []byte {
	keys := make([]string, len(sv.groups))
	for k, g := range sv.index {
		keys[g] = k
	}
	out := make([]byte, 0, 64+len(sv.live)*12+len(sv.groups)*(32+2*sv.points))
	out = append(out, survivalFormat)
	out = binary.AppendUvarint(out, uint64(sv.points))
	out = binary.AppendVarint(out, sv.prevUS)
	out = binary.AppendUvarint(out, uint64(len(sv.groups)))
	for g := range sv.groups {
		gs := &sv.groups[g]
		out = binary.AppendUvarint(out, uint64(len(keys[g])))
		out = append(out, keys[g]...)
		out = binary.AppendUvarint(out, uint64(gs.turnover))
		out = binary.AppendUvarint(out, uint64(gs.deaths))
		out = binary.AppendUvarint(out, uint64(gs.recreated))
		out = binary.AppendUvarint(out, uint64(gs.grewBeside))
		out = binary.AppendUvarint(out, uint64(gs.risen))
		out = binary.AppendUvarint(out, uint64(len(gs.rise)))
		for _, d := range gs.rise {
			out = binary.AppendUvarint(out, uint64(d.v))
			out = binary.AppendUvarint(out, uint64(d.unc))
		}
		out = binary.AppendUvarint(out, uint64(len(gs.survivors)))
		out = appendDeltas(out, gs.survivors)
		out = appendDeltas(out, gs.largest)
	}
	out = binary.AppendUvarint(out, uint64(len(sv.live)))
	var addr uint64
	for _, b := range sv.live {
		out = binary.AppendUvarint(out, b.id.addr-addr)
		addr = b.id.addr
		out = binary.AppendVarint(out, b.id.size)
		out = binary.AppendUvarint(out, uint64(b.id.group))
		out = binary.AppendUvarint(out, uint64(b.life.born))
		out = binary.AppendVarint(out, b.life.us)
		out = binary.AppendVarint(out, b.id.size-b.req)
	}
	return out
}

// decodeSurvival reads a state encode wrote. It refuses (false) a wrong
// format, a truncated or overlong entry, a count larger than the bytes
// left, two groups of one key, a group's series longer than the snapshots
// observed or a turnover beyond them, and a live block of an unknown
// group, born after the last snapshot, or out of identity order.
func decodeSurvival(b []byte) (*Survival, bool) {
	if len(b) == 0 || b[0] != survivalFormat {
		return nil, false
	}
	r := varints{b: b[1:], ok: true}
	points, prevUS := r.uint(), r.int()
	ngroups := r.uint()
	// Each group takes at least five bytes, each live block five.
	if !r.ok || points > 1<<31 || ngroups > uint64(len(r.b))/5 {
		return nil, false
	}
	sv := newSurvival()
	sv.points, sv.prevUS = int(points), prevUS
	sv.groups = make([]groupSurvival, ngroups)
	for g := range sv.groups {
		n := r.uint()
		if !r.ok || n > uint64(len(r.b)) {
			return nil, false
		}
		key := string(r.b[:n])
		r.b = r.b[n:]
		if _, dup := sv.index[key]; dup {
			return nil, false
		}
		sv.index[key] = int32(g)
		gs := &sv.groups[g]
		turnover, deaths, recreated, beside := r.uint(), r.uint(), r.uint(), r.uint()
		if !r.ok || turnover > points || deaths > 1<<40 || recreated > points || beside > points || recreated+beside >= max(points, 1) {
			return nil, false
		}
		gs.turnover, gs.deaths = int(turnover), int(deaths)
		gs.recreated, gs.grewBeside = int(recreated), int(beside)
		risen, nrise := r.uint(), r.uint()
		if !r.ok || risen > recreated || nrise > uint64(len(r.b)) {
			return nil, false
		}
		if nrise > 0 {
			gs.rise = make([]sized, nrise)
			for i := range gs.rise {
				d, u := r.uint(), r.uint()
				if d > 1<<62 || u > 1<<62 {
					return nil, false
				}
				gs.rise[i] = sized{v: int64(d), unc: int64(u)}
			}
		}
		gs.risen = int(risen)
		length := r.uint()
		if !r.ok || length > points || length > uint64(len(r.b))/2 {
			return nil, false
		}
		gs.survivors, gs.largest = make([]int64, length), make([]int64, length)
		readDeltas(&r, gs.survivors)
		readDeltas(&r, gs.largest)
	}
	nlive := r.uint()
	if !r.ok || nlive > uint64(len(r.b))/5 {
		return nil, false
	}
	sv.live = make([]liveBlock, nlive)
	var addr uint64
	for i := range sv.live {
		addr += r.uint()
		size, group, born, us, waste := r.int(), r.uint(), r.uint(), r.int(), r.int()
		if !r.ok || group >= ngroups || born >= points {
			return nil, false
		}
		sv.live[i] = liveBlock{id: blockID{addr: addr, size: size, group: int32(group)}, life: lifetime{born: int32(born), us: us}, req: size - waste}
		if i > 0 && sv.live[i-1].compare(&sv.live[i]) >= 0 {
			return nil, false
		}
	}
	if !r.ok || len(r.b) != 0 {
		return nil, false
	}
	sv.live = slices.Clip(sv.live)
	return sv, true
}
