// Package placement decides where each input of a run belongs: which rank
// wrote each snapshot, which machine each GPU log read, which GPU each
// per-process reading is on, which GPU of the logs holds each device of
// each rank (the GPU join), how far a GPU log's clock is off, and where a
// reading's time lands on a device's axis. Package ingest only finds and
// reads the inputs; package analyze analyses them once they are placed.
//
// Place decides the places that need only the inputs (ranks, machines,
// process readings' GPUs) and returns a placed copy of the run: the run as
// read is never modified, so it can be analysed again. The GPU join needs
// each device's reserved memory over time, which analysis measures; it
// takes that evidence as JoinInput and answers with a Join per device.
//
// Placement decides facts, never sentences: a Join carries its rule and
// the figures that rule saw, a Note what placement assumed, a ClockNote a
// clock offset, each as typed fields; package report/words says them.
//
// Vocabulary: a rank is one training process of the job, the writer of
// one series of snapshots; a process is an operating-system process, as
// the GPU logs' per-process readings (PIDs) see it; a host is a machine
// whose GPUs one or more GPU logs read; a device is a CUDA device of a
// rank (cuda:N), a GPU one of the logs' (nvidia-smi index N).
//
// Where each decision lives:
//
//	place.go          Place, the placed Run, DeviceKey, the Notes of what it assumed
//	captures.go       the GPU UUIDs the capture kit's manifests give ranks' devices
//	ranks.go          ranks that paths do not tell apart, and the logs in their folders
//	restarts.go       a rank's dumps that start over as a new run of the script
//	hosts.go          GPU logs of several machines: GPUs numbered across them
//	processgpus.go    per-process readings that name their GPU by UUID or bus id
//	gpujoin.go        which GPU of the logs holds each device (the GPU join)
//	readings.go       one GPU's readings in time order, and the reading near a moment
//	clockskew.go      whole-hour clock offsets between a GPU log and a device
//	axis.go           where a reading's time lands on a device's axis
//
// The join's statistics (medians, Theil-Sen lines) come from internal/stats,
// a leaf package of generic statistics that imports nothing of gpureport.
package placement
