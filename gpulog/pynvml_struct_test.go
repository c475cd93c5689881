package gpulog_test

import (
	"strconv"
	"testing"

	"gpureport/gpulog"
)

// pynvmlV1 and pynvmlV2 print pynvml's memory structs as print() does.
func pynvmlV1(total, free, used int64) string {
	return "c_nvmlMemory_t(total: " + i64(total) + " B, free: " + i64(free) + " B, used: " + i64(used) + " B)"
}

func pynvmlV2(total, reserved, free, used int64) string {
	return "c_nvmlMemory_v2_t(version: 33554472 B, total: " + i64(total) + " B, reserved: " + i64(reserved) + " B, free: " + i64(free) + " B, used: " + i64(used) + " B)"
}

// TestReadPynvml: printed memory structs are readings in bytes, with the
// GPU index and time of their line or the line before, else GPU 0 and the
// last date line's time (or none).
func TestReadPynvml(t *testing.T) {
	const total = 85899345920 // 80 GiB
	v1 := func(usedMiB int64) string { return pynvmlV1(total, total-usedMiB*logMiB, usedMiB*logMiB) }
	cases := []readCase{
		{name: "bare v1 lines", format: gpulog.FormatPynvml, in: v1(1000) + "\n" + v1(1500) + "\n",
			samples: []sampleWant{{0, 1000 * logMiB, total, ""}, {0, 1500 * logMiB, total, ""}}, gpus: 1,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if s := l.Samples[1]; s.MemoryFree != total-1500*logMiB || s.MemoryReserved != logNA || !s.Time.IsZero() {
					t.Errorf("sample %+v", s)
				}
				if !hasNote(l, "2 pynvml memory readings name no GPU index", "GPU 0") || !hasNote(l, "2 pynvml memory readings are c_nvmlMemory_t", "includes the driver's reserved memory") {
					t.Errorf("notes %q", l.Notes)
				}
			}},
		// A script's print(datetime.now(), f"gpu{i}", info): local time
		// (read in the run's zone, Europe/Berlin here), index on the line.
		{name: "time and gpuN before the struct", format: gpulog.FormatPynvml,
			in: "2024-05-01 12:00:00 gpu0 " + v1(1000) + "\n2024-05-01 12:00:00 gpu1 " + v1(1007) + "\n2024-05-01 12:00:05 gpu0 " + v1(1500) + "\n",
			samples: []sampleWant{{0, 1000 * logMiB, total, "2024-05-01T10:00:00Z"}, {1, 1007 * logMiB, total, "2024-05-01T10:00:00Z"},
				{0, 1500 * logMiB, total, "2024-05-01T10:00:05Z"}}, gpus: 2,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if hasNote(l, "name no GPU index") {
					t.Errorf("notes %q", l.Notes)
				}
			}},
		// "GPU 1:" (with its time) on the line before a v2 struct: used is
		// printed apart from reserved.
		{name: "label line before a v2 struct", format: gpulog.FormatPynvml,
			in: "2024-05-01T12:00:00Z GPU 1:\n" + pynvmlV2(total, 454033408, total-454033408-1045312512, 1045312512) + "\n" +
				"GPU 2:\n" + pynvmlV2(total, 454033408, total-454033408-2000*logMiB, 2000*logMiB) + "\n",
			samples: []sampleWant{{1, 1045312512, total, "2024-05-01T12:00:00Z"}, {2, 2000 * logMiB, total, ""}}, gpus: 2,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if s := l.Samples[0]; s.MemoryReserved != 454033408 || s.MemoryFree != total-454033408-1045312512 {
					t.Errorf("sample %+v", s)
				}
				if hasNote(l, "c_nvmlMemory_t (NVML's version 1)") || hasNote(l, "name no GPU index") {
					t.Errorf("notes %q", l.Notes)
				}
			}},
		// Python logging's asctime (a comma before the milliseconds) and
		// a cuda:N token.
		{name: "logging prefix with cuda:N", format: gpulog.FormatPynvml,
			in:      "[2024-05-01 12:00:05,250] INFO monitor: cuda:3 " + v1(3000) + "\n",
			samples: []sampleWant{{3, 3000 * logMiB, total, "2024-05-01T10:00:05.25Z"}}, gpus: 1},
		// A `date; python -c 'print(...)'` loop: the date line times the
		// structs after it.
		{name: "date lines", format: gpulog.FormatPynvml,
			in:      "Wed May  1 12:00:00 UTC 2024\n" + v1(1000) + "\nWed May  1 12:00:05 UTC 2024\n" + v1(1500) + "\n",
			samples: []sampleWant{{0, 1000 * logMiB, total, "2024-05-01T12:00:00Z"}, {0, 1500 * logMiB, total, "2024-05-01T12:00:05Z"}}, gpus: 1},
		{name: "bad structs and other lines", format: gpulog.FormatPynvml,
			in: v1(1000) + "\n" + "c_nvmlMemory_t(total: 85899345920 B, free: many B, used: 1 B)\n" + "c_nvmlMemory_t(total: 85899345920 B, free: 1\n" +
				"c_nvmlMemory_t(total: 1 MiB, used: 1 B)\n" + "c_nvmlMemory_t(total: 85899345920 B, bar1: 1 B, used: 1 B)\n" + "c_nvmlMemory_t(free: 1 B, used: 1 B)\n" +
				"hello\n",
			samples: []sampleWant{{0, 1000 * logMiB, total, ""}}, gpus: 1, skipped: 6, kind: "unreadable row"},
	}
	for _, c := range cases {
		if f, ok := gpulog.SniffLog([]byte(c.in)); !ok || f != gpulog.FormatPynvml {
			t.Errorf("%s: SniffLog = %q, %v", c.name, f, ok)
		}
	}
	runReadCases(t, cases)
	// Text that only names the struct is not claimed.
	for _, in := range []string{"see c_nvmlMemory_t(total, free, used) in pynvml\n", "c_nvmlMemory_t(total: 5 GiB)\n"} {
		if f, ok := gpulog.SniffLog([]byte(in)); ok && f == gpulog.FormatPynvml {
			t.Errorf("SniffLog(%q) = %q", in, f)
		}
	}
}

func i64(n int64) string { return strconv.FormatInt(n, 10) }
