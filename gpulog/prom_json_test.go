package gpulog_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
)

// promSeriesJSON is one series of a Prometheus API result: the metric's
// labels and, for a matrix, values used+step*i MiB a minute apart from
// 2024-03-01T10:00:00Z.
func promSeriesJSON(name string, gpu int, host string, used, step, n int) string {
	var vals []string
	for i := range n {
		vals = append(vals, fmt.Sprintf(`[%d, "%d"]`, 1709287200+60*i, used+step*i))
	}
	return fmt.Sprintf(`{"metric": {"__name__": %q, "gpu": "%d", "UUID": "GPU-%s-%d", "device": "nvidia%d", "modelName": "NVIDIA A100-SXM4-80GB", "Hostname": %q, "job": "dcgm-exporter"}, "values": [%s]}`,
		name, gpu, host, gpu, gpu, host, strings.Join(vals, ", "))
}

func promMatrix(series ...string) string {
	return `{"status": "success", "data": {"resultType": "matrix", "result": [` + strings.Join(series, ", ") + `]}}`
}

// TestPromJSON: a Prometheus query_range response of DCGM exporter
// metrics gives one reading per device and sample time, the series of
// one device at one time (used, free, total) making one reading, in MiB.
func TestPromJSON(t *testing.T) {
	cases := []struct {
		name    string
		in      string
		samples int
		gpus    int
		// used0, used1 are GPU 1's first and last used MiB; total its total.
		used0, used1, total int64
		note                string
	}{
		{name: "used of two GPUs", in: promMatrix(promSeriesJSON("DCGM_FI_DEV_FB_USED", 0, "n1", 40000, 0, 60), promSeriesJSON("DCGM_FI_DEV_FB_USED", 1, "n1", 40000, 150, 60)),
			samples: 120, gpus: 2, used0: 40000, used1: 40000 + 150*59, total: gpulog.Unknown},
		{name: "used and free of one GPU join", in: promMatrix(promSeriesJSON("DCGM_FI_DEV_FB_USED", 1, "n1", 1000, 10, 5), promSeriesJSON("DCGM_FI_DEV_FB_FREE", 1, "n1", 80000, -10, 5)),
			samples: 5, gpus: 1, used0: 1000, used1: 1040, total: 81000, note: "neither DCGM_FI_DEV_FB_TOTAL nor DCGM_FI_DEV_FB_RESERVED"},
		{name: "total wins", in: promMatrix(promSeriesJSON("DCGM_FI_DEV_FB_TOTAL", 1, "n1", 81920, 0, 5), promSeriesJSON("DCGM_FI_DEV_FB_USED", 1, "n1", 1000, 10, 5), promSeriesJSON("DCGM_FI_DEV_FB_FREE", 1, "n1", 80000, -10, 5)),
			samples: 5, gpus: 1, used0: 1000, used1: 1040, total: 81920},
		{name: "other metrics passed over", in: promMatrix(promSeriesJSON("DCGM_FI_DEV_SM_CLOCK", 1, "n1", 1410, 0, 5), promSeriesJSON("DCGM_FI_DEV_FB_USED", 1, "n1", 1000, 10, 5), promSeriesJSON("up", 1, "n1", 1, 0, 5)),
			samples: 5, gpus: 1, used0: 1000, used1: 1040, total: gpulog.Unknown},
		{name: "instant vector", in: `{"status":"success","data":{"resultType":"vector","result":[{"metric":{"__name__":"DCGM_FI_DEV_FB_USED","gpu":"1","UUID":"GPU-x"},"value":[1709287200.5,"1000"]}]}}`,
			samples: 1, gpus: 1, used0: 1000, used1: 1000, total: gpulog.Unknown},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if f, ok := gpulog.SniffLog([]byte(c.in)); !ok || f != gpulog.FormatPromJSON {
				t.Fatalf("SniffLog = %q, %v", f, ok)
			}
			l := readString(t, c.in, gpulog.FormatPromJSON)
			if len(l.Samples) != c.samples || len(l.GPUs) != c.gpus {
				t.Fatalf("%d samples of %d GPUs, want %d of %d: %+v", len(l.Samples), len(l.GPUs), c.samples, c.gpus, l.Problems)
			}
			var g1 []gpulog.GPUSample
			for _, s := range l.Samples {
				if s.GPU == 1 {
					g1 = append(g1, s)
				}
			}
			first, last := g1[0], g1[len(g1)-1]
			if first.MemoryUsed != c.used0*logMiB || last.MemoryUsed != c.used1*logMiB {
				t.Errorf("GPU 1 used %d .. %d, want %d .. %d MiB", first.MemoryUsed, last.MemoryUsed, c.used0*logMiB, c.used1*logMiB)
			}
			want := c.total
			if want > 0 {
				want *= logMiB
			}
			if first.MemoryTotal != want {
				t.Errorf("total %d, want %d", first.MemoryTotal, want)
			}
			if want0 := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC); !first.Time.Truncate(time.Second).Equal(want0) {
				t.Errorf("first time %v, want %v", first.Time, want0)
			}
			for i := 1; i < len(g1); i++ {
				if !g1[i].Time.After(g1[i-1].Time) {
					t.Fatalf("readings out of time order at %d", i)
				}
			}
			hasNote := false
			for _, n := range l.Notes {
				hasNote = hasNote || c.note != "" && strings.Contains(n, c.note)
			}
			if hasNote != (c.note != "") {
				t.Errorf("notes %q, want one with %q", l.Notes, c.note)
			}
		})
	}
}

