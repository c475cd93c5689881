package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gpureport/analyze"
	"gpureport/internal/units"
	"gpureport/report/words"
	"gpureport/templates"
)

// Overview is the batch overview page: every run of a batch (all shards
// combined), ranked by severity, with links to the run reports and the
// suspects whose fingerprint is new since the previous batch.
type Overview struct {
	// GeneratedAt is when the overview was written.
	GeneratedAt time.Time
	// Version is gpureport's version.
	Version string
	// Roots are the batch roots.
	Roots []string
	// Shards describes the parts combined, one per shard.
	Shards []OverviewShard
	// Runs are the runs, in any order; the page ranks them (RankRuns).
	Runs []OverviewRun
}

// OverviewShard is one shard's part of the batch.
type OverviewShard struct {
	// Shard is "i/n".
	Shard string
	// Updated is when the shard last wrote its part.
	Updated time.Time
	// Runs counts the shard's runs.
	Runs int
}

// Run statuses in the overview.
const (
	StatusReported  = "reported"
	StatusUnchanged = "unchanged"
	StatusFailed    = "failed"
	StatusLocked    = "locked"
	StatusNothing   = "nothing usable"
)

// OverviewRun is one run's line in the overview.
type OverviewRun struct {
	// Dir is the run directory; Link the relative URL of its index.html
	// from the overview folder ("" when there is no report).
	Dir  string `json:"dir"`
	Link string `json:"link,omitempty"`
	// Status is StatusReported, StatusUnchanged, StatusFailed, StatusLocked
	// or StatusNothing; Error says why for the last three.
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	// Severity ("ok", "info", "warning", "critical"), Headline and Flags
	// (analyze.Flag's spelling) come from the verdict.
	Severity string   `json:"severity,omitempty"`
	Headline string   `json:"headline,omitempty"`
	Flags    []string `json:"flags,omitempty"`
	// Snapshots and Devices count the run's inputs and series.
	Snapshots int `json:"snapshots"`
	Devices   int `json:"devices"`
	// PeakAllocated and PeakReserved are the largest over GPU devices
	// (pinned host memory left out), bytes,
	// of summary.json's devices[].peak_allocated_bytes and
	// peak_reserved_bytes: each device's peaks as analyze decided them and
	// its report shows them; nil (null) when no device knows the figure,
	// as for a run of GPU logs alone.
	PeakAllocated *int64 `json:"peak_allocated_bytes"`
	PeakReserved  *int64 `json:"peak_reserved_bytes"`
	// Slope is the growth of the run's device most at risk (see
	// trendRisk and compareRisk: one that already ran out of memory, else
	// the shortest time to capacity, else the fastest growth per hour,
	// else the steepest growth in its own unit), in bytes per SlopePer
	// ("step", "hour", "reading" or "snapshot") as its device's primary
	// trend gives it; NaN when none was fitted. SlopeMetric names what it
	// measures, as the report names it ("allocated", "reserved
	// (memory_stats)", "nvidia-smi used").
	Slope       float64 `json:"-"`
	SlopePer    string  `json:"slope_per,omitempty"`
	SlopeMetric string  `json:"slope_metric,omitempty"`
	// RanOut is true when that trend's device already ran out of memory
	// (summary.json trend.ran_out): no forecast, the most at risk.
	RanOut bool `json:"ran_out,omitempty"`
	// HoursToCapacity is that trend's time to capacity, hours, as analyze
	// projected it (summary.json trend.hours_to_capacity; 0 when its fit
	// is at capacity already); nil when unknown (no capacity, no pace
	// to hours, not growing, or it ran out).
	HoursToCapacity *float64 `json:"hours_to_capacity,omitempty"`
	// SlopePerHour is that trend's growth in bytes per hour as analyze
	// decided it (summary.json trend.slope_bytes_per_hour: Slope on an
	// hours axis, else Slope at its device's hours per step); nil when
	// the pace is unknown.
	SlopePerHour *float64 `json:"slope_bytes_per_hour,omitempty"`
	// Suspects are the run's top leak suspects.
	Suspects []OverviewSuspect `json:"suspects,omitempty"`
	// ReportedAt is the report's generated_at.
	ReportedAt string `json:"reported_at,omitempty"`
	// Shard is the shard that handled the run ("i/n").
	Shard string `json:"shard,omitempty"`
}

