package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gpureport/internal/testutil"
)

// writeCorpus makes a corpus in a temporary folder: each case is a run
// directory holding one real snapshot (read in place from the shared test
// data, copied only into the temporary folder), labelled as given.
func writeCorpus(t *testing.T, leakLabels ...bool) string {
	t.Helper()
	src := testutil.RealFiles(t, "snapshots", "cs336_silmont_mem_snapshot_small.pickle")[0]
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	type exp struct {
		Leak bool `json:"leak"`
	}
	type cs struct {
		Name      string   `json:"name"`
		Scenario  string   `json:"scenario"`
		Expect    exp      `json:"expect"`
		LeakSites []string `json:"leak_sites"`
	}
	var cases []cs
	for i, leak := range leakLabels {
		name := "case-" + string(rune('a'+i))
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, "snapshot_step_000010.pickle"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		c := cs{Name: name, Scenario: "clean", Expect: exp{leak}}
		if leak {
			c.Scenario, c.LeakSites = "leak-steady", []string{"train.py:57"}
		}
		cases = append(cases, c)
	}
	b, _ := json.Marshal(map[string]any{"generator": "test", "seed": 3, "cases": cases})
	if err := os.WriteFile(filepath.Join(dir, "labels.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestEvalCommand(t *testing.T) {
	tests := []struct {
		name   string
		labels []bool
		code   int
		want   []string
	}{
		{"all clean", []bool{false, false}, exitOK, []string{"2 cases", "clean", "confusion per flag", "OOM cause (rows: label",
			"suspects with a bad interval", "targets: met"}},
		{"missed leak", []bool{false, true}, exitFailOn, []string{"misclassified (1)", "case-b [leak-steady]: leak: got false, want true", "NOT met"}},
	}
	for _, tt := range tests {
		dir := writeCorpus(t, tt.labels...)
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"eval", dir}, &out, &errb)
		if code != tt.code {
			t.Errorf("%s: exit %d, want %d\n%s%s", tt.name, code, tt.code, out.String(), errb.String())
		}
		for _, w := range tt.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: output lacks %q:\n%s", tt.name, w, out.String())
			}
		}
	}
	dir := writeCorpus(t, true)
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"eval", "-json", dir}, &out, &errb); code != exitFailOn {
		t.Errorf("-json: exit %d", code)
	}
	var parsed struct {
		Seed       int64
		Evaluation struct{ TargetsMet bool }
		Results    []struct{ Case string }
	}
	if err := json.Unmarshal(out.Bytes(), &parsed); err != nil || parsed.Seed != 3 || len(parsed.Results) != 1 || parsed.Evaluation.TargetsMet {
		t.Errorf("-json output %v: %s", err, out.String())
	}
	if code := run(context.Background(), []string{"eval", t.TempDir()}, &out, &errb); code != exitNothingUsable {
		t.Errorf("corpus without labels: exit %d", code)
	}
	if code := run(context.Background(), []string{"eval"}, &out, &errb); code != exitUsage {
		t.Errorf("no argument: exit %d", code)
	}
}
