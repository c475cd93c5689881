package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"gpureport/analyze"
	"gpureport/internal/testutil"
	"gpureport/templates"
)

var fixedOptions = Options{GeneratedAt: time.Date(2025, 3, 14, 12, 0, 0, 0, time.UTC), Version: "0.1.0-test"}

// golden compares got with testdata/golden/name, or rewrites it with
// -update (testutil.Golden).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testutil.Golden(t, filepath.Join("testdata", "golden", name), got)
}

// withoutEcharts replaces the inlined echarts build, which the golden
// file need not repeat, with a marker.
func withoutEcharts(t *testing.T, page []byte) []byte {
	t.Helper()
	if bytes.Count(page, []byte(templates.Echarts)) != 1 {
		t.Fatal("index.html does not inline echarts.min.js exactly once")
	}
	return bytes.Replace(page, []byte(templates.Echarts), []byte("/* echarts.min.js "+templates.EchartsVersion+" */"), 1)
}

func TestGolden(t *testing.T) {
	f, _ := fixtureFindings()
	opt := fixedOptions
	sum, err := marshalSummary(BuildSummary(f, opt))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "summary.json", sum)
	golden(t, "summary.md", Markdown(f, opt))
	var text bytes.Buffer
	if err := Text(&text, f); err != nil {
		t.Fatal(err)
	}
	golden(t, "stdout.txt", text.Bytes())
	page, err := HTML(f, opt)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "index.html", withoutEcharts(t, page))
}

func TestHTMLReproducible(t *testing.T) {
	f, _ := fixtureFindings()
	opt := fixedOptions
	a, err := HTML(f, opt)
	if err != nil {
		t.Fatal(err)
	}
	b, err := HTML(f, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("two renderings of the same Findings differ")
	}
}

// TestSummarySchema checks summary.json against docs/design.md's field names.
func TestSummarySchema(t *testing.T) {
	f, _ := fixtureFindings()
	b, err := marshalSummary(BuildSummary(f, fixedOptions))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m["schema"] != "gpureport/summary/v1" || m["generated_at"] != "2025-03-14T12:00:00Z" {
		t.Errorf("schema %v, generated_at %v", m["schema"], m["generated_at"])
	}
	has := func(obj any, path string, keys ...string) map[string]any {
		t.Helper()
		o, ok := obj.(map[string]any)
		if !ok {
			t.Fatalf("%s is %T, want an object", path, obj)
		}
		for _, k := range keys {
			if _, ok := o[k]; !ok {
				t.Errorf("%s lacks %q", path, k)
			}
		}
		return o
	}
	has(m, "", "schema", "run", "generated_at", "inputs", "devices", "verdict")
	in := has(m["inputs"], "inputs", "snapshots", "gpu_logs", "skipped")
	has(in["gpu_logs"].([]any)[0], "inputs.gpu_logs[0]", "path", "format", "samples", "gpus", "skipped_lines")
	has(in["skipped"].([]any)[0], "inputs.skipped[0]", "path", "reason")
	dev := has(m["devices"].([]any)[1], "devices[1]", "device", "rank", "capacity_bytes", "snapshots", "gpu_samples", "trend")
	has(dev["snapshots"].([]any)[0], "devices[1].snapshots[0]", "path", "step", "time", "reserved_bytes", "allocated_bytes",
		"active_bytes", "requested_bytes", "inactive_bytes", "largest_free_bytes", "segments", "blocks", "trace_entries")
	has(dev["gpu_samples"], "gpu_samples", "samples", "memory_used_max_bytes", "memory_total_bytes")
	tr := has(dev["trend"], "trend", "metric", "slope_bytes_per_step", "slope_bytes_per_hour", "ci95", "p_value", "verdict")
	if tr["metric"] != "allocated_bytes" || tr["slope_bytes_per_hour"] != nil || len(tr["ci95"].([]any)) != 2 {
		t.Errorf("trend = %v", tr)
	}
	v := has(m["verdict"], "verdict", "leak", "outside_allocator_leak", "fragmentation", "oom", "leak_suspects")
	s := has(v["leak_suspects"].([]any)[0], "leak_suspects[0]", "site", "function", "fingerprint", "device", "rank", "growth_bytes_per_step", "p_value")
	if s["site"] != "train.py:57" || s["fingerprint"] != "7f3a9c01d2e4b5a6" || s["rank"] != 1.0 {
		t.Errorf("suspect = %v", s)
	}
}

