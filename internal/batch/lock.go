package batch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// lockName is the lock file inside a report or overview folder.
const lockName = ".lock"

// ErrLocked means another gpureport holds the lock.
var ErrLocked = errors.New("locked")

// lockAttempts bounds how often Lock retries when the lock file it
// locked was removed or replaced by its previous holder in the meantime:
// each retry means another process released a lock in that instant, so a
// handful is ample.
const lockAttempts = 5

// Lock takes the lock of folder dir (created if needed): an
// exclusive advisory lock (flock(2) on Unix, LockFileEx on Windows) on
// the file dir/.lock. The kernel drops the lock when its holder exits,
// however it exits, so a crashed run never leaves a lock behind; what the
// file holds ("pid host start-time") only names the holder in the
// message. The returned func releases the lock, and removes dir again
// when Lock created it and nothing else was written there. The
// error wraps ErrLocked, naming the holder, when the lock is held.
func Lock(dir string) (func(), error) {
	_, statErr := os.Stat(dir)
	created := errors.Is(statErr, os.ErrNotExist)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	path := filepath.Join(dir, lockName)
	for range lockAttempts {
		fl := flock.New(path, flock.SetPermissions(0o644))
		ok, err := fl.TryLock()
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if !ok {
			return nil, fmt.Errorf("%s is %w by %s", dir, ErrLocked, lockHolder(path))
		}
		// The previous holder removes the file as it releases the lock:
		// when it did so between our open and our lock, we hold a lock on
		// a file nobody else will open again, so start over.
		if !samePath(fl, path) {
			fl.Unlock()
			continue
		}
		host, _ := os.Hostname()
		// The holder's line is best effort: it only names the holder in
		// another process's message (and Windows keeps locked bytes from
		// other handles).
		os.WriteFile(path, fmt.Appendf(nil, "%d %s %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339)), 0o644)
		return func() {
			// Remove the file while still holding the lock, so no process
			// can lock it and then see it vanish; Windows refuses to
			// remove an open file, so try again once it is closed.
			rmErr := os.Remove(path)
			fl.Unlock()
			if rmErr != nil {
				os.Remove(path)
			}
			if created {
				os.Remove(dir) // only succeeds when empty
			}
		}, nil
	}
	return nil, fmt.Errorf("%s is %w (its lock file keeps being replaced)", dir, ErrLocked)
}

// samePath reports whether the file fl locked is still the one at path.
func samePath(fl *flock.Flock, path string) bool {
	held, err := fl.Stat()
	if err != nil {
		return false
	}
	now, err := os.Stat(path)
	return err == nil && os.SameFile(held, now)
}

// lockHolder describes the holder of the lock file at path from its line,
// or says it is unknown (a holder between locking and writing it, or a
// system that keeps locked bytes from readers).
func lockHolder(path string) string {
	b, err := os.ReadFile(path)
	pid, host, since, ok := parseLock(b)
	if err != nil || !ok {
		return "another gpureport"
	}
	return fmt.Sprintf("pid %d on %s since %s", pid, host, since)
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

// LockReport takes the lock of a single run's report folder outDir, for
// a report made outside a batch. A single-run report may use other
// options than the nightly batch, so it also drops the batch's input
// manifest: the next batch reports the run again instead of trusting this
// report. The error wraps ErrLocked when another gpureport writes the
// same report.
func LockReport(outDir string) (func(), error) {
	release, err := Lock(outDir)
	if err != nil {
		return nil, err
	}
	os.Remove(filepath.Join(outDir, manifestName))
	return release, nil
}
