package ingest

import (
	"log/slog"
	"strconv"
	"time"

	"gpureport/gpulog"
	"gpureport/input"
	"gpureport/snapshot"
)

// Run is everything read from one training run directory: the decoded
// snapshots, the GPU logs and the files that could not be used, as read.
// Which rank, machine and GPU each input belongs to is decided later, by
// package placement.
type Run struct {
	// Dir is the run directory as given.
	Dir string
	// Snapshots are the decoded snapshot files, in discovery order (sorted
	// by path); analysis orders them.
	Snapshots []*SnapshotFile
	// Logs are the decoded GPU logs, sorted by path.
	Logs []*gpulog.GPULog
	// Skipped lists the inputs that could not be used, with the reason.
	Skipped []Skipped
	// Location is the zone assumed for zoneless timestamps (nvidia-smi).
	Location *time.Location
	// Captures are the capture kit's manifests (one per rank), ordered by
	// rank then path; nil when the run was not captured with the kit.
	Captures []*CaptureManifest
	// LogZones are the GPU logs whose zoneless timestamps were read in the
	// UTC offset a capture manifest gives their machine instead of
	// Location (no --tz given), by log path.
	LogZones map[string]LogZone
	// nodes are the torchelastic worker logs of a job of several machines
	// by path (elasticNodeRanks); nil when none.
	nodes map[string]elasticNode
	// full is the loader of the snapshots' digests, which holds their
	// side bundles (nil without a digest cache).
	full *fullLoader
}

// WriteSides writes the side bundle of every snapshot file that had side
// entries set (SnapshotFile.SetSide) since it was read or last written,
// and returns how many it wrote; it lets the bundles' memory go (a later
// SnapshotFile.Side reads them again from the cache). A failed write is
// logged, once: the entries are made again by the next run. The analysis
// calls it when it is done with the run's files.
func (r *Run) WriteSides() int {
	if r.full == nil || r.full.cache == nil {
		return 0
	}
	n, err := r.full.bundles.write(r.full.cache)
	if err != nil {
		r.full.sideWarn.Do(func() {
			slog.Warn("digest cache side entries not written", "dir", r.full.cache.Dir, "err", err)
		})
	}
	return n
}

// LogZone is the zone a capture manifest gave a GPU log of the kit
// (captured under the manifest's gpu_log_dir): the machine's UTC offset
// when the capture started.
type LogZone struct {
	// Offset is the UTC offset the log's zoneless times were read in.
	Offset time.Duration
	// Manifest is the manifest's path.
	Manifest string
}

// SnapshotFile is one snapshot file: where it came from, what its name
// says, and its decoded content.
type SnapshotFile struct {
	input.Source
	// Container is how the pickle was wrapped.
	Container snapshot.Container
	// Step is the training step parsed from the file name or its folders
	// (ParseName), NoStep if none.
	Step int64
	// Order is a number in the file name that orders the file but is not
	// a step (a timestamp in Unix nanoseconds, an epoch, a dump counter);
	// meaningful only when OrderKind is not OrderNone.
	Order int64
	// OrderKind says what Order is.
	OrderKind OrderKind
	// Rank is the distributed rank parsed from the path, NoRank if none
	// (package placement numbers ranks that paths do not tell apart).
	Rank int
	// PID is the process id the path names (snapshot_pid4242_step5), set
	// by package placement when it tells processes apart by it and
	// numbers them in Rank, which then is no rank the job gave (0 when
	// the path names none, or the processes are ranks).
	PID int
	// Run is the separate run of the script the dump belongs to, set by
	// package placement when it parts a path rank's dumps into runs (a
	// run started over, a sweep's experiments in folders of their own)
	// and numbers each in Rank, which then is no rank the job gave; the
	// zero value when the dumps are no separate run.
	Run ScriptRun
	// Phase is when the snapshot was dumped: PhasePeriodic, or PhaseOOM
	// for a dump written on an OOM or at exit (torchtitan's
	// iteration_N_exit). An OOM-phase dump is evidence for that event and
	// should not be a point of a trend.
	Phase Phase
	// Epoch is the epoch number the path names (ParseName), NoEpoch if
	// none: with a step, the epoch the step counts in.
	Epoch int64
	// Snapshot is the decoded content, or its digest (see Reduce and
	// Full).
	Snapshot *snapshot.Snapshot
	// full decodes the whole file again when Snapshot is a digest.
	full *fullLoader
	// hostOf is, for the file HostFile made, the file whose pinned host
	// memory it is; nil otherwise.
	hostOf *SnapshotFile
	// point is the side entry LoadOptions.PointKind read with a digest
	// whose devices' segments were left unread (PointEntry).
	point []byte
}

// Skipped is an input that was not used, and why.
type Skipped struct {
	// Path is relative to the run directory, like Source.Path.
	Path string
	// Reason says what was wrong, and where in the file.
	Reason string
	// NoContent is true for a text log that holds nothing gpureport
	// reads: empty, or a job's output without GPU readings or an
	// out-of-memory message (a per-rank stdout of loss lines). It is
	// listed, but it is no failure to read an input.
	NoContent bool
}

// LogPathRank is the rank the path of the log at rel gives: the global
// rank of a torchelastic worker's log on a job of several machines
// (elasticNodeRanks), else RankFromPath; NoRank when none.
func (r *Run) LogPathRank(rel string) int {
	if n, ok := r.nodes[rel]; ok {
		return n.Rank
	}
	return RankFromPath(rel)
}

// ScriptRun is one of the separate runs of a script that package
// placement parted a run's dumps into: a second run after the first
// started over (a job fixed and run again, requeued), or a sweep's
// experiments, each in a folder of its own. Such a run is no rank of a
// job, and is named as a run everywhere (Name). The zero value is no
// separate run.
type ScriptRun struct {
	// N numbers the run among the runs its dumps were parted into, from 1
	// in time order; 0 when the dumps are no separate run.
	N int
	// Folder is the name of the folder that holds the run's dumps alone,
	// at the level where the runs' folders part (exp_lr1e-3_bs64 of
	// exp_lr1e-3_bs64/snapshots/); "" when some run of them has no folder
	// of its own, and the runs are named by their numbers.
	Folder string
	// Rank is the rank of the job the run's paths give its process,
	// input.NoRank when they give none (a single-process script).
	Rank int
}

// Name names the run for a reader, as every report does: its folder
// ("exp_lr1e-3_bs64"), else its number ("run 2"), followed by the job's
// rank when its paths give one ("run 2 · rank 3"); "" for no separate
// run.
func (r ScriptRun) Name() string {
	if r.N <= 0 {
		return ""
	}
	name := r.Folder
	if name == "" {
		name = "run " + strconv.Itoa(r.N)
	}
	if r.Rank >= 0 {
		name += " · rank " + strconv.Itoa(r.Rank)
	}
	return name
}
