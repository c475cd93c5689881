//go:build cgo && linux

package record

import (
	"fmt"
	"math"
	"strings"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// nvmlSource samples GPUs through NVML.
type nvmlSource struct {
	driver string
	// memV2 is true when the driver has nvmlDeviceGetMemoryInfo_v2
	// (R510+), whose used excludes reserved memory, as nvidia-smi's does.
	memV2   bool
	devices []nvml.Device
	info    []DeviceInfo
}

// Open initialises NVML and lists the GPUs. nvml.Init is checked
// before any other NVML call: after a failed Init, any other call (even
// nvml.ErrorString) may abort the process when the library is missing,
// so the message is made from the return code alone.
func Open() (Source, error) {
	if ret := nvml.Init(); ret != nvml.SUCCESS {
		return nil, &UnavailableError{Msg: nvmlInitFailure(ret)}
	}
	s := &nvmlSource{}
	if v, ret := nvml.SystemGetDriverVersion(); ret == nvml.SUCCESS {
		s.driver = v
	}
	s.memV2 = nvml.Extensions().LookupSymbol("nvmlDeviceGetMemoryInfo_v2") == nil
	n, ret := nvml.DeviceGetCount()
	if ret != nvml.SUCCESS {
		nvml.Shutdown()
		return nil, &UnavailableError{Msg: "NVML cannot count the GPUs: " + nvml.ErrorString(ret)}
	}
	for i := range n {
		d, ret := nvml.DeviceGetHandleByIndex(i)
		if ret != nvml.SUCCESS {
			nvml.Shutdown()
			return nil, fmt.Errorf("NVML cannot open GPU %d: %s", i, nvml.ErrorString(ret))
		}
		info := DeviceInfo{Index: i}
		if v, ret := d.GetName(); ret == nvml.SUCCESS {
			info.Name = v
		}
		if v, ret := d.GetUUID(); ret == nvml.SUCCESS {
			info.UUID = v
		}
		if p, ret := d.GetPciInfo(); ret == nvml.SUCCESS {
			info.BusID = cString(p.BusId[:])
		}
		s.devices = append(s.devices, d)
		s.info = append(s.info, info)
	}
	return s, nil
}

// nvmlInitFailure explains a failed nvml.Init without calling NVML.
func nvmlInitFailure(ret nvml.Return) string {
	switch ret {
	case nvml.ERROR_LIBRARY_NOT_FOUND:
		return "NVML unavailable: libnvidia-ml.so.1 not found (no NVIDIA driver on this machine?)"
	case nvml.ERROR_DRIVER_NOT_LOADED:
		return "NVML unavailable: the NVIDIA driver is not loaded"
	case nvml.ERROR_NO_PERMISSION:
		return "NVML unavailable: no permission to open the NVIDIA devices"
	case nvml.ERROR_LIB_RM_VERSION_MISMATCH:
		return "NVML unavailable: the NVML library and the loaded driver have different versions (reboot after a driver update?)"
	}
	return fmt.Sprintf("NVML unavailable: nvmlInit failed with code %d", int32(ret))
}

func cString(b []int8) string {
	var sb strings.Builder
	for _, c := range b {
		if c == 0 {
			break
		}
		sb.WriteByte(byte(c))
	}
	return sb.String()
}

func (s *nvmlSource) Driver() string                 { return s.driver }
func (s *nvmlSource) Devices() ([]DeviceInfo, error) { return s.info, nil }
func (s *nvmlSource) Close() error {
	if ret := nvml.Shutdown(); ret != nvml.SUCCESS {
		return fmt.Errorf("NVML shutdown: %s", nvml.ErrorString(ret))
	}
	return nil
}

func (s *nvmlSource) device(index int) (nvml.Device, error) {
	if index < 0 || index >= len(s.devices) {
		return nil, fmt.Errorf("no GPU %d", index)
	}
	return s.devices[index], nil
}

func (s *nvmlSource) Read(index int) (DeviceReading, error) {
	r := DeviceReading{Total: -1, Used: -1, Free: -1, Reserved: -1, UtilGPU: math.NaN(), UtilMem: math.NaN(), PowerW: math.NaN()}
	d, err := s.device(index)
	if err != nil {
		return r, err
	}
	if s.memV2 {
		m, ret := d.GetMemoryInfo_v2()
		if ret != nvml.SUCCESS {
			return r, fmt.Errorf("memory info: %s", nvml.ErrorString(ret))
		}
		r.Total, r.Used, r.Free, r.Reserved = int64(m.Total), int64(m.Used), int64(m.Free), int64(m.Reserved)
	} else {
		m, ret := d.GetMemoryInfo()
		if ret != nvml.SUCCESS {
			return r, fmt.Errorf("memory info: %s", nvml.ErrorString(ret))
		}
		r.Total, r.Used, r.Free = int64(m.Total), int64(m.Used), int64(m.Free)
	}
	if u, ret := d.GetUtilizationRates(); ret == nvml.SUCCESS {
		r.UtilGPU, r.UtilMem = float64(u.Gpu), float64(u.Memory)
	}
	if mw, ret := d.GetPowerUsage(); ret == nvml.SUCCESS {
		r.PowerW = float64(mw) / 1000
	}
	return r, nil
}

func (s *nvmlSource) Processes(index int) ([]ProcReading, error) {
	d, err := s.device(index)
	if err != nil {
		return nil, err
	}
	ps, ret := d.GetComputeRunningProcesses()
	if ret != nvml.SUCCESS {
		return nil, fmt.Errorf("processes: %s", nvml.ErrorString(ret))
	}
	out := make([]ProcReading, 0, len(ps))
	for _, p := range ps {
		pr := ProcReading{PID: int(p.Pid), Used: -1}
		// NVML_VALUE_NOT_AVAILABLE (all ones) where the driver cannot
		// attribute memory to processes (Windows WDDM).
		if p.UsedGpuMemory != math.MaxUint64 {
			pr.Used = int64(p.UsedGpuMemory)
		}
		if name, ret := nvml.SystemGetProcessName(int(p.Pid)); ret == nvml.SUCCESS {
			pr.Name = name
		}
		out = append(out, pr)
	}
	return out, nil
}
