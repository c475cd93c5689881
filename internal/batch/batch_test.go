package batch

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gpureport/internal/testutil"
)

func TestFindRunDirs(t *testing.T) {
	snap := []byte("\x80\x04\x95 fake pickle head")
	smi := []byte("timestamp, index, memory.used [MiB], memory.total [MiB]\n2024/01/01 00:00:00.000, 0, 1 MiB, 2 MiB\n")
	tests := []struct {
		name  string
		files map[string][]byte
		want  []string
	}{
		{"snapshots beside logs: 3 run folders are 3 runs", map[string][]byte{
			"run1/snapshots/snapshot_step_1.pickle": snap, "run1/logs/nvidia-smi.csv": smi,
			"run2/snapshots/snapshot_step_1.pickle": snap, "run2/logs/nvidia-smi.csv": smi,
			"run3/snapshots/snapshot_step_1.pickle": snap, "run3/logs/nvidia-smi.csv": smi,
		}, []string{"run1", "run2", "run3"}},
		{"per-rank folders of each spelling", map[string][]byte{
			"a/rank0/s_step_1.pickle": snap, "a/rank1/s_step_1.pickle": snap,
			"b/r0/s_step_1.pickle": snap, "b/r1/s_step_1.pickle": snap,
			"c/local_rank_0/s.pickle": snap, "c/local_rank_1/s.pickle": snap,
		}, []string{"a", "b", "c"}},
		{"torchtitan tree", map[string][]byte{
			"llama/outputs/memory_snapshot/iteration_10/rank0_memory_snapshot.pickle":      snap,
			"llama/outputs/memory_snapshot/iteration_10/rank1_memory_snapshot.pickle":      snap,
			"llama/outputs/memory_snapshot/iteration_20_exit/rank0_memory_snapshot.pickle": snap,
			"llama/logs/nvidia-smi.csv": smi,
		}, []string{"llama"}},
		{"marked runs deeper down", map[string][]byte{
			"projA/run7/" + RunMarker:         nil,
			"projA/run7/snapshots/s_1.pickle": snap,
			"projA/run8/" + RunMarker:         nil,
			"projA/run8/rank0/s_1.pickle":     snap,
			"projA/notes/readme.txt":          []byte("hello"),
			"projB/x/y/" + RunMarker:          nil,
			"projB/x/y/z/s.pickle":            snap,
			"projC/" + RunMarker:              nil, // marked: one run, inner marks ignored
			"projC/inner/" + RunMarker:        nil,
			"projC/inner/s.pickle":            snap,
			"plain/deep/er/s.pickle":          snap,
			"empty-marked/" + RunMarker:       nil,
			"nothing/readme.txt":              []byte("no inputs"),
			"nothing/sub/notes.pickle":        []byte("not a pickle"),
			".hidden/snapshot.pickle":         snap,
			"d/gpureport/snapshot.pickle":     snap, // report folder only: no run
			"gpureport-overview/x/s.pickle":   snap, // the overview folder
			"gpureport-overview/index.html":   []byte("<html>"),
			"rep/index.html":                  []byte("<html>"),
			"rep/summary.json":                []byte("{}"),
			"rep/s.pickle":                    snap, // a report folder is not entered
		}, []string{"empty-marked", "plain", "projA/run7", "projA/run8", "projB/x/y", "projC"}},
		{"an empty root has no runs", map[string][]byte{"readme.txt": []byte("hi")}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			testutil.WriteFiles(t, root, tt.files)
			runs, err := FindRunDirs([]string{root}, []string{filepath.Join(root, "gpureport-overview")})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range runs {
				got = append(got, r.Rel)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("runs %q, want %q", got, tt.want)
			}
		})
	}
}

