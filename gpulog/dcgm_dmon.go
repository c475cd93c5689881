package gpulog

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// DCGM's command-line monitor, `dcgmi dmon -e 252,250,251,203,155`:
// whitespace-separated columns under a "#Entity" line of field short
// names and an "ID" line of units, repeated now and then:
//
//	#Entity   FBUSD        FBTTL        GPUTL   POWER
//	ID                                           W
//	GPU 0     28456        81559        75      185.300
//	GPU 1     0            81559        0       61.024
//
// Columns are found by their DCGM short names: FBUSD, FBTTL, FBFRE and
// FBRSV are the framebuffer's used, total, free and reserved memory in
// MiB (fields 252, 250, 251, 253); GPUTL and MCUTL the GPU and memory
// utilizations in %; POWER the draw in watts. Without FBUSD, used memory
// is total minus free (minus reserved). "N/A" is not available. dmon
// prints no times: readings are untimed (placed as logBuilder.placeUntimed
// says). Rows of other entities (MIG instances "GPU-I", "GPU-CI", NVLink,
// CPUs) are skipped, counted by kind.

// dcgmDmonColumns maps DCGM short names to what they fill.
var dcgmDmonColumns = map[string]func(s *GPUSample, v float64){
	"FBUSD": func(s *GPUSample, v float64) { s.MemoryUsed = int64(v * mib) },
	"FBTTL": func(s *GPUSample, v float64) { s.MemoryTotal = int64(v * mib) },
	"FBFRE": func(s *GPUSample, v float64) { s.MemoryFree = int64(v * mib) },
	"FBRSV": func(s *GPUSample, v float64) { s.MemoryReserved = int64(v * mib) },
	"GPUTL": func(s *GPUSample, v float64) { s.UtilizationGPU = v },
	"MCUTL": func(s *GPUSample, v float64) { s.UtilizationMemory = v },
	"POWER": func(s *GPUSample, v float64) { s.PowerW = v },
}

// isDCGMDmonHeader reports whether a line is dcgmi dmon's "#Entity" line.
func isDCGMDmonHeader(s string) bool {
	f := strings.Fields(s)
	return len(f) >= 2 && (f[0] == "#Entity" || f[0] == "#" && f[1] == "Entity")
}

// sniffDCGMDmon reports whether the head's first lines are dcgmi dmon's
// header and units lines (or a first GPU row).
func sniffDCGMDmon(lines []string) bool {
	if len(lines) < 2 || !isDCGMDmonHeader(lines[0]) {
		return false
	}
	f := strings.Fields(lines[1])
	return len(f) > 0 && (strings.EqualFold(f[0], "ID") || f[0] == "GPU")
}

func readDCGMDmon(r io.Reader, b *logBuilder) error {
	lr := b.lines(r)
	var names []string
	for {
		s, n, ok := b.nextContent(lr)
		if !ok {
			break
		}
		f := strings.Fields(s)
		switch {
		case isDCGMDmonHeader(s):
			names = f[1:]
			if f[0] == "#" {
				names = f[2:]
			}
			continue
		case strings.EqualFold(f[0], "ID"):
			continue // the units line
		case names == nil:
			b.skip(n, kindNoHeader, "data row before any #Entity header line")
			continue
		case f[0] != "GPU":
			b.skip(n, "row of another entity", fmt.Sprintf("entity %q is no whole GPU (a MIG instance, link or CPU)", clip(f[0])))
			continue
		}
		sample, err := dcgmDmonRow(f, names)
		if err != nil {
			b.skipRow(n, kindBadRow, err.Error())
			continue
		}
		b.device(GPU{Index: sample.GPU})
		sample.Time = b.lineTime(sample.Time, n)
		b.log.Samples = append(b.log.Samples, sample)
	}
	if lr.err != nil {
		return fmt.Errorf("line %d: %w", lr.n+1, lr.err)
	}
	return nil
}

// dcgmDmonRow reads a "GPU N v1 v2 ..." row under the named columns.
func dcgmDmonRow(f, names []string) (GPUSample, error) {
	s := unknownSample(0, time.Time{})
	if len(f) < 2 {
		return s, fmt.Errorf("a GPU row without its index")
	}
	idx, ok := atoi(f[1])
	if !ok {
		return s, fmt.Errorf("GPU %q is not a GPU index", clip(f[1]))
	}
	s.GPU = idx
	vals := f[2:]
	if len(vals) != len(names) {
		return s, fmt.Errorf("%d values, the header names %d fields", len(vals), len(names))
	}
	for i, name := range names {
		set, ok := dcgmDmonColumns[name]
		if !ok || isNA(vals[i]) {
			continue
		}
		v, ok := parseNumber(vals[i], "")
		if !ok || v < 0 || v > maxMiB {
			return s, fmt.Errorf("%s %q is not a number", name, clip(vals[i]))
		}
		set(&s, v)
	}
	if s.MemoryUsed == Unknown && s.MemoryTotal >= 0 && s.MemoryFree >= 0 {
		s.MemoryUsed = max(s.MemoryTotal-s.MemoryFree-max(s.MemoryReserved, 0), 0)
	}
	return s, nil
}
