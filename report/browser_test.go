package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gpureport/analyze"
	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/internal/testutil"
)

// The browser test loads a report in real headless Chromium (Debian's
// chromium package) with the network off and checks, through a probe
// script injected at the top of <head>, that every chart drew, that the
// console logged no error, that no script ran from a hostile name (alert
// is trapped; every chart's tooltip is shown for every series, since
// echarts writes tooltips as HTML) and that the page fetched nothing. Chromium's own net log
// is checked as well: no http(s), ws(s) or ftp request may appear in it.
// The test skips when no Chromium is installed, except under CI=true.

// browserProbe collects what the page did; it runs before any other
// script of the page.
const browserProbe = `<script>
"use strict";
window.__probe = {errors: [], alerts: 0, violations: []};
(function () {
  var origError = console.error;
  console.error = function () {
    window.__probe.errors.push(Array.prototype.join.call(arguments, " "));
    return origError.apply(console, arguments);
  };
  window.addEventListener("error", function (e) { window.__probe.errors.push("uncaught: " + (e.message || e.type)); }, true);
  window.addEventListener("unhandledrejection", function (e) { window.__probe.errors.push("unhandled rejection: " + e.reason); });
  document.addEventListener("securitypolicyviolation", function (e) { window.__probe.violations.push(e.violatedDirective + " " + e.blockedURI); });
  window.alert = window.confirm = window.prompt = function () { window.__probe.alerts++; };
  window.addEventListener("load", function () {
    setTimeout(function () {
      // Show every series' tooltip: hostile series names must stay text.
      var all = document.querySelectorAll(".chart");
      for (var i = 0; i < all.length; i++) {
        var c = typeof echarts !== "undefined" ? echarts.getInstanceByDom(all[i]) : null;
        if (!c) { continue; }
        var n = c.getOption().series.length;
        for (var j = 0; j < n; j++) { c.dispatchAction({type: "showTip", seriesIndex: j, dataIndex: 0}); }
      }
    }, 100);
    setTimeout(function () {
      var charts = [];
      var els = document.querySelectorAll(".chart");
      for (var i = 0; i < els.length; i++) {
        var el = els[i];
        var inst = typeof echarts !== "undefined" ? echarts.getInstanceByDom(el) : null;
        var canvas = el.querySelector("canvas");
        var series = 0, points = 0;
        if (inst) {
          var opt = inst.getOption();
          series = opt.series.length;
          for (var j = 0; j < opt.series.length; j++) { points += (opt.series[j].data || []).length; }
        }
        var names = [];
        if (inst) {
          var o2 = inst.getOption();
          for (var k = 0; k < o2.series.length; k++) { names.push(o2.series[k].name); }
        }
        charts.push({id: el.id, instance: !!inst, canvasW: canvas ? canvas.width : 0, canvasH: canvas ? canvas.height : 0, series: series, points: points,
          names: names, boxW: el.clientWidth});
      }
      // What a reader cannot see: an element wider than its box (text cut
      // off or hidden behind a scroll bar), or a page wider than the window.
      var clipped = [];
      var boxes = document.querySelectorAll("table, .scroll, .chart, .segmap, .verdict, header, h1, h2, h3, .notes, .suspect, .kv, ol.stack");
      for (var b = 0; b < boxes.length; b++) {
        var e = boxes[b];
        if (e.closest("details:not([open])") || e.closest("footer")) { continue; }
        if (e.scrollWidth > e.clientWidth + 1) {
          clipped.push((e.id || e.tagName.toLowerCase() + "." + e.className) + ": " + e.scrollWidth + " > " + e.clientWidth + " px: " + (e.innerText || "").slice(0, 60));
        }
      }
      var docW = document.documentElement.scrollWidth;
      var resources = performance.getEntriesByType("resource").map(function (r) { return r.name; });
      var out = document.createElement("pre");
      out.id = "__probe_out";
      out.textContent = JSON.stringify({charts: charts, errors: window.__probe.errors, alerts: window.__probe.alerts,
        violations: window.__probe.violations, resources: resources, bodyText: document.body.innerText,
        clipped: clipped, docW: docW, winW: window.innerWidth, docH: document.documentElement.scrollHeight});
      document.body.appendChild(out);
    }, 400);
  });
})();
</script>`

