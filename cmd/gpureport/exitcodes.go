package main

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
