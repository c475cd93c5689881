package gpulog_test

import (
	"fmt"
	"strings"
	"testing"

	"gpureport/gpulog"
)

// grafanaCSV is a Grafana panel export ("Series joined by time"): a Time
// column and one column per series, named as given, with rows 2 minutes
// apart; cell gives series j's value at row i.
func grafanaCSV(names []string, rows int, cell func(i, j int) string) string {
	var b strings.Builder
	b.WriteString(`"Time"`)
	for _, n := range names {
		b.WriteString(`,"` + strings.ReplaceAll(n, `"`, `""`) + `"`)
	}
	b.WriteString("\n")
	for i := range rows {
		fmt.Fprintf(&b, "2024-03-01 %02d:%02d:00", 10+2*i/60, 2*i%60)
		for j := range names {
			b.WriteString("," + cell(i, j))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestGrafanaCSV: a Grafana panel CSV whose series are named by their
// Prometheus query (an empty legend) is read: metric and GPU from the
// name, DCGM's MiB; one named by a legend that gives only host and GPU
// is not claimed, and its reason says what the file lacks.
func TestGrafanaCSV(t *testing.T) {
	series := func(g int) string {
		return fmt.Sprintf(`DCGM_FI_DEV_FB_USED{DCGM_FI_DRIVER_VERSION="535.104.05", Hostname="gpu-node-17", UUID="GPU-1c2d3e4f-%d", device="nvidia%d", gpu="%d", modelName="NVIDIA A100-SXM4-80GB"}`, g, g, g)
	}
	in := grafanaCSV([]string{series(0), series(1)}, 40, func(i, j int) string { return fmt.Sprint(30000 + (1-j)*200*i) })
	if f, ok := gpulog.SniffLog([]byte(in)); !ok || f != gpulog.FormatCSVColumns {
		t.Fatalf("SniffLog = %q, %v", f, ok)
	}
	l := readString(t, in, gpulog.FormatCSVColumns)
	if len(l.Samples) != 80 || len(l.GPUs) != 2 {
		t.Fatalf("%d samples of %d GPUs (%+v)", len(l.Samples), len(l.GPUs), l.Problems)
	}
	last := map[int]int64{}
	for _, s := range l.Samples {
		last[s.GPU] = s.MemoryUsed
	}
	if last[0] != (30000+200*39)*logMiB || last[1] != 30000*logMiB {
		t.Errorf("last used %v", last)
	}
	for _, n := range l.Notes {
		if strings.Contains(n, "no unit") {
			t.Errorf("a DCGM series' unit is known: note %q", n)
		}
	}

	cases := []struct {
		name, in, want string
	}{
		{"bare values", grafanaCSV([]string{"gpu-node-17 GPU 0", "gpu-node-17 GPU 1"}, 5, func(i, j int) string { return "30000" }),
			"(used, free or total memory) nor their unit"},
		{"values with units", grafanaCSV([]string{"gpu-node-17 GPU 0", "gpu-node-17 GPU 1"}, 5, func(i, j int) string { return "29.3 GiB" }),
			"(used, free or total memory): not read"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if f, ok := gpulog.SniffLog([]byte(c.in)); ok {
				t.Fatalf("SniffLog claims it as %q", f)
			}
			r, ok := gpulog.GrafanaCSVReason([]byte(c.in))
			if !ok || !strings.Contains(r, c.want) || !strings.Contains(r, `"gpu-node-17 GPU 0"`) {
				t.Errorf("reason %q, %v; want one with %q", r, ok, c.want)
			}
		})
	}
	if _, ok := gpulog.GrafanaCSVReason([]byte("time,loss\n1,2\n")); ok {
		t.Error("a CSV without Grafana's Time column is called a Grafana export")
	}
}