// OverviewSuspect is a leak suspect in the overview.
type OverviewSuspect struct {
	Fingerprint string `json:"fingerprint"`
	Site        string `json:"site"`
	Function    string `json:"function"`
	Device      string `json:"device"`
	// Growth is bytes per Per ("step" or "hour"); NaN when unknown.
	Growth float64 `json:"-"`
	Per    string  `json:"per,omitempty"`
	// New is true when the fingerprint was not seen in the previous batch.
	New bool `json:"new"`
}

// overviewRunFields and overviewSuspectFields are OverviewRun and
// OverviewSuspect without their JSON methods, for those methods to encode.
type (
	overviewRunFields     OverviewRun
	overviewSuspectFields OverviewSuspect
)

// MarshalJSON encodes the run, with the slope null when unknown.
func (r OverviewRun) MarshalJSON() ([]byte, error) {
	return marshalWithNumber(overviewRunFields(r), "slope_bytes", r.Slope)
}

// UnmarshalJSON decodes a run written by MarshalJSON.
func (r *OverviewRun) UnmarshalJSON(b []byte) error {
	return unmarshalWithNumber(b, (*overviewRunFields)(r), "slope_bytes", &r.Slope)
}

// MarshalJSON encodes the suspect, with the growth null when unknown.
func (s OverviewSuspect) MarshalJSON() ([]byte, error) {
	return marshalWithNumber(overviewSuspectFields(s), "growth_bytes", s.Growth)
}

// UnmarshalJSON decodes a suspect written by MarshalJSON.
func (s *OverviewSuspect) UnmarshalJSON(b []byte) error {
	return unmarshalWithNumber(b, (*overviewSuspectFields)(s), "growth_bytes", &s.Growth)
}

// marshalWithNumber encodes v, a struct, with one more field last: key,
// x's value, or null when x is NaN or infinite (JSON has neither).
func marshalWithNumber(v any, key string, x float64) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	n, err := json.Marshal(num(x))
	if err != nil {
		return nil, err
	}
	k, _ := json.Marshal(key)
	out := bytes.TrimSuffix(b, []byte("}"))
	if len(out) > 1 {
		out = append(out, ',')
	}
	out = append(append(append(out, k...), ':'), n...)
	return append(out, '}'), nil
}

// unmarshalWithNumber decodes b into v, a struct, and sets *x to the
// number of its field key, which marshalWithNumber added: NaN when null or
// absent.
func unmarshalWithNumber(b []byte, v any, key string, x *float64) error {
	*x = math.NaN()
	if err := json.Unmarshal(b, v); err != nil {
		return err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	var n *float64
	if r, ok := raw[key]; ok {
		if err := json.Unmarshal(r, &n); err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
	}
	if n != nil {
		*x = *n
	}
	return nil
}

// ReadSummary reads a run's summary.json.
func ReadSummary(path string) (*Summary, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := ParseSummary(b)
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w", path, err)
	}
	return s, nil
}

// ParseSummary decodes a summary.json document; the error says where the
// JSON is wrong or which schema it has instead.
func ParseSummary(b []byte) (*Summary, error) {
	var s Summary
	if err := json.Unmarshal(b, &s); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("at byte %d: %w", se.Offset, err)
		}
		return nil, err
	}
	if s.Schema != SummarySchema {
		return nil, fmt.Errorf("schema %q, want %q", s.Schema, SummarySchema)
	}
	if err := fillOlderPeaks(&s, b); err != nil {
		return nil, err
	}
	fillOlderDeviceTypes(&s)
	return &s, nil
}

// fillOlderDeviceTypes gives the devices, leak suspects, leak sites and
// OOMs of a summary.json written before device_type existed the type
// their device numbers meant then: CUDA, the only type that version knew
// (docs/design.md: an absent device_type is "cuda").
func fillOlderDeviceTypes(s *Summary) {
	fill := func(t *string) {
		if *t == "" {
			*t = analyze.CUDA.String()
		}
	}
	for i := range s.Devices {
		fill(&s.Devices[i].DeviceType)
	}
	for i := range s.Verdict.LeakSuspects {
		fill(&s.Verdict.LeakSuspects[i].DeviceType)
	}
	for i := range s.Verdict.LeakSites {
		fill(&s.Verdict.LeakSites[i].DeviceType)
	}
	for i := range s.OOMs {
		fill(&s.OOMs[i].DeviceType)
	}
}

