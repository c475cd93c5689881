package analyze

import (
	"gpureport/ingest"
)

// Options tune the analysis. The zero value is ready to use.
type Options struct {
	// Capacity is the device memory in bytes, used when the GPU logs do not
	// give memory.total; 0 means unknown.
	Capacity int64
}

// Analyze runs every analysis over a decoded run.
func Analyze(run *ingest.Run, opt Options) *Findings {
	f := &Findings{Run: run.Dir}
	if run.Location != nil {
		f.Location = run.Location.String()
	}
	f.Inputs.Snapshots = len(run.Snapshots)
	f.Inputs.Skipped = run.Skipped
	for _, l := range run.Logs {
		f.Inputs.Logs = append(f.Inputs.Logs, LogInfo{
			Path: l.Path, Format: l.Format, Samples: len(l.Samples) + len(l.Processes) + len(l.MemoryStats),
			GPUs: len(l.GPUs), SkippedLines: l.SkippedLines, Problems: l.Problems,
		})
	}
	for _, s := range BuildSeries(run.Snapshots) {
		d := &Device{DeviceKey: s.DeviceKey, Order: s.Order, Axis: s.Axis, Points: s.Points}
		d.GPU = JoinGPU(s, run.Logs, s.Device)
		if d.GPU != nil && d.GPU.Total > 0 {
			d.Capacity, d.CapacitySource = d.GPU.Total, "GPU log memory.total"
		} else if opt.Capacity > 0 {
			d.Capacity, d.CapacitySource = opt.Capacity, "--capacity"
		}
		d.Verdict = "insufficient data"
		f.Devices = append(f.Devices, d)
	}
	return f
}
