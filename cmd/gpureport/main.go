// Command gpureport reads a deep-learning training run's GPU memory
// snapshots and GPU logs and writes static reports: is the run leaking,
// where, how fast, and when will it run out of memory?
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"gpureport/snapshot"
)

// command is a gpureport subcommand.
type command struct {
	name    string
	summary string
	// usage is what -h prints before the flag defaults.
	usage string
	// run registers the command's flags on inv.fs, parses them with
	// inv.parse and runs the command, returning its exit code.
	run func(inv *invocation) int
}

// commands lists the subcommands; the default (no subcommand) is
// reportCommand.
func commands() []command {
	return []command{
		{"stats", "print the memory accounting of snapshot files", statsUsage, runStats},
		{"record", "sample GPU memory through NVML into a CSV log", recordUsage, runRecord},
		{"diff", "compare two snapshots or runs by stack signature", diffUsage, runDiff},
		{"eval", "score the verdicts against a labelled corpus", evalUsage, runEval},
		{"digest", "digest snapshots into the cache (--shard I/N for job arrays)", digestUsage, runDigest},
	}
}

// reportCommand is the default command, run when the first argument names
// no subcommand: report one run (or many with --batch).
var reportCommand = command{usage: reportUsage, run: runReport}

// invocation is one run of a command: what it reads and writes, and its
// flag set, on which the command registers its flags before inv.parse.
type invocation struct {
	ctx            context.Context
	args           []string
	stdout, stderr io.Writer
	// fs is named after the command ("gpureport diff"; "gpureport" for
	// the default command) and returns its errors (ContinueOnError).
	fs *flag.FlagSet
	// usage is the command's usage text, which -h prints.
	usage string
}

// invoke runs c with args, the arguments after its name.
func (c command) invoke(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	name := "gpureport"
	if c.name != "" {
		name += " " + c.name
	}
	return c.run(&invocation{
		ctx:    ctx,
		args:   args,
		stdout: stdout,
		stderr: stderr,
		fs:     flag.NewFlagSet(name, flag.ContinueOnError),
		usage:  c.usage,
	})
}

func main() {
	_, ballast := tuneGC(os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	runtime.KeepAlive(ballast)
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		for _, c := range commands() {
			if args[0] == c.name {
				return c.invoke(ctx, args[1:], stdout, stderr)
			}
		}
		if args[0] == "help" {
			// `gpureport help stats` is `gpureport stats -h`.
			if len(args) > 1 {
				for _, c := range commands() {
					if args[1] == c.name {
						return c.invoke(ctx, []string{"-h"}, stdout, stderr)
					}
				}
				return usageError(stderr, "help: no command %q (commands: %s)", args[1], commandNames())
			}
			return reportCommand.invoke(ctx, []string{"-h"}, stdout, stderr)
		}
	}
	return reportCommand.invoke(ctx, args, stdout, stderr)
}

// parse parses the command's flags, which may stand anywhere on the line,
// and returns the positional arguments. On -h it prints usage and the flag
// defaults to stdout and returns exitOK; on a bad flag (which the flag
// package reports on stderr) it adds a hint and returns exitUsage. ok is
// false in both cases: the command returns code.
func (inv *invocation) parse() (pos []string, code int, ok bool) {
	fs := inv.fs
	fs.SetOutput(inv.stderr)
	fs.Usage = func() {}
	pos, err := parseInterspersed(fs, inv.args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(inv.stdout, inv.usage)
		fs.SetOutput(inv.stdout)
		fs.PrintDefaults()
		return nil, exitOK, false
	case err != nil:
		fmt.Fprintf(inv.stderr, "Run '%s -h' for usage.\n", fs.Name())
		return nil, exitUsage, false
	}
	return pos, exitOK, true
}

// parseN is parse for a command that takes exactly n positional
// arguments: for any other count it prints want, a format given the
// count, as a usage error and returns exitUsage.
func (inv *invocation) parseN(n int, want string) (pos []string, code int, ok bool) {
	pos, code, ok = inv.parse()
	if ok && len(pos) != n {
		return nil, usageError(inv.stderr, want, len(pos)), false
	}
	return pos, code, ok
}

// parseInterspersed parses flags that may come before, between or after
// the positional arguments, as users type `gpureport ./run42 -o out`.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if rest[0] == "--" {
			return append(positional, rest[1:]...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
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
		if isSnapshotFile(dir) {
			return fmt.Sprintf("%s is a file, not a run folder; for the memory accounting of one snapshot run: gpureport stats %s", dir, dir), exitUsage, false
		}
		return fmt.Sprintf("%s is a file, not a run folder; pass the folder that holds it: gpureport %s", dir, filepath.Dir(dir)), exitUsage, false
	}
	return "", exitOK, true
}

// isSnapshotFile reports whether a file looks like a memory snapshot
// (what `gpureport stats` reads) rather than a GPU log: by its name, or by
// its content (a JSON snapshot, or a snapshot under any name).
func isSnapshotFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".pickle", ".pkl", ".gz", ".pt", ".pth", ".zip":
		return true
	}
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4<<10)
	n, _ := io.ReadFull(f, head)
	_, ok := snapshot.SniffContainer(head[:n])
	return ok
}
