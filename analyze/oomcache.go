package analyze

import (
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"gpureport/analyze/roles"
	"gpureport/ingest"
	"gpureport/snapshot"
)

// Explaining an OOM decodes the first file that holds it in full and
// replays its trace back to the event: for a large model, most of a
// re-run's time. What the explanation reads of that file (oomFacts) is a
// function of the file's content, the device and the event alone, so it
// is kept in the digest cache beside the file's digest, as a side entry
// (ingest.SnapshotFile.SetSide), and a re-run reads it instead: the
// file is never decoded again for its OOM (issue 30). The entry's kind
// names this build of the analysis (Options.SideVersion), so an analysis
// that changed never reads an explanation an older one made.

// oomFacts is what explainOOM reads of the OOM's file: every field of
// an OOM but the run's (path, rank, device, capacity, ranks) and what
// classifyOOM and blameLeaks decide from them.
type oomFacts struct {
	Time                                                     time.Time
	Requested, DeviceFree                                    int64
	Settings                                                 snapshot.AllocatorSettings
	Expandable                                               bool
	Stack                                                    []Frame
	User                                                     []bool
	Site, Function                                           string
	Reconstructed                                            bool
	Reserved, Allocated, CachedFree, LargestFree, FreedAfter int64
	TopLive                                                  []LiveGroup
	EstimatedCapacity, Missing                               int64
	Roles                                                    *roles.Breakdown
	Phase                                                    string
}

// factsOf returns the facts of explained OOM o.
func factsOf(o *OOM) oomFacts {
	return oomFacts{Time: o.Time, Requested: o.Requested, DeviceFree: o.DeviceFree, Settings: o.Settings,
		Expandable: o.Expandable, Stack: o.Stack, User: o.User, Site: o.Site, Function: o.Function,
		Reconstructed: o.Reconstructed, Reserved: o.Reserved, Allocated: o.Allocated, CachedFree: o.CachedFree,
		LargestFree: o.LargestFree, FreedAfter: o.FreedAfter, TopLive: o.TopLive,
		EstimatedCapacity: o.EstimatedCapacity, Missing: o.Missing, Roles: o.Roles, Phase: o.Phase}
}

// oom returns the OOM of facts x in file f on device key, in a run of
// ranks ranks whose device holds capacity bytes, classified as
// explainOOM classifies it.
func (x *oomFacts) oom(f *ingest.SnapshotFile, key DeviceKey, capacity int64, ranks int) OOM {
	o := OOM{Path: f.Path, Rank: key.Rank, Device: key.Device, Capacity: capacity, Ranks: ranks,
		Time: x.Time, Requested: x.Requested, DeviceFree: x.DeviceFree, Settings: x.Settings,
		Expandable: x.Expandable, Stack: x.Stack, User: x.User, Site: x.Site, Function: x.Function,
		Reconstructed: x.Reconstructed, Reserved: x.Reserved, Allocated: x.Allocated, CachedFree: x.CachedFree,
		LargestFree: x.LargestFree, FreedAfter: x.FreedAfter, TopLive: x.TopLive,
		EstimatedCapacity: x.EstimatedCapacity, Missing: x.Missing, Roles: x.Roles, Phase: x.Phase}
	classifyOOM(&o)
	return o
}

// oomSideKind names the side entry of the OOM at trace event idx of
// device key in this build (version) of the analysis.
func oomSideKind(version string, key DeviceKey, idx int) string {
	dev := fmt.Sprintf("d%d", key.Device)
	if key.Host {
		dev = "host"
	}
	return fmt.Sprintf("oom.%s.%s.e%d", version, dev, idx)
}

// cachedOOM returns the OOM at trace event idx of device key in file f
// from its side entry, and whether there is one that reads back.
func cachedOOM(f *ingest.SnapshotFile, key DeviceKey, idx int, version string, capacity int64, ranks int) (OOM, bool) {
	if version == "" {
		return OOM{}, false
	}
	b, ok := f.Side(oomSideKind(version, key, idx))
	if !ok {
		return OOM{}, false
	}
	var x oomFacts
	if err := json.Unmarshal(b, &x); err != nil || x.Requested < 0 {
		return OOM{}, false
	}
	return x.oom(f, key, capacity, ranks), true
}

// cacheOOM keeps the facts of OOM o, explained from file f, as f's side
// entry, when they read back the same: text that JSON would change
// (invalid UTF-8 in a frame) is left out of the cache, not changed.
func cacheOOM(f *ingest.SnapshotFile, key DeviceKey, idx int, version string, o *OOM) {
	if version == "" {
		return
	}
	x := factsOf(o)
	b, err := json.Marshal(&x)
	if err != nil {
		return
	}
	var back oomFacts
	if json.Unmarshal(b, &back) != nil || !reflect.DeepEqual(x, back) {
		return
	}
	f.SetSide(oomSideKind(version, key, idx), b)
}
