// Package batch reports many training runs in one go, as a nightly cron
// job or a Slurm or Kubernetes job array does: it finds the run folders
// under the batch roots (rundirs.go), splits them into deterministic
// shards (shard.go), reports each run under a per-run lock (lock.go,
// kernel-released flock(2)/LockFileEx locks through github.com/gofrs/flock)
// unless its input manifest (manifest.go) says nothing changed since its
// last report, and merges every shard's part (overviewparts.go) into one
// overview page. Both of those state files are named, versioned, read and
// written in statefile.go.
//
// The package knows nothing of flags or exit codes: the command gives it
// the roots, the options key and a function that reports one run, and
// maps its Result and errors to output and exit codes.
package batch
