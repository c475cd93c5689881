package analyze

import (
	"encoding/json"
	"fmt"
	"reflect"
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
// (issue 30). The entry's kind names this build of the analysis
// (Options.SideVersion), so an analysis that changed never reads an
// explanation an older one made.

// oomSideKind names the side entry of the OOM at trace event idx of
// device key in this build (version) of the analysis.
func oomSideKind(version string, key DeviceKey, idx int) string {
	return fmt.Sprintf("oom.%s.%s.e%d", version, sideDevice(key), idx)
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

// cachedOOM returns what explainOOM made of the OOM at trace event idx of
// device key in file f, from its side entry, and whether there is one
// that reads back.
func cachedOOM(f *ingest.SnapshotFile, key DeviceKey, idx int, version string) (OOM, bool) {
	if version == "" {
		return OOM{}, false
	}
	b, ok := f.Side(oomSideKind(version, key, idx))
	if !ok {
		return OOM{}, false
	}
	var o OOM
	if err := json.Unmarshal(b, &o); err != nil || o.Requested < 0 {
		return OOM{}, false
	}
	return o, true
}

// cacheOOM keeps o, what explainOOM made of the OOM at trace event idx of
// device key in file f, as f's side entry, when it reads back the same:
// text that JSON would change (invalid UTF-8 in a frame) is left out of
// the cache, not changed.
func cacheOOM(f *ingest.SnapshotFile, key DeviceKey, idx int, version string, o *OOM) {
	if version == "" {
		return
	}
	b, err := json.Marshal(o)
	if err != nil {
		return
	}
	var back OOM
	if json.Unmarshal(b, &back) != nil || !reflect.DeepEqual(*o, back) {
		return
	}
	f.SetSide(oomSideKind(version, key, idx), b)
}
