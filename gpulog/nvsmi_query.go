package gpulog

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// nvidia-smi -q (optionally -d MEMORY,UTILIZATION,POWER,PIDS and -l N):
// the human-readable query, one document per sample:
//
//	==============NVSMI LOG==============
//
//	Timestamp                                 : Thu Nov 26 12:00:00 2026
//	Driver Version                            : 535.54.03
//	Attached GPUs                             : 2
//	GPU 00000000:01:00.0
//	    Product Name                          : NVIDIA A100-SXM4-80GB
//	    GPU UUID                              : GPU-5f1c...
//	    FB Memory Usage
//	        Total                             : 81559 MiB
//	        Reserved                          : 569 MiB
//	        Used                              : 40000 MiB
//	        Free                              : 40990 MiB
//	    Utilization
//	        Gpu                               : 99 %
//	    GPU Power Readings
//	        Power Draw                        : 250.00 W
//	    Processes
//	        Process ID                        : 4242
//	            Name                          : python
//	            Used GPU Memory               : 39000 MiB
//
// A "GPU <bus id>" line at the margin opens a GPU; the GPUs of a document
// are numbered in the order listed, which is nvidia-smi's index order. A
// key is read within the section (a line indented 4 without a value) it
// follows: FB Memory Usage's Total, Reserved, Used and Free (MiB),
// Utilization's Gpu and Memory (%), the Power Draw (or Instantaneous Power
// Draw) of (GPU) Power Readings (W), and each process's Process ID and
// Used GPU Memory. BAR1 and protected memory sections are not the
// framebuffer and are ignored. The reading's time is the document's
// Timestamp, in the zone of the machine that ran nvidia-smi.
//
// A GPU in MIG mode lists its MIG devices, each with its own FB Memory
// Usage, before the GPU's own FB Memory Usage. nvidia-smi -q prints the
// tree that -q -x writes as XML (<mig_devices><mig_device> with <index>,
// <gpu_instance_id>, <compute_instance_id> and <fb_memory_usage>, before
// the GPU's <fb_memory_usage>: the real A100 log
// ../shared/testdata-real/nvidia-smi/xml/netdata_a100-sxm4-mig.xml), one
// heading a level for each element:
//
//	    MIG Devices
//	        MIG Device
//	            Index                         : 0
//	            GPU Instance ID               : 1
//	            Compute Instance ID           : 0
//	            Device Attributes
//	                Shared
//	                    Multiprocessor count  : 42
//	            FB Memory Usage
//	                Total                     : 19968 MiB
//	                Used                      : 4000 MiB
//	    FB Memory Usage
//	        Total                             : 40960 MiB
//
// No pasted text of this part was found, so a "MIG Device" heading is
// read at any depth inside the GPU (also straight under it, without the
// "MIG Devices" heading): the lines indented deeper than it are that MIG
// device's, and its Index, GPU and Compute Instance ID and its own FB
// Memory Usage Total and Used give a MIGSample, as the XML's and the
// table's MIG devices do; a "MIG Device" heading over nothing but "None"
// (a GPU with MIG disabled) gives none. The GPU's sample is the GPU's own FB Memory
// Usage (the whole GPU's memory), never a MIG device's.

// nvsmiLogBanner opens every nvidia-smi -q document.
const nvsmiLogBanner = "==============NVSMI LOG=============="

// queryState follows one nvidia-smi -q log.
type queryState struct {
	b *logBuilder
	// at is the current document's time; index the next GPU's number in
	// it.
	at    time.Time
	index int
	// gpu is the GPU being read (nil between GPUs), section the indent-4
	// heading it is under, proc the process being read.
	gpu     *GPUSample
	gpuLine int
	info    GPU
	section string
	proc    *ProcessSample
	procs   []ProcessSample
	// mig is the MIG device being read (nil outside one), migIndent the
	// indent of its "MIG Device" heading, migSection the heading inside it
	// the next values are under; migs the GPU's MIG devices read.
	mig        *MIGSample
	migIndent  int
	migSection string
	migs       []MIGSample
}

func readQueryText(r io.Reader, b *logBuilder) error {
	lr := b.lines(r)
	st := &queryState{b: b}
	for {
		line, n, ok := b.nextLine(lr)
		if !ok {
			break
		}
		st.line(n, line)
	}
	st.closeGPU()
	if lr.err != nil {
		return fmt.Errorf("line %d: %w", lr.n+1, lr.err)
	}
	return nil
}

