package placement

import (
	"slices"

	"gpureport/gpulog"
)

// resolveProcessGPUs sets the GPU index of process readings that name
// their GPU only by UUID or bus id (a compute-apps CSV), from the GPUs
// the run's logs list with both an index and that identifier, and returns
// how many readings it resolved. Readings that match no GPU keep GPU -1.
// It runs after separateHosts, so a resolved reading takes its GPU's
// number across machines. A log with resolved readings gets a new
// Processes slice: the logs are placement's own copies, whose slices are
// still the logs as read.
func resolveProcessGPUs(logs []*gpulog.GPULog) int {
	idx := map[string]int{}
	for _, l := range logs {
		for _, g := range l.GPUs {
			if g.Index < 0 {
				continue
			}
			if g.UUID != "" {
				idx["u:"+g.UUID] = g.Index
			}
			if g.BusID != "" {
				idx["b:"+g.BusID] = g.Index
			}
		}
	}
	n := 0
	for _, l := range logs {
		copied := false
		for i := range l.Processes {
			p := l.Processes[i]
			if p.GPU >= 0 {
				continue
			}
			g, ok := idx["u:"+p.UUID]
			ok = ok && p.UUID != ""
			if !ok {
				g, ok = idx["b:"+p.BusID]
				ok = ok && p.BusID != ""
			}
			if !ok {
				continue
			}
			if !copied {
				l.Processes, copied = slices.Clone(l.Processes), true
			}
			l.Processes[i].GPU = g
			n++
		}
	}
	return n
}
