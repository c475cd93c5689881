// Package benchrun runs the child processes of the benchmark commands
// (benchdecode, benchscale): it times them (wall and CPU time, peak RSS
// from rusage) and builds the gpureport of an earlier git revision, so
// that one benchmark run prints an earlier gpureport's figures beside
// today's.
package benchrun

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Result is one timed child process.
type Result struct {
	// Wall is the elapsed time.
	Wall time.Duration
	// CPU is the user and system time: steadier than Wall on a busy
	// machine, and the measure of a per-core throughput.
	CPU time.Duration
	// RSS is the peak resident set size in bytes (0 where the platform
	// does not report it).
	RSS int64
}

// Spread is repeated timings of one thing, by wall time: the fastest,
// the median (of an odd count) and the slowest; and the median of their
// peak RSS in bytes, taken apart: the median run's own peak is that of
// whichever run its wall time picked, and a peak moves by a tenth from
// run to run with when the collector happens to run.
type Spread struct {
	Fastest, Median, Slowest Result
	RSS                      int64
}

// SpreadOf returns the Spread of rs (at least one), leaving rs in order.
func SpreadOf(rs []Result) Spread {
	s := slices.Clone(rs)
	slices.SortFunc(s, func(a, b Result) int { return cmp.Compare(a.Wall, b.Wall) })
	rss := make([]int64, len(rs))
	for i, r := range rs {
		rss[i] = r.RSS
	}
	slices.Sort(rss)
	return Spread{s[0], s[len(s)/2], s[len(s)-1], rss[len(rss)/2]}
}

// Time runs a command with its output discarded (its stderr goes to
// ours) and returns its times and peak RSS.
func Time(name string, args ...string) (Result, error) {
	cmd := exec.Command(name, args...)
	cmd.Stderr = os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return Result{}, err
	}
	ps := cmd.ProcessState
	return Result{Wall: wall, CPU: ps.UserTime() + ps.SystemTime(), RSS: maxRSS(ps)}, nil
}

// BuildRevision builds the gpureport of git revision rev (of the
// repository in the working directory) from a copy of its tree exported
// under dir, so that the benchmark can time an earlier decoder beside
// this one without touching the working tree. It returns the binary's
// path.
func BuildRevision(rev, dir string) (string, error) {
	src := filepath.Join(dir, "base-src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	archive := exec.Command("git", "archive", "--format=tar", rev)
	untar := exec.Command("tar", "-x", "-C", src)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return "", err
	}
	untar.Stdin = pipe
	archive.Stderr, untar.Stderr = os.Stderr, os.Stderr
	if err := untar.Start(); err != nil {
		return "", fmt.Errorf("tar: %w", err)
	}
	if err := archive.Run(); err != nil {
		_ = untar.Wait()
		return "", fmt.Errorf("git archive: %w", err)
	}
	if err := untar.Wait(); err != nil {
		return "", fmt.Errorf("tar: %w", err)
	}
	bin, err := filepath.Abs(filepath.Join(dir, "gpureport-base"))
	if err != nil {
		return "", err
	}
	build := exec.Command("go", "build", "-o", bin, "./cmd/gpureport")
	build.Dir = src
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return "", fmt.Errorf("go build: %w", err)
	}
	return bin, nil
}

// Run runs a command with its output on our stderr (build and generator
// steps, whose output is progress, not a figure).
func Run(name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return cmd.Run()
}

// WorkDir makes a temporary working folder named after prefix. With keep
// it prints the folder and cleanup leaves it; otherwise cleanup removes
// it.
func WorkDir(prefix string, keep bool) (dir string, cleanup func(), err error) {
	dir, err = os.MkdirTemp("", prefix+"-")
	if err != nil {
		return "", nil, err
	}
	if keep {
		fmt.Printf("working folder: %s\n", dir)
		return dir, func() {}, nil
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// Binaries returns the gpureport binaries to time: bin, or one built from
// the working tree into dir when bin is ""; and, when base names a git
// revision, that revision's gpureport built under dir ("" otherwise).
func Binaries(bin, base, dir string) (cur, baseBin string, err error) {
	if bin == "" {
		bin = filepath.Join(dir, "gpureport")
		if err := Run("go", "build", "-o", bin, "./cmd/gpureport"); err != nil {
			return "", "", fmt.Errorf("build gpureport: %w", err)
		}
	} else if _, err := os.Stat(bin); err != nil {
		return "", "", fmt.Errorf("-bin: %w", err)
	}
	if base != "" {
		fmt.Printf("building gpureport at %s...\n", base)
		if baseBin, err = BuildRevision(base, dir); err != nil {
			return "", "", fmt.Errorf("-base %s: %w", base, err)
		}
	}
	return bin, baseBin, nil
}

// ErrMissed is a benchmark's answer when a target was missed.
var ErrMissed = errors.New("a target was missed")

// Python returns the python3 that times CPython's pickle.load, the
// reference decoder, or why there is none.
func Python() (string, error) { return exec.LookPath("python3") }

// TimePickleLoad times CPython's pickle.load of file with python.
func TimePickleLoad(python, file string) (Result, error) {
	return Time(python, "-c", "import pickle,sys; pickle.load(open(sys.argv[1],'rb'))", file)
}

// pickleLoadTimes loads the file named n times with pickle.load and
// prints each load's wall seconds, as the process measures it: without
// the interpreter's start.
const pickleLoadTimes = `import pickle, sys, time
for _ in range(int(sys.argv[2])):
    w = time.perf_counter()
    with open(sys.argv[1], 'rb') as fh:
        pickle.load(fh)
    print(time.perf_counter() - w)`

// TimePickleLoadInProcess times CPython's pickle.load of file n times in
// one process, each load as that process measures it (perf_counter around
// the load alone: no interpreter start, which is most of the time of a
// small file's load in a process of its own).
func TimePickleLoadInProcess(python, file string, n int) ([]time.Duration, error) {
	cmd := exec.Command(python, "-c", pickleLoadTimes, file, strconv.Itoa(n))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	var ds []time.Duration
	for _, f := range strings.Fields(string(out)) {
		s, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, fmt.Errorf("python3 printed %q: %w", out, err)
		}
		ds = append(ds, time.Duration(s*float64(time.Second)))
	}
	if len(ds) != n {
		return nil, fmt.Errorf("python3 printed %d times, want %d", len(ds), n)
	}
	return ds, nil
}

// pickleLoadAll loads every file named with pickle.load, one after
// another in one process, and prints the wall and CPU seconds that took.
const pickleLoadAll = `import pickle, sys, time
w, c = time.perf_counter(), time.process_time()
for f in sys.argv[1:]:
    with open(f, 'rb') as fh:
        pickle.load(fh)
print(time.perf_counter() - w, time.process_time() - c)`

// TimePickleLoadAll times CPython's pickle.load of files, one after
// another in one process, as that process measures it: without the
// interpreter's start, which would weigh on a run of small files. RSS is
// the process's peak.
func TimePickleLoadAll(python string, files []string) (Result, error) {
	cmd := exec.Command(python, append([]string{"-c", pickleLoadAll}, files...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return Result{}, err
	}
	var wall, cpu float64
	if _, err := fmt.Sscan(string(out), &wall, &cpu); err != nil {
		return Result{}, fmt.Errorf("python3 printed %q: %w", out, err)
	}
	sec := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
	return Result{Wall: sec(wall), CPU: sec(cpu), RSS: maxRSS(cmd.ProcessState)}, nil
}
