package report

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpureport/analyze"
	"gpureport/ingest"
	"gpureport/internal/gen/pickle"
)

// Untrusted text as it would come out of a snapshot: a frame name that
// closes the script element, a file name that breaks out of an attribute.
const (
	evilName = "</script><script>alert(1)</script>"
	evilFile = `/home/u/"><img src=x onerror=alert(1)>.py`
)

// writeHostileRun writes a run whose snapshots leak at a frame with a
// hostile name and file, under a file name that is hostile too: ten
// snapshots, steps 10 to 100, one more 32 MiB block kept alive at the
// hostile site each time, beside 1 GiB of parameters.
func writeHostileRun(t *testing.T, dir string) {
	t.Helper()
	frame := func(file, name string, line int) *pickle.Dict {
		d := pickle.NewDict(3)
		d.Set("filename", file)
		d.Set("line", line)
		d.Set("name", name)
		return d
	}
	leakStack := pickle.NewList(frame(evilFile, evilName, 57), frame("/home/u/train.py", "main", 9))
	paramStack := pickle.NewList(frame("/home/u/train.py", "main", 3))
	const base = uint64(0x7f0000000000)
	for i := 1; i <= 10; i++ {
		blocks := pickle.NewList()
		addr := base
		add := func(size int64, stack *pickle.List) {
			b := pickle.NewDict(5)
			b.Set("address", addr)
			b.Set("size", size)
			b.Set("requested_size", size)
			b.Set("state", "active_allocated")
			b.Set("frames", stack)
			blocks.Append(b)
			addr += uint64(size)
		}
		add(1<<30, paramStack)
		for range i {
			add(32<<20, leakStack)
		}
		total := int64(addr - base)
		seg := pickle.NewDict(12)
		seg.Set("device", 0)
		seg.Set("address", base)
		seg.Set("total_size", total)
		seg.Set("allocated_size", total)
		seg.Set("active_size", total)
		seg.Set("requested_size", total)
		seg.Set("stream", 0)
		seg.Set("segment_type", "large")
		seg.Set("segment_pool_id", pickle.Tuple{0, 0})
		seg.Set("is_expandable", false)
		seg.Set("frames", pickle.NewList())
		seg.Set("blocks", blocks)
		top := pickle.NewDict(2)
		top.Set("segments", pickle.NewList(seg))
		top.Set("device_traces", pickle.NewList(pickle.NewList()))
		b, err := pickle.Marshal(top, pickle.Options{})
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf(`"><img src=x onerror=alert(1)>_step_%d.pickle`, 10*i)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestHostileSnapshotInChromium runs a snapshot run whose frame names, file
// names and snapshot file names are hostile through the whole pipeline
// (decode, analyse, HTML) and loads the page in headless Chromium: the
// leak must be found at the hostile site, every chart must draw, no script
// may run, and the names must show as text.
func TestHostileSnapshotInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	dir := t.TempDir()
	writeHostileRun(t, dir)
	run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Snapshots) != 10 || len(run.Skipped) != 0 {
		t.Fatalf("%d snapshots, skipped %+v", len(run.Snapshots), run.Skipped)
	}
	f := analyze.Analyze(run, analyze.Options{})
	if !f.Verdict.Leak || len(f.Devices) != 1 || len(f.Devices[0].Suspects) == 0 {
		t.Fatalf("no leak found: %+v", f.Verdict)
	}
	if sp := f.Devices[0].Suspects[0]; sp.Function != evilName || !strings.HasSuffix(sp.Site, ":57") {
		t.Fatalf("top suspect %q in %q, want the hostile frame", sp.Site, sp.Function)
	}
	opt := fixedOptions
	page, err := HTML(f, opt)
	if err != nil {
		t.Fatal(err)
	}
	res, urls := loadInChromium(t, page)
	if res.Alerts > 0 || len(res.Errors)+len(res.Violations)+len(res.Resources)+len(urls) > 0 {
		t.Errorf("alerts %d, errors %q, violations %q, resources %q, requests %q", res.Alerts, res.Errors, res.Violations, res.Resources, urls)
	}
	for _, c := range res.Charts {
		if !c.Instance || c.CanvasW == 0 || c.Points == 0 {
			t.Errorf("chart %s did not draw: %+v", c.ID, c)
		}
	}
	for _, want := range []string{evilName, `"><img src=x onerror=alert(1)>_step_100.pickle`} {
		if !strings.Contains(res.BodyText, want) {
			t.Errorf("page text lacks %q", want)
		}
	}
}
