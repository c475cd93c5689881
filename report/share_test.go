package report

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/xuri/excelize/v2"

	"gpureport/internal/testutil"
)

// writeSharePercent writes wandb.csv, a W&B chart export of GPU 0's
// system/gpu.0.memoryAllocated (a percent of the device) with no times and
// no total, one reading per 50 steps, and returns the percents it wrote.
func writeSharePercent(t testing.TB, dir string, n int) []float64 {
	t.Helper()
	var b strings.Builder
	b.WriteString("Step,run-1 - system/gpu.0.memoryAllocated,run-1 - system/gpu.0.memoryAllocated__MIN,run-1 - system/gpu.0.memoryAllocated__MAX\n")
	var pct []float64
	for i := range n {
		// Rises to 95 %, then falls back: the peak is not the last reading.
		p := 5 + 90*float64(min(i, n-1-i))/float64(max(n/2, 1))
		pct = append(pct, p)
		fmt.Fprintf(&b, "%d,%g,%g,%g\n", 50*i, p, p, p)
	}
	testutil.WriteFile(t, filepath.Join(dir, "wandb.csv"), []byte(b.String()))
	return pct
}

// chartOptions returns the echarts options of the page's charts by
// container id.
func chartOptions(t *testing.T, page string) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, m := range regexp.MustCompile(`gpr\.chart\(("[^"]*"), (\{.*?\})\);</script>`).FindAllStringSubmatch(page, -1) {
		id, err := strconv.Unquote(m[1])
		if err != nil {
			t.Fatalf("chart id %s: %v", m[1], err)
		}
		var opt map[string]any
		if err := json.Unmarshal([]byte(m[2]), &opt); err != nil {
			t.Fatalf("chart %s: %v", id, err)
		}
		out[id] = opt
	}
	return out
}

// TestShareOnlyRun: a run whose only input is a W&B export of used memory
// as a percent of the device, with no total anywhere, draws the percents
// on the device's timeline (0-100 % axis, one point per reading on the
// reading axis) with a line saying why in percent, and lists them on the
// workbook's GPU samples sheet.
func TestShareOnlyRun(t *testing.T) {
	for _, n := range []int{1, 12, 200} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			dir := t.TempDir()
			want := writeSharePercent(t, dir, n)
			f, run := logsOnlyRun(t, dir, "share-only")
			if len(f.Devices) != 1 || f.Devices[0].UsedShare == nil || f.Devices[0].GPU != nil {
				t.Fatalf("devices %+v, want one with a used share and no bytes", f.Devices)
			}
			r := renderAll(t, f, run)

			opt, ok := chartOptions(t, r.html)["timeline-rx-d0"]
			if !ok {
				t.Fatalf("no timeline-rx-d0 chart among %v", slices.Collect(maps.Keys(chartOptions(t, r.html))))
			}
			series := opt["series"].([]any)
			if len(series) != 1 {
				t.Fatalf("%d series, want 1: %v", len(series), series)
			}
			s := series[0].(map[string]any)
			if s["name"] != "used (% of device)" {
				t.Errorf("series %q", s["name"])
			}
			var got [][2]float64
			for _, p := range s["data"].([]any) {
				v := p.(map[string]any)["value"].([]any)
				got = append(got, [2]float64{v[0].(float64), v[1].(float64)})
			}
			var wantPts [][2]float64
			for i, p := range want {
				wantPts = append(wantPts, [2]float64{float64(i), p})
			}
			if d := cmp.Diff(wantPts, got, cmpopts.EquateApprox(0, 1e-6)); d != "" {
				t.Errorf("chart points (-want +got):\n%s", d)
			}
			y := opt["yAxis"].([]any)[0].(map[string]any)
			if y["min"] != 0.0 || y["max"] != 100.0 || !strings.Contains(y["name"].(string), "%") {
				t.Errorf("y axis %v, want 0 to 100 %%", y)
			}
			x := opt["xAxis"].([]any)[0].(map[string]any)
			if x["name"] != "reading (position in the log)" {
				t.Errorf("x axis %q", x["name"])
			}

			if !strings.Contains(r.html, "Used memory as a percent of the device, as wandb.csv gives it") {
				t.Error("the page does not say what the timeline of percents draws")
			}

			dev := r.summary["devices"].([]any)[0].(map[string]any)
			if dev["gpu_samples"] != nil {
				t.Errorf("summary.json gpu_samples %v, want null: no reading gives bytes", dev["gpu_samples"])
			}
			wantShare := map[string]any{"samples": float64(n), "memory_used_max_percent": slices.Max(want), "sources": []any{"wandb.csv"}}
			if d := cmp.Diff(wantShare, dev["gpu_share"], cmpopts.EquateApprox(0, 1e-9)); d != "" {
				t.Errorf("summary.json gpu_share (-want +got):\n%s", d)
			}

			rows, err := r.xlsx.GetRows("GPU samples", excelize.Options{RawCellValue: true})
			if err != nil {
				t.Fatal(err)
			}
			if h := rows[0]; h[len(h)-1] != "Used share" {
				t.Fatalf("GPU samples header %q", h)
			}
			if len(rows) != n+1 {
				t.Fatalf("GPU samples has %d rows, want %d readings and a header", len(rows), n)
			}
			for i, row := range rows[1:] {
				if len(row) != 7 || row[0] != "cuda:0" || row[3] != "" || row[4] != "" {
					t.Errorf("row %d %q: want cuda:0's share and no bytes", i+1, row)
					continue
				}
				x, _ := strconv.ParseFloat(row[2], 64)
				share, _ := strconv.ParseFloat(row[6], 64)
				if x != float64(i) || math.Abs(share-want[i]/100) > 1e-9 {
					t.Errorf("row %d: x %v share %v, want %d and %v", i+1, x, share, i, want[i]/100)
				}
			}
		})
	}
}
