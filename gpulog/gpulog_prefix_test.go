package gpulog_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"gpureport/gpulog"
)

// prefixed puts a collector's prefix before every line of text; prefix
// gets the 0-based line number.
func prefixed(text string, prefix func(i int) string) string {
	var b strings.Builder
	for i, line := range strings.SplitAfter(text, "\n") {
		if line == "" {
			continue
		}
		b.WriteString(prefix(i) + line)
	}
	return b.String()
}

// TestReadPrefixedLog reads GPU logs saved through collectors that write
// their own text before each line, and checks that they give the same
// readings as the bare log, with a note; the bare logs get no note.
func TestReadPrefixedLog(t *testing.T) {
	bases := []struct {
		name   string
		format gpulog.LogFormat
		text   string
	}{
		{"query csv", gpulog.FormatQueryCSV, "timestamp, index, memory.used [MiB], memory.total [MiB]\n" +
			"2025/01/02 03:04:05.000, 0, 1000 MiB, 81559 MiB\n2025/01/02 03:04:06.000, 0, 1100 MiB, 81559 MiB\n"},
		{"dmon", gpulog.FormatDmon, "# gpu     fb   bar1\n# Idx     MB     MB\n    0   1000      5\n    1   1100      5\n"},
		{"table", gpulog.FormatTable, tableH100},
		{"xml", gpulog.FormatXML, strings.ReplaceAll(xmlDoc, "USED0", "5")},
		// Blank lines come out as the prefix alone.
		{"nvidia-smi -q", gpulog.FormatQueryText, queryDoc("Thu Nov 26 12:00:00 2026", 40000)},
	}
	// time, when set, is the time the prefix of 0-based line i gives.
	collectors := []struct {
		name   string
		prefix func(i int) string
		time   func(i int) time.Time
	}{
		{"srun --label", func(int) string { return "0: " }, nil},
		{"srun --label, padded", func(int) string { return "  3: " }, nil},
		{"kubectl logs --timestamps", func(i int) string { return fmt.Sprintf("2026-11-26T12:00:%02d.%09dZ ", i%60, 1000*i+7) },
			func(i int) time.Time { return time.Date(2026, 11, 26, 12, 0, i%60, 1000*i+7, time.UTC) }},
		// A syslog time has no year: it is not read.
		{"journalctl", func(i int) string { return fmt.Sprintf("Nov %2d 12:%02d:01 gpu-node7 gpumon[812]: ", 6+i%20, i%60) }, nil},
		{"docker compose logs", func(int) string { return "gpumon-1  | " }, nil},
		{"Python logging, two levels", func(i int) string {
			return fmt.Sprintf("2026-11-26 12:00:%02d,%03d %s monitor: ", i%60, i%1000, []string{"INFO", "WARNING"}[i%2])
		}, func(i int) time.Time { return time.Date(2026, 11, 26, 12, 0, i%60, 1e6*(i%1000), time.UTC) }},
	}
	for _, base := range bases {
		want, err := gpulog.ReadLog(strings.NewReader(base.text), base.format, gpulog.ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", base.name, err)
		}
		for _, n := range want.Notes {
			if strings.Contains(n, "log collector") {
				t.Errorf("%s as it is: note %q", base.name, n)
			}
		}
		for _, c := range collectors {
			t.Run(base.name+"/"+c.name, func(t *testing.T) {
				text := prefixed(base.text, c.prefix)
				if f, ok := gpulog.SniffLog([]byte(text)); !ok || f != base.format {
					t.Fatalf("SniffLog = %q, %v; want %q", f, ok, base.format)
				}
				got, err := gpulog.ReadLog(strings.NewReader(text), base.format, gpulog.ReadOptions{})
				if err != nil {
					t.Fatal(err)
				}
				// Readings without a time of their own take their line's
				// prefix time, where it gives one.
				wantSamples := slices.Clone(want.Samples)
				timed := 0
				for i := range wantSamples {
					if wantSamples[i].Time.IsZero() && c.time != nil {
						wantSamples[i].Time = c.time(lineOfReading(base.text, i))
						timed++
					}
				}
				// Python logging's times have no zone: the log says so.
				if wantZoneless := want.Zoneless || timed > 0 && strings.HasPrefix(c.name, "Python"); got.Zoneless != wantZoneless {
					t.Errorf("Zoneless %v, want %v", got.Zoneless, wantZoneless)
				}
				if d := cmp.Diff(wantSamples, got.Samples, cmpopts.EquateNaNs()); d != "" {
					t.Errorf("readings differ from the bare log's (-bare +prefixed):\n%s", d)
				}
				if d := cmp.Diff(want.Processes, got.Processes); d != "" {
					t.Errorf("processes differ from the bare log's (-bare +prefixed):\n%s", d)
				}
				if got.SkippedLines != want.SkippedLines {
					t.Errorf("%d lines skipped, the bare log %d", got.SkippedLines, want.SkippedLines)
				}
				wantNotes := slices.Clone(want.Notes)
				if timed > 0 {
					wantNotes = slices.DeleteFunc(wantNotes, func(n string) bool { return strings.Contains(n, "has a time") })
					wantNotes = append(wantNotes, "log collector", fmt.Sprintf("%d readings have no time of their own", timed))
				} else {
					wantNotes = append(wantNotes, "log collector")
				}
				if len(got.Notes) != len(wantNotes) {
					t.Fatalf("notes %q, want %q", got.Notes, wantNotes)
				}
				for i, w := range wantNotes {
					if !strings.Contains(got.Notes[i], w) {
						t.Errorf("note %d %q, want one with %q", i, got.Notes[i], w)
					}
				}
			})
		}
	}
}

