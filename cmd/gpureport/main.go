// Command gpureport reads a deep-learning training run's GPU memory
// snapshots and GPU logs and writes static reports: is the run leaking,
// where, how fast, and when will it run out of memory?
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
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