// TestFindRunDirsProjectRoots: for experiments/PROJECT/RUN the projects are
// the roots, as `--batch -o experiments/overview experiments/*/` passes
// them; the overview folder, a root too by the glob, is not entered.
func TestFindRunDirsProjectRoots(t *testing.T) {
	snap := []byte("\x80\x04\x95 fake pickle head")
	exp := t.TempDir()
	testutil.WriteFiles(t, exp, map[string][]byte{
		"projA/run1/snapshot_step_1.pickle":     snap,
		"projA/run2/rank0/snapshot_1.pickle":    snap,
		"projB/run7/snapshots/snap_1.pickle":    snap,
		"overview/index.html":                   []byte("<html>"),
		"overview/stale/snapshot_step_1.pickle": snap,
	})
	overview := filepath.Join(exp, "overview")
	roots := []string{overview, filepath.Join(exp, "projA"), filepath.Join(exp, "projB")}
	runs, err := FindRunDirs(roots, []string{overview})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		rel, _ := filepath.Rel(exp, r.Path)
		got = append(got, filepath.ToSlash(rel)+" in "+filepath.Base(r.Root)+" as "+r.Rel)
	}
	want := []string{"projA/run1 in projA as run1", "projA/run2 in projA as run2", "projB/run7 in projB as run7"}
	if !slices.Equal(got, want) {
		t.Errorf("runs %q, want %q", got, want)
	}
}

func TestFindRunDirsRootAndLinks(t *testing.T) {
	snap := []byte("\x80\x04\x95 fake pickle head")
	root := t.TempDir()
	testutil.WriteFiles(t, root, map[string][]byte{
		"a/snapshot_1.pickle":        snap,
		"a/deeper/snapshot_2.pickle": snap,
		"store/snap_9.pickle":        snap, // linked into g below
		"m/" + RunMarker:             nil,
		"m/sub/snap.pickle":          snap,
	})
	// A run folder whose snapshot is a symbolic link is a run; a dangling
	// link is not an input.
	for _, d := range []string{"g", "h"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "store", "snap_9.pickle"), filepath.Join(root, "g", "snap_9.pickle")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "nowhere.pickle"), filepath.Join(root, "h", "gone.pickle")); err != nil {
		t.Fatal(err)
	}
	runs, err := FindRunDirs([]string{root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		got = append(got, r.Rel)
	}
	if want := []string{"a", "g", "m", "store"}; !slices.Equal(got, want) {
		t.Errorf("runs %q, want %q", got, want)
	}
	// A root that directly holds an input, or is marked, is one run.
	for _, r := range []string{"a", "m"} {
		runs, err = FindRunDirs([]string{filepath.Join(root, r)}, nil)
		if err != nil || len(runs) != 1 || runs[0].Rel != "." {
			t.Errorf("root run %s: %+v, %v", r, runs, err)
		}
	}
	if _, err := FindRunDirs([]string{filepath.Join(root, "missing")}, nil); err == nil {
		t.Error("missing root: no error")
	}
}

func TestShard(t *testing.T) {
	tests := []struct {
		in   string
		want Shard
		bad  bool
	}{
		{"", Shard{0, 1}, false},
		{"0/8", Shard{0, 8}, false},
		{"7/8", Shard{7, 8}, false},
		{" 3 / 4 ", Shard{3, 4}, false},
		{"8/8", Shard{}, true},
		{"-1/8", Shard{}, true},
		{"1/0", Shard{}, true},
		{"1", Shard{}, true},
		{"a/b", Shard{}, true},
	}
	for _, tt := range tests {
		got, err := ParseShard(tt.in)
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.bad)
		}
	}
	// Every run lands in exactly one shard, and the split is fixed (FNV-1a
	// of the relative path), so machines agree.
	counts := make([]int, 4)
	for i := 0; i < 1000; i++ {
		rel := fmt.Sprintf("exp%d/run%d", i%7, i)
		n := 0
		for s := 0; s < 4; s++ {
			if (Shard{s, 4}).Has(rel) {
				n++
				counts[s]++
			}
		}
		if n != 1 {
			t.Fatalf("%s is in %d shards", rel, n)
		}
	}
	for s, c := range counts {
		if c < 200 || c > 300 {
			t.Errorf("shard %d/4 has %d of 1000 runs: uneven split", s, c)
		}
	}
	if !(Shard{1, 4}).Has("exp/run1") || (Shard{0, 4}).Has("exp/run1") {
		t.Error("the split of exp/run1 changed: shards of a running job array would disagree")
	}
}