// line reads line n.
func (st *queryState) line(n int, line string) {
	body := strings.TrimLeft(line, " \t")
	if strings.TrimSpace(body) == "" {
		return
	}
	indent := len(line) - len(body)
	key, val, hasVal := strings.Cut(body, ":")
	key, val = strings.TrimSpace(key), strings.TrimSpace(val)
	if st.mig != nil && indent <= st.migIndent {
		st.closeMIG()
	}
	switch {
	case strings.HasPrefix(body, nvsmiLogBanner):
		st.closeGPU()
		st.at, st.index = time.Time{}, 0
	case indent == 0 && strings.HasPrefix(body, "GPU ") && isBusID(strings.TrimSpace(body[4:])):
		st.closeGPU()
		st.gpuLine = n
		s := unknownSample(st.index, st.b.lineTime(st.at, n))
		st.gpu = &s
		st.info = GPU{Index: st.index, BusID: normBusID(strings.TrimSpace(body[4:]))}
		st.index++
		st.section, st.proc = "", nil
	case indent == 0 && key == "Timestamp" && hasVal:
		if t, ok := st.b.time(val); ok {
			st.at = t
		}
	case st.gpu == nil:
	case st.mig != nil && indent > st.migIndent:
		st.migValue(n, indent, key, val, hasVal)
	case !hasVal && key == "MIG Device" && indent >= 4:
		// Inside the GPU (a heading at the margin would take the GPU's
		// own lines as the MIG device's).
		st.closeMIG()
		st.mig = &MIGSample{Time: st.gpu.Time, GPU: st.gpu.GPU, MIG: -1, GPUInstance: -1, ComputeInstance: -1,
			MemoryUsed: Unknown, MemoryTotal: Unknown}
		st.migIndent, st.migSection = indent, ""
		st.section, st.proc = "", nil
	case indent <= 4 && !hasVal:
		st.section, st.proc = key, nil
	case indent <= 4:
		st.section, st.proc = "", nil
		switch key {
		case "Product Name":
			st.info.Name = val
		case "GPU UUID":
			st.info.UUID = val
		}
	default:
		st.value(n, key, val)
	}
}

// value reads a "key : value" line inside the current section.
func (st *queryState) value(n int, key, val string) {
	s := st.gpu
	mem := func(dst *int64) {
		if v, ok := parseBytes(val, mib); ok {
			*dst = v
		} else {
			st.b.skipRow(n, kindBadRow, fmt.Sprintf("%s %q is not a memory size", key, clip(val)))
		}
	}
	num := func(dst *float64, unit string) {
		if v, ok := parseNumber(val, unit); ok {
			*dst = v
		}
	}
	switch st.section {
	case "FB Memory Usage":
		switch key {
		case "Total":
			mem(&s.MemoryTotal)
		case "Reserved":
			mem(&s.MemoryReserved)
		case "Used":
			mem(&s.MemoryUsed)
		case "Free":
			mem(&s.MemoryFree)
		}
	case "Utilization":
		switch key {
		case "Gpu":
			num(&s.UtilizationGPU, "%")
		case "Memory":
			num(&s.UtilizationMemory, "%")
		}
	case "Power Readings", "GPU Power Readings":
		if key == "Power Draw" || key == "Instantaneous Power Draw" {
			num(&s.PowerW, "W")
		}
	case "Processes":
		switch key {
		case "Process ID":
			pid, ok := atoi(val)
			if !ok {
				st.proc = nil
				return
			}
			st.procs = append(st.procs, ProcessSample{Time: s.Time, GPU: s.GPU, PID: pid, UsedMemory: Unknown})
			st.proc = &st.procs[len(st.procs)-1]
		case "Name":
			if st.proc != nil {
				st.proc.Name = val
			}
		case "Used GPU Memory":
			if st.proc != nil {
				if v, ok := parseBytes(val, mib); ok {
					st.proc.UsedMemory = v
				}
			}
		}
	}
}

// migValue reads a line inside a MIG device block: its ids one level
// under the heading, its FB Memory Usage's Total and Used one below that.
func (st *queryState) migValue(n, indent int, key, val string, hasVal bool) {
	m := st.mig
	if indent <= st.migIndent+4 {
		if !hasVal {
			st.migSection = key
			return
		}
		st.migSection = ""
		id := func(dst *int) {
			if v, ok := atoi(val); ok {
				*dst = v
			}
		}
		switch key {
		case "Index":
			id(&m.MIG)
		case "GPU Instance ID":
			id(&m.GPUInstance)
		case "Compute Instance ID":
			id(&m.ComputeInstance)
		}
		return
	}
	if st.migSection != "FB Memory Usage" {
		return
	}
	var dst *int64
	switch key {
	case "Total":
		dst = &m.MemoryTotal
	case "Used":
		dst = &m.MemoryUsed
	default:
		return
	}
	if v, ok := parseBytes(val, mib); ok {
		*dst = v
	} else {
		st.b.skipRow(n, kindBadRow, fmt.Sprintf("MIG device %s %q is not a memory size", key, clip(val)))
	}
}

// closeMIG keeps the MIG device being read with its GPU's. A block that
// gave neither an id nor a memory figure is no MIG device: nvidia-smi
// prints a GPU with MIG disabled as a "MIG Device" heading over a "None"
// line (r535), a placeholder, no reading.
func (st *queryState) closeMIG() {
	if st.mig == nil {
		return
	}
	if m := st.mig; m.MIG < 0 && m.GPUInstance < 0 && m.ComputeInstance < 0 && m.MemoryUsed == Unknown && m.MemoryTotal == Unknown {
		st.mig, st.migSection = nil, ""
		return
	}
	st.migs = append(st.migs, *st.mig)
	st.mig, st.migSection = nil, ""
}

// closeGPU keeps the GPU being read, with its processes and MIG devices.
func (st *queryState) closeGPU() {
	st.closeMIG()
	if st.gpu == nil {
		return
	}
	b := st.b
	if why := b.device(st.info); why != "" {
		b.skip(st.gpuLine, kindOtherGPU, why)
	} else {
		b.log.Samples = append(b.log.Samples, *st.gpu)
		for _, p := range st.procs {
			p.UUID, p.BusID = st.info.UUID, st.info.BusID
			b.log.Processes = append(b.log.Processes, p)
		}
		b.log.MIG = append(b.log.MIG, st.migs...)
	}
	st.gpu, st.procs, st.proc, st.migs = nil, nil, nil, nil
}
