package gpulog

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// pynvml's memory struct as a script prints it: print(nvmlDeviceGetMemoryInfo(h)),
// one reading a line, often behind a time or a logger's prefix and a GPU
// index:
//
//	c_nvmlMemory_t(total: 85899345920 B, free: 84850769920 B, used: 1048576000 B)
//	2024-05-01 12:00:00 gpu0 c_nvmlMemory_t(total: 85899345920 B, free: 84850769920 B, used: 1048576000 B)
//	GPU 1: c_nvmlMemory_v2_t(version: 33554472 B, total: 85899345920 B, reserved: 454033408 B, free: 84400000000 B, used: 1045312512 B)
//
// The form is pynvml's (nvidia-ml-py, pynvml.py): _PrintableStructure.__str__
// returns the class name, then "(", then "key: value" for each of
// _fields_ in order, joined by ", ", then ")"; c_nvmlMemory_t's fields
// are total, free and used, c_nvmlMemory_v2_t's version, total,
// reserved, free and used, and both format every field with
// _fmt_ = {'<default>': "%d B"}, so each value is a count of bytes (the
// version too). NVML's nvml.h defines version 1's used as reserved plus
// allocated memory (total = free + used) and version 2's apart from the
// reserved memory (total = reserved + free + used), as nvidia-smi has
// printed memory.used since about driver 510; a note says so for version
// 1 readings.
//
// The GPU index is a "gpu N", "GPU N:", "cuda:N" or "device N" token
// before the struct on its line, else on the line just before it (a
// script printing "GPU 0:" and then the struct); without one the reading
// is GPU 0, the log is taken as one GPU's, and a note says so. The time
// is a timestamp before the struct on its line or on the line before,
// else the last date line above it (a `date` in a shell loop); readings
// without any are placed in reading order (placeUntimed).

// torch.cuda.mem_get_info() returns cudaMemGetInfo's (free, total) in
// bytes, the device's free memory and its size as CUDA reports them, and
// a script prints it as a bare tuple:
//
//	2024-03-01 10:00:00 step 100 cuda:0 mem_get_info: (64424509440, 85024112640)
//
// A tuple names nothing, so it is read only when its line names it:
// "mem_get_info" before it, or GPU or CUDA and both "free" and "total"
// ("GPU free/total: (F, T)"); and only as the function gives it: two
// whole byte counts, free at most total. The reading is the device's,
// total and free as given and used their difference (as nvidia-smi's
// memory.used, every process's memory and the driver's), labelled as a
// pynvml struct is: its GPU index (a cuda:N is taken as GPU N) and time.

var (
	// reMemGetInfo matches a printed mem_get_info tuple, with the text
	// before it that names it.
	reMemGetInfo = regexp.MustCompile(`(?i)(?:\bmem_get_info\b|\b(?:gpu|cuda)\b.*\bfree\b.*\btotal\b)[^()]*?(?:\(\))?[^()\d]*\((\d{1,15}), ?(\d{1,15})\)`)
	// rePynvmlStruct matches one printed struct: its class and its
	// fields.
	rePynvmlStruct = regexp.MustCompile(`c_nvmlMemory(_v2)?_t\(([^()]*)\)`)
	// rePynvmlGPU matches a GPU index token before the struct.
	rePynvmlGPU = regexp.MustCompile(`(?i)\b(?:gpu|cuda|device|dev)[\s_:#=\[(]*(\d{1,3})\b`)
	// rePynvmlStamp matches a timestamp anywhere before the struct: ISO
	// 8601, logging's asctime (comma before the milliseconds) or
	// nvidia-smi's.
	rePynvmlStamp = regexp.MustCompile(`\d{4}[-/]\d{2}[-/]\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?`)
)

// sniffPynvml reports whether one of the first lines is a printed memory
// struct.
func sniffPynvml(lines []string) bool {
	for _, l := range lines {
		if _, ok := memGetInfo(l); ok {
			return true
		}
		if strings.Contains(l, "c_nvmlMemory") && rePynvmlStruct.MatchString(l) {
			if _, err := pynvmlFields(rePynvmlStruct.FindStringSubmatch(l)); err == nil {
				return true
			}
		}
	}
	return false
}

