package gpulog

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// gpustat (github.com/wookayin/gpustat), the GPU monitor many ML users
// run instead of nvidia-smi, in its two output forms.
//
// Text (`gpustat`, `gpustat -i 5 > gpu.log`): a header line of host name,
// local time and driver version, then a line per GPU:
//
//	node7  Thu Nov 26 12:00:00 2026  535.54.03
//	[0] NVIDIA A100-SXM4-80GB | 45°C,  99 % |  40000 / 81920 MB | alice(39000M)
//
// Memory is "used / total MB", in MiB (gpustat divides bytes by 2^20).
// The section before it holds the temperature, an optional fan speed,
// the utilization, optional codec use in parentheses and an optional
// "draw / limit W"; "??" is not available. With -p the processes read
// "user:command/pid(NNNM)"; those with a pid become ProcessSamples.
// Colour codes (--color, or a terminal captured with `script`) are
// removed. A reading takes the time of the header above it; without
// headers (--no-header) readings are untimed.
//
// JSON (`gpustat --json`, one pretty-printed object per query; read in
// gpustat_json.go): "query_time" (local ISO time), and "gpus" with
// "index", "uuid", "memory.used" and "memory.total" (MiB),
// "utilization.gpu", "power.draw", "processes" (with "pid" and
// "gpu_memory_usage" in MiB).

var (
	reGpustatLine = regexp.MustCompile(`^\[(\d+)\]\s+(.*?)\s*\|(.*)\|\s*(\S+)\s*/\s*(\S+)\s+MB\s*\|(.*)$`)
	reGpustatPct  = regexp.MustCompile(`(\S+)\s*%`)
	reGpustatPow  = regexp.MustCompile(`(\S+)\s*(?:/\s*\S+\s*)?W\s*$`)
	reGpustatProc = regexp.MustCompile(`(?:^|\s)([^\s(]*)\((\d+|\?)M\)`)
	reParens      = regexp.MustCompile(`\([^)]*\)`)
	reWideGap     = regexp.MustCompile(`\s{2,}`)
)

// sniffGpustat reports whether the first lines are gpustat's text: a
// GPU line, after an optional header.
func sniffGpustat(lines []string) bool {
	for i, l := range lines {
		if i > 1 {
			break
		}
		if !strings.Contains(l, " MB |") {
			continue // the memory column, checked before the regexps
		}
		if reGpustatLine.MatchString(strings.TrimSpace(stripTermControl(l))) {
			return true
		}
	}
	return false
}

func readGpustat(r io.Reader, b *logBuilder) error {
	lr := b.lines(r)
	var at time.Time
	for {
		s, n, ok := b.nextContent(lr)
		if !ok {
			break
		}
		s = strings.TrimSpace(stripTermControl(s))
		if s == "" {
			continue
		}
		m := reGpustatLine.FindStringSubmatch(s)
		if m == nil {
			if t, ok := b.gpustatHeaderTime(s); ok {
				at = t
				continue
			}
			if strings.HasPrefix(s, "├") || strings.HasPrefix(s, "└") {
				continue // -f: a process's full command under its GPU
			}
			b.skipRow(n, kindBadRow, "neither a gpustat header nor a GPU line")
			continue
		}
		sample, procs, err := gpustatLine(m)
		if err != nil {
			b.skipRow(n, kindBadRow, err.Error())
			continue
		}
		sample.Time = b.lineTime(at, n)
		for i := range procs {
			procs[i].Time = sample.Time
		}
		b.device(GPU{Index: sample.GPU, Name: m[2]})
		b.log.Samples = append(b.log.Samples, sample)
		b.log.Processes = append(b.log.Processes, procs...)
	}
	if lr.err != nil {
		return fmt.Errorf("line %d: %w", lr.n+1, lr.err)
	}
	return nil
}

// gpustatHeaderTime reads the local time of a gpustat header line ("host
// Thu Nov 26 12:00:00 2026  535.54.03"; Windows prints "2026-11-26
// 12:00:00"): its fields are separated by two or more spaces.
func (b *logBuilder) gpustatHeaderTime(s string) (time.Time, bool) {
	for _, f := range reWideGap.Split(s, -1) {
		if t, ok := b.time(f); ok {
			return t, true
		}
	}
	return time.Time{}, false
}

// gpustatLine reads a GPU line's submatches.
func gpustatLine(m []string) (GPUSample, []ProcessSample, error) {
	s := unknownSample(0, time.Time{})
	idx, ok := atoi(m[1])
	if !ok {
		return s, nil, fmt.Errorf("GPU %q is not a GPU index", clip(m[1]))
	}
	s.GPU = idx
	mem := func(v, what string) (int64, error) {
		if v == "??" {
			return Unknown, nil
		}
		n, ok := parseBytes(v, mib)
		if !ok {
			return 0, fmt.Errorf("%s %q is not a memory size", what, clip(v))
		}
		return n, nil
	}
	var err error
	if s.MemoryUsed, err = mem(m[4], "memory used"); err != nil {
		return s, nil, err
	}
	if s.MemoryTotal, err = mem(m[5], "memory total"); err != nil {
		return s, nil, err
	}
	// Temperature, [fan,] utilization [(codecs)] [, power]: the last
	// percentage outside parentheses is the utilization.
	stats := reParens.ReplaceAllString(m[3], "")
	if pct := reGpustatPct.FindAllStringSubmatch(stats, -1); pct != nil {
		if v, err := strconv.ParseFloat(pct[len(pct)-1][1], 64); err == nil {
			s.UtilizationGPU = v
		}
	}
	if p := reGpustatPow.FindStringSubmatch(strings.TrimSpace(stats)); p != nil {
		if v, err := strconv.ParseFloat(p[1], 64); err == nil {
			s.PowerW = v
		}
	}
	var procs []ProcessSample
	for _, pm := range reGpustatProc.FindAllStringSubmatch(m[6], -1) {
		who := pm[1]
		slash := strings.LastIndexByte(who, '/')
		if slash < 0 {
			continue // no pid: not a process gpureport can place
		}
		pid, ok := atoi(who[slash+1:])
		if !ok || pid <= 0 {
			continue
		}
		name := who[:slash]
		if c := strings.IndexByte(name, ':'); c >= 0 {
			name = name[c+1:]
		}
		used := Unknown
		if n, err := strconv.ParseInt(pm[2], 10, 64); err == nil && n <= maxMiB {
			used = n * mib
		}
		procs = append(procs, ProcessSample{GPU: idx, PID: pid, Name: name, UsedMemory: used})
	}
	return s, procs, nil
}
