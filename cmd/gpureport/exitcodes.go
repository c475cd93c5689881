package main

import "errors"

// Exit codes, documented in --help and the README.
const (
	// exitOK: the report was written (or the subcommand succeeded).
	exitOK = 0
	// exitUsage: bad flags or arguments.
	exitUsage = 1
	// exitNothingUsable: no usable input (empty directory, every file skipped).
	exitNothingUsable = 2
	// exitWriteFailed: a report could not be written.
	exitWriteFailed = 3
	// exitFailOn: a --fail-on condition (leak, oom, fragmentation) was met.
	exitFailOn = 4
	// exitUnavailable: record cannot sample (no NVIDIA driver, or a build
	// without NVML).
	exitUnavailable = 5
	// exitLocked: another gpureport is writing the same report.
	exitLocked = 6
	// exitInterrupted: stopped by a signal before finishing.
	exitInterrupted = 130
)

// writeError is a failure to write a report's files (exitWriteFailed), as
// against a failure to read or analyse the run. Callers tell them apart
// with errors.As.
type writeError struct{ err error }

func (e *writeError) Error() string { return "write report: " + e.err.Error() }

func (e *writeError) Unwrap() error { return e.err }

// isWriteError reports whether err is, or wraps, a writeError.
func isWriteError(err error) bool {
	var we *writeError
	return errors.As(err, &we)
}