// TestSummaryEmpty: a run without devices still writes valid JSON whose
// arrays are [] (not null), so consumers can iterate.
func TestSummaryEmpty(t *testing.T) {
	b, err := marshalSummary(BuildSummary(&analyze.Findings{RunDir: "x"}, fixedOptions))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"devices": []`, `"gpu_logs": []`, `"skipped": []`, `"leak_suspects": []`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("summary lacks %s:\n%s", want, b)
		}
	}
}

// TestHTMLSelfContained: no script, style, image or link refers to the
// network; the page's CSP forbids it too.
func TestHTMLSelfContained(t *testing.T) {
	f, _ := fixtureFindings()
	opt := fixedOptions
	page, err := HTML(f, opt)
	if err != nil {
		t.Fatal(err)
	}
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		for _, a := range tok.Attr {
			if a.Key == "src" || (a.Key == "href" && !strings.HasPrefix(a.Val, "#")) {
				t.Errorf("<%s %s=%q> refers outside the page", tok.Data, a.Key, a.Val)
			}
		}
		if tok.Data == "link" {
			t.Errorf("<link> element: %v", tok)
		}
	}
	if regexp.MustCompile(`(?i)@import|url\(\s*['"]?https?:`).Match(page) {
		t.Error("style refers to the network")
	}
	if !bytes.Contains(page, []byte(`default-src 'none'`)) {
		t.Error("no Content-Security-Policy")
	}
}

// scripts returns the text of every <script> element of page.
func scripts(t *testing.T, page []byte) []string {
	t.Helper()
	var out []string
	z := html.NewTokenizer(bytes.NewReader(page))
	in := false
	for {
		switch z.Next() {
		case html.ErrorToken:
			return out
		case html.StartTagToken:
			if n, _ := z.TagName(); string(n) == "script" {
				in = true
				out = append(out, "")
			}
		case html.EndTagToken:
			in = false
		case html.TextToken:
			if in {
				out[len(out)-1] += string(z.Text())
			}
		}
	}
}

// TestHTMLHostileNames: frame, function, file and GPU-log names are
// untrusted. A frame named </script><script>alert(1)</script> and a file
// named "><img src=x onerror=alert(1)> must render as text: the page has
// exactly the scripts it means to have and no injected element.
func TestHTMLHostileNames(t *testing.T) {
	const evilFrame = "</script><script>alert(1)</script>"
	const evilFile = `"><img src=x onerror=alert(1)>`
	f, _ := fixtureFindings()
	d := f.Devices[1]
	d.Suspects[0].Function = evilFrame
	d.Suspects[0].Site = evilFile + ":57"
	d.Suspects[0].Stack[3].Name = evilFrame
	d.Suspects[0].Stack[3].File = evilFile
	d.Points[11].Path = evilFile + ".pickle"
	// A MemPool's name comes from the file's user_metadata; the roles'
	// section shows it in its pool table.
	d.Points[11].Pools[1].Name = evilFile
	f.OOMs[0].Path = evilFile
	f.Inputs.Skipped[0].Path = evilFile
	f.Notes = append(f.Notes, analyze.Note{Kind: analyze.NoteText, Text: "<!-- " + evilFrame + " \u2028"})
	opt := fixedOptions
	page, err := HTML(f, opt)
	if err != nil {
		t.Fatal(err)
	}
	clean, _ := fixtureFindings()
	cleanPage, err := HTML(clean, fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	got, want := scripts(t, page), scripts(t, cleanPage)
	if len(got) != len(want) {
		t.Fatalf("page has %d scripts, the clean page %d: a name broke out of its context", len(got), len(want))
	}
	for _, s := range got {
		if strings.Contains(s, "alert(1)") && !strings.Contains(s, `\u003c/script\u003e\u003cscript\u003ealert(1)`) {
			t.Errorf("script carries the hostile name unescaped: %.200s", s[max(0, strings.Index(s, "alert(1)")-80):])
		}
		if strings.Contains(s, "\u2028") || strings.Contains(s, "<!--") {
			t.Error("script carries a line separator or an HTML comment opener")
		}
	}
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if tt == html.StartTagToken || tt == html.SelfClosingTagToken {
			if n, _ := z.TagName(); string(n) == "img" {
				t.Fatal("an <img> element was injected")
			}
		}
	}
	if !bytes.Contains(page, []byte("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;")) {
		t.Error("the hostile frame name is not shown as text")
	}
	if !bytes.Contains(page, []byte("<td>default &#34;&gt;&lt;img src=x onerror=alert(1)&gt;</td>")) {
		t.Error("the hostile pool name is not shown as text in the roles' pool table")
	}
}

// TestHTMLLargeRun: a large run's page stays under 5 MB: long series are
// down-sampled and long lists capped.
func TestHTMLLargeRun(t *testing.T) {
	page, err := HTML(largeFindings(), fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	if len(page) >= 5<<20 {
		t.Fatalf("index.html is %d bytes, want < 5 MiB", len(page))
	}
	t.Logf("index.html for 8 devices x 100 snapshots, 86,400 GPU readings each, 56 suspects: %d bytes (%d without echarts)", len(page), len(page)-len(templates.Echarts))
	if n := bytes.Count(page, []byte("Problem suspect ")); n != maxHTMLSuspects {
		t.Errorf("%d suspect sections, want %d", n, maxHTMLSuspects)
	}
}

func TestFoldStack(t *testing.T) {
	f, _ := fixtureFindings()
	s := f.Devices[1].Suspects[0]
	parts, cut := foldStack(s.Stack, s.User)
	if cut != 0 {
		t.Errorf("cut = %d", cut)
	}
	// lib x3, user, user, lib x1
	var shape []string
	for _, p := range parts {
		if p.User {
			shape = append(shape, "U")
		} else {
			shape = append(shape, strings.Repeat("L", len(p.Frames)))
		}
	}
	if got := strings.Join(shape, ","); got != "LLL,U,U,L" {
		t.Errorf("folded shape %s, want LLL,U,U,L", got)
	}
	if parts[0].Summary != "3 library frames" || parts[3].Summary != "1 library frame" {
		t.Errorf("summaries %q, %q", parts[0].Summary, parts[3].Summary)
	}
}

func TestScriptSafe(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a": "</script>"}`, `{"a":"\u003c/script\u003e"}`},
		{`{"a": "<!-- x & y"}`, `{"a":"\u003c!-- x \u0026 y"}`},
		{"{\"a\": \"\u2028\u2029\"}", `{"a":"\u2028\u2029"}`},
		{`{"a": [1, 2.5]}`, `{"a":[1,2.5]}`},
	}
	for _, tt := range tests {
		got, err := scriptSafe(tt.in)
		if err != nil || string(got) != tt.want {
			t.Errorf("scriptSafe(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if _, err := scriptSafe(`{"f": function(){}}`); err == nil {
		t.Error("scriptSafe accepted a JavaScript function")
	}
}

// TestOptionOfIsSnippets checks that optionOf renders the option
// go-echarts' RenderSnippet renders, once made script-safe, for charts
// whose names come from files and hold what HTML, JavaScript and
// go-echarts' function markers treat specially.
func TestOptionOfIsSnippets(t *testing.T) {
	names := []string{"train.py:42 step", "a &amp; b <c> \"d\" 'e'", "</script><script>alert(1)</script>",
		"__f__x", "\"__f__\"", "x__f__\"", "\u2028\u2029 \x00 \xff", "<!--", "&#34;&lt;", "+=\\n"}
	specs := []chartSpec{
		{id: "value", title: names[1], xName: names[2], yName: names[3], zoom: true, y2Name: names[4], y2Max: 100},
		{id: "category", categories: names, yMax: 100, height: 200},
	}
	for i, name := range names {
		pts := []xy{{1, float64(i)}, {2, math.NaN()}, {3, 1e300}, {4, -0.5}}
		for k := range specs {
			specs[k].series = append(specs[k].series, seriesSpec{name: name, points: pts, dashed: i%2 == 0, area: 0.2,
				stack: names[(i+1)%len(names)], color: "#123456", step: i%3 == 0, yAxis: i % 2})
		}
	}
	for _, c := range specs {
		want, err := scriptSafe(c.lineChart().RenderSnippet().Option)
		if err != nil {
			t.Fatalf("%s: the snippet: %v", c.id, err)
		}
		got, err := scriptSafe(optionOf(c.lineChart()))
		if err != nil {
			t.Fatalf("%s: %v", c.id, err)
		}
		if got != want {
			t.Errorf("%s: optionOf renders\n%s\nRenderSnippet\n%s", c.id, got, want)
		}
	}
}

func TestWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	f, _ := fixtureFindings()
	opt := fixedOptions
	if err := Write(dir, f, opt); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "index.html report.xlsx summary.json summary.md" {
		t.Errorf("report folder holds %s", got)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.json")
	if err := WriteFileAtomic(p, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(p, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	ents, _ := os.ReadDir(dir)
	if string(b) != "two" || len(ents) != 1 {
		t.Errorf("content %q, %d files; want two, 1 (no temporary left)", b, len(ents))
	}
	// A folder that does not exist: an error naming the path, nothing left.
	if err := WriteFileAtomic(filepath.Join(dir, "missing", "b"), []byte("x"), 0o644); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("err = %v", err)
	}
}

// TestPageHeads: every page starts with the shared head (templates/head.html)
// and its own title; only the report page may run scripts, so only its
// Content-Security-Policy names script-src, and the diff and overview
// pages hold no <script> at all.
func TestPageHeads(t *testing.T) {
	f, _ := fixtureFindings()
	report, err := HTML(f, fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	diff, err := DiffHTML(fixtureDiff(), fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	overview, err := OverviewHTML(&Overview{GeneratedAt: fixedOptions.GeneratedAt, Version: fixedOptions.Version, Roots: []string{"runs"}})
	if err != nil {
		t.Fatal(err)
	}
	const policy = `default-src 'none'; %sstyle-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'`
	for _, tc := range []struct {
		name, title, scriptSrc string
		page                   []byte
		scripts                int
	}{
		{"report", "gpureport: " + f.RunDir, "script-src 'unsafe-inline'; ", report, 2},
		{"diff", "gpureport diff", "", diff, 0},
		{"overview", "gpureport batch overview", "", overview, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			head := string(tc.page[:bytes.Index(tc.page, []byte("<body>"))])
			if !strings.HasPrefix(head, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n") {
				t.Errorf("page does not start with the shared head:\n%s", head[:min(len(head), 200)])
			}
			want := fmt.Sprintf(`<meta http-equiv="Content-Security-Policy" content="`+policy+`">`, tc.scriptSrc)
			if !strings.Contains(head, want) {
				t.Errorf("policy: want %s in the head", want)
			}
			if want := "<title>" + tc.title + "</title>"; !strings.Contains(head, want) {
				t.Errorf("want %s in the head", want)
			}
			if want := `<meta name="generator" content="gpureport ` + fixedOptions.Version + `">`; !strings.Contains(head, want) {
				t.Errorf("want %s in the head", want)
			}
			if !strings.HasSuffix(head, "</head>\n") {
				t.Errorf("head does not end in </head>: …%s", head[max(0, len(head)-80):])
			}
			if got := len(scripts(t, []byte(head))); got != tc.scripts {
				t.Errorf("%d <script> elements in the head, want %d", got, tc.scripts)
			}
			if got := len(scripts(t, tc.page)); tc.scripts == 0 && got != 0 {
				t.Errorf("%d <script> elements in a page that may run none", got)
			}
		})
	}
}
