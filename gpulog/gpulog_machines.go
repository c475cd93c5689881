package gpulog

import (
	"fmt"
	"strings"

	"gpureport/internal/natural"
)

// A launcher that gathers the output of several machines into one stream
// labels each line with its machine:
//
//	[pod/train-0/gpu-monitor] 2024/03/08 10:00:00.100, 0, 30000 MiB, 81559 MiB    kubectl logs --prefix
//	[pod/train-1/gpu-monitor] 2024/03/08 10:00:00.300, 0, 52000 MiB, 81559 MiB
//
// Each machine numbers its GPUs from 0, so read as one machine's, the two
// pods' GPU 0 were one GPU whose readings zigzag between them. The label
// is the collector prefix that ReadLog removes (gpulog_prefix.go); when it
// names a machine (labelMachine) the prefix reader keeps each line's.
// A reading's GPU is then known per machine while the log is read
// (machineIndex: machineStride apart), and at the end the machines'
// GPUs are numbered one machine after another, machines in the natural
// order of their names (train-2 before train-10), by the rule placement
// numbers the GPUs of several machines' logs with (natural.Consecutive):
// the second machine's GPU 0 follows the first machine's last GPU. Each GPU keeps its machine and its index
// there (GPU.Machine, GPU.MachineIndex), which is how an OOM message with
// the same label (TrainingOOM.Machine) finds its GPU; a note names the
// machines.

// machineStride separates the GPU indexes of a log's machines while it is
// read: no machine has anywhere near 2^16 GPUs, and a composite index
// stays far below int's range.
const machineStride = 1 << 16

// machineIndex is GPU index i as read on line n: apart per machine when
// the log's lines carry several machines' labels (machineStride apart),
// i itself otherwise, for an unknown index (negative) and for one no GPU
// has (machineStride or more; splitMachines leaves it be).
func (b *logBuilder) machineIndex(n, i int) int {
	if i < 0 || i >= machineStride {
		return i
	}
	return b.prefix.machineOf(n)*machineStride + i
}

// splitMachines numbers the GPUs of several machines one machine after
// another (see above) and notes it; nothing when the log's lines name one
// machine or none.
func (b *logBuilder) splitMachines() {
	if b.prefix == nil || len(b.prefix.machines) < 2 {
		return
	}
	names := b.prefix.machines
	// count is, per machine, its highest GPU index plus 1 (0: none).
	count := make([]int, len(names))
	// known reports whether i is a GPU index machineIndex made.
	known := func(i int) bool { return i >= 0 && i/machineStride < len(names) }
	see := func(i int) {
		if known(i) {
			count[i/machineStride] = max(count[i/machineStride], i%machineStride+1)
		}
	}
	l := b.log
	for _, g := range l.GPUs {
		see(g.Index)
	}
	for _, s := range l.Samples {
		see(s.GPU)
	}
	for _, p := range l.Processes {
		see(p.GPU)
	}
	for _, m := range l.MIG {
		see(m.GPU)
	}
	// The machines one after another in the natural order of their
	// names, as placement numbers several logs' machines.
	offset, order := natural.Consecutive(names, count)
	var ids []int
	for _, id := range order {
		if count[id] > 0 {
			ids = append(ids, id)
		}
	}
	at := func(i int) int {
		if !known(i) {
			return i
		}
		return offset[i/machineStride] + i%machineStride
	}
	several := len(ids) > 1
	for i := range l.GPUs {
		g := &l.GPUs[i]
		if known(g.Index) && several {
			g.Machine, g.MachineIndex = names[g.Index/machineStride], g.Index%machineStride
		}
		g.Index = at(g.Index)
	}
	for i := range l.Samples {
		l.Samples[i].GPU = at(l.Samples[i].GPU)
	}
	for i := range l.Processes {
		l.Processes[i].GPU = at(l.Processes[i].GPU)
	}
	for i := range l.MIG {
		l.MIG[i].GPU = at(l.MIG[i].GPU)
	}
	if !several {
		return
	}
	var parts []string
	for _, id := range ids {
		parts = append(parts, fmt.Sprintf("%s from GPU %d", names[id], offset[id]))
	}
	b.note(fmt.Sprintf("the lines come from %d machines, told apart by the launcher's labels; each machine numbers its GPUs from 0, so they are numbered one machine after another: %s",
		len(ids), strings.Join(parts, ", ")))
}