// memGetInfo reads a printed mem_get_info tuple of line (reMemGetInfo):
// the reading and the index in line where the tuple's naming starts.
func memGetInfo(line string) (pynvmlReading, bool) {
	if !strings.Contains(line, "mem_get_info") && !strings.Contains(strings.ToLower(line), "free") {
		return pynvmlReading{}, false
	}
	m := reMemGetInfo.FindStringSubmatch(line)
	if m == nil {
		return pynvmlReading{}, false
	}
	free, err1 := strconv.ParseInt(m[1], 10, 64)
	total, err2 := strconv.ParseInt(m[2], 10, 64)
	if err1 != nil || err2 != nil || free > total || total > maxMiB*mib || total < mib {
		// (Below 1 MiB no CUDA device: the figures are no bytes.)
		return pynvmlReading{}, false
	}
	return pynvmlReading{v2: true, total: total, free: free, used: total - free, reserved: Unknown, tuple: true}, true
}

// pynvmlReading is one struct's fields, bytes (Unknown when absent).
type pynvmlReading struct {
	v2                          bool
	total, free, used, reserved int64
	// tuple marks a mem_get_info tuple's reading.
	tuple bool
}

// pynvmlFields reads a struct's submatches (rePynvmlStruct).
func pynvmlFields(m []string) (pynvmlReading, error) {
	r := pynvmlReading{v2: m[1] != "", total: Unknown, free: Unknown, used: Unknown, reserved: Unknown}
	for f := range strings.SplitSeq(m[2], ",") {
		key, val, ok := strings.Cut(strings.TrimSpace(f), ":")
		if !ok {
			return r, fmt.Errorf("field %q is not \"key: N B\"", clip(f))
		}
		num, unit := strings.TrimSpace(val), ""
		if i := strings.LastIndexByte(num, ' '); i >= 0 {
			num, unit = num[:i], num[i+1:]
		}
		n, err := strconv.ParseInt(num, 10, 64)
		if unit != "B" || err != nil || n < 0 {
			return r, fmt.Errorf("%s %q is not a count of bytes (\"N B\")", key, clip(strings.TrimSpace(val)))
		}
		if key != "version" && n > maxMiB*mib {
			return r, fmt.Errorf("%s %d B is more than %d TiB", key, n, maxMiB>>20)
		}
		switch key {
		case "total":
			r.total = n
		case "free":
			r.free = n
		case "used":
			r.used = n
		case "reserved":
			r.reserved = n
		case "version":
		default:
			return r, fmt.Errorf("field %q is none of the memory struct's (total, free, used, reserved, version)", clip(key))
		}
	}
	if r.total < 0 || r.used < 0 && r.free < 0 {
		return r, fmt.Errorf("the struct gives no total, or neither used nor free memory")
	}
	return r, nil
}

// pynvmlLabel is what the text before a struct (or the line before it)
// says: a GPU index (-1 when none) and a time (zero when none).
type pynvmlLabel struct {
	gpu int
	t   time.Time
}

// pynvmlPrefix reads the GPU index and time of the text s.
func (b *logBuilder) pynvmlPrefix(s string) pynvmlLabel {
	l := pynvmlLabel{gpu: -1}
	if loc := rePynvmlStamp.FindStringIndex(s); loc != nil {
		if t, ok := b.time(strings.Replace(s[loc[0]:loc[1]], ",", ".", 1)); ok {
			l.t = t
		}
		// The index is read from the rest: a date's digits are no GPU.
		s = s[:loc[0]] + " " + s[loc[1]:]
	}
	if ms := rePynvmlGPU.FindAllStringSubmatch(s, -1); ms != nil {
		l.gpu, _ = atoi(ms[len(ms)-1][1])
	}
	return l
}

