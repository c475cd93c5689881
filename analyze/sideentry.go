package analyze

import (
	"encoding/json"
	"reflect"
	"strconv"

	"gpureport/ingest"
)

// What the analysis keeps beside a file's digest in the digest cache
// (ingest.SnapshotFile.Side): an OOM's explanation (oomcache.go), a
// snapshot's roles and stack groups (pointcache.go), its point entry
// (pointentry.go), a series' checkpoints (survivalcache.go,
// groupscache.go). Each entry's kind names this build of the analysis
// (Options.SideVersion), so a changed analysis never reads what an older
// one wrote; without a version nothing is kept. An entry that does not
// read back is ignored and made again. Each says where it is kept
// (sidePlace): the small ones of every file in the file's bundle, the
// large ones in a file of their own.

// sideKind names the side entry what (with its parts) for device key in
// build version of the analysis: "what.version.device[.part...]", or ""
// (keep nothing) without a version.
func sideKind(what, version string, key DeviceKey, parts ...string) string {
	if version == "" {
		return ""
	}
	k := what + "." + version + "." + sideDevice(key)
	for _, p := range parts {
		k += "." + p
	}
	return k
}

// sideDevice names device key in a side entry's kind: "d" and the CUDA
// device's index, or "host" for pinned host memory. (The file's content
// key, which names the entry too, tells the rank.)
func sideDevice(key DeviceKey) string {
	if key.Host {
		return "host"
	}
	return "d" + strconv.Itoa(key.Device)
}

// sideBytes returns f's side entry kind, and whether there is one (none
// without a kind).
func sideBytes(f *ingest.SnapshotFile, kind string) ([]byte, bool) {
	if kind == "" {
		return nil, false
	}
	return f.Side(kind)
}

// sidePlace says where a side entry is kept: with the file's other
// entries in its side bundle (ingest.SnapshotFile.SetSide), which every
// re-run reads whole, or in a file of its own (SetSideAlone), read only
// when asked for.
type sidePlace bool

const (
	// inBundle is for the entries every file has, of a few kilobytes,
	// that a re-run reads: the point entry, the roles, the stack groups,
	// an OOM's explanation.
	inBundle sidePlace = false
	// alone is for the large entries of one file of a series that the
	// next run no longer reads: the last snapshot's trace window and
	// roles decisions, a series' checkpoints (100-300 KB each for 200
	// ordinary snapshots). In the bundle, every later re-run would read
	// them again.
	alone sidePlace = true
)

// setSide stores b as f's side entry kind, at place (nothing without a
// kind).
func setSide(f *ingest.SnapshotFile, kind string, place sidePlace, b []byte) {
	switch {
	case kind == "":
	case place == alone:
		f.SetSideAlone(kind, b)
	default:
		f.SetSide(kind, b)
	}
}

// keepCheckedSide stores v as f's side entry kind, encoded, when decode
// reads the encoding back equal to v: what the encoding would change (text
// that JSON would mend, invalid UTF-8 in a frame) is left out of the
// cache, not changed.
func keepCheckedSide[T any](f *ingest.SnapshotFile, kind string, place sidePlace, v *T, encode func(*T) ([]byte, error), decode func([]byte) (T, bool)) {
	if kind == "" {
		return
	}
	b, err := encode(v)
	if err != nil {
		return
	}
	if back, ok := decode(b); !ok || !reflect.DeepEqual(*v, back) {
		return
	}
	setSide(f, kind, place, b)
}

// jsonSide returns f's side entry kind read as JSON, and whether there is
// one that reads and valid accepts.
func jsonSide[T any](f *ingest.SnapshotFile, kind string, valid func(*T) bool) (T, bool) {
	b, ok := sideBytes(f, kind)
	if !ok {
		var zero T
		return zero, false
	}
	return decodeJSONSide(b, valid)
}

// decodeJSONSide reads b as JSON of a T that valid accepts.
func decodeJSONSide[T any](b []byte, valid func(*T) bool) (T, bool) {
	var v T
	if err := json.Unmarshal(b, &v); err != nil || !valid(&v) {
		var zero T
		return zero, false
	}
	return v, true
}

// setJSONSide keeps v as f's side entry kind, as JSON, when it reads back
// the same (keepCheckedSide).
func setJSONSide[T any](f *ingest.SnapshotFile, kind string, place sidePlace, v *T) {
	keepCheckedSide(f, kind, place, v, func(v *T) ([]byte, error) { return json.Marshal(v) },
		func(b []byte) (T, bool) { return decodeJSONSide(b, func(*T) bool { return true }) })
}
