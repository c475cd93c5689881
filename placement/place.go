package placement

import (
	"maps"
	"strconv"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/internal/units"
)

// DeviceType is a device's kind as PyTorch names it (torch.device's
// type): "xpu" (Intel), "npu" (Ascend), "mps" (Apple), ...; CUDA is the
// zero value, "", so that every place that knows only CUDA devices (a
// snapshot, nvidia-smi, rocm-smi: ROCm's PyTorch runs AMD GPUs as cuda
// devices) makes CUDA keys without saying so, and a summary.json written
// before device types were kept reads as CUDA.
type DeviceType string

// CUDA is the device type of CUDA devices, HIP (ROCm) ones included.
const CUDA DeviceType = ""

// ParseDeviceType reads a device type as String writes it ("cuda", "xpu",
// ...); "" and "cuda" are CUDA.
func ParseDeviceType(s string) DeviceType {
	if s == "cuda" {
		return CUDA
	}
	return DeviceType(s)
}

// String is the type's name as torch.device prints it: "cuda", "xpu", ...
func (t DeviceType) String() string {
	if t == CUDA {
		return "cuda"
	}
	return string(t)
}

// DeviceKey is a place an input is decided to belong to: one device of one
// rank. Analysis keeps one series per key; two keys that differ only in
// their Type (a run's xpu:0 and cuda:0) are two devices.
type DeviceKey struct {
	// Rank is the distributed rank, input.NoRank when the paths give none;
	// for a process told apart by its pid (PID) or a separate run of the
	// script (Run), the number placement gave it, no rank of the job
	// (JobRank is the job's).
	Rank int
	// Device is the device index of its Type (for a device known only
	// from GPU logs, the nvidia-smi index).
	Device int
	// Type is the device's kind (CUDA unless an input names another: a
	// training log's "XPU out of memory").
	Type DeviceType
	// MIG names the MIG device of GPU Device that this device is, by its
	// GPU instance and, when logged, compute instance ("GI 7", "GI 7 CI
	// 0"); "" for a whole GPU or a CUDA device.
	MIG string
	// Host marks the rank's pinned host memory (the CUDA host caching
	// allocator's segments, docs/design.md's host_pinned device): a
	// device of its own, not the CUDA device Device (which is then 0,
	// the index of the host allocator in snapshot.Snapshot.Host).
	Host bool
	// PID is the process id of a device whose process the snapshot paths
	// tell apart by it alone (snapshot_pid4242_step100.pickle): Rank then
	// numbers the process in path order and is no rank of the job, and
	// the device is named by its pid; 0 otherwise.
	PID int
	// Run is the separate run of the script the device's process was
	// (ingest.ScriptRun: a run started over, a sweep's experiment): Rank
	// then numbers it after the ranks in use and is no rank of the job
	// (Run.Rank is the job's rank, when its paths give one), and the
	// device is named by its run; the zero value otherwise.
	Run ingest.ScriptRun
}

// Name names the device as every report does: "cuda:0", "rank 3 ·
// cuda:0" in a run with ranks (units.TypedDevice), "xpu:0" and "mps" for
// other device types, "pid 4242 · cuda:0" for a process its paths tell
// apart by its pid (PID), "run 2 · cuda:0", "run 2 · rank 3 · cuda:0" or
// "exp_lr1e-3_bs64 · cuda:0" for a separate run of the script
// (ingest.ScriptRun.Name), "cuda:0 · MIG GI 7" for a MIG device, "pinned
// host" and "rank 3 · pinned host" for the pinned host memory.
func (k DeviceKey) Name() string {
	if k.Run.N > 0 {
		who := k.Run.Name() + " · "
		if k.PID > 0 {
			who += "pid " + strconv.Itoa(k.PID) + " · "
		}
		if k.Host {
			return who + "pinned host"
		}
		return who + k.typedName(input.NoRank)
	}
	if k.PID > 0 {
		who := "pid " + strconv.Itoa(k.PID) + " · "
		if k.Host {
			return who + "pinned host"
		}
		return who + k.typedName(input.NoRank)
	}
	if k.Host {
		return units.Host(k.Rank)
	}
	return k.typedName(k.Rank)
}

