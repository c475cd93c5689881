package gpulog_test

import (
	"fmt"
	"strings"
	"testing"

	"gpureport/gpulog"
)

// TestDCGMExporterCapacity: a scrape's device total is DCGM_FI_DEV_FB_TOTAL,
// else used + free + reserved; with neither _TOTAL nor _RESERVED it is
// used + free, and a note says that it leaves out the reserved memory.
func TestDCGMExporterCapacity(t *testing.T) {
	metric := func(name string, gpu, v int, extra string) string {
		return fmt.Sprintf("%s{gpu=\"%d\",UUID=\"GPU-%d\"%s} %d\n", name, gpu, gpu, extra, v)
	}
	scrape := func(fields map[string]int, extra string) string {
		var b strings.Builder
		b.WriteString("Wed May  1 12:00:00 UTC 2024\n")
		for _, f := range []string{"USED", "FREE", "RESERVED", "TOTAL"} {
			if v, ok := fields[f]; ok {
				b.WriteString(metric("DCGM_FI_DEV_FB_"+f, 0, v, extra))
			}
		}
		return b.String()
	}
	const note = "neither DCGM_FI_DEV_FB_TOTAL nor DCGM_FI_DEV_FB_RESERVED"
	cases := []struct {
		name   string
		in     string
		total  int64
		notes  int // readings the note counts, 0 for no note
		isMIG  bool
		used   int64
		gpuLen int
	}{
		{name: "used, free and reserved", in: scrape(map[string]int{"USED": 1000, "FREE": 80487, "RESERVED": 433}, ""),
			total: 81920 * logMiB, used: 1000 * logMiB, gpuLen: 1},
		{name: "total beats the sum", in: scrape(map[string]int{"USED": 1000, "FREE": 80487, "TOTAL": 81920}, ""),
			total: 81920 * logMiB, used: 1000 * logMiB, gpuLen: 1},
		{name: "used and free only", in: scrape(map[string]int{"USED": 1000, "FREE": 80487}, "") + scrape(map[string]int{"USED": 1500, "FREE": 79987}, ""),
			total: 81487 * logMiB, notes: 2, used: 1000 * logMiB, gpuLen: 1},
		{name: "MIG instance, used and free only", in: scrape(map[string]int{"USED": 10, "FREE": 9700}, `,GPU_I_ID="1"`),
			total: 9710 * logMiB, notes: 1, isMIG: true, used: 10 * logMiB},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if f, ok := gpulog.SniffLog([]byte(c.in)); !ok || f != gpulog.FormatDCGMProm {
				t.Fatalf("SniffLog = %q, %v", f, ok)
			}
			l, err := gpulog.ReadLog(strings.NewReader(c.in), gpulog.FormatDCGMProm, gpulog.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var used, total int64
			switch {
			case c.isMIG && len(l.MIG) == 1 && len(l.Samples) == 0:
				used, total = l.MIG[0].MemoryUsed, l.MIG[0].MemoryTotal
			case !c.isMIG && len(l.Samples) > 0 && len(l.MIG) == 0:
				used, total = l.Samples[0].MemoryUsed, l.Samples[0].MemoryTotal
			default:
				t.Fatalf("%d samples, %d MIG readings", len(l.Samples), len(l.MIG))
			}
			if used != c.used || total != c.total {
				t.Errorf("used %d total %d, want %d, %d", used, total, c.used, c.total)
			}
			if len(l.GPUs) != c.gpuLen || c.gpuLen == 1 && l.GPUs[0].MemoryTotal != c.total {
				t.Errorf("GPUs %+v, want %d with total %d", l.GPUs, c.gpuLen, c.total)
			}
			want := ""
			if c.notes > 0 {
				want = fmt.Sprintf("%d readings have used and free memory but %s", c.notes, note)
			}
			got := ""
			for _, n := range l.Notes {
				if strings.Contains(n, note) {
					got = n
				}
			}
			if want == "" && got != "" || want != "" && !strings.HasPrefix(got, want) {
				t.Errorf("note %q, want one starting %q (notes %q)", got, want, l.Notes)
			}
		})
	}
}