// fillOlderPeaks gives each device of a summary.json written before
// devices[].peak_allocated_bytes and peak_reserved_bytes existed (the
// batch reads an unchanged run's summary.json, which an older gpureport
// of the same version string may have written) the peaks that version's
// reports showed, from the fields it did write: the largest of its
// snapshots' allocated_bytes and reserved_bytes, else, without
// snapshots, memory_stats' allocated_max_bytes and reserved_max_bytes
// (analyze's rule, as the overview applied it then); null where neither
// gives the figure. A field that is present, null included, is kept.
func fillOlderPeaks(s *Summary, b []byte) error {
	var raw struct {
		Devices []map[string]json.RawMessage `json:"devices"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("devices' peaks: %w", err)
	}
	for i, fields := range raw.Devices {
		_, hasAlloc := fields["peak_allocated_bytes"]
		_, hasRes := fields["peak_reserved_bytes"]
		if i >= len(s.Devices) || hasAlloc && hasRes {
			continue
		}
		d := &s.Devices[i]
		var alloc, res *int64
		for _, sn := range d.Snapshots {
			alloc, res = maxKnown(alloc, &sn.AllocatedBytes), maxKnown(res, &sn.ReservedBytes)
		}
		if m := d.MemoryStats; len(d.Snapshots) == 0 && m != nil {
			alloc, res = maxKnown(nil, m.AllocatedMaxBytes), maxKnown(nil, m.ReservedMaxBytes)
		}
		if !hasAlloc {
			d.PeakAllocatedBytes = alloc
		}
		if !hasRes {
			d.PeakReservedBytes = res
		}
	}
	return nil
}

// OverviewRunFromSummary makes a run's overview line from its summary.json,
// so fresh and unchanged runs are shown alike. Suspects' New flags are
// left false for the caller to set.
func OverviewRunFromSummary(s *Summary) OverviewRun {
	r := OverviewRun{
		Dir: s.Run, Status: StatusReported, Severity: s.Verdict.Severity, Headline: s.Verdict.Headline,
		Snapshots: s.Inputs.Snapshots, Devices: len(s.Devices), ReportedAt: s.GeneratedAt, Slope: math.NaN(),
	}
	v := s.Verdict
	for _, fl := range v.Flagged().Flags() {
		r.Flags = append(r.Flags, string(fl))
	}
	for _, d := range s.Devices {
		// The device's peaks as analyze decided them, never re-derived
		// here from its snapshots or readings. The columns are GPU
		// memory: a rank's pinned host memory is not, and its peak
		// (host RAM, often larger than the GPU's) would stand in a GPU
		// column.
		if d.Kind != analyze.HostPinnedKind {
			r.PeakAllocated = maxKnown(r.PeakAllocated, d.PeakAllocatedBytes)
			r.PeakReserved = maxKnown(r.PeakReserved, d.PeakReservedBytes)
		}
		if k, ok := trendRisk(d.Trend); ok && (math.IsNaN(r.Slope) || compareRisk(k, runRisk(r)) < 0) {
			r.Slope, r.SlopePer, r.SlopeMetric = k.slope, string(k.per), trendMetricName(d.Trend)
			r.RanOut, r.HoursToCapacity, r.SlopePerHour = k.ranOut, k.hours, k.perHour
		}
	}
	for _, ls := range v.LeakSuspects {
		g, per := math.NaN(), "step"
		if ls.GrowthBytesPerStep != nil {
			g = *ls.GrowthBytesPerStep
		} else if ls.GrowthBytesPerHour != nil {
			g, per = *ls.GrowthBytesPerHour, "hour"
		} else if ls.GrowthBytesPerSnapshot != nil {
			g, per = *ls.GrowthBytesPerSnapshot, "snapshot"
		}
		r.Suspects = append(r.Suspects, OverviewSuspect{Fingerprint: ls.Fingerprint, Site: ls.Site, Function: ls.Function, Device: ls.Label(), Growth: g, Per: per})
	}
	return r
}

// risk is what the overview compares of a trend across runs. Slopes of
// different units (bytes per step, per hour, per snapshot, per reading)
// are not comparable, nor are steps of two runs (a step of one model is
// not a step of another): what is comparable is the time to capacity in
// hours, where analyze projected one, and the growth per hour, where the
// trend is on an hours axis or analyze knew its pace to hours. A trend
// with neither is compared with trends of its own unit only.
type risk struct {
	slope float64
	per   units.Per
	// ranOut: the device already ran out of memory.
	ranOut bool
	// hours is the time to capacity (hours); perHour the growth in bytes
	// per hour. nil when unknown.
	hours, perHour *float64
}

// riskClass orders the kinds of risk, most at risk first; each class
// compares its own figure only: 0 ran out, 1 a time to capacity, 2 a
// growth per hour, then growth per step, per snapshot and per reading,
// each in its unit (a run whose unit is unknown last).
func (k risk) class() int {
	switch {
	case k.ranOut:
		return 0
	case k.hours != nil:
		return 1
	case k.perHour != nil:
		return 2
	}
	switch k.per {
	case units.PerStep:
		return 3
	case units.PerSnapshot:
		return 4
	case units.PerReading:
		return 5
	}
	return 6
}

// compareRisk is negative when a is more at risk than b, positive when b
// is, 0 when they are alike or not comparable: a run that ran out first,
// then the shorter time to capacity, then the faster growth per hour,
// then, within one unit, the steeper slope. A slope that is unknown (NaN)
// is the least at risk.
func compareRisk(a, b risk) int {
	if c := cmp.Compare(a.class(), b.class()); c != 0 {
		return c
	}
	desc := func(x, y float64) int { return cmp.Compare(orLowest(y), orLowest(x)) }
	switch a.class() {
	case 0:
		return desc(deref(a.perHour), deref(b.perHour))
	case 1:
		return cmp.Or(cmp.Compare(*a.hours, *b.hours), desc(deref(a.perHour), deref(b.perHour)))
	case 2:
		return desc(*a.perHour, *b.perHour)
	}
	return desc(a.slope, b.slope)
}

// orLowest is x, or -Inf for NaN (unknown sorts last).
func orLowest(x float64) float64 {
	if math.IsNaN(x) {
		return math.Inf(-1)
	}
	return x
}

// deref is *p, NaN for nil.
func deref(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// trendRisk is a summary.json trend's risk, as analyze decided its
// figures (never re-derived from its points or from one another): its
// slope in its unit, whether it ran out, its hours to capacity (0 when
// its fit is at capacity already: remaining_to_capacity 0, which has no
// hours), and its growth per hour, slope_bytes_per_hour (set wherever
// analyze knew the axis's pace). False when it has no slope, and for a
// trend analyze calls flat: its fitted slope (a rise that stopped or
// levelled off, one level change) is no growth, so it neither ranks a
// run nor shows as its growth.
func trendRisk(t SummaryTrend) (risk, bool) {
	k := risk{}
	if t.State == string(analyze.StateFlat) {
		return k, false
	}
	var slope *float64
	for _, c := range []struct {
		s   *float64
		per units.Per
	}{{t.SlopeBytesPerStep, units.PerStep}, {t.SlopeBytesPerHour, units.PerHour}, {t.SlopeBytesPerSnapshot, units.PerSnapshot}, {t.SlopeBytesPerReading, units.PerReading}} {
		if c.s != nil {
			slope, k.per = c.s, c.per
			break
		}
	}
	if slope == nil {
		return k, false
	}
	k.slope = *slope
	k.perHour = t.SlopeBytesPerHour
	rem, hrs := t.RemainingToCapacity, t.HoursToCapacity
	switch {
	case t.RanOut != nil:
		k.ranOut = true
	case hrs != nil:
		k.hours = hrs
	case rem != nil && *rem == 0 && t.CapacityAt != nil:
		zero := 0.0
		k.hours = &zero
	}
	return k, true
}

// runRisk is the risk of a run's overview line.
func runRisk(r OverviewRun) risk {
	return risk{slope: r.Slope, per: units.Per(r.SlopePer), ranOut: r.RanOut, hours: r.HoursToCapacity, perHour: r.SlopePerHour}
}

// trendMetricName names a summary trend's metric as the device's report
// does: "allocated", "reserved (memory_stats)".
func trendMetricName(t SummaryTrend) string {
	if t.Metric == "" {
		return ""
	}
	return words.TrendName(&analyze.Trend{Metric: t.Metric, Source: t.Source})
}

// maxKnown is the larger of two byte counts, either of which may be
// unknown (nil); nil when both are.
func maxKnown(a, b *int64) *int64 {
	switch {
	case b == nil:
		return a
	case a == nil || *b > *a:
		v := *b
		return &v
	}
	return a
}

// RankRuns orders runs for the overview: most severe first, then by the
// number of new suspects, then by risk (compareRisk: a device that ran out,
// the shortest time to capacity, the fastest growth per hour, then the
// steepest growth within one unit), then by path.
func RankRuns(runs []OverviewRun) {
	rank := func(r OverviewRun) int {
		switch r.Status {
		case StatusFailed, StatusLocked, StatusNothing:
			return 1 // below warnings, above healthy runs: someone should look
		}
		return []int{0, 0, 2, 3}[severityRank(r.Severity)] * 2
	}
	newCount := func(r OverviewRun) int {
		n := 0
		for _, s := range r.Suspects {
			if s.New {
				n++
			}
		}
		return n
	}
	slices.SortStableFunc(runs, func(a, b OverviewRun) int {
		return cmp.Or(cmp.Compare(rank(b), rank(a)), cmp.Compare(newCount(b), newCount(a)), compareRisk(runRisk(a), runRisk(b)), strings.Compare(a.Dir, b.Dir))
	})
}

type overviewPage struct {
	GeneratedAt, Version string
	Roots                []string
	Shards               []overviewShardView
	Counts               []countView
	// NewFingerprints is how many distinct new leak fingerprints the runs
	// hold ("" when none), with the number of runs holding them.
	NewFingerprints string
	Runs            []overviewRunView
	CSS             template.CSS
}

type overviewShardView struct{ Shard, Updated, Runs string }

type countView struct {
	Severity string
	N        int
}

type overviewRunView struct {
	N                                      int
	Dir, Link, Status, Error               string
	Severity, Headline                     string
	Flags                                  []string
	Snapshots, PeakAllocated, PeakReserved string
	Slope, SlopeMetric, ReportedAt         string
	Suspects                               []overviewSuspectView
}

type overviewSuspectView struct {
	Fingerprint, Short, Site, Function, Device, Growth string
	New                                                bool
}

var overviewTemplate = templates.Page("overview.html", nil)

// OverviewHTML renders the overview page: one self-contained file (no
// script at all), runs ranked by RankRuns.
func OverviewHTML(o *Overview) ([]byte, error) {
	runs := slices.Clone(o.Runs)
	RankRuns(runs)
	p := overviewPage{GeneratedAt: units.Timestamp(o.GeneratedAt), Version: o.Version, Roots: o.Roots, CSS: template.CSS(templates.MustRead("style.css"))}
	for _, s := range o.Shards {
		if len(o.Shards) == 1 && s.Shard == "0/1" {
			break // not sharded: nothing to say
		}
		p.Shards = append(p.Shards, overviewShardView{Shard: s.Shard, Updated: units.Timestamp(s.Updated) + " (" + units.Relative(s.Updated, o.GeneratedAt) + ")", Runs: units.Count(int64(s.Runs))})
	}
	counts := map[string]int{}
	// A fingerprint seen in many runs (copies of one run, or one bug in
	// many) is counted once; the runs holding new ones are counted apart.
	newFP, newRuns := map[string]map[int]bool{}, map[int]bool{}
	for i, r := range runs {
		sev := r.Severity
		switch r.Status {
		case StatusFailed, StatusLocked, StatusNothing:
			sev = r.Status
		}
		if sev == "" {
			sev = "ok"
		}
		counts[sev]++
		v := overviewRunView{
			N: i + 1, Dir: runName(r.Dir, o.Roots), Link: r.Link, Status: r.Status, Error: r.Error, Severity: sev, Headline: r.Headline, Flags: r.Flags,
			Snapshots: units.Count(int64(r.Snapshots)), PeakAllocated: knownBytesText(r.PeakAllocated), PeakReserved: knownBytesText(r.PeakReserved),
			Slope: slopeText(r), SlopeMetric: slopeMetricText(r), ReportedAt: r.ReportedAt,
		}
		for _, s := range r.Suspects {
			sv := overviewSuspectView{Fingerprint: s.Fingerprint, Short: shortFingerprint(s.Fingerprint), Site: s.Site, Function: s.Function, Device: s.Device,
				Growth: rateCell(s.Growth, units.Per(s.Per)).Text, New: s.New}
			if s.New {
				if newFP[s.Fingerprint] == nil {
					newFP[s.Fingerprint] = map[int]bool{}
				}
				newFP[s.Fingerprint][i] = true
				newRuns[i] = true
			}
			v.Suspects = append(v.Suspects, sv)
		}
		p.Runs = append(p.Runs, v)
	}
	p.NewFingerprints = newFingerprintsText(len(newFP), len(newRuns))
	for _, sev := range []string{"critical", "warning", StatusFailed, StatusLocked, StatusNothing, "info", "ok"} {
		if counts[sev] > 0 {
			p.Counts = append(p.Counts, countView{sev, counts[sev]})
		}
	}
	var buf bytes.Buffer
	if err := overviewTemplate.Execute(&buf, p); err != nil {
		return nil, fmt.Errorf("render overview: %w", err)
	}
	return buf.Bytes(), nil
}

// newFingerprintsText says how many distinct new leak fingerprints were
// found in how many runs: "1 new leak fingerprint (in 4 runs)"; "" for none.
func newFingerprintsText(fingerprints, runs int) string {
	if fingerprints == 0 {
		return ""
	}
	return units.CountOf(fingerprints, "new leak fingerprint") + " (in " + units.CountOf(runs, "run") + ")"
}

// slopeText is a run's growth in its trend's own unit, with its growth
// per hour beside a slope of another unit when analyze knew the pace:
// "+51.0 MiB/step (+1.20 GiB/hour)"; "n/a" when none was fitted.
func slopeText(r OverviewRun) string {
	s := rateCell(r.Slope, units.Per(r.SlopePer)).Text
	if h := r.SlopePerHour; h != nil && finite(r.Slope) && units.Per(r.SlopePer) != units.PerHour && finite(*h) {
		s += " (" + units.Rate(*h, units.PerHour) + ")"
	}
	return s
}

// slopeMetricText names the metric of a run's trend most at risk with
// what the runs are ranked by: "allocated, ran out of memory",
// "allocated, capacity in 12.0 hours", "nvidia-smi used"; "" when none
// was fitted.
func slopeMetricText(r OverviewRun) string {
	if !finite(r.Slope) {
		return ""
	}
	parts := []string{}
	if r.SlopeMetric != "" {
		parts = append(parts, r.SlopeMetric)
	}
	switch {
	case r.RanOut:
		parts = append(parts, "ran out of memory")
	case r.HoursToCapacity != nil && *r.HoursToCapacity == 0:
		parts = append(parts, "at capacity")
	case r.HoursToCapacity != nil:
		parts = append(parts, "capacity in "+units.Hours(*r.HoursToCapacity))
	}
	return strings.Join(parts, ", ")
}

// knownBytesText is a byte count's text, "n/a" when unknown (nil).
func knownBytesText(b *int64) string {
	if b == nil {
		return "n/a"
	}
	return units.Bytes(*b)
}

// runName shows a run directory relative to the batch root holding it (the
// root's own name when the run is the root), or as given when no root
// holds it.
func runName(dir string, roots []string) string {
	best := ""
	for _, root := range roots {
		r := strings.TrimSuffix(filepath.ToSlash(root), "/")
		d := filepath.ToSlash(dir)
		if (d == r || strings.HasPrefix(d, r+"/")) && len(r) > len(best) {
			best = r
		}
	}
	if best == "" {
		return dir
	}
	if rel := strings.TrimPrefix(strings.TrimPrefix(filepath.ToSlash(dir), best), "/"); rel != "" {
		return rel
	}
	return filepath.Base(dir)
}

// severityRank orders severities, most severe highest.
func severityRank(s string) int { return analyze.Severity(s).Rank() }