// typedName is the device's type and number, after rank (when not
// input.NoRank), with its MIG instance.
func (k DeviceKey) typedName(rank int) string {
	name := units.TypedDevice(k.Type.String(), rank, k.Device)
	if k.MIG != "" {
		return name + " · MIG " + k.MIG
	}
	return name
}

// Run is a run's inputs with their places decided: a copy of the run as
// read whose Snapshots carry the ranks placement numbered and whose Logs
// number GPUs across machines, with the GPU of every process reading that
// names it by UUID or bus id; Notes say what placement assumed.
type Run struct {
	ingest.Run
	// Notes are what placement assumed that a reader must know: ranks
	// numbered from paths, GPUs numbered across machines, capture
	// manifests that disagree.
	Notes []Note
	// DeviceUUIDs are the GPU UUIDs the capture manifests give the ranks'
	// CUDA devices, ordered by rank then device: the GPU join's first rule
	// (captures.go).
	DeviceUUIDs []DeviceUUID
	// logRanks maps a log's path to the rank of the rank folder it lies
	// in, when placement numbered ranks (LogRank).
	logRanks map[string]int
	// deviceMemory is the device memory the capture manifests give
	// (ManifestMemory).
	deviceMemory []DeviceMemory
	// runs are the separate runs of the script placement parted dumps
	// into, by the number it gave each (RunOf).
	runs map[int]ingest.ScriptRun
}

// RunOf is the separate run of the script that placement numbered rank
// (restarts.go, and ranks.go's folders of separate runs); the zero value
// when rank numbers no such run. A key built from a rank number (a log's
// rank folder, LogRank) takes it, to be the key of the run's devices.
func (r *Run) RunOf(rank int) ingest.ScriptRun { return r.runs[rank] }

// JobRank is the rank the job gave the device's process: Rank, the rank
// a separate run's paths give (Run.Rank), or input.NoRank when it has
// none: no rank in its paths, a process told apart by its pid alone
// (PID), a run of a script without ranks.
func (k DeviceKey) JobRank() int {
	switch {
	case k.PID > 0:
		return input.NoRank
	case k.Run.N > 0:
		return k.Run.Rank
	}
	return k.Rank
}

// Place decides where each input of run belongs, in this order: the rank
// of every snapshot (ranks.go, then unranked.go for dumps whose paths give
// none beside ranked ones, then restarts.go for a rank's dumps that start
// over as a new run of the script), the machine of every GPU log, its GPUs
// numbered after the machines before it (hosts.go), the rank and device
// of every GPU UUID a capture manifest gives (captures.go), and the GPU of
// every process reading (processgpus.go). run is not modified: the snapshots and
// logs of the result are copies, sharing what placement does not change.
func Place(run *ingest.Run) *Run {
	out := &Run{Run: *run}
	out.Snapshots = make([]*ingest.SnapshotFile, len(run.Snapshots))
	for i, f := range run.Snapshots {
		c := *f
		out.Snapshots[i] = &c
	}
	out.Logs = make([]*gpulog.GPULog, len(run.Logs))
	for i, l := range run.Logs {
		c := *l
		out.Logs[i] = &c
	}
	notes, dirRanks := separateRanks(out.Snapshots)
	notes = append(notes, joinUnranked(out.Snapshots, notes)...)
	restartNotes, runDirs := splitRestarts(out.Snapshots)
	out.runs = spreadRuns(out.Snapshots)
	notes = append(notes, restartNotes...)
	if len(runDirs) > 0 {
		if dirRanks == nil {
			dirRanks = map[string]int{}
		}
		maps.Copy(dirRanks, runDirs)
	}
	out.Notes = append(notes, separateHosts(out.Logs)...)
	out.logRanks = logRanks(out.Logs, dirRanks)
	var uuidNotes []Note
	out.DeviceUUIDs, uuidNotes = captureUUIDs(out.Captures, dirRanks)
	out.Notes = append(out.Notes, uuidNotes...)
	out.deviceMemory = captureMemory(out.Captures, dirRanks)
	resolveProcessGPUs(out.Logs)
	return out
}

