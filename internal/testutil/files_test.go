package testutil

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// recorder is a testing.TB that records failures instead of failing; run
// calls a function with it as the testing package would, so that Fatal
// ends that function.
type recorder struct {
	testing.TB
	errors []string
	fatal  bool
}

// run calls f on a goroutine of its own, which Fatal ends.
func (r *recorder) run(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return "TestSomething" }
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	r.fatal = true
	runtime.Goexit()
}
func (r *recorder) Fatal(args ...any) {
	r.errors = append(r.errors, fmt.Sprint(args...))
	r.fatal = true
	runtime.Goexit()
}

func TestGolden(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "golden", "out.txt")
	var lines []string
	for i := range 40 {
		lines = append(lines, fmt.Sprintf("line %d of the golden file", i))
	}
	text := strings.Join(lines, "\n") + "\n"
	WriteFiles(t, dir, map[string][]byte{"golden/out.txt": []byte(text)})
	changed := strings.Replace(strings.Replace(text, "line 3 of", "LINE 3 of", 1), "line 37 of", "LINE 37 of", 1)
	tests := []struct {
		name string
		got  string
		// want are the texts the one failure must hold; nil: no failure.
		want []string
	}{
		{"same", text, nil},
		// Both changed lines are reported, far apart as they are, not
		// just the first.
		{"two lines changed", changed, []string{"out.txt differs", "line 3 of", "LINE 3 of", "line 37 of", "LINE 37 of", "-update"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{TB: t}
			r.run(func() { Golden(r, path, []byte(tt.got)) })
			if tt.want == nil {
				if len(r.errors) != 0 {
					t.Errorf("failures %q, want none", r.errors)
				}
				return
			}
			if len(r.errors) != 1 {
				t.Fatalf("failures %q, want one", r.errors)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.errors[0], w) {
					t.Errorf("failure lacks %q:\n%s", w, r.errors[0])
				}
			}
		})
	}
	t.Run("missing file", func(t *testing.T) {
		r := &recorder{TB: t}
		r.run(func() { Golden(r, filepath.Join(dir, "none.txt"), []byte("x")) })
		if !r.fatal || len(r.errors) != 1 || !strings.Contains(r.errors[0], "-update to create it") {
			t.Errorf("failures %q (fatal %v), want one that says how to create it", r.errors, r.fatal)
		}
	})
	t.Run("update", func(t *testing.T) {
		*update = true
		defer func() { *update = false }()
		p := filepath.Join(dir, "new", "golden.txt")
		Golden(t, p, []byte("fresh\n"))
		if b, err := os.ReadFile(p); err != nil || string(b) != "fresh\n" {
			t.Errorf("-update wrote %q, %v", b, err)
		}
	})
}

func TestWriteFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{"a.txt": []byte("a"), "b/c/d.txt": []byte("d"), "b/empty": nil}
	WriteFiles(t, dir, files)
	for rel, want := range files {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil || string(b) != string(want) {
			t.Errorf("%s: %q, %v; want %q", rel, b, err, want)
		}
	}
}

func TestCopyFile(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	WriteFile(t, src, []byte("content"))
	at := time.Date(2026, 1, 1, 0, 3, 0, 0, time.UTC)
	for _, c := range []struct {
		dst   string
		mtime time.Time
	}{{filepath.Join(dir, "a", "b", "timed"), at}, {filepath.Join(dir, "untimed"), time.Time{}}} {
		CopyFile(t, src, c.dst, c.mtime)
		b, err := os.ReadFile(c.dst)
		if err != nil || string(b) != "content" {
			t.Errorf("%s: %q, %v", c.dst, b, err)
		}
		st, err := os.Stat(c.dst)
		if err != nil {
			t.Fatal(err)
		}
		if timed := st.ModTime().Equal(at); timed != !c.mtime.IsZero() {
			t.Errorf("%s: modified %v, want %v", c.dst, st.ModTime(), c.mtime)
		}
	}
}

func TestSampleSnapshots(t *testing.T) {
	names := SampleSnapshots(t, 3)
	if len(names) != 3 || !strings.HasSuffix(names[0], "snapshot_step_000010.pickle") || !strings.HasSuffix(names[2], "snapshot_step_000030.pickle") {
		t.Errorf("%v, want the sample run's first three snapshots in step order", names)
	}
}
