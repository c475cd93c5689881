package report

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"gpureport/analyze"
	"gpureport/input"
	"gpureport/report/words"
)

// TestXLSXOOMSheet: the workbook's OOMs sheet has a row per explained
// OOM with the figures summary.md's and the page's "Out of memory"
// sections print, as numbers in MiB, a figure the input did not give
// (a training log's message has no largest free block, nor a time)
// left empty. (TestXLSX checks that the charts stay attached.)
func TestXLSXOOMSheet(t *testing.T) {
	fd, _ := fixtureFindings()
	fd.OOMs[0].Missing = 1536 * mibB
	fd.OOMs = append(fd.OOMs, analyze.OOM{Path: "logs/train.log", Rank: input.NoRank, Device: 1, Requested: 4 * gib, DeviceFree: 40 * gib,
		Reserved: 30 * gib, Allocated: 29 * gib, CachedFree: gib, LargestFree: -1, Cause: analyze.CauseLimit, Handled: true})
	f := openXLSX(t, fd)
	rows, err := f.GetRows("OOMs", excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	wantHead := []string{"#", "Device", "Time (UTC)", "Class", "Handled", "Request", "Free on the device", "Reserved", "Allocated", "Cached free",
		"Largest free block", "Missing", "Explanation", "Failing allocation", "File"}
	if len(rows) != 3 || strings.Join(rows[0], "|") != strings.Join(wantHead, "|") {
		t.Fatalf("OOMs sheet rows %q, want a header %q and 2 rows", rows, wantHead)
	}
	mib := func(b int64) string { return strconv.FormatFloat(float64(b)/(1<<20), 'f', -1, 64) }
	cell := func(r []string, i int) string {
		if i < len(r) {
			return r[i]
		}
		return ""
	}
	for i, o := range fd.OOMs {
		r, it := rows[i+1], buildOOM(&fd.OOMs[i])
		largest := mib(o.LargestFree)
		if o.LargestFree < 0 {
			largest = ""
		}
		handled := map[bool]string{true: "yes", false: "no"}[o.Handled]
		for j, want := range map[int]string{1: words.Device(o.Key()), 3: string(o.Cause), 4: handled, 5: mib(o.Requested), 6: mib(o.DeviceFree),
			7: mib(o.Reserved), 8: mib(o.Allocated), 9: mib(o.CachedFree), 10: largest, 11: mib(o.Missing), 12: it.Explanation, 13: o.Site, 14: o.Path} {
			if got := cell(r, j); got != want {
				t.Errorf("OOM %d, %s = %q, want %q", i+1, wantHead[j], got, want)
			}
		}
		if hasTime := cell(r, 2) != ""; hasTime != !o.Time.IsZero() {
			t.Errorf("OOM %d time %q for %v", i+1, cell(r, 2), o.Time)
		}
	}
	// The OOM's explanation is the one the other outputs print.
	md := Markdown(fd, fixedOptions)
	if e := buildOOM(&fd.OOMs[0]).Explanation; !bytes.Contains(md, []byte(mdEscape(e))) {
		t.Errorf("summary.md lacks the OOM's explanation %q", e)
	}
}

// TestOneDeviceName: a device is named alike in every output: the
// workbook's rows, summary.md, stdout and summary.json's name, "rank 0 ·
// cuda:0", never "rank 0 cuda:0".
func TestOneDeviceName(t *testing.T) {
	fd, _ := fixtureFindings()
	name := words.Device(fd.Devices[0].DeviceKey)
	if !strings.Contains(name, " · ") {
		t.Fatalf("fixture device %q has no rank", name)
	}
	bad := strings.ReplaceAll(name, " · ", " ")
	b, err := XLSX(fd, fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	x := string(xlsxText(t, b))
	if !strings.Contains(x, name) || strings.Contains(x, bad+" ") || strings.Contains(x, bad+":") {
		t.Errorf("the workbook names the device otherwise than %q", name)
	}
	var out bytes.Buffer
	if err := Text(&out, fd); err != nil {
		t.Fatal(err)
	}
	md := Markdown(fd, fixedOptions)
	for what, s := range map[string]string{"stdout": out.String(), "summary.md": string(md)} {
		if !strings.Contains(s, name) || strings.Contains(s, bad+" ") {
			t.Errorf("%s names the device otherwise than %q:\n%s", what, name, s)
		}
	}
	s := BuildSummary(fd, fixedOptions)
	if s.Devices[0].Name != name {
		t.Errorf("summary.json name %q, want %q", s.Devices[0].Name, name)
	}
}

// TestHostIdentityEverywhere: summary.json names a rank's pinned host
// memory alike in its device entry, its leak suspects and its leak
// sites: kind host_pinned, device type "host" (never "cuda", which
// would put the leak on GPU 0), and the reports' name; the identity
// reads back as the device's key. The workbook's CUDA device column is
// empty for it.
func TestHostIdentityEverywhere(t *testing.T) {
	f, _ := fixtureFindings()
	h := withHostDevice(f)
	var src *analyze.Device
	for _, d := range f.Devices {
		if len(d.Suspects) > 0 && len(d.LeakSites) > 0 {
			src = d
			break
		}
	}
	if src == nil {
		t.Fatal("the fixture has no device with a leak site")
	}
	h.Suspects = append([]analyze.Suspect(nil), src.Suspects...)
	h.LeakSites = append([]analyze.LeakSite(nil), src.LeakSites...)
	zero := 0
	want := SummaryDeviceID{Device: 0, DeviceType: HostDeviceType, Rank: &zero, Kind: analyze.HostPinnedKind, Name: "rank 0 · pinned host"}
	s := BuildSummary(f, fixedOptions)
	got := map[string]SummaryDeviceID{"suspect": summarySuspect(h, 0).SummaryDeviceID, "site": summaryLeakSite(h, 0).SummaryDeviceID}
	for _, d := range s.Devices {
		if d.Kind != "" {
			got["device"] = d.SummaryDeviceID
		} else if d.DeviceType != "cuda" || d.Name != words.Device(d.Key()) {
			t.Errorf("GPU device %+v", d.SummaryDeviceID)
		}
	}
	for what, id := range got {
		if id.Device != want.Device || id.DeviceType != want.DeviceType || id.Rank == nil || *id.Rank != 0 || id.Kind != want.Kind || id.Name != want.Name || id.PID != 0 || id.MIG != "" {
			t.Errorf("%s identity %+v, want %+v", what, id, want)
		}
		if id.Key() != h.DeviceKey || id.Label() != want.Name {
			t.Errorf("%s identity reads back as %+v (%q), want %+v", what, id.Key(), id.Label(), h.DeviceKey)
		}
	}
	// A summary.json from before names were kept: the label is rebuilt.
	old := want
	old.Name = ""
	if old.Label() != want.Name {
		t.Errorf("older identity's label %q, want %q", old.Label(), want.Name)
	}
	if c := cudaIndexCell(h.DeviceKey); c.Text != "" || finite(c.Value) {
		t.Errorf("pinned host's CUDA device cell %+v, want empty", c)
	}
	if c := cudaIndexCell(src.DeviceKey); c.Text != strconv.Itoa(src.Device) {
		t.Errorf("GPU's CUDA device cell %+v", c)
	}
}

// TestInsufficientTrendEverywhere: a trend too short for any test (its
// slope NaN, as analyze leaves it) reads "insufficient data (N points)"
// in the trend rows the page's timeline and the workbook show, with no
// slope, interval or p-value, and summary.json gives a null slope and an
// empty ci95.
func TestInsufficientTrendEverywhere(t *testing.T) {
	f, _ := fixtureFindings()
	d := f.Devices[0]
	x, y := []float64{0, 100, 200}, []float64{1 << 30, 1<<30 + 1<<27, 1<<30 + 1<<28}
	tr := analyze.FitTrend(analyze.MetricReserved, "step", x, y, analyze.DefaultTrendRules())
	if tr.State != analyze.StateInsufficient {
		t.Fatalf("3 points: state %s", tr.State)
	}
	rows := trendRows(d, []analyze.Trend{tr}, "")
	r := rows[0]
	if r.Slope.Text != "insufficient data (3 points)" || finite(r.Slope.Value) || finite(r.Lo.Value) || finite(r.Hi.Value) || r.PValue.Text != "" || finite(r.PValue.Value) {
		t.Errorf("trend row slope %+v, lo %+v, hi %+v, p %+v", r.Slope, r.Lo, r.Hi, r.PValue)
	}
	if j := r.json; j.SlopeBytesPerStep != nil || len(j.CI95) != 0 || j.State != "insufficient" {
		t.Errorf("summary.json trend slope %v, ci95 %v, state %q", j.SlopeBytesPerStep, j.CI95, j.State)
	}
}