// LogRank is the rank the path of log l gives: the rank of the rank folder
// it lies in when placement numbered the ranks (separateRanks), else
// ingest.Run.LogPathRank (a torchelastic worker's global rank on a job of
// several machines, else ingest.RankFromPath); input.NoRank when none.
func (r *Run) LogRank(l *gpulog.GPULog) int {
	if rank, ok := r.logRanks[l.Path]; ok {
		return rank
	}
	return r.LogPathRank(l.Path)
}

// NoteKind names what placement assumed (Note.Kind).
type NoteKind string

// What placement may assume.
const (
	// NoteRanksNumbered: the snapshot paths do not give each process a
	// rank of its own, so the processes were numbered as ranks in path
	// order (Note.Ranks).
	NoteRanksNumbered NoteKind = "ranks numbered by path"
	// NoteMachinesNumbered: the GPU logs read several machines, whose GPUs
	// were numbered one machine after another (Note.Machines).
	NoteMachinesNumbered NoteKind = "GPUs numbered across machines"
	// NoteManifestsDisagree: two capture manifests give one rank's device
	// different GPUs, and neither is used (Note.Manifests).
	NoteManifestsDisagree NoteKind = "capture manifests disagree"
	// NoteNamesAlternate: the snapshot names of one path rank fall into
	// groups (apart from the time in them) whose dumps alternate in time,
	// and the traces cannot tell whether the groups are two processes:
	// they are kept one series (Note.Alternation).
	NoteNamesAlternate NoteKind = "snapshot names alternate"
	// NoteUnrankedJoined: snapshots whose paths give no rank were taken
	// as the dumps of the run's only rank, on its device, nothing showing
	// two processes (Note.Unranked).
	NoteUnrankedJoined NoteKind = "unranked snapshots joined to a rank"
	// NoteUnrankedApart: snapshots whose paths give no rank, beside the
	// dumps of several ranks, are kept a series of their own: nothing
	// says which rank wrote them; or beside the dumps of the only rank,
	// they have nothing a process keeps alive in common with its dumps
	// nearest in time (Note.Unranked, its InTurn set).
	NoteUnrankedApart NoteKind = "unranked snapshots kept apart"
)

// Note is one thing placement assumed, as its kind and the figures of
// that kind (package report/words words it); the fields of other kinds
// are zero.
type Note struct {
	Kind NoteKind
	// Ranks is how processes were numbered (NoteRanksNumbered).
	Ranks *RankNumbering
	// Machines is how GPUs were numbered (NoteMachinesNumbered).
	Machines *MachineNumbering
	// Manifests are the manifests that disagree (NoteManifestsDisagree).
	Manifests *ManifestClash
	// Alternation are the names that alternate (NoteNamesAlternate).
	Alternation *NameAlternation
	// Unranked are the snapshots without a rank in their paths
	// (NoteUnrankedJoined, NoteUnrankedApart).
	Unranked *UnrankedDumps
}

// UnrankedDumps are the snapshots whose paths give no rank, beside the
// dumps of ranked paths (unranked.go).
type UnrankedDumps struct {
	// Paths are the first of them (at most three), Count how many there
	// are.
	Paths []string
	Count int
	// Ranks are the ranks the other paths give, ascending.
	Ranks []int
	// Rank is the rank they were joined to (NoteUnrankedJoined);
	// input.NoRank when they were kept apart.
	Rank int
	// ByTrace is true when a trace event they share with the rank's
	// dumps joined them (one process's ring buffer); false when nothing
	// showed two processes.
	ByTrace bool
	// InTurn, beside the only rank, says why they were kept apart: two
	// processes one after another (inturn.go); nil otherwise.
	InTurn *InTurn
}

// NameAlternation is a path rank whose snapshot names, apart from the
// time in them, fall into groups whose dumps alternate in time, kept one
// series because the traces could not tell whether they are several
// processes (no trace times: PyTorch before 2.2; too little overlap).
type NameAlternation struct {
	// Rank is the rank the paths give, input.NoRank when none.
	Rank int
	// Paths are the groups' paths with the time written as "*"
	// (ingest.TimelessPath), in natural order.
	Paths []string
	// Example are two dumps of different groups nearest in time.
	Example [2]string
	// Untimed is true when some dump has no trace times (PyTorch before
	// 2.2); false when every trace has times but too little time or too
	// few events in common to tell.
	Untimed bool
}

