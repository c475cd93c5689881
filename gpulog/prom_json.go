package gpulog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// FormatPromJSON is a Prometheus HTTP API response saved to a file: the
// JSON of /api/v1/query_range (or /api/v1/query) for DCGM exporter
// metrics (prom_json.go).
const FormatPromJSON LogFormat = "prometheus-json"

// A Prometheus HTTP API response, as `curl
// 'host:9090/api/v1/query_range?query=DCGM_FI_DEV_FB_USED&...'` saves it
// (prometheus.io, "HTTP API"):
//
//	{"status": "success", "data": {"resultType": "matrix", "result": [
//	  {"metric": {"__name__": "DCGM_FI_DEV_FB_USED", "gpu": "0", "UUID": "GPU-...",
//	              "modelName": "NVIDIA A100-SXM4-80GB", "Hostname": "node1", ...},
//	   "values": [[1709287200, "40000"], [1709287260, "40020"], ...]}]}}
//
// A "matrix" result gives each series its [unix_seconds, "value"] pairs,
// a "vector" result (/api/v1/query) one "value" pair per series. Each
// series is one DCGM exporter metric of one device; the metric's name
// (__name__) and its labels mean what they mean in the exporter's text
// (dcgm_prom.go): the framebuffer fields are MiB, gpu is the index, and
// the series of one device (Hostname, UUID, gpu, GPU_I_ID) at one time
// make one reading. A series without __name__ (an expression such as
// sum() or rate() drops it) says no metric and is not read. The document
// is decoded whole, up to ReadOptions.MaxDocumentBytes.

// sniffPromJSON reports whether head is the start of a Prometheus HTTP
// API query response: an object with "resultType" (Prometheus writes
// "status" and "data" first, the data's "resultType" before "result").
func sniffPromJSON(head []byte) bool {
	t := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	i := bytes.Index(t, []byte(`"resultType"`))
	if i < 0 {
		return false
	}
	rest := bytes.TrimLeft(t[i+len(`"resultType"`):], " \t\r\n")
	rest = bytes.TrimLeft(bytes.TrimPrefix(rest, []byte(":")), " \t\r\n")
	for _, rt := range []string{`"matrix"`, `"vector"`} {
		if bytes.HasPrefix(rest, []byte(rt)) {
			return true
		}
	}
	return false
}

// promResponse is the part of an API response the reader uses; a file
// may also hold the data object alone.
type promResponse struct {
	Status     string          `json:"status"`
	Error      string          `json:"error"`
	Data       *promData       `json:"data"`
	ResultType string          `json:"resultType"`
	Result     json.RawMessage `json:"result"`
}

type promData struct {
	ResultType string          `json:"resultType"`
	Result     json.RawMessage `json:"result"`
}

// promSeries is one series of a matrix or vector result.
type promSeries struct {
	Metric map[string]string `json:"metric"`
	Values [][]any           `json:"values"`
	Value  []any             `json:"value"`
}

// defaultMaxDocument is ReadOptions.MaxDocumentBytes's default.
const defaultMaxDocument = 256 << 20

