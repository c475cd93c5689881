package analyze

import (
	"testing"
	"time"

	"gpureport/ingest"
	"gpureport/input"
	"gpureport/snapshot"
)

// TestOOMObserverBesideUnrankedDumps: a one-process run's periodic dumps
// name no rank while its OOM observer names rank 0
// (oom_rank-0_snapshot.pickle): one device, whose leak filled it, so the
// OOM is the leak's; not two devices with a capacity OOM apart from the
// leak.
func TestOOMObserverBesideUnrankedDumps(t *testing.T) {
	fs := synthSpec{n: 6, seed: 3, rank: input.NoRank, leakPerSnap: 2 * gib}.files()
	oom := fs[len(fs)-1]
	at := t0.Add(6 * time.Minute).UnixMicro()
	oom.Snapshot.Traces[0] = append(oom.Snapshot.Traces[0], snapshot.TraceEntry{Action: snapshot.ActionOOM, Addr: uint64(300 * mib), Size: 4 * gib, TimeUS: at})
	oom.Path, oom.Step, oom.Phase = "oom_rank-0_snapshot.pickle", input.NoStep, ingest.PhaseOOM
	oom.Rank = ingest.RankFromPath(oom.Path)
	f := Analyze(&ingest.Run{Dir: "observer", Location: time.UTC, Snapshots: fs}, Options{Capacity: 24 * gib})
	if len(f.Devices) != 1 || f.Devices[0].Rank != 0 {
		t.Fatalf("devices %v, want rank 0's cuda:0 alone", deviceKeys(f))
	}
	if len(f.OOMs) != 1 || f.OOMs[0].Cause != CauseLeak || f.OOMs[0].Rank != 0 {
		t.Errorf("OOMs %+v, want one of rank 0 caused by the leak", f.OOMs)
	}
	if !f.Verdict.Leak || !containsNote(noteKinds(f.Notes), NoteUnrankedJoined) {
		t.Errorf("leak %v, notes %v: want the leak and a note that the unranked dumps are rank 0's", f.Verdict.Leak, noteKinds(f.Notes))
	}
}

func deviceKeys(f *Findings) []DeviceKey {
	var out []DeviceKey
	for _, d := range f.Devices {
		out = append(out, d.DeviceKey)
	}
	return out
}

func containsNote(ks []NoteKind, k NoteKind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}
