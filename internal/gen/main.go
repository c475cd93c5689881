// Command gen generates gpureport's test inputs: PyTorch CUDA memory
// snapshots written byte for byte as PyTorch and CPython write them, from
// a simulated caching allocator driven by a toy training loop, with
// matching nvidia-smi logs and exact ground-truth labels.
//
//	go run ./internal/gen sample -o testdata/sample-run
//	go run ./internal/gen corpus -o /tmp/corpus [-seed S] [-n N]
//	go run ./internal/gen big -o /tmp/big.pickle [-entries 1400000]
//	go run ./internal/gen shape -o /tmp/s.pickle [-shape ordinary] [-ooms 2 [-ooms-early]]
//	go run ./internal/gen run -o DIR [flags]   (one custom run)
//	go run ./internal/gen logs -o testdata/logs (GPU-log fixtures)
//
// All output is deterministic: the same arguments give byte-identical
// files.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
)

// command is a generator command.
type command struct {
	name, summary string
	// out is the command's -o flag, which invoke defines and checks.
	out outFlag
	// flags registers the command's other flags on fs (named after the
	// command) and returns the function that runs the command once invoke
	// has parsed them.
	flags func(fs *flag.FlagSet) runFunc
}

// outFlag describes a command's -o, where it writes: every command takes
// none but flags, and needs -o.
type outFlag struct {
	// what is what -o names, FILE or DIR, for the usage error.
	what string
	// def is the default; "" makes -o required.
	def string
	// help is the flag's help text.
	help string
}

// runFunc runs a command whose flags are parsed, writing to out (its -o)
// and reporting on stdout.
type runFunc func(out string, stdout io.Writer) error

func commands() []command {
	return []command{
		{"sample", "write the bundled sample run", outFlag{"DIR", "testdata/sample-run", "output run directory (replaced)"}, cmdSample},
		{"corpus", "write the labelled evaluation corpus", required("DIR", "output directory, whose case directories are replaced"), cmdCorpus},
		{"big", "write one large protocol-4 snapshot for decoder benchmarks", required("FILE", "output snapshot file"), cmdBig},
		{"shape", "write one snapshot of a chosen shape (blocks, events, stacks, OOMs) for benchmarks", required("FILE", "output snapshot file"), cmdShape},
		{"run", "write one run with chosen shapes and behaviour", required("DIR", "output run directory, whose generated files are replaced"), cmdRun},
		{"logs", "write the GPU-log and training-log fixtures (testdata/logs)", required("DIR", "output folder, whose fixture files are replaced"), cmdLogs},
	}
}

// required is an -o with no default that names a what (FILE or DIR), help
// saying what it is.
func required(what, help string) outFlag {
	return outFlag{what, "", help + " (required)"}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: go run ./internal/gen COMMAND [flags]")
	fmt.Fprintln(w, "commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "run 'go run ./internal/gen COMMAND -h' for a command's flags")
}

func main() {
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})))
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	for _, c := range commands() {
		if c.name == args[0] {
			err := c.invoke(args[1:], stdout)
			switch {
			case errors.Is(err, flag.ErrHelp):
				return 0
			case errors.Is(err, errUsage):
				fmt.Fprintln(stderr, "gen "+c.name+":", err)
				return 2
			case err != nil:
				fmt.Fprintln(stderr, "gen "+c.name+":", err)
				return 1
			}
			return 0
		}
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "gen: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

var errUsage = errors.New("usage")

// invoke parses args, the command's flags, and runs the command. A flag
// error is the flag package's (which has printed it with the flags to
// stderr, or the flags alone for -h: flag.ErrHelp); a missing -o or a
// positional argument is a usage error.
func (c command) invoke(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	out := fs.String("o", c.out.def, c.out.help)
	run := c.flags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() > 0 {
		return usageErr("want -o %s and no arguments", c.out.what)
	}
	return run(*out, stdout)
}

// usageErr is a usage mistake (exit code 2), described by format and a.
func usageErr(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, a...))
}
