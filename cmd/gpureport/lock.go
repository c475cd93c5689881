package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"gpureport/ingest"
)

// lockName is the lock file inside a report or overview folder.
const lockName = ".lock"

// staleLockAge is how old a lock held from another host may get before it
// is taken over (its holder cannot be checked from here).
const staleLockAge = 6 * time.Hour

// errLocked means another gpureport holds the lock.
var errLocked = errors.New("locked")

// acquireLock takes the lock of folder dir (created if needed): a file
// made with O_EXCL holding "pid host start-time". A lock whose process is
// gone (same host), or that is older than staleLockAge (another host), is
// stale and taken over. The returned func releases the lock, and removes
// dir again when acquireLock created it and nothing else was written
// there. The error wraps errLocked, naming the holder, when the lock is
// held.
func acquireLock(dir string) (func(), error) {
	_, statErr := os.Stat(dir)
	created := errors.Is(statErr, os.ErrNotExist)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	path := filepath.Join(dir, lockName)
	host, _ := os.Hostname()
	for attempt := 0; attempt < 2; attempt++ {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, werr := fmt.Fprintf(f, "%d %s %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
			cerr := f.Close()
			if werr != nil || cerr != nil {
				os.Remove(path)
				return nil, fmt.Errorf("lock %s: %w", path, errors.Join(werr, cerr))
			}
			return func() {
				os.Remove(path)
				if created {
					os.Remove(dir) // only succeeds when empty
				}
			}, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		holder, stale := lockHolder(path, host)
		if !stale {
			return nil, fmt.Errorf("%s is %w by %s", dir, errLocked, holder)
		}
		// Take over a stale lock: remove it and retry once. Two takers
		// racing here both remove, and O_EXCL lets one of them win.
		os.Remove(path)
	}
	return nil, fmt.Errorf("%s is %w (lock keeps reappearing)", dir, errLocked)
}

// lockHolder describes the lock's holder and whether the lock is stale.
func lockHolder(path, host string) (string, bool) {
	st, err := os.Stat(path)
	if err != nil {
		return "nobody", true // vanished: retry
	}
	b, err := os.ReadFile(path)
	pid, lockHost, since, ok := parseLock(b)
	if err != nil || !ok {
		// Unreadable or half-written: stale only once it is old, since its
		// writer may be between create and write.
		return "an unknown process", time.Since(st.ModTime()) > time.Minute
	}
	desc := fmt.Sprintf("pid %d on %s since %s", pid, lockHost, since)
	if lockHost == host {
		return desc, !processAlive(pid)
	}
	return desc, time.Since(st.ModTime()) > staleLockAge
}

// parseLock reads a lock file's "pid host start-time" line; ok is false
// when it is not one (a positive pid and a host are required).
func parseLock(b []byte) (pid int, host, since string, ok bool) {
	fields := strings.Fields(string(b))
	if len(fields) < 2 {
		return 0, "", "", false
	}
	pid, err := strconv.Atoi(fields[0])
	if err != nil || pid <= 0 {
		return 0, "", "", false
	}
	return pid, fields[1], strings.Join(fields[2:], " "), true
}

// processAlive reports whether a process with pid exists on this host.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// lockReport takes the lock of a single run's report folder (outDir, or
// RUN_DIR/gpureport). It returns a release func and exitOK, or the exit
// code to stop with: exitLocked when another gpureport writes the same
// report. A run directory that does not exist is left for reportRun to
// report, rather than created here.
func lockReport(runDir, outDir string, stderr io.Writer) (func(), int) {
	if outDir == "" {
		if st, err := os.Stat(runDir); err != nil || !st.IsDir() {
			return func() {}, exitOK
		}
	}
	outDir = reportDir(runDir, outDir)
	release, err := acquireLock(outDir)
	switch {
	case errors.Is(err, errLocked):
		fmt.Fprintf(stderr, "gpureport: %v\n", err)
		return nil, exitLocked
	case err != nil:
		fmt.Fprintf(stderr, "gpureport: %s\n", writeFailure(outDir, err))
		return nil, exitWriteFailed
	}
	// A single-run report may use other options than the nightly batch:
	// drop the batch's input manifest so the next batch reports the run
	// again instead of trusting this report.
	os.Remove(filepath.Join(outDir, manifestName))
	return release, exitOK
}

// reportDir is the folder a single run's report goes to: -o, or
// RUN_DIR/gpureport.
func reportDir(runDir, outDir string) string {
	if outDir != "" {
		return outDir
	}
	return filepath.Join(runDir, ingest.OutputDirName)
}