type probeResult struct {
	Charts []struct {
		ID       string   `json:"id"`
		Instance bool     `json:"instance"`
		CanvasW  int      `json:"canvasW"`
		CanvasH  int      `json:"canvasH"`
		Series   int      `json:"series"`
		Points   int      `json:"points"`
		Names    []string `json:"names"`
		BoxW     int      `json:"boxW"`
	} `json:"charts"`
	// Clipped lists the elements wider than their box; DocW and WinW are
	// the page's and the window's widths, DocH the page's height (px).
	Clipped    []string `json:"clipped"`
	DocW       int      `json:"docW"`
	WinW       int      `json:"winW"`
	DocH       int      `json:"docH"`
	Errors     []string `json:"errors"`
	Alerts     int      `json:"alerts"`
	Violations []string `json:"violations"`
	Resources  []string `json:"resources"`
	BodyText   string   `json:"bodyText"`
}

// findChromium returns the browser to test with, or skips.
func findChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("CI=true but no chromium installed (apt-get install -y chromium)")
	}
	t.Skip("chromium not installed (apt-get install -y chromium); CI=true makes this a failure")
	return ""
}

var probeOut = regexp.MustCompile(`(?s)<pre id="__probe_out">(.*?)</pre>`)

// loadInChromium opens page in headless Chromium, network off, and returns
// the probe's findings and the URLs in Chromium's net log.
func loadInChromium(t *testing.T, page []byte) (probeResult, []string) {
	t.Helper()
	return loadInChromiumAt(t, page, 1280)
}

// loadInChromiumAt is loadInChromium in a window width px wide.
func loadInChromiumAt(t *testing.T, page []byte, width int) (probeResult, []string) {
	t.Helper()
	bin := findChromium(t)
	dir := t.TempDir()
	i := bytes.Index(page, []byte("<head>"))
	if i < 0 {
		t.Fatal("page has no <head>")
	}
	probed := append(append(append([]byte{}, page[:i+len("<head>")]...), browserProbe...), page[i+len("<head>"):]...)
	file := filepath.Join(dir, "index.html")
	if err := os.WriteFile(file, probed, 0o644); err != nil {
		t.Fatal(err)
	}
	netlog := filepath.Join(dir, "netlog.json")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-default-apps", "--disable-extensions", "--metrics-recording-only", "--no-default-browser-check",
		"--user-data-dir="+filepath.Join(dir, "profile"),
		// Network off: every host name resolves nowhere, every proxied
		// request goes to a closed port.
		"--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
		"--log-net-log="+netlog, "--net-log-capture-mode=Default",
		fmt.Sprintf("--window-size=%d,900", width), "--hide-scrollbars", "--virtual-time-budget=15000", "--dump-dom",
		"file://"+file)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, tail(stderr.String(), 2000))
	}
	m := probeOut.FindSubmatch(stdout.Bytes())
	if m == nil {
		t.Fatalf("the probe wrote no result (page did not load?); stderr:\n%s", tail(stderr.String(), 2000))
	}
	var res probeResult
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &res); err != nil {
		t.Fatalf("probe result: %v", err)
	}
	return res, netLogURLs(t, netlog)
}

