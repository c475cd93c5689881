package analyze

import (
	"cmp"
	"slices"
	"strconv"

	"gpureport/gpulog"
	"gpureport/input"
)

// A GPU in MIG mode is several devices: each MIG device (a GPU instance,
// and within it a compute instance) has memory of its own, and a job on
// one sees only that. The GPU logs read them as MIG readings (nvidia-smi
// -q -x and the table's "MIG devices", DCGM's GPU_I_ID label); each MIG
// device becomes a device of its own, keyed by its parent's index and its
// instance ids, with its readings, capacity and trend as a GPU has them.
// It is never merged into its parent, nor dropped. A snapshot's device
// is not joined to a MIG device (the process sees it as cuda:0 whatever
// instance it runs on); both are shown.

// migKey is one MIG device of the logs.
type migKey struct {
	gpu int
	mig string
}

// migLabel names a MIG device by its instance ids, "GI 7" or "GI 7 CI 0".
func migLabel(m gpulog.MIGSample) string {
	if m.GPUInstance < 0 {
		return strconv.Itoa(m.MIG)
	}
	s := "GI " + strconv.Itoa(m.GPUInstance)
	if m.ComputeInstance >= 0 {
		s += " CI " + strconv.Itoa(m.ComputeInstance)
	}
	return s
}

// migDevices makes a device of each MIG device in the logs (see above).
func migDevices(logs []*gpulog.GPULog, opt Options, rules TrendRules) []*Device {
	views := map[migKey][]*gpulog.GPULog{}
	for _, l := range logs {
		byKey := map[migKey]*gpulog.GPULog{}
		var order []migKey
		for _, m := range l.MIG {
			k := migKey{m.GPU, migLabel(m)}
			v := byKey[k]
			if v == nil {
				v = &gpulog.GPULog{Source: l.Source, Format: l.Format, Timing: l.Timing}
				byKey[k] = v
				order = append(order, k)
			}
			v.Samples = append(v.Samples, m.GPUReading())
		}
		for _, k := range order {
			views[k] = append(views[k], byKey[k])
		}
	}
	keys := make([]migKey, 0, len(views))
	for k := range views {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b migKey) int { return cmp.Or(cmp.Compare(a.gpu, b.gpu), cmp.Compare(a.mig, b.mig)) })
	var out []*Device
	for _, k := range keys {
		if d, _ := gpuOnlyDevice(views[k], DeviceKey{Rank: input.NoRank, Device: k.gpu, MIG: k.mig}, opt, rules); d != nil {
			out = append(out, d)
		}
	}
	return out
}