func TestLock(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	release, err := Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(dir); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Errorf("second lock: %v; want ErrLocked naming this pid", err)
	}
	release()
	release2, err := Lock(dir)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	release2()
	if _, err := os.Stat(dir); err == nil {
		t.Error("the folder the lock created is left behind")
	}
	os.MkdirAll(dir, 0o755)

	// A lock file left behind, whatever it says, holds no lock: the
	// kernel dropped its holder's lock when that process ended.
	for _, line := range []string{"1 this-or-other-host 2025-01-01T00:00:00Z\n", "garbage", ""} {
		if err := os.WriteFile(filepath.Join(dir, lockName), []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
		release3, err := Lock(dir)
		if err != nil {
			t.Fatalf("left-over lock file %q not taken over: %v", line, err)
		}
		release3()
	}
}

// TestLockReleasedOnExit: a process that dies holding a lock, without
// releasing it, does not keep the report locked.
func TestLockReleasedOnExit(t *testing.T) {
	if dir := os.Getenv("GPUREPORT_LOCK_HOLDER"); dir != "" {
		// The child: take the lock, say so, and wait to be killed.
		if _, err := Lock(dir); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("locked")
		// Sleep, not select{}: the child runs without -test.timeout, so
		// with no timer pending a bare select{} is a deadlock the runtime
		// ends at once, dropping the lock before the parent tries it.
		time.Sleep(time.Hour)
	}
	dir := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockReleasedOnExit$")
	cmd.Env = append(os.Environ(), "GPUREPORT_LOCK_HOLDER="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "locked\n" {
		t.Fatalf("holder process: %q", line)
	}
	_, err = Lock(dir)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", cmd.Process.Pid)) {
		t.Errorf("lock held by another process: %v; want ErrLocked naming pid %d", err, cmd.Process.Pid)
	}
	cmd.Process.Kill()
	cmd.Wait()
	release, err := Lock(dir)
	if err != nil {
		t.Fatalf("lock of a killed process: %v", err)
	}
	release()
}

func TestManifest(t *testing.T) {
	run := t.TempDir()
	testutil.WriteFiles(t, run, map[string][]byte{
		"snap_1.pickle":        []byte("a"),
		"rank0/snap_2.pickle":  []byte("bb"),
		"gpureport/index.html": []byte("report"),
		".cache/x":             []byte("hidden"),
	})
	out := filepath.Join(run, "gpureport")
	m1, err := scanManifest(run, out, "k")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range m1.Files {
		paths = append(paths, f.Path)
	}
	if !slices.Equal(paths, []string{"rank0/snap_2.pickle", "snap_1.pickle"}) {
		t.Errorf("manifest files %q", paths)
	}
	if err := writeManifest(out, m1); err != nil {
		t.Fatal(err)
	}
	again, _ := scanManifest(run, out, "k")
	if !again.equal(readManifest(out)) {
		t.Error("unchanged run reads as changed")
	}
	// Writing the report does not change the inputs.
	testutil.WriteFiles(t, run, map[string][]byte{"gpureport/summary.json": []byte("{}")})
	if again, _ := scanManifest(run, out, "k"); !again.equal(m1) {
		t.Error("a report file counted as input")
	}
	changes := []func(){
		func() { testutil.WriteFiles(t, run, map[string][]byte{"snap_3.pickle": []byte("c")}) },
		func() { testutil.WriteFiles(t, run, map[string][]byte{"snap_1.pickle": []byte("longer")}) },
		func() {
			later := time.Now().Add(time.Hour)
			os.Chtimes(filepath.Join(run, "rank0", "snap_2.pickle"), later, later)
		},
		func() { os.Remove(filepath.Join(run, "snap_3.pickle")) },
	}
	prev := m1
	for i, change := range changes {
		change()
		cur, _ := scanManifest(run, out, "k")
		if cur.equal(prev) {
			t.Errorf("change %d not detected", i)
		}
		prev = cur
	}
	if cur, _ := scanManifest(run, out, "other"); cur.equal(prev) {
		t.Error("an options change not detected")
	}
}