// netLogURLs returns the network URLs (http, https, ws, wss, ftp) that
// the page requested, from Chromium's net log: URL_REQUEST_START_JOB
// events whose initiator is an origin. Chromium's own requests (time sync,
// updates, accounts, which the flags do not all silence and the closed
// proxy stops) have the initiator "not an origin" and are only counted.
func netLogURLs(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("net log: %v", err)
	}
	var nl struct {
		Constants struct {
			LogEventTypes map[string]int `json:"logEventTypes"`
		} `json:"constants"`
		Events []struct {
			Type   int `json:"type"`
			Params struct {
				URL       string `json:"url"`
				Initiator string `json:"initiator"`
			} `json:"params"`
		} `json:"events"`
	}
	if err := json.Unmarshal(b, &nl); err != nil {
		t.Fatalf("net log: %v", err)
	}
	start, ok := nl.Constants.LogEventTypes["URL_REQUEST_START_JOB"]
	if !ok {
		t.Fatal("net log has no URL_REQUEST_START_JOB event type")
	}
	network := regexp.MustCompile(`^(?i)(https?|wss?|ftp)://`)
	var urls []string
	browser := 0
	for _, e := range nl.Events {
		if e.Type != start || !network.MatchString(e.Params.URL) {
			continue
		}
		if e.Params.Initiator == "not an origin" {
			browser++
			continue
		}
		urls = append(urls, e.Params.URL)
	}
	t.Logf("net log: %d page requests, %d of Chromium's own (blocked by the closed proxy)", len(urls), browser)
	return urls
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func TestHTMLInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	const evilFrame = "</script><script>alert(1)</script>"
	const evilFile = `"><img src=x onerror=alert(1)>`
	f, _ := fixtureFindings()
	d := f.Devices[1]
	d.Suspects[0].Function = evilFrame
	d.Suspects[0].Stack[3].Name = evilFrame
	d.Suspects[0].Stack[3].File = evilFile
	d.Points[11].Path = evilFile + ".pickle"
	f.Inputs.Skipped[0].Path = evilFile
	addStatsAndProcesses(f.Devices[0], evilFrame)
	opt := fixedOptions
	page, err := HTML(f, opt)
	if err != nil {
		t.Fatal(err)
	}
	res, urls := loadInChromium(t, page)

	wantCharts := bytes.Count(page, []byte(`class="chart`))
	if len(res.Charts) != wantCharts || wantCharts == 0 {
		t.Errorf("%d chart containers found by the browser, %d in the page", len(res.Charts), wantCharts)
	}
	for _, c := range res.Charts {
		if !c.Instance || c.CanvasW == 0 || c.CanvasH == 0 || c.Series == 0 || c.Points == 0 {
			t.Errorf("chart %s did not draw: %+v", c.ID, c)
		}
	}
	if len(res.Errors) > 0 {
		t.Errorf("console errors: %q", res.Errors)
	}
	if res.Alerts > 0 {
		t.Errorf("a hostile name ran script: %d alert calls", res.Alerts)
	}
	if len(res.Violations) > 0 {
		t.Errorf("the page tried to load: %q", res.Violations)
	}
	if len(res.Resources) > 0 {
		t.Errorf("the page fetched resources: %q", res.Resources)
	}
	if len(urls) > 0 {
		t.Errorf("Chromium's net log shows network requests: %q", urls)
	}
	for _, want := range []string{evilFrame, evilFile} {
		if !strings.Contains(res.BodyText, want) {
			t.Errorf("the page does not show %q as text", want)
		}
	}
	if !hasChart(res, "processes-r0-d0") {
		t.Error("the processes chart of rank 0 did not draw")
	}
	t.Logf("%d charts drew, %d series points", len(res.Charts), sumPoints(res))
}

// addStatsAndProcesses gives a fixture device memory_stats readings on
// its axis (beside the snapshots) and two processes, one named name.
func addStatsAndProcesses(d *analyze.Device, name string) {
	m := &analyze.MemoryStatsSeries{Sources: []string{"stats.jsonl"}, Order: "step"}
	for i, p := range d.Points {
		m.Readings = append(m.Readings, gpulog.MemoryStatsSample{Step: p.Step, Device: d.Device, Rank: d.Rank,
			Allocated: p.Usage.Allocated + 64<<20, Reserved: p.Usage.Reserved, Active: gpulog.Unknown, InactiveSplit: gpulog.Unknown,
			NumAllocRetries: int64(i), NumOOMs: 0})
		m.X = append(m.X, p.X)
	}
	d.MemoryStats = m
	set := &analyze.ProcessSet{Axis: d.Axis, OnDeviceAxis: true}
	for k, pname := range []string{"python", name} {
		ps := analyze.ProcessSeries{PID: 100 + k, Name: pname, GPU: d.Device, Sources: []string{"apps.csv"}}
		for i, p := range d.Points {
			ps.Times = append(ps.Times, p.Time)
			ps.X = append(ps.X, p.X)
			ps.Used = append(ps.Used, p.Usage.Reserved/int64(2+k)+int64(i)<<20)
		}
		ps.Peak, ps.Last = ps.Used[len(ps.Used)-1], ps.Used[len(ps.Used)-1]
		set.Series = append(set.Series, ps)
	}
	d.Processes = set
}

func hasChart(r probeResult, id string) bool {
	for _, c := range r.Charts {
		if c.ID == id && c.Instance && c.Points > 0 {
			return true
		}
	}
	return false
}

