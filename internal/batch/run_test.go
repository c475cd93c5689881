package batch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"gpureport/analyze"
	"gpureport/internal/testutil"
	"gpureport/report"
)

// TestRunOutcomes drives Run with a ReportFunc that fails in each way a
// run can, and checks how each is counted, that --fail-on sees only the
// reported run, and that the overview is written.
func TestRunOutcomes(t *testing.T) {
	root := t.TempDir()
	files := map[string][]byte{}
	for _, r := range []string{"ok", "empty", "unwritable", "locked", "broken"} {
		files[r+"/"+RunMarker] = nil
	}
	testutil.WriteFiles(t, root, files)
	// Another gpureport holds the report folder of run "locked".
	release, err := Lock(filepath.Join(root, "locked", "gpureport"))
	if err != nil {
		t.Fatal(err)
	}
	defer release()

	var (
		mu       sync.Mutex
		inFlight []int
	)
	reportFn := func(ctx context.Context, job Job) (analyze.Verdict, error) {
		mu.Lock()
		inFlight = append(inFlight, job.InFlight)
		mu.Unlock()
		if job.OutDir != filepath.Join(job.Run.Path, "gpureport") {
			t.Errorf("%s: report folder %s", job.Run.Rel, job.OutDir)
		}
		switch job.Run.Rel {
		case "empty":
			return analyze.Verdict{}, &RunError{NothingUsable: true, Err: errors.New("nothing usable: no inputs")}
		case "unwritable":
			return analyze.Verdict{}, &RunError{WriteFailed: true, Err: errors.New("write report: read-only")}
		case "broken":
			return analyze.Verdict{}, errors.New("cannot analyse")
		}
		return analyze.Verdict{}, nil
	}
	overview := filepath.Join(t.TempDir(), "ov")
	res, err := Run(context.Background(), Options{
		Roots:       []string{root},
		OverviewDir: overview,
		Jobs:        2,
		Key:         "k",
		Version:     "test",
		FailOn:      func(analyze.Verdict) []string { return []string{"leak"} },
		Report:      reportFn,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{report.StatusReported: 1, report.StatusNothing: 1, report.StatusFailed: 2, report.StatusLocked: 1}
	for st, n := range want {
		if res.Counts[st] != n {
			t.Errorf("%s: %d runs, want %d (counts %v)", st, res.Counts[st], n, res.Counts)
		}
	}
	if res.Runs != 5 || !res.WriteFailed || res.Label != "batch" {
		t.Errorf("runs %d, write failed %v, label %q", res.Runs, res.WriteFailed, res.Label)
	}
	if len(res.FailOn) != 1 || !strings.HasSuffix(res.FailOn[0], "ok (leak)") {
		t.Errorf("fail-on %q, want only the reported run", res.FailOn)
	}
	if slices.ContainsFunc(inFlight, func(n int) bool { return n != 2 }) {
		t.Errorf("in flight %v, want 2 each", inFlight)
	}
	if _, err := os.Stat(filepath.Join(overview, report.HTMLFile)); err != nil {
		t.Errorf("no overview: %v", err)
	}
	// The failed runs' folders are left as they were: no manifest, so the
	// next batch reports them again.
	if _, err := os.Stat(filepath.Join(root, "broken", "gpureport", manifestName)); err == nil {
		t.Error("a failed run got a manifest")
	}
}

// TestRunErrors checks the errors Run returns before any run is reported.
func TestRunErrors(t *testing.T) {
	empty := t.TempDir()
	if _, err := Run(context.Background(), Options{Roots: []string{empty}}); err == nil || !strings.Contains(err.Error(), "no run directories") {
		t.Errorf("empty root: %v", err)
	}
	if _, err := Run(context.Background(), Options{Roots: []string{filepath.Join(empty, "missing")}}); err == nil {
		t.Error("missing root: no error")
	}
	root := t.TempDir()
	testutil.WriteFiles(t, root, map[string][]byte{"r/" + RunMarker: nil})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	_, err := Run(ctx, Options{Roots: []string{root}, Report: func(context.Context, Job) (analyze.Verdict, error) {
		called = true
		return analyze.Verdict{}, nil
	}})
	if !errors.Is(err, context.Canceled) || called {
		t.Errorf("interrupted batch: %v, report called %v", err, called)
	}
}
