package analyze

import (
	"encoding/json"
	"reflect"
	"strconv"

	"gpureport/ingest"
)

// What the analysis keeps beside a file's digest in the digest cache
// (ingest.SnapshotFile.Side): an OOM's explanation (oomcache.go), a
// snapshot's roles and stack groups (pointcache.go). Each entry's kind
// names this build of the analysis (Options.SideVersion), so a changed
// analysis never reads what an older one wrote; without a version
// nothing is kept. An entry that does not read back is ignored and made
// again.

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

// jsonSide returns f's side entry kind read as JSON, and whether there is
// one that reads and valid accepts.
func jsonSide[T any](f *ingest.SnapshotFile, kind string, valid func(*T) bool) (T, bool) {
	if kind == "" {
		var zero T
		return zero, false
	}
	b, ok := f.Side(kind)
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
// the same: text that JSON would change (invalid UTF-8 in a frame) is left
// out of the cache, not changed.
func setJSONSide[T any](f *ingest.SnapshotFile, kind string, v *T) {
	if kind == "" {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	var back T
	if json.Unmarshal(b, &back) != nil || !reflect.DeepEqual(*v, back) {
		return
	}
	f.SetSide(kind, b)
}
