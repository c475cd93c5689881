package analyze

import (
	"strconv"

	"gpureport/ingest"
)

// Explaining an OOM decodes the first file that holds it in full and
// replays its trace back to the event: for a large model, most of a
// re-run's time. What explainOOM makes is a function of the file's
// content, the device and the event alone (the run's fields and the
// cause are set after it), so it is kept in the digest cache beside the
// file's digest, as a side entry (ingest.SnapshotFile.SetSide), and a
// re-run reads it instead: the file is never decoded again for its OOM
// (issue 30). How side entries are named and kept: sideentry.go.

// oomSideKind names the side entry of the OOM at trace event idx of
// device key in this build (version) of the analysis: "oom.version.d0.e12"
// ("" without a version).
func oomSideKind(version string, key DeviceKey, idx int) string {
	return sideKind("oom", version, key, "e"+strconv.Itoa(idx))
}

// cachedOOM returns what explainOOM made of the OOM at trace event idx of
// device key in file f, from its side entry, and whether there is one
// that reads back.
func cachedOOM(f *ingest.SnapshotFile, key DeviceKey, idx int, version string) (OOM, bool) {
	return jsonSide(f, oomSideKind(version, key, idx), func(o *OOM) bool { return o.Requested >= 0 })
}

// cacheOOM keeps o, what explainOOM made of the OOM at trace event idx of
// device key in file f, as f's side entry (when it reads back the same).
func cacheOOM(f *ingest.SnapshotFile, key DeviceKey, idx int, version string, o *OOM) {
	setJSONSide(f, oomSideKind(version, key, idx), inBundle, o)
}
