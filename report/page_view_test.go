package report

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gpureport/analyze"
	"gpureport/ingest"
	"gpureport/input"
)

// The page tests look at a report the way a person does: in Chromium, at
// a wide (1400 px) and a narrow (800 px) window. Nothing may be cut off
// (an element wider than its box, a page wider than the window), every
// chart must draw inside its box with one legend entry per name, and the
// words must read right. Each page is also saved as a full-page
// screenshot under testOutputDir (GPUREPORT_SCREENSHOTS) to look at.

// pageWidths are the window widths the pages are checked at, px.
var pageWidths = []int{1400, 800}

// badWords are phrases a reader should not meet on a page: doubled
// parentheses, "(s)" plurals, a count of one with a plural noun, a
// negative shortfall, and jargon or raw field names the Methods section
// replaced with plain words.
var badWords = []*regexp.Regexp{
	regexp.MustCompile(`\(\(|\)\)|\) \(`),
	regexp.MustCompile(`\w\(s\)`),
	regexp.MustCompile(`\b1 (events|suspects|snapshots|files|devices|notes|readings|blocks|segments|frames|processes)\b`),
	regexp.MustCompile(`-[\d.]+ \w+ short`),
	regexp.MustCompile(`(?i)trough floor|tukey|time_us|allocated_bytes|reserved_bytes|gpu_used_bytes|non_pytorch_bytes`),
}

// screenshot saves a full-page PNG of page at width px.
func screenshot(t *testing.T, page []byte, width, height int, out string) {
	t.Helper()
	bin := findChromium(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "index.html")
	if err := os.WriteFile(file, page, 0o644); err != nil {
		t.Fatal(err)
	}
	height = min(max(height, 600), 16000)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--host-resolver-rules=MAP * ~NOTFOUND",
		fmt.Sprintf("--window-size=%d,%d", width, height), "--virtual-time-budget=5000", "--screenshot="+out, "file://"+file)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium screenshot: %v\n%s", err, tail(string(b), 2000))
	}
	if st, err := os.Stat(out); err != nil || st.Size() == 0 {
		t.Fatalf("no screenshot written to %s: %v", out, err)
	}
}

// checkPageAsSeen loads page at each width, checks what a reader sees and
// saves the screenshots as NAME-WIDTH.png.
func checkPageAsSeen(t *testing.T, name string, page []byte) {
	t.Helper()
	out := testOutputDir(t)
	for _, w := range pageWidths {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			res, _ := loadInChromiumAt(t, page, w)
			if res.DocW > res.WinW {
				t.Errorf("the page is %d px wide in a %d px window: it scrolls sideways", res.DocW, res.WinW)
			}
			for _, c := range res.Clipped {
				t.Errorf("cut off at %d px: %s", w, c)
			}
			if len(res.Charts) == 0 {
				t.Error("no charts")
			}
			for _, c := range res.Charts {
				if !c.Instance || c.CanvasW == 0 || c.Points == 0 {
					t.Errorf("chart %s did not draw: %+v", c.ID, c)
				}
				if c.BoxW > 0 && c.CanvasW > 0 && c.CanvasW > 2*c.BoxW {
					// The canvas is the box's width times the device pixel
					// ratio (1 headless); twice is a chart drawn off its box.
					t.Errorf("chart %s is %d px wide in a %d px box", c.ID, c.CanvasW, c.BoxW)
				}
				seen := map[string]string{}
				for _, n := range c.Names {
					k := strings.TrimSpace(n)
					if prev, ok := seen[k]; ok && prev != n {
						t.Errorf("chart %s: legend shows %q twice (%q and %q)", c.ID, k, prev, n)
					}
					seen[k] = n
				}
			}
			for _, re := range badWords {
				if m := re.FindAllString(res.BodyText, 3); m != nil {
					t.Errorf("the page says %q", m)
				}
			}
			png := filepath.Join(out, fmt.Sprintf("%s-%d.png", name, w))
			screenshot(t, page, w, res.DocH, png)
			t.Logf("screenshot %s", png)
		})
	}
}

