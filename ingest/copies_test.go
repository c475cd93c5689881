package ingest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"gpureport/internal/testutil"
)

// TestDiscoverReadsCopiesOnce lays out run folders holding files of the
// same bytes under two names and checks which are read and which are
// skipped as a copy of which: a copy under a name without a number of
// its own that says it is a copy (final.pickle, latest.pickle, a log's
// copy under an OS's or tool's copy name) beside its original is read
// once, the name with a step (or without a copy's marks) kept; files that
// only share their size, and files of the same bytes whose paths say
// they are observations of their own (two steps, two ranks, two folders,
// two device numbers, an OOM dump, two names that say nothing of a
// copy), are all read.
func TestDiscoverReadsCopiesOnce(t *testing.T) {
	samples := testutil.SampleSnapshots(t, 2)
	s1, err := os.ReadFile(samples[0])
	if err != nil {
		t.Fatal(err)
	}
	s2, err := os.ReadFile(samples[1])
	if err != nil {
		t.Fatal(err)
	}
	size := int64(len(s1))
	if (size-sampleBlock)/(sampleBlocks-1) < sampleBlock+200 {
		t.Fatalf("sample snapshot of %d bytes: too small to leave gaps between the sampled blocks", size)
	}
	// flipped returns s1 with one byte changed at off.
	flipped := func(off int64) []byte {
		b := bytes.Clone(s1)
		b[off] ^= 0xff
		return b
	}
	// A byte between the 8th and 9th sampled blocks (hashSamples): the
	// samples agree, the bytes do not.
	gap := flipped((size-sampleBlock)*7/(sampleBlocks-1) + sampleBlock + 100)
	// A byte inside the 9th sampled block.
	sampled := flipped((size-sampleBlock)*8/(sampleBlocks-1) + 10)
	gpuLog, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "testdata", "sample-run", "nvidia-smi.csv"))
	if err != nil {
		t.Fatal(err)
	}

	// otherReading is gpuLog with one digit of a reading changed: the same
	// size, other bytes.
	otherReading := bytes.Clone(gpuLog)
	if i := bytes.LastIndex(otherReading, []byte(" MiB")); i > 0 {
		otherReading[i-1] = '0' + (otherReading[i-1]-'0'+1)%10
	}
	untimedLog := []byte("memory.used [MiB], memory.total [MiB]\n1200 MiB, 81920 MiB\n1210 MiB, 81920 MiB\n1215 MiB, 81920 MiB\n")
	// timedMark marks a skipped path as a timed GPU log's copy
	// (timedCopyReason).
	const timedMark = "timed:"
	tests := []struct {
		name  string
		files map[string][]byte
		read  []string
		// skipped maps a skipped path to the path it copies.
		skipped map[string]string
	}{
		{"final.pickle copied from the last step",
			map[string][]byte{"snapshot_step_1.pickle": s1, "snapshot_step_2.pickle": s2, "final.pickle": s2},
			[]string{"snapshot_step_1.pickle", "snapshot_step_2.pickle"}, map[string]string{"final.pickle": "snapshot_step_2.pickle"}},
		{"a copy that sorts first: the name with a step is kept",
			map[string][]byte{"snapshot_step_1.pickle": s1, "a_latest.pickle": s1},
			[]string{"snapshot_step_1.pickle"}, map[string]string{"a_latest.pickle": "snapshot_step_1.pickle"}},
		{"two copies without a step: the first in path order",
			map[string][]byte{"final.pickle": s1, "latest.pickle": s1},
			[]string{"final.pickle"}, map[string]string{"latest.pickle": "final.pickle"}},
		{"the same bytes at every step of a steady process: the copy names the last",
			map[string][]byte{"snapshot_step_9.pickle": s1, "snapshot_step_10.pickle": s1, "final.pickle": s1},
			[]string{"snapshot_step_10.pickle", "snapshot_step_9.pickle"}, map[string]string{"final.pickle": "snapshot_step_10.pickle"}},
		{"equal size, a byte apart between the sampled blocks",
			map[string][]byte{"snapshot_step_1.pickle": s1, "final.pickle": gap},
			[]string{"final.pickle", "snapshot_step_1.pickle"}, nil},
		{"equal size, a byte apart in a sampled block",
			map[string][]byte{"snapshot_step_1.pickle": s1, "final.pickle": sampled},
			[]string{"final.pickle", "snapshot_step_1.pickle"}, nil},
		{"the same bytes in two attempts of one local rank: two processes",
			map[string][]byte{"logs/x/attempt_0/1/final.pickle": s1, "logs/x/attempt_1/1/final.pickle": s1},
			[]string{"logs/x/attempt_0/1/final.pickle", "logs/x/attempt_1/1/final.pickle"}, nil},
		{"the same bytes in two ranks' folders: two processes",
			map[string][]byte{"rank0/a.pickle": s1, "rank1/a.pickle": s1, "rank1/final.pickle": s2, "rank0/snapshot_step_1.pickle": s2},
			[]string{"rank0/a.pickle", "rank0/snapshot_step_1.pickle", "rank1/a.pickle", "rank1/final.pickle"}, nil},
		{"one rank named in two folders",
			map[string][]byte{"rank0/snapshots/snapshot_step_1.pickle": s1, "rank0/final.pickle": s1},
			[]string{"rank0/snapshots/snapshot_step_1.pickle"}, map[string]string{"rank0/final.pickle": "rank0/snapshots/snapshot_step_1.pickle"}},
		{"two folders without a rank: maybe two processes",
			map[string][]byte{"host-a/snapshot_step_1.pickle": s1, "host-b/final.pickle": s1},
			[]string{"host-a/snapshot_step_1.pickle", "host-b/final.pickle"}, nil},
		{"device numbers in the names",
			map[string][]byte{"gpu0_final.pickle": s1, "gpu1_final.pickle": s1},
			[]string{"gpu0_final.pickle", "gpu1_final.pickle"}, nil},
		{"an OOM dump of a step's bytes",
			map[string][]byte{"snapshot_step_1.pickle": s1, "oom_snapshot.pickle": s1},
			[]string{"oom_snapshot.pickle", "snapshot_step_1.pickle"}, nil},
		{"a GPU log copied beside itself",
			map[string][]byte{"nvidia-smi.csv": gpuLog, "nvidia-smi_copy.csv": gpuLog},
			[]string{"nvidia-smi.csv"}, map[string]string{"nvidia-smi_copy.csv": "nvidia-smi.csv"}},
		// Readings at the same times to the millisecond, with the same
		// figures: one log saved twice, whatever the names.
		{"a timed GPU log under a name that says nothing of a copy",
			map[string][]byte{"nvidia-smi.csv": gpuLog, "gpu_mem.csv": gpuLog},
			[]string{"gpu_mem.csv"}, map[string]string{"nvidia-smi.csv": timedMark + "gpu_mem.csv"}},
		{"a timed GPU log in two folders",
			map[string][]byte{"node-a/gpu.csv": gpuLog, "node-b/gpu.csv": gpuLog},
			[]string{"node-a/gpu.csv"}, map[string]string{"node-b/gpu.csv": timedMark + "node-a/gpu.csv"}},
		{"two hosts' logs of the same size, a reading apart: two observations",
			map[string][]byte{"gpu-host-east.log": gpuLog, "gpu-host-west.log": otherReading},
			[]string{"gpu-host-east.log", "gpu-host-west.log"}, nil},
		{"two nodes' logs of other sizes: two observations",
			map[string][]byte{"node-a.log": gpuLog, "worker_b.out": append(bytes.Clone(gpuLog), gpuLog[bytes.IndexByte(gpuLog, '\n')+1:]...)},
			[]string{"node-a.log", "worker_b.out"}, nil},
		{"readings without times under names of their own: two processes may write them alike",
			map[string][]byte{"node-a.csv": untimedLog, "worker_b.csv": untimedLog},
			[]string{"node-a.csv", "worker_b.csv"}, nil},
		{"two hosts' snapshots of the same bytes: two processes",
			map[string][]byte{"host-east.pickle": s1, "host-west.pickle": s1},
			[]string{"host-east.pickle", "host-west.pickle"}, nil},
		{"a second download: the original is kept",
			map[string][]byte{"gpu.csv": gpuLog, "gpu (1).csv": gpuLog},
			[]string{"gpu.csv"}, map[string]string{"gpu (1).csv": "gpu.csv"}},
		{"Windows' and old Windows' copy names",
			map[string][]byte{"gpu.csv": gpuLog, "gpu - Copy (2).csv": gpuLog, "Copy of gpu.csv": gpuLog},
			[]string{"gpu.csv"}, map[string]string{"gpu - Copy (2).csv": "gpu.csv", "Copy of gpu.csv": "gpu.csv"}},
		{"macOS Finder's and GNOME's copy names",
			map[string][]byte{"gpu.csv": gpuLog, "gpu copy 2.csv": gpuLog, "gpu (2nd copy).csv": gpuLog},
			[]string{"gpu.csv"}, map[string]string{"gpu copy 2.csv": "gpu.csv", "gpu (2nd copy).csv": "gpu.csv"}},
		{"a backup's and an old file's names",
			map[string][]byte{"gpu.csv": gpuLog, "gpu.old.csv": gpuLog, "gpu_backup.csv": gpuLog},
			[]string{"gpu.csv"}, map[string]string{"gpu.old.csv": "gpu.csv", "gpu_backup.csv": "gpu.csv"}},
		{"a generic name copies a log",
			map[string][]byte{"smi-query.csv": gpuLog, "latest.csv": gpuLog},
			[]string{"smi-query.csv"}, map[string]string{"latest.csv": "smi-query.csv"}},
		{"a copy's number beside a step is still a step",
			map[string][]byte{"snapshot_step_1.pickle": s1, "final_step_2 (1).pickle": s1},
			[]string{"final_step_2 (1).pickle", "snapshot_step_1.pickle"}, nil},
		{"a snapshot and a log never copies",
			map[string][]byte{"snapshot_step_1.pickle": s1, "final.pickle": s1, "gpu.csv": gpuLog, "gpu_final.csv": gpuLog},
			[]string{"gpu.csv", "snapshot_step_1.pickle"}, map[string]string{"final.pickle": "snapshot_step_1.pickle", "gpu_final.csv": "gpu.csv"}},
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for rel, b := range tt.files {
				p := filepath.Join(dir, rel)
				testutil.WriteFile(t, p, b)
				if err := os.Chtimes(p, at, at); err != nil {
					t.Fatal(err)
				}
			}
			cands, skipped, err := Discover(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			var read []string
			for _, c := range cands {
				read = append(read, c.Rel)
			}
			if diff := cmp.Diff(tt.read, read); diff != "" {
				t.Errorf("files read (-want +got):\n%s", diff)
			}
			got := map[string]string{}
			for _, s := range skipped {
				got[s.Path] = s.Reason
			}
			want := map[string]string{}
			for p, orig := range tt.skipped {
				if o, ok := strings.CutPrefix(orig, timedMark); ok {
					want[p] = timedCopyReason(o)
				} else {
					want[p] = copyReason(orig)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDiscoverCopyOfALink: a symbolic link and a plain copy of one
// snapshot are each read once, as the file they name.
func TestDiscoverCopyOfALink(t *testing.T) {
	snap := testutil.SampleSnapshots(t, 1)[0]
	dir := t.TempDir()
	testutil.CopyFile(t, snap, filepath.Join(dir, "snapshot_step_2.pickle"), time.Time{})
	testutil.CopyFile(t, snap, filepath.Join(dir, "final.pickle"), time.Time{})
	if err := os.Symlink(filepath.Join(dir, "snapshot_step_2.pickle"), filepath.Join(dir, "latest.pickle")); err != nil {
		t.Skipf("cannot link here: %v", err)
	}
	cands, skipped, err := Discover(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != 1 || cands[0].Rel != "snapshot_step_2.pickle" {
		t.Errorf("read %+v, want snapshot_step_2.pickle alone", cands)
	}
	want := []Skipped{
		{Path: "final.pickle", Reason: copyReason("snapshot_step_2.pickle")},
		{Path: "latest.pickle", Reason: "the same file as snapshot_step_2.pickle (a symbolic or hard link to it): read once"},
	}
	if diff := cmp.Diff(want, skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}

// TestLoadReadsCopyOnce: a run of a snapshot and its copy loads one
// snapshot and lists the copy as skipped with the file it copies.
func TestLoadReadsCopyOnce(t *testing.T) {
	snap := testutil.SampleSnapshots(t, 1)[0]
	dir := t.TempDir()
	testutil.CopyFile(t, snap, filepath.Join(dir, "snapshot_step_900.pickle"), time.Time{})
	testutil.CopyFile(t, snap, filepath.Join(dir, "final.pickle"), time.Time{})
	run, err := Load(context.Background(), dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Snapshots) != 1 || run.Snapshots[0].Path != "snapshot_step_900.pickle" || run.Snapshots[0].Step != 900 {
		t.Errorf("snapshots %+v, want snapshot_step_900.pickle alone", run.Snapshots)
	}
	want := []Skipped{{Path: "final.pickle", Reason: copyReason("snapshot_step_900.pickle")}}
	if diff := cmp.Diff(want, run.Skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}

// TestSameBytes compares files around the compare block's size: equal,
// a byte apart at the start, the end and a block's edge, and one a byte
// longer.
func TestSameBytes(t *testing.T) {
	dir := t.TempDir()
	base := make([]byte, 2*compareBlock+7)
	for i := range base {
		base[i] = byte(i * 31)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		testutil.WriteFile(t, p, b)
		return p
	}
	orig := write("orig", base)
	flip := func(off int) []byte {
		b := bytes.Clone(base)
		b[off]++
		return b
	}
	tests := []struct {
		name string
		b    []byte
		same bool
	}{
		{"equal", bytes.Clone(base), true},
		{"first byte", flip(0), false},
		{"last byte", flip(len(base) - 1), false},
		{"a block's last byte", flip(compareBlock - 1), false},
		{"a block's first byte", flip(compareBlock), false},
		{"a byte longer", append(bytes.Clone(base), 0), false},
		{"a block shorter", base[:compareBlock], false},
		{"empty", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := sameBytes(orig, write(tt.name, tt.b), make([]byte, compareBlock), make([]byte, compareBlock))
			if err != nil || got != tt.same {
				t.Errorf("sameBytes = %v, %v; want %v", got, err, tt.same)
			}
		})
	}
	if _, err := sameBytes(orig, filepath.Join(dir, "missing"), make([]byte, compareBlock), make([]byte, compareBlock)); err == nil {
		t.Error("a missing file compared without an error")
	}
}