func readPromJSON(r io.Reader, b *logBuilder) error {
	limit := b.opt.MaxDocumentBytes
	if limit <= 0 {
		limit = defaultMaxDocument
	}
	raw, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return err
	}
	if int64(len(raw)) > limit {
		return fmt.Errorf("a Prometheus response larger than %d bytes: not decoded", limit)
	}
	var resp promResponse
	if err := json.Unmarshal(bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf")), &resp); err != nil {
		return fmt.Errorf("not a Prometheus response: %w", err)
	}
	if resp.Status == "error" {
		return fmt.Errorf("a Prometheus error response, no data: %s", clip(resp.Error))
	}
	rt, result := resp.ResultType, resp.Result
	if resp.Data != nil {
		rt, result = resp.Data.ResultType, resp.Data.Result
	}
	if rt != "matrix" && rt != "vector" {
		return fmt.Errorf("a Prometheus result of type %q: only matrix and vector results hold series", rt)
	}
	var series []promSeries
	if len(result) > 0 && string(result) != "null" {
		dec := json.NewDecoder(bytes.NewReader(result))
		dec.UseNumber()
		if err := dec.Decode(&series); err != nil {
			return fmt.Errorf("the Prometheus %s result: %w", rt, err)
		}
	}
	// byTime holds one scrape per sample time (Unix ms), so that the
	// series of a device at one time make one reading.
	byTime := map[int64]*dcgmScrape{}
	// metrics counts DCGM series, memory those of framebuffer fields;
	// others names the first metrics of other exporters.
	var tally dcgmTally
	var others []string
	for i, s := range series {
		n := i + 1
		name := s.Metric["__name__"]
		if !strings.HasPrefix(name, dcgmPrefix) {
			if len(others) < 3 && !slices.Contains(others, name) {
				others = append(others, name)
			}
			continue
		}
		field, idx, ok := tally.series(b, n, fmt.Sprintf("series %d: ", n), name, s.Metric)
		if !ok {
			continue
		}
		points := s.Values
		if rt == "vector" && s.Value != nil {
			points = [][]any{s.Value}
		}
		for _, pt := range points {
			t, v, why := promPoint(pt)
			if why == "" {
				why = dcgmBadValue(field, name, v)
			}
			if why != "" {
				b.skip(n, kindBadRow, fmt.Sprintf("series %d (%s): %s", n, name, why))
				continue
			}
			ms := t.UnixMilli()
			sc := byTime[ms]
			if sc == nil {
				sc = newDCGMScrape(t)
				byTime[ms] = sc
			}
			sc.dcgmDevice(s.Metric, idx, n).set(field, name, v)
		}
	}
	if tally.metrics == 0 {
		what := "no series"
		if len(others) > 0 {
			what = "series of " + strings.Join(others, ", ")
		}
		return fmt.Errorf("a Prometheus %s result with %s and none of DCGM exporter's metrics (DCGM_FI_DEV_FB_USED, _FREE, _TOTAL)", rt, what)
	}
	if tally.memory == 0 {
		return fmt.Errorf("%d DCGM series, none of them a framebuffer field (DCGM_FI_DEV_FB_USED, _FREE, _TOTAL): query those metrics", tally.metrics)
	}
	times := make([]int64, 0, len(byTime))
	for ms := range byTime {
		times = append(times, ms)
	}
	slices.Sort(times)
	unreserved := 0
	for _, ms := range times {
		unreserved += b.flushDCGM(byTime[ms])
	}
	if unreserved > 0 {
		b.note(fmt.Sprintf("%d readings have used and free memory but neither DCGM_FI_DEV_FB_TOTAL nor DCGM_FI_DEV_FB_RESERVED: "+
			"their total is used + free, which leaves out the driver's reserved memory, so the device's capacity is that much below the card's; "+
			"query DCGM_FI_DEV_FB_RESERVED too, or pass --capacity", unreserved))
	}
	return nil
}

// promPoint reads one [unix_seconds, "value"] pair; why says what is
// wrong with it, "" when nothing is.
func promPoint(pt []any) (t time.Time, v float64, why string) {
	if len(pt) != 2 {
		return t, 0, fmt.Sprintf("a sample of %d elements, not [time, value]", len(pt))
	}
	ts, ok := pt[0].(json.Number)
	if !ok {
		return t, 0, fmt.Sprintf("sample time %v is not a number", pt[0])
	}
	sec, err := ts.Float64()
	// Unix seconds of a clock's dates, as parseDateLine takes them
	// (1970 to 9999).
	if err != nil || !(sec > 0 && sec < 253402300800) {
		return t, 0, fmt.Sprintf("sample time %s is not Unix seconds", clip(ts.String()))
	}
	whole, frac := math.Modf(sec)
	t = time.Unix(int64(whole), int64(math.Round(frac*1e3))*1e6).UTC()
	vs, ok := pt[1].(string)
	if !ok {
		return t, 0, fmt.Sprintf("sample value %v is not a string", pt[1])
	}
	v, err = strconv.ParseFloat(vs, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return t, 0, fmt.Sprintf("sample value %q is not a number", clip(vs))
	}
	return t, v, ""
}
