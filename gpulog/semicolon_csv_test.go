package gpulog_test

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
)

// TestSemicolonQueryCSV: an nvidia-smi query CSV re-saved by a spreadsheet
// in a decimal-comma locale (';' between fields, decimal commas, quoted
// fields, Excel's UTF-8 byte order mark) reads as the CSV nvidia-smi
// wrote, line numbers unchanged.
func TestSemicolonQueryCSV(t *testing.T) {
	const mib = 1 << 20
	type row struct {
		GPU   int
		Used  int64
		Total int64
		Power float64
		Time  string
	}
	tests := []struct {
		name string
		log  string
		want []row
	}{
		{
			name: "header with units",
			log: "timestamp;name;memory.total [MiB];memory.used [MiB]\n" +
				"2024/03/08 10:00:01.123;NVIDIA A100-SXM4-80GB;81920 MiB;1024 MiB\n" +
				"2024/03/08 10:00:02.123;NVIDIA A100-SXM4-80GB;81920 MiB;2048 MiB\n",
			want: []row{{0, 1024 * mib, 81920 * mib, -1, "10:00:01.123"}, {0, 2048 * mib, 81920 * mib, -1, "10:00:02.123"}},
		},
		{
			name: "byte order mark, CRLF, decimal commas, nounits",
			log: "\xef\xbb\xbftimestamp;index;power.draw [W];memory.used [MiB];memory.total [MiB]\r\n" +
				"2024/03/08 10:00:01.123;0;33,09;1024;81920\r\n" +
				"2024/03/08 10:00:01.124;1;250,5;1536,5;81920\r\n",
			want: []row{{0, 1024 * mib, 81920 * mib, 33.09, "10:00:01.123"}, {1, 1536*mib + mib/2, 81920 * mib, 250.5, "10:00:01.124"}},
		},
		{
			name: "byte order mark, units with decimal commas, a quoted name",
			log: "\xef\xbb\xbfindex;name;power.draw [W];memory.used [MiB]\n" +
				"0;\"NVIDIA H100 80GB HBM3\";73,25 W;5 MiB\n",
			want: []row{{0, 5 * mib, gpulog.Unknown, 73.25, ""}},
		},
		{
			name: "no header: nvidia-smi's timestamp first",
			log: "2024/03/08 10:00:01.123;NVIDIA A100-SXM4-80GB;0;12;3;81920 MiB;80896 MiB;1024 MiB\n" +
				"2024/03/08 10:00:02.123;NVIDIA A100-SXM4-80GB;0;12;3;81920 MiB;79872 MiB;2048 MiB\n",
			want: []row{{0, 1024 * mib, 81920 * mib, -1, "10:00:01.123"}, {0, 2048 * mib, 81920 * mib, -1, "10:00:02.123"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, ok := gpulog.SniffLog([]byte(tc.log))
			if !ok || f != gpulog.FormatQueryCSV {
				t.Fatalf("sniffed %q %v, want query CSV", f, ok)
			}
			l, err := gpulog.ReadLog(strings.NewReader(tc.log), f, gpulog.ReadOptions{Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			var got []row
			for _, s := range l.Samples {
				tm := ""
				if !s.Time.IsZero() {
					tm = s.Time.Format("15:04:05.999")
				}
				p := s.PowerW
				if math.IsNaN(p) {
					p = -1 // no power column
				}
				got = append(got, row{s.GPU, s.MemoryUsed, s.MemoryTotal, p, tm})
			}
			if len(got) != len(tc.want) {
				t.Fatalf("readings %+v, want %+v (notes %q, problems %v)", got, tc.want, l.Notes, l.Problems)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("reading %d: %+v, want %+v", i, got[i], tc.want[i])
				}
			}
			if l.SkippedLines != 0 {
				t.Errorf("%d lines skipped: %v", l.SkippedLines, l.Problems)
			}
			if !strings.Contains(strings.Join(l.Notes, "\n"), "separated by ';'") {
				t.Errorf("notes %q lack the separator", l.Notes)
			}
		})
	}
}

// TestSemicolonLineNumbers: a bad row is cited at its line in the file.
func TestSemicolonLineNumbers(t *testing.T) {
	log := "index;memory.used [MiB]\n0;1 MiB\n0;x;y\n0;2 MiB\n"
	l, err := gpulog.ReadLog(strings.NewReader(log), gpulog.FormatQueryCSV, gpulog.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Samples) != 2 || len(l.Problems) != 1 || l.Problems[0].Line != 3 {
		t.Errorf("samples %d, problems %v; want 2 and one at line 3", len(l.Samples), l.Problems)
	}
}

// TestSemicolonNotClaimed: ';' text that is no nvidia-smi CSV is left
// alone.
func TestSemicolonNotClaimed(t *testing.T) {
	for _, log := range []string{"a;b;c\n1;2;3\n", "step;loss\n1;0,5\n"} {
		if f, ok := gpulog.SniffLog([]byte(log)); ok {
			t.Errorf("%q claimed as %q", log, f)
		}
	}
}

// TestSemicolonSpreadsheetDates: timestamps a spreadsheet rewrote as its
// locale's dates are read, day and month told apart for the whole column
// (never line by line): by a number over 12, '.' between the parts or
// decimal commas (day first), the order in which the rows run forward in
// time, of two such the one whose consecutive rows lie closest in time,
// else day first as assumed; the note says which.
func TestSemicolonSpreadsheetDates(t *testing.T) {
	const head = "timestamp;index;memory.used [MiB];memory.total [MiB]\n"
	rows := func(stamps ...string) string {
		var b strings.Builder
		b.WriteString(head)
		for i, s := range stamps {
			b.WriteString(s + ";0;" + strconv.Itoa(1000+i) + " MiB;81920 MiB\n")
		}
		return b.String()
	}
	tests := []struct {
		name    string
		log     string
		times   []string
		skipped int
		note    string
	}{
		{name: "German, seconds", log: rows("08.03.2024 10:00:00", "08.03.2024 10:05:00"),
			times: []string{"2024-03-08 10:00:00", "2024-03-08 10:05:00"}, note: "day first (dates with '.'"},
		{name: "German Excel default, no seconds, two-digit year", log: rows("08.03.24 10:00", "08.03.24 10:05"),
			times: []string{"2024-03-08 10:00:00", "2024-03-08 10:05:00"}, note: "2 of them without seconds"},
		{name: "French, decimal comma elsewhere, fraction after a comma",
			log:   "timestamp;index;power.draw [W];memory.used [MiB]\n08/03/2024 10:00:01,5;0;33,5 W;1000 MiB\n08/03/2024 10:00:02,5;0;33,5 W;1001 MiB\n",
			times: []string{"2024-03-08 10:00:01.5", "2024-03-08 10:00:02.5"}, note: "day first (a decimal-comma locale's)"},
		// The first rows alone are ambiguous; a later one settles the
		// whole column.
		{name: "day over 12 on a later line", log: rows("12/03/2024 23:59:00", "13/03/2024 00:04:00"),
			times: []string{"2024-03-12 23:59:00", "2024-03-13 00:04:00"}, note: "day first (a first number over 12)"},
		{name: "month first, forced", log: rows("3/12/2024 23:59:00", "3/13/2024 00:04:00"),
			times: []string{"2024-03-12 23:59:00", "2024-03-13 00:04:00"}, note: "month first (a second number over 12)"},
		{name: "ambiguous, runs forward only day first", log: rows("12/01/2024 23:59:00", "01/02/2024 00:04:00"),
			times: []string{"2024-01-12 23:59:00", "2024-02-01 00:04:00"}, note: "day first (the only order in which they run forward"},
		{name: "ambiguous, runs forward only month first", log: rows("01/12/2024 23:59:00", "02/01/2024 00:04:00"),
			times: []string{"2024-01-12 23:59:00", "2024-02-01 00:04:00"}, note: "month first (the only order"},
		// Both orders run forward: a US capture over midnight (8 to 9
		// March month first, 3 August to 3 September day first); its rows
		// are minutes apart only month first.
		{name: "both forward, month first closest", log: rows("03/08/2024 23:50", "03/08/2024 23:55", "03/09/2024 00:00", "03/09/2024 00:05"),
			times: []string{"2024-03-08 23:50:00", "2024-03-08 23:55:00", "2024-03-09 00:00:00", "2024-03-09 00:05:00"},
			note:  "month first (the order in which consecutive rows lie closest in time"},
		{name: "both forward, day first closest", log: rows("08/03/2024 23:55:00", "09/03/2024 00:00:00", "09/03/2024 00:05:00"),
			times: []string{"2024-03-08 23:55:00", "2024-03-09 00:00:00", "2024-03-09 00:05:00"},
			note:  "day first (the order in which consecutive rows lie closest in time"},
		// A capture over several days, with a logger's pause of a day
		// between them: still days apart month first, months day first.
		{name: "both forward over days, month first", log: rows("01/10/2024 10:00:00", "01/11/2024 10:00:00", "01/12/2024 12:00:00"),
			times: []string{"2024-01-10 10:00:00", "2024-01-11 10:00:00", "2024-01-12 12:00:00"},
			note:  "month first (the order in which consecutive rows lie closest"},
		{name: "ambiguous both ways", log: rows("08/03/2024 10:00:00", "08/03/2024 10:05:00"),
			times: []string{"2024-03-08 10:00:00", "2024-03-08 10:05:00"}, note: "day first (assumed"},
		{name: "Swedish, year first", log: rows("2024-03-08 10:00", "2024-03-08 10:05"),
			times: []string{"2024-03-08 10:00:00", "2024-03-08 10:05:00"}, note: "read year first"},
		// 31 April is no date: that line is skipped, the order stands.
		{name: "no such day", log: rows("30.04.2024 10:00:00", "31.04.2024 10:05:00"),
			times: []string{"2024-04-30 10:00:00"}, skipped: 1, note: "day first"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if f, ok := gpulog.SniffLog([]byte(tc.log)); !ok || f != gpulog.FormatQueryCSV {
				t.Fatalf("sniffed %q %v", f, ok)
			}
			l, err := gpulog.ReadLog(strings.NewReader(tc.log), gpulog.FormatQueryCSV, gpulog.ReadOptions{Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range l.Samples {
				got = append(got, s.Time.Format("2006-01-02 15:04:05.999"))
			}
			if strings.Join(got, ",") != strings.Join(tc.times, ",") || l.SkippedLines != tc.skipped {
				t.Errorf("times %q skipped %d, want %q %d (problems %v)", got, l.SkippedLines, tc.times, tc.skipped, l.Problems)
			}
			if notes := strings.Join(l.Notes, "\n"); !strings.Contains(notes, tc.note) {
				t.Errorf("notes %q lack %q", notes, tc.note)
			}
		})
	}
	// A header-less file whose first field is a German date is claimed.
	noHeader := "08.03.2024 10:00:00;NVIDIA A100-SXM4-80GB;0;12;3;81920 MiB;80896 MiB;1024 MiB\n"
	if f, ok := gpulog.SniffLog([]byte(noHeader)); !ok || f != gpulog.FormatQueryCSV {
		t.Errorf("header-less rows sniffed %q %v", f, ok)
	}
}