// TestPagesAsSeen checks the fixture's two-rank report, the bundled
// sample run, a logs-only run and a run whose only GPU log gives used
// memory as a percent of the device, at both widths.
func TestPagesAsSeen(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	findChromium(t)
	pages := map[string]func(t *testing.T) []byte{
		"fixture": func(t *testing.T) []byte {
			f, _ := fixtureFindings()
			opt := fixedOptions
			page, err := HTML(f, opt)
			if err != nil {
				t.Fatal(err)
			}
			return page
		},
		"sample-run": func(t *testing.T) []byte {
			dir := filepath.Join("..", "testdata", "sample-run")
			if _, err := os.Stat(dir); err != nil {
				t.Skip("no testdata/sample-run")
			}
			run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			opt := fixedOptions
			page, err := HTML(analyze.Analyze(run, analyze.Options{}), opt)
			if err != nil {
				t.Fatal(err)
			}
			return page
		},
		"logs-only": func(t *testing.T) []byte {
			dir := t.TempDir()
			writeSMILogs(t, dir, true)
			writeLeakingStats(t, dir)
			f, _ := logsOnlyRun(t, dir, "logs-only")
			opt := fixedOptions
			page, err := HTML(f, opt)
			if err != nil {
				t.Fatal(err)
			}
			return page
		},
		"share-only": func(t *testing.T) []byte {
			dir := t.TempDir()
			writeSharePercent(t, dir, 12)
			f, _ := logsOnlyRun(t, dir, "share-only")
			page, err := HTML(f, fixedOptions)
			if err != nil {
				t.Fatal(err)
			}
			return page
		},
	}
	for _, name := range []string{"fixture", "sample-run", "logs-only", "share-only"} {
		t.Run(name, func(t *testing.T) {
			checkPageAsSeen(t, name, pages[name](t))
		})
	}
}

// TestTimelineFitsData: a leak of 1 to 1.8 GiB on a 22 GiB device is
// drawn on an axis that fits the lines (the capacity is named, not drawn
// far above them), the projection takes at most a third of the x axis,
// and the band's two edges share one legend name.
func TestTimelineFitsData(t *testing.T) {
	d := &analyze.Device{DeviceKey: analyze.DeviceKey{Rank: input.NoRank}, Axis: analyze.AxisStep, Capacity: 22 << 30, PrimaryMetric: analyze.MetricAllocated}
	for i := range 14 {
		d.Points = append(d.Points, analyze.Point{X: float64(10 * (i + 1)), Usage: analyze.Usage{Allocated: 1<<30 + int64(i)*64<<20, Reserved: 2 << 30}})
	}
	d.Trends = []analyze.Trend{{Metric: analyze.MetricAllocated, Per: "step", N: 14, State: analyze.StateGrowing,
		Slope: 6.4 * (1 << 20), Lo: 6 * (1 << 20), Hi: 7 * (1 << 20), Intercept: 1<<30 - 64<<20,
		Projection: &analyze.Projection{Capacity: 22 << 30, X: 3400, Remaining: 3260}}}
	cv, err := timelineChart(d).render()
	if err != nil {
		t.Fatal(err)
	}
	opt := string(cv.Option)
	if !strings.Contains(opt, "capacity 22.0 GiB is far above") {
		t.Errorf("the far capacity is not named in the chart:\n%s", tail(opt, 400))
	}
	if strings.Contains(opt, `"name":"capacity"`) {
		t.Error("a capacity line far above the data is drawn, squashing the lines")
	}
	if strings.Count(opt, `"name":"95% band"`) != 2 || strings.Contains(opt, `"name":"95% band "`) {
		t.Error("the band's edges do not share one legend name")
	}
	// The projection ends at most half the run's length (130 steps) past
	// the last snapshot (140).
	if !strings.Contains(opt, "[205,") || strings.Contains(opt, "[400,") {
		t.Errorf("projection end: want x = 205:\n%s", tail(opt, 600))
	}
	// Near capacity, the line is drawn.
	d.Capacity = 3 << 30
	d.Trends[0].Projection.Capacity = 3 << 30
	cv, err = timelineChart(d).render()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(cv.Option), `"name":"capacity"`) {
		t.Error("a capacity near the data is not drawn")
	}
}

