// Command gpureport reads a deep-learning training run's GPU memory
// snapshots and GPU logs and writes static reports: is the run leaking,
// where, how fast, and when will it run out of memory?
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
)

// command is a gpureport subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// commands lists the subcommands; the default (no subcommand) reports runs.
func commands() []command {
	return []command{
		{"stats", "print the memory accounting of snapshot files", runStats},
		{"record", "sample GPU memory through NVML into a CSV log", runRecord},
		{"diff", "compare two snapshots or runs by stack signature", runDiff},
		{"eval", "score the verdicts against a labelled corpus", runEval},
		{"digest", "digest snapshots into the cache (--shard I/N for job arrays)", runDigest},
	}
}

func main() {
	tuneGC(os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		for _, c := range commands() {
			if args[0] == c.name {
				return c.run(ctx, args[1:], stdout, stderr)
			}
		}
		if args[0] == "help" {
			// `gpureport help stats` is `gpureport stats -h`.
			if len(args) > 1 {
				for _, c := range commands() {
					if args[1] == c.name {
						return c.run(ctx, []string{"-h"}, stdout, stderr)
					}
				}
				return usageError(stderr, "help: no command %q (commands: %s)", args[1], commandNames())
			}
			return runReport(ctx, []string{"-h"}, stdout, stderr)
		}
	}
	return runReport(ctx, args, stdout, stderr)
}

// usageError prints a one-line usage problem and returns exitUsage.
func usageError(stderr io.Writer, format string, a ...any) int {
	fmt.Fprintf(stderr, "gpureport: "+format+"\n", a...)
	fmt.Fprintln(stderr, "Run 'gpureport -h' for usage.")
	return exitUsage
}

// commandNames lists the subcommands, comma-separated.
func commandNames() string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return strings.Join(names, ", ")
}

// writeFailure says why a report could not be written to dir, in one line
// a user can act on: the folder and the system's reason, without the
// internal file (a lock, a temporary file) that failed first, and for a
// folder the user may not write, what to do instead.
func writeFailure(dir string, err error) string {
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
		return fmt.Sprintf("cannot write the report to %s: permission denied; pass -o DIR", dir)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Sprintf("cannot write the report to %s: %v", dir, err)
}

// checkRunDir checks the RUN_DIR argument before anything is written, and
// returns a one-line message and exit code for one that cannot be a run:
// missing, unreadable, or a file (which `gpureport stats` reads).
func checkRunDir(dir string) (string, int, bool) {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("%s: no such folder", dir), exitNothingUsable, false
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Sprintf("cannot read %s: %v", dir, err), exitNothingUsable, false
	case !st.IsDir():
		if isSnapshotName(dir) {
			return fmt.Sprintf("%s is a file, not a run folder; for the memory accounting of one snapshot run: gpureport stats %s", dir, dir), exitUsage, false
		}
		return fmt.Sprintf("%s is a file, not a run folder; pass the folder that holds it: gpureport %s", dir, filepath.Dir(dir)), exitUsage, false
	}
	return "", exitOK, true
}

// isSnapshotName reports whether a file name looks like a memory snapshot
// (what `gpureport stats` reads) rather than a GPU log.
func isSnapshotName(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".pickle", ".pkl", ".gz", ".pt", ".pth", ".zip":
		return true
	}
	return false
}
