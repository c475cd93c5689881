package analyze

import (
	"gpureport/analyze/roles"
	"gpureport/ingest"
)

// PrepareNew does to f, the one snapshot a load decoded (a re-run after
// one more snapshot: ingest.LoadOptions.Fresh), the per-snapshot work the
// analysis does to the last snapshot of a device's series, and keeps each
// result as f's side entry, where the analysis then finds it: for each
// device of f, the roles of its live blocks (lastroles and roles) and its
// trace window. It runs on the loading goroutine while the other files'
// digests are read: in a re-run of 120 ordinary snapshots (119 cached) the
// analysis went from 64 to 38 ms for 20-25 ms more of load, which the
// reading of more digests hides. (Its stack groups are left to the
// analysis: done here too, they made the load the longer path.) Each
// result is a function of the file and the device alone (the memo only
// spares readings of stacks), so the analysis decides the same with the
// entries as without them (TestPrepareNewIsTheAnalysis); an entry already
// there is left as it is. sideVersion names the build
// (Options.SideVersion); without one, or for a file whose digest is not in
// the cache, nothing is done.
func PrepareNew(f *ingest.SnapshotFile, sideVersion string) {
	if sideVersion == "" || f.Snapshot == nil || f.DigestKey() == "" {
		return
	}
	stacks := roles.NewStackMemo()
	for _, dev := range RankDevices([]*ingest.SnapshotFile{f}) {
		key := DeviceKey{Device: dev}
		if _, _, ok := cachedLastRoles(f, key, sideVersion); !ok {
			sc := roles.SceneReusing(nil, f.Snapshot, dev)
			sc.Memo = stacks
			classifyLast(f, key, sideVersion, sc)
		}
		if _, ok := cachedTraceWindow(f, key, sideVersion); !ok {
			traceWindowKept(f, key, dev, sideVersion, stacks)
		}
	}
}
