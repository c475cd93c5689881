package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
	"golang.org/x/net/html"

	"gpureport/analyze"
	"gpureport/input"
	"gpureport/snapshot"
)

func fixtureDiff() *DiffReport {
	sig := func(site, fn, fp string) analyze.Signature {
		return analyze.Signature{Site: site, Function: fn, Fingerprint: fp, Key: fp}
	}
	a := []analyze.LiveGroup{
		{Signature: sig("train.py:57", "train_step", "aaaaaaaaaaaa"), Bytes: 1 << 30, Blocks: 10},
		{Signature: sig("model.py:12", "forward", "bbbbbbbbbbbb"), Bytes: 512 << 20, Blocks: 4},
		{Signature: sig("old.py:1", "gone_fn", "cccccccccccc"), Bytes: 64 << 20, Blocks: 1},
		{Signature: sig("same.py:3", "same", "dddddddddddd"), Bytes: 1 << 20, Blocks: 1},
	}
	b := []analyze.LiveGroup{
		{Signature: sig("train.py:57", "train_step", "aaaaaaaaaaaa"), Bytes: 3 << 30, Blocks: 30,
			Stack: []snapshot.Frame{{File: "/x/torch/nn/functional.py", Line: 1, Name: "linear"}, {File: "/home/u/train.py", Line: 57, Name: "train_step"}}, User: []bool{false, true}},
		{Signature: sig("model.py:12", "forward", "bbbbbbbbbbbb"), Bytes: 256 << 20, Blocks: 2},
		{Signature: sig(`"><img src=x onerror=alert(1)>:9`, "</script><script>alert(1)</script>", "eeeeeeeeeeee"), Bytes: 8 << 20, Blocks: 1},
		{Signature: sig("same.py:3", "same", "dddddddddddd"), Bytes: 1 << 20, Blocks: 1},
	}
	es := analyze.Diff(a, b)
	return &DiffReport{
		A:       DiffSide{Path: "runs/a/snap.pickle", Kind: "snapshot", Snapshots: 1, Files: []string{"snap.pickle"}},
		B:       DiffSide{Path: "runs/b/snap.pickle", Kind: "snapshot", Snapshots: 1, Files: []string{"snap.pickle"}},
		Devices: []DiffDevice{{DeviceKey: analyze.DeviceKey{Rank: input.NoRank, Device: 0}, FileA: "snap.pickle", FileB: "snap.pickle", Entries: es}},
		Total:   es,
	}
}

func TestDiffOutputs(t *testing.T) {
	d := fixtureDiff()
	var text bytes.Buffer
	if err := DiffText(&text, d, 2); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(text.String()), "\n")
	if !strings.Contains(lines[2], "1 grown, 1 shrunk, 1 new, 1 gone") {
		t.Errorf("totals line: %s", lines[2])
	}
	if !strings.HasPrefix(lines[4], "grown ") || !strings.Contains(lines[4], "+2.00 GiB") || !strings.Contains(lines[4], "train.py:57") {
		t.Errorf("largest change first: %s", lines[4])
	}
	if !strings.HasPrefix(lines[6], "... 2 more changed") {
		t.Errorf("top-2 cut: %q", lines[6])
	}

	js, err := DiffJSON(d, fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Schema string `json:"schema"`
		Totals struct {
			Delta int64 `json:"delta_bytes"`
			New   int   `json:"new"`
		} `json:"totals"`
		Entries []struct {
			Status string `json:"status"`
		} `json:"entries"`
	}
	if err := json.Unmarshal(js, &m); err != nil {
		t.Fatal(err)
	}
	wantDelta := int64(2<<30 - 256<<20 - 64<<20 + 8<<20)
	if m.Schema != DiffSchema || m.Totals.Delta != wantDelta || m.Totals.New != 1 || len(m.Entries) != 5 {
		t.Errorf("summary.json: %+v", m)
	}

	page, err := DiffHTML(d, fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if n, _ := z.TagName(); tt == html.StartTagToken && (string(n) == "img" || string(n) == "script") {
			t.Fatalf("<%s> injected into the diff page", n)
		}
	}
	if !bytes.Contains(page, []byte("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;")) {
		t.Error("hostile function name not shown as text")
	}

	xl, err := DiffXLSX(d, fixedOptions)
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(xl))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, _ := f.GetRows("Diff")
	if len(rows) != 1+5 || rows[1][1] != "grown" || rows[1][7] != "train.py:57" {
		t.Errorf("Diff sheet: %d rows, first %v", len(rows), rows[1])
	}
	md := string(DiffMarkdown(d, fixedOptions))
	// Inside a code span HTML is shown, not interpreted.
	if !strings.Contains(md, "`train.py:57`") || !strings.Contains(md, "`\"><img src=x onerror=alert(1)>:9`") {
		t.Errorf("summary.md:\n%s", md)
	}
}