// TestPrintedPage prints the sample run's report to PDF as a reader would
// (Chromium's print to PDF): folded parts (library frames) are printed
// open, tables are whole (the snapshot table's last column is there) and
// headers are not cut mid-word.
func TestPrintedPage(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	bin := findChromium(t)
	pdftotext := findTool(t, "pdftotext", "poppler-utils")
	dir := filepath.Join("..", "testdata", "sample-run")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no testdata/sample-run")
	}
	run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	opt := fixedOptions
	page, err := HTML(analyze.Analyze(run, analyze.Options{}), opt)
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	file := filepath.Join(work, "index.html")
	if err := os.WriteFile(file, page, 0o644); err != nil {
		t.Fatal(err)
	}
	pdf := filepath.Join(testOutputDir(t), "sample-run-print.pdf")
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-pdf-header-footer",
		"--user-data-dir="+filepath.Join(work, "profile"), "--host-resolver-rules=MAP * ~NOTFOUND",
		"--virtual-time-budget=5000", "--print-to-pdf="+pdf, "file://"+file)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium print: %v\n%s", err, tail(string(b), 2000))
	}
	out, err := exec.CommandContext(ctx, pdftotext, pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	text := string(out)
	for _, want := range []string{
		"torch::unwind::unwind", // a folded library frame, opened for print
		"Trace", "entries",      // the snapshot table's last column
		"snapshot_step_000140.pickle", "Allocated", "Reserved", "Segments",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the printed page lacks %q", want)
		}
	}
}

// TestTimelineGPULogOnly: a device known from its GPU logs alone draws its
// growing used-memory trend's fit, projection band and capacity, the fit
// and band ending and pivoting at the last fitted reading, not an idle
// tail after the job; a trend the rules read as flat (a start-up ramp
// that levelled off) draws no line through the ramp, only the readings
// and the capacity.
func TestTimelineGPULogOnly(t *testing.T) {
	device := func(state analyze.TrendState) *analyze.Device {
		d := &analyze.Device{DeviceKey: analyze.DeviceKey{Rank: input.NoRank}, Axis: analyze.AxisHours, Capacity: 40 << 30,
			PrimaryMetric: analyze.MetricGPUUsed, GPU: &analyze.GPUSeries{Total: 40 << 30}}
		for i := range 12 {
			used := int64(20<<30) + int64(i)*(1<<30)
			if i >= 10 {
				used = 500 << 20 // the job ended: idle readings
			}
			d.GPU.X = append(d.GPU.X, float64(i))
			d.GPU.Used = append(d.GPU.Used, used)
		}
		d.Trends = []analyze.Trend{{Metric: analyze.MetricGPUUsed, Per: analyze.AxisHours, N: 10, State: state,
			Slope: 1 << 30, Lo: 0.9 * (1 << 30), Hi: 1.1 * (1 << 30), Intercept: 20 << 30, FitX0: 0, FitX1: 9}}
		if state == analyze.StateGrowing {
			d.Trends[0].Projection = &analyze.Projection{Capacity: 40 << 30, X: 20, Remaining: 11}
		}
		return d
	}
	cv, err := timelineChart(device(analyze.StateGrowing)).render()
	if err != nil {
		t.Fatal(err)
	}
	opt := string(cv.Option)
	for _, name := range []string{`"name":"fit (`, `"name":"projection"`, `"name":"95% band"`, `"name":"capacity"`} {
		if !strings.Contains(opt, name) {
			t.Errorf("growing: no %s series:\n%s", name, tail(opt, 800))
		}
	}
	// The fit runs from reading 0 to the last fitted one (9), where the
	// projection starts: 20 + 9 = 29 GiB.
	if !strings.Contains(opt, "[9,29]") {
		t.Errorf("growing: the fit does not end, nor the projection pivot, at the last fitted reading (x 9, 29 GiB):\n%s", tail(opt, 800))
	}
	cv, err = timelineChart(device(analyze.StateFlat)).render()
	if err != nil {
		t.Fatal(err)
	}
	opt = string(cv.Option)
	if strings.Contains(opt, `"name":"fit (`) || strings.Contains(opt, `"name":"projection"`) {
		t.Errorf("flat: a line is drawn through the readings:\n%s", tail(opt, 800))
	}
	if !strings.Contains(opt, `"name":"capacity"`) {
		t.Errorf("flat: no capacity line:\n%s", tail(opt, 800))
	}
}