func readPynvml(r io.Reader, b *logBuilder) error {
	lr := b.lines(r)
	var at time.Time
	// prev is the label of the line just before, when it was no struct.
	var prev *pynvmlLabel
	noIndex, v1, tuples := 0, 0, 0
	for {
		s, n, ok := b.nextContent(lr)
		if !ok {
			break
		}
		m := rePynvmlStruct.FindStringSubmatchIndex(s)
		if m == nil {
			if rd, ok := memGetInfo(s); ok {
				here := b.pynvmlPrefix(s[:strings.LastIndexByte(s, '(')])
				if here.t.IsZero() && prev != nil {
					here.t = prev.t
				}
				if here.gpu < 0 && prev != nil {
					here.gpu = prev.gpu
				}
				prev = nil
				if here.t.IsZero() {
					here.t = at
				}
				if here.gpu < 0 {
					here.gpu = 0
					noIndex++
				}
				tuples++
				sample := unknownSample(here.gpu, b.lineTime(here.t, n))
				sample.MemoryTotal, sample.MemoryFree, sample.MemoryUsed = rd.total, rd.free, rd.used
				if why := b.device(GPU{Index: here.gpu, MemoryTotal: rd.total}); why != "" {
					b.skip(n, kindOtherGPU, why)
					continue
				}
				b.log.Samples = append(b.log.Samples, sample)
				continue
			}
			prev = nil
			if t, zoneless, ok := parseDateLine(s, b.opt.Location); ok {
				at = t
				b.log.Zoneless = b.log.Zoneless || zoneless
				continue
			}
			if strings.Contains(s, "c_nvmlMemory") {
				b.skipRow(n, kindBadRow, "a c_nvmlMemory struct without its closing parenthesis")
				continue
			}
			if l := b.pynvmlPrefix(s); l.gpu >= 0 {
				// A label: "GPU 0:" (or "2024-05-01 12:00:00 GPU 0")
				// before the struct on the next line.
				prev = &l
				continue
			}
			b.skipRow(n, kindBadRow, "not a pynvml memory struct")
			continue
		}
		label := prev
		prev = nil
		subs := []string{s[m[0]:m[1]], "", s[m[4]:m[5]]}
		if m[2] >= 0 {
			subs[1] = s[m[2]:m[3]]
		}
		rd, err := pynvmlFields(subs)
		if err != nil {
			b.skipRow(n, kindBadRow, err.Error())
			continue
		}
		here := b.pynvmlPrefix(s[:m[0]])
		if here.gpu < 0 && label != nil {
			here.gpu = label.gpu
		}
		if here.t.IsZero() && label != nil {
			here.t = label.t
		}
		if here.t.IsZero() {
			here.t = at
		}
		if here.gpu < 0 {
			here.gpu = 0
			noIndex++
		}
		if !rd.v2 {
			v1++
		}
		sample := unknownSample(here.gpu, b.lineTime(here.t, n))
		sample.MemoryTotal, sample.MemoryFree, sample.MemoryUsed, sample.MemoryReserved = rd.total, rd.free, rd.used, rd.reserved
		if why := b.device(GPU{Index: here.gpu, MemoryTotal: rd.total}); why != "" {
			b.skip(n, kindOtherGPU, why)
			continue
		}
		b.log.Samples = append(b.log.Samples, sample)
	}
	if lr.err != nil {
		return fmt.Errorf("line %d: %w", lr.n+1, lr.err)
	}
	if noIndex > 0 {
		b.note(fmt.Sprintf("%s name no GPU index (\"GPU N\", \"cuda:N\" on the struct's line or the line before): they are read as one GPU, GPU 0",
			plural(noIndex, "pynvml memory reading")))
	}
	if tuples > 0 {
		b.note(fmt.Sprintf("%s (torch.cuda.mem_get_info(): cudaMemGetInfo's free and total bytes) are read as the device's total and free memory, used being their difference (every process's memory and the driver's, as nvidia-smi's memory.used); a cuda:N is taken as GPU N",
			plural(tuples, "printed (free, total) tuple")))
	}
	if v1 > 0 {
		b.note(fmt.Sprintf("%s are c_nvmlMemory_t (NVML's version 1): its used memory includes the driver's reserved memory, which nvidia-smi (since about driver 510) and c_nvmlMemory_v2_t leave out",
			plural(v1, "pynvml memory reading")))
	}
	return nil
}