// TestPromJSONUnread: a Prometheus response that holds no DCGM
// framebuffer series is claimed (it is a monitoring export) and fails
// with a reason naming what it holds; JSON that is no API response is
// not claimed.
func TestPromJSONUnread(t *testing.T) {
	cases := []struct {
		name, in, want string
		claimed        bool
	}{
		{name: "host metrics", in: promMatrix(`{"metric": {"__name__": "node_memory_MemFree_bytes"}, "values": [[1709287200, "1"]]}`),
			want: "node_memory_MemFree_bytes and none of DCGM", claimed: true},
		{name: "DCGM without memory", in: promMatrix(promSeriesJSON("DCGM_FI_DEV_GPU_UTIL", 0, "n", 50, 0, 3)),
			want: "none of them a framebuffer field", claimed: true},
		{name: "error response", in: `{"status":"error","errorType":"bad_data","error":"parse error","data":{"resultType":"matrix","result":[]}}`,
			want: "error response", claimed: true},
		{name: "scalar", in: `{"status":"success","data":{"resultType":"scalar","result":[1709287200,"1"]}}`},
		{name: "config", in: `{"lr": 0.1, "resultTypes": ["matrix"]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, ok := gpulog.SniffLog([]byte(c.in))
			if ok != c.claimed || ok && f != gpulog.FormatPromJSON {
				t.Fatalf("SniffLog = %q, %v; want claimed %v", f, ok, c.claimed)
			}
			if !c.claimed {
				return
			}
			_, err := gpulog.ReadLog(strings.NewReader(c.in), gpulog.FormatPromJSON, gpulog.ReadOptions{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one with %q", err, c.want)
			}
		})
	}
}

// TestPromJSONBadPoints: samples that are no [unix_seconds, "number"]
// pair are skipped and counted, the rest read.
func TestPromJSONBadPoints(t *testing.T) {
	in := promMatrix(`{"metric": {"__name__": "DCGM_FI_DEV_FB_USED", "gpu": "0"}, "values": [[1709287200, "1000"], [1709287260, "NaN"], ["x", "5"], [1709287380, 7], [1709287440], [1709287500, "-3"], [1709287560, "1010"]]}`,
		`{"metric": {"__name__": "DCGM_FI_DEV_FB_USED"}, "values": [[1709287200, "1000"]]}`)
	l := readString(t, in, gpulog.FormatPromJSON)
	if len(l.Samples) != 2 || l.SkippedLines != 6 {
		t.Fatalf("%d samples, %d skipped (%+v); want 2 and 6", len(l.Samples), l.SkippedLines, l.Problems)
	}
}

// readString reads in as a log of format f, failing the test on error.
func readString(t *testing.T, in string, f gpulog.LogFormat) *gpulog.GPULog {
	t.Helper()
	l, err := gpulog.ReadLog(strings.NewReader(in), f, gpulog.ReadOptions{Location: time.UTC})
	if err != nil {
		t.Fatalf("ReadLog: %v", err)
	}
	return l
}
