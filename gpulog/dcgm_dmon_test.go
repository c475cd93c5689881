package gpulog_test

import (
	"math"
	"testing"

	"gpureport/gpulog"
)

const dcgmDmon = `#Entity   GPUTL             MCUTL             POWER             TMPTR        FBUSD             FBTTL
ID                                             W                 C
GPU 0     75                42                185.300           68           28456             81559
GPU 1     0                 0                 61.024            31           0                 81559
`

func TestReadDCGMDmon(t *testing.T) {
	if f, ok := gpulog.SniffLog([]byte(dcgmDmon)); !ok || f != gpulog.FormatDCGMDmon {
		t.Errorf("SniffLog = %q, %v", f, ok)
	}
	runReadCases(t, []readCase{
		{name: "used and total", format: gpulog.FormatDCGMDmon, in: dcgmDmon,
			samples: []sampleWant{{0, 28456 * logMiB, 81559 * logMiB, ""}, {1, 0, 81559 * logMiB, ""}}, gpus: 2,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if s := l.Samples[0]; s.UtilizationGPU != 75 || s.UtilizationMemory != 42 || math.Abs(s.PowerW-185.3) > 1e-9 {
					t.Errorf("sample %+v", s)
				}
			}},
		// Free and total only: used is their difference, less reserved.
		{name: "free, total and reserved", format: gpulog.FormatDCGMDmon,
			in:      "#Entity FBFRE FBTTL FBRSV\nID\nGPU 2 70000 81559 500\nGPU 2 N/A 81559 500\n",
			samples: []sampleWant{{2, 11059 * logMiB, 81559 * logMiB, ""}, {2, logNA, 81559 * logMiB, ""}}, gpus: 1},
		// The header repeats; MIG instances and bad rows are skipped; a
		// last line without its newline that reads whole is kept.
		{name: "repeated header, other entities, bad rows", format: gpulog.FormatDCGMDmon,
			in:      "#Entity FBUSD\nID\nGPU 0 100\nGPU-I 3 50\n#Entity FBUSD\nID\nGPU 0 200\nGPU 0\nGPU x 5\nGPU 0 30",
			samples: []sampleWant{{0, 100 * logMiB, logNA, ""}, {0, 200 * logMiB, logNA, ""}, {0, 30 * logMiB, logNA, ""}}, gpus: 1, skipped: 3},
		{name: "no header", format: gpulog.FormatDCGMDmon, in: "GPU 0 5\n", err: "no readings"},
	})
}
