package gpulog

import (
	"encoding/csv"
	"fmt"
	"strings"
	"time"

	"gpureport/internal/units"
)

// Grafana's panel export (Inspect > Data > Download CSV, grafana.com
// "Inspect a panel"): a "Time" column and, with "Series joined by time",
// one column per series named by the panel's legend. The legend left
// empty names a Prometheus series by its query's metric and labels
// (`DCGM_FI_DEV_FB_USED{gpu="0", Hostname="node1", ...}`): such a column
// says its metric, GPU and unit (DCGM's framebuffer fields are MiB) and
// is read as the exporter's text is (promColumn, in classifyColumn). A
// legend such as "{{Hostname}} GPU {{gpu}}" names the GPU and not the
// metric, and the values are raw numbers unless "Formatted data" was
// chosen: what the series are is not in the file, so it is not read
// (GrafanaCSVReason says so).

// promColumn reads a column named as a Prometheus series,
// `METRIC{label="value", ...}`: the column of a DCGM framebuffer field
// (used, free or total, in MiB) of the GPU its gpu label names. ok is
// false for a name of another form; a series of another metric is a
// column of no kind.
func promColumn(i int, name string) (c column, ok bool) {
	name = strings.TrimSpace(name)
	open := strings.IndexByte(name, '{')
	if open <= 0 || !strings.HasSuffix(name, "}") || strings.ContainsAny(name[:open], " \t") {
		return column{}, false
	}
	p, err := parsePromLine(name + " 0")
	if err != nil {
		return column{}, false
	}
	c = column{idx: i, name: name, gpu: -1}
	switch dcgmField(p.name) {
	case "used":
		c.kind = colUsed
	case "free":
		c.kind = colFree
	case "total":
		c.kind = colTotal
	default:
		return c, true
	}
	c.unit = mib
	idx, hasGPU := atoi(p.labels["gpu"])
	if !hasGPU || idx >= maxGPUsPerSample {
		return column{idx: i, name: name, gpu: -1}, true
	}
	c.gpu = idx
	return c, true
}

// GrafanaCSVReason says why the head of a file is a Grafana panel CSV
// that gpureport cannot read: its series columns do not say their metric
// (and, with raw values, their unit). false when head is no such export.
func GrafanaCSVReason(head []byte) (string, bool) {
	r := csv.NewReader(strings.NewReader(string(head)))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil || len(header) < 2 || strings.TrimPrefix(strings.TrimSpace(header[0]), "\ufeff") != "Time" {
		return "", false
	}
	rec, err := r.Read()
	if err != nil || len(rec) != len(header) {
		return "", false
	}
	if _, _, ok := parseStamp(rec[0], time.UTC); !ok {
		if _, _, ok := numericTime(rec[0], 0); !ok {
			return "", false
		}
	}
	withUnits := false
	for _, v := range rec[1:] {
		if _, suf := units.SplitUnit(strings.TrimSpace(v)); suf != "" {
			if _, ok := byteUnit(suf); ok {
				withUnits = true
			}
		}
	}
	missing := "which metric they are (used, free or total memory) nor their unit (the values are bare numbers)"
	if withUnits {
		missing = "which metric they are (used, free or total memory)"
	}
	return fmt.Sprintf("a Grafana panel CSV (\"Time\" and one column per series: %q ...) whose series names do not say %s: "+
		"not read; export the panel with an empty legend, which names each series by its query (DCGM_FI_DEV_FB_USED{gpu=\"0\", ...}), "+
		"or save the Prometheus API's JSON (curl '<prometheus>/api/v1/query_range?query=DCGM_FI_DEV_FB_USED&start=...&end=...&step=60' > fb.json)",
		strings.TrimSpace(header[1]), missing), true
}