// TestLogsOnlyInChromium renders a run with GPU logs, per-process
// readings and memory_stats lines but no snapshot (through the real
// readers and analysis), with hostile process names, and loads it in
// Chromium: every chart (timelines with memory_stats lines, processes,
// other processes) draws and no name runs script, even in a tooltip.
func TestLogsOnlyInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	dir := t.TempDir()
	writeSMILogs(t, dir, true)
	writeLeakingStats(t, dir)
	var apps strings.Builder
	apps.WriteString("timestamp, gpu_uuid, pid, process_name, used_gpu_memory [MiB]\n")
	for i := range 30 {
		fmt.Fprintf(&apps, "%s, GPU-aaa, 7000, %s, %d MiB\n", smiStamp(logsStart.Add(time.Duration(i)*10*time.Second)), evilProcess2, 10+i)
	}
	testutil.WriteFile(t, filepath.Join(dir, "apps-evil.csv"), []byte(apps.String()))
	f, _ := logsOnlyRun(t, dir, "logs-only")
	opt := fixedOptions
	page, err := HTML(f, opt)
	if err != nil {
		t.Fatal(err)
	}
	res, urls := loadInChromium(t, page)
	wantCharts := bytes.Count(page, []byte(`class="chart`))
	if len(res.Charts) != wantCharts {
		t.Errorf("%d charts found by the browser, %d in the page", len(res.Charts), wantCharts)
	}
	for _, c := range res.Charts {
		if !c.Instance || c.CanvasW == 0 || c.CanvasH == 0 || c.Series == 0 || c.Points == 0 {
			t.Errorf("chart %s did not draw: %+v", c.ID, c)
		}
	}
	for _, id := range []string{"timeline-rx-d0", "timeline-rx-d1", "processes-rx-d0", "processes-rx-d1", "processes-other"} {
		if !hasChart(res, id) {
			t.Errorf("chart %s missing or empty", id)
		}
	}
	if res.Alerts > 0 || len(res.Errors)+len(res.Violations)+len(res.Resources)+len(urls) > 0 {
		t.Errorf("alerts %d, errors %q, violations %q, resources %q, requests %q", res.Alerts, res.Errors, res.Violations, res.Resources, urls)
	}
	for _, want := range []string{evilProcess, evilProcess2, "allocated (memory_stats)"} {
		if !strings.Contains(res.BodyText, want) {
			t.Errorf("the page does not show %q as text", want)
		}
	}
	t.Logf("%d charts drew, %d series points", len(res.Charts), sumPoints(res))
}

// TestChromiumProbeCatches shows the browser test can fail: a page that
// fetches an image, logs a console error and leaves a chart empty is
// caught on each count.
func TestChromiumProbeCatches(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	page := []byte(`<!DOCTYPE html><html><head><title>bad</title></head><body>
<div class="chart" id="never-drawn"></div>
<img src="http://gpureport-test.invalid/leak.png">
<script>console.error("boom"); alert("x");</script>
</body></html>`)
	res, urls := loadInChromium(t, page)
	if len(res.Charts) != 1 || res.Charts[0].Instance {
		t.Errorf("undrawn chart not reported: %+v", res.Charts)
	}
	if len(res.Errors) == 0 || res.Alerts != 1 {
		t.Errorf("errors %q, alerts %d: want the console error and the alert", res.Errors, res.Alerts)
	}
	if len(urls) == 0 && len(res.Resources) == 0 {
		t.Error("the image request was not seen")
	}
}

func sumPoints(r probeResult) int {
	n := 0
	for _, c := range r.Charts {
		n += c.Points
	}
	return n
}

// TestSampleRunInChromium renders the generated sample run (real pickles
// through the real decoder and analysis) and loads it in Chromium.
func TestSampleRunInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	dir := filepath.Join("..", "testdata", "sample-run")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no testdata/sample-run")
	}
	run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	f := analyze.Analyze(run, analyze.Options{})
	opt := fixedOptions
	page, err := HTML(f, opt)
	if err != nil {
		t.Fatal(err)
	}
	res, urls := loadInChromium(t, page)
	if len(res.Charts) == 0 {
		t.Fatal("no charts")
	}
	for _, c := range res.Charts {
		if !c.Instance || c.CanvasW == 0 || c.Points == 0 {
			t.Errorf("chart %s did not draw: %+v", c.ID, c)
		}
	}
	if len(res.Errors)+len(res.Violations)+len(res.Resources)+len(urls) > 0 {
		t.Errorf("errors %q, violations %q, resources %q, requests %q", res.Errors, res.Violations, res.Resources, urls)
	}
	if !strings.Contains(res.BodyText, "snapshot_step_000140.pickle") {
		t.Error("the last snapshot is not listed")
	}
}
