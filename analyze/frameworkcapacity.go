package analyze

import (
	"fmt"

	"gpureport/gpulog"
	"gpureport/placement"
)

// frameworkCapacity is the capacity a training framework printed at start
// for device k (torchtitan's "CUDA capacity: ... with 79.11GiB memory";
// gpulog.DeviceCapacity) and where it lies ("logs/train.log line 3
// (torchtitan)"): a line of k's rank wins over one without a rank; a line
// naming another device index or type ("XPU capacity" for a CUDA device)
// is not used. It is total_memory rounded to
// 0.01 GiB, so an OOM message's exact figure is preferred to it.
func frameworkCapacity(logs []*gpulog.GPULog, k DeviceKey) (int64, string, bool) {
	var best *gpulog.DeviceCapacity
	var path string
	for _, l := range logs {
		for i := range l.Capacities {
			c := &l.Capacities[i]
			if c.Total <= 0 || !sameProcess(DeviceKey{Rank: c.Rank}, k) || c.Device >= 0 && c.Device != k.Device || placement.ParseDeviceType(c.Type) != k.Type {
				continue
			}
			if best == nil || k.PID == 0 && best.Rank != k.Rank && c.Rank == k.Rank {
				best, path = c, l.Path
			}
		}
	}
	if best == nil {
		return 0, "", false
	}
	return best.Total, fmt.Sprintf("%s line %d (%s)", path, best.Line, best.Framework), true
}