// RankNumbering is how placement numbered processes that the snapshot
// paths do not tell apart (ranks.go).
type RankNumbering struct {
	// Clash are two dumps of one place in the run: the evidence that
	// their paths' rank holds several processes.
	Clash [2]string
	// Paths are the processes' paths in rank order: Paths[r] is rank r,
	// unless Ranks says otherwise.
	Paths []string
	// ByTrace is true when some processes' paths differ only in a word
	// of the file name (a host name) and their traces told them apart:
	// at Clash, both traces cover the same time with no event in common.
	ByTrace bool
	// ByTime is true when Clash are not dumps of one place in the run but
	// of names that alternate in time, each the other's nearest dump
	// (files without steps, named by host and time).
	ByTime bool
	// SeparateRuns is true when some processes' dumps follow one another in
	// time, each in folders of its own and counting its steps from the
	// start (Clash is then one step of two of them): separate runs (a
	// sweep's experiments), kept apart rather than laid on one axis
	// whose steps go back at each new run.
	SeparateRuns bool
	// Ranks, when set, are the ranks of Paths, one for one: processes
	// told apart by a word keep the rank their paths name (rank3), and
	// the ones found beside it get ranks above every rank in use.
	Ranks []int
	// PIDs, when set, are the process ids that tell Paths apart, one for
	// one (snapshot_pid4242_step*.pickle): the processes are named by
	// them, and their numbers in path order are no ranks of the job.
	PIDs []int
	// Runs, when set, are the separate runs of the script Paths are, one
	// for one (the zero ScriptRun for a process that is a rank): a run
	// started over (Restarts) or a folder of a separate run
	// (SeparateRuns), named as a run, no rank of the job.
	Runs []ingest.ScriptRun
	// Restarts, when set, are the boundaries where a rank's dumps start
	// over as a new run of the script (restarts.go): Paths are then each
	// run's first dump, in time order, Ranks their numbers (a run after
	// the first numbered above the ranks in use), Runs the runs, and
	// Clash the first boundary's two dumps.
	Restarts []Restart
}

// MachineNumbering is how placement numbered the GPUs of logs that read
// several machines (hosts.go).
type MachineNumbering struct {
	// Machines is the number of machines the logs read.
	Machines int
	// Moved are the logs of the machines after the first, with the
	// number their GPUs now start at.
	Moved []MovedLog
	// ByReadings is true when some logs were parted by their readings
	// (one GPU number, the same times, different used memory);
	// ByIdentity when some were parted by what they say of their GPUs
	// (another UUID, bus id, product or memory size at one number).
	ByReadings, ByIdentity bool
}

// MovedLog is a GPU log whose GPUs were renumbered.
type MovedLog struct {
	// Path is the log's path; FirstGPU the number its GPU 0 now has.
	Path     string
	FirstGPU int
}

// ManifestClash is two capture manifests that give one rank's CUDA
// device different GPUs (captures.go).
type ManifestClash struct {
	// Rank and Device name the device.
	Rank, Device int
	// Paths are the manifests; UUIDs the GPUs each gives, as written.
	Paths, UUIDs [2]string
}

// spreadRuns gives every dump of a number placement gave a separate run
// that run (a dump joined to the run's number later, unranked.go, has
// none of its own), and returns the runs by number; nil when there are
// none.
func spreadRuns(files []*ingest.SnapshotFile) map[int]ingest.ScriptRun {
	var runs map[int]ingest.ScriptRun
	for _, f := range files {
		if f.Run.N > 0 {
			if runs == nil {
				runs = map[int]ingest.ScriptRun{}
			}
			runs[f.Rank] = f.Run
		}
	}
	for _, f := range files {
		if r, ok := runs[f.Rank]; ok {
			f.Run = r
		}
	}
	return runs
}
