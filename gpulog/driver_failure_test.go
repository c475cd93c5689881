package gpulog_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
)

// TestDriverFailureLines: lines that report a lost GPU or a driver
// nvidia-smi could not reach are counted in any text log, and a note
// names the file, the count and the first line; the words in a sentence
// (not as nvidia-smi prints them) are not counted.
func TestDriverFailureLines(t *testing.T) {
	const csvHead = "timestamp, index, memory.used [MiB], memory.total [MiB]\n"
	row := func(sec, used string) string {
		return "2024/05/01 12:00:0" + sec + ".000, 0, " + used + ", 81920 MiB\n"
	}
	smiFailed := "Unable to determine the device handle for GPU0000:18:00.0: Unknown Error\n" +
		"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n" +
		"\n" +
		"No devices were found\n"
	tableLines := strings.Count(tableH100, "\n")
	// nvidia-smi 535 prints ERR! for used memory it failed to read, in the
	// last table before it stops finding the GPU.
	errTable := strings.Replace(tableH100, "|    1000MiB /", "|    ERR!  /", 1)
	cases := []struct {
		name     string
		format   gpulog.LogFormat
		in       string
		samples  int
		failures int
		first    int
		quote    string
	}{
		{"query CSV, lost then unknown", gpulog.FormatQueryCSV,
			csvHead + row("0", "1000 MiB") + row("5", "1500 MiB") + row("8", "[GPU is lost]") + "2024/05/01 12:00:09.000, 0, [Unknown Error], [Unknown Error]\n",
			4, 2, 4, "2024/05/01 12:00:08.000, 0, [GPU is lost], 81920 MiB"},
		{"tables, then nvidia-smi cannot reach the driver", gpulog.FormatTable, tableH100 + smiFailed + tableH100,
			4, 3, tableLines + 1, "Unable to determine the device handle for GPU0000:18:00.0: Unknown Error"},
		{"dmon, no devices", gpulog.FormatDmon, "# gpu    fb  bar1\n# Idx    MB    MB\n    0  1000     4\nNo devices were found\n",
			1, 1, 4, "No devices were found"},
		{"kernel message in a query CSV", gpulog.FormatQueryCSV,
			csvHead + row("0", "1000 MiB") + "[ 1234.5] NVRM: Xid (PCI:0000:18:00): 79, pid=0, GPU has fallen off the bus.\n",
			1, 1, 3, "[ 1234.5] NVRM: Xid (PCI:0000:18:00): 79, pid=0, GPU has fallen off the bus."},
		{"a table whose memory reads ERR!, then nvidia-smi cannot reach the driver", gpulog.FormatTable, tableH100 + errTable + smiFailed,
			4, 4, tableLines + 10, "| N/A   33C    P0             73W /  700W |    ERR!  /  81559MiB |     12%      Default |"},
		{"ERR! from a fan sensor is no failure", gpulog.FormatTable, strings.Replace(tableH100, "| N/A   33C", "| ERR!  33C", 1),
			2, 0, 0, ""},
		{"the words in a sentence", gpulog.FormatQueryCSV,
			csvHead + row("0", "1000 MiB") + "# if the GPU is lost or an Unknown Error occurs, retry\n",
			1, 0, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(c.in), c.format, gpulog.ReadOptions{Location: time.UTC, Name: "gpu.log"})
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Samples) != c.samples || l.DriverFailures != c.failures || l.FirstDriverFailure != c.first {
				t.Fatalf("samples %d, failures %d first at %d; want %d, %d, %d (problems %+v)",
					len(l.Samples), l.DriverFailures, l.FirstDriverFailure, c.samples, c.failures, c.first, l.Problems)
			}
			var note string
			for _, n := range l.Notes {
				if strings.Contains(n, "GPU lost by the driver") {
					note = n
				}
			}
			if c.failures == 0 {
				if note != "" {
					t.Errorf("note %q for a log without failures", note)
				}
				return
			}
			lines := "lines report"
			if c.failures == 1 {
				lines = "line reports"
			}
			want := "gpu.log: " + strconv.Itoa(c.failures) + " " + lines + " a GPU lost by the driver or a driver nvidia-smi could not reach, the first at line " +
				strconv.Itoa(c.first) + " (\"" + c.quote + "\")"
			if !strings.HasPrefix(note, want) {
				t.Errorf("note %q, want one starting %q", note, want)
			}
		})
	}
}