// lineOfReading is the 0-based line of the text of a bare log that gives
// its i-th reading, for the bases of TestReadPrefixedLog whose readings
// have no times: one per data line, after the '#' header lines.
func lineOfReading(text string, i int) int {
	k := 0
	for n, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if k == i {
			return n
		}
		k++
	}
	return -1
}

// TestPrefixIsNotLearnedFromContent checks texts whose line starts look
// alike but are no collector's prefix.
func TestPrefixIsNotLearnedFromContent(t *testing.T) {
	// Half the lines prefixed, the first among them: no prefix is
	// learned, so the header is not found.
	half := prefixed("timestamp, index, memory.used [MiB]\n2025/01/02 03:04:05.000, 0, 1000 MiB\n2025/01/02 03:04:06.000, 0, 1100 MiB\n2025/01/02 03:04:07.000, 0, 1200 MiB\n",
		func(i int) string { return strings.Repeat("0: ", (i+1)%2) })
	if f, _ := gpulog.SniffLog([]byte(half)); f == gpulog.FormatQueryCSV {
		t.Errorf("half the lines prefixed: SniffLog = %q", f)
	}
	// Header-less rows: the date of the timestamp, the first word of a
	// GPU name and the leading fields are all alike on every line, and
	// none of them is a prefix.
	for _, text := range []string{
		"2024/03/01 10:00:00.000, 0, 81920, 1234\n2024/03/01 10:00:01.000, 0, 81920, 1300\n2024/03/01 10:00:02.000, 0, 81920, 1400\n",
		"NVIDIA A100-SXM4-80GB, 0, 1000 MiB, 81920 MiB\nNVIDIA A100-SXM4-80GB, 1, 3 MiB, 81920 MiB\n",
		"0, 1000 MiB, 81920 MiB\n0, 1100 MiB, 81920 MiB\n",
	} {
		l, err := gpulog.ReadLog(strings.NewReader(text), gpulog.FormatQueryCSV, gpulog.ReadOptions{})
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		for _, n := range l.Notes {
			if strings.Contains(n, "log collector") {
				t.Errorf("%q: a prefix was removed: %q", text, n)
			}
		}
	}
}
