package gpulog_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"gpureport/gpulog"
)

// nvitopOnce is `nvitop -1` output: the device panel (the second GPU's
// figures in MiB, the first's in GiB, as bytes2human prints them), the
// host panel and the process panel.
const nvitopOnce = `Wed Jul 19 07:56:04 2023
╒═════════════════════════════════════════════════════════════════════════════╕
│ NVITOP 1.3.0       Driver Version: 535.54.03      CUDA Driver Version: 12.2 │
├───────────────────────────────┬──────────────────────┬──────────────────────┤
│ GPU  Name        Persistence-M│ Bus-Id        Disp.A │ Volatile Uncorr. ECC │
│ Fan  Temp  Perf  Pwr:Usage/Cap│         Memory-Usage │ GPU-Util  Compute M. │
╞═══════════════════════════════╪══════════════════════╪══════════════════════╡
│   0  A100-SXM4-80GB      On   │ 00000000:07:00.0 Off │                    0 │
│ N/A   34C    P0    62W / 400W │ 40.72GiB / 80.00GiB  │     87%      Default │
├───────────────────────────────┼──────────────────────┼──────────────────────┤
│   1  A100-SXM4-80GB      On   │ 00000000:0F:00.0 Off │                    0 │
│ N/A   33C    P0    60W / 400W │  15232MiB / 80.00GiB │      0%      Default │
╘═══════════════════════════════╧══════════════════════╧══════════════════════╛
[ CPU: ████▏ 5.2%                     UPTIME: 12.3 days ]  ( Load Average:  1.20  1.10  1.00 )
[ MEM: ███████▌ 15.1%                    USED: 18.2GiB ]  [ SWP: ▏ 0.0%                     ]

╒═════════════════════════════════════════════════════════════════════════════╕
│ Processes:                                                     user@host    │
│ GPU     PID      USER  GPU-MEM %SM %GMBW  %CPU  %MEM  TIME  COMMAND         │
╞═════════════════════════════════════════════════════════════════════════════╡
│   0   12345 C    user 40.70GiB  87   0    98.2   1.2  1:00:00  python train.py│
╘═════════════════════════════════════════════════════════════════════════════╛
`

// nvitopWideASCII is nvitop -1 -U in a wide terminal: ASCII, with the bar
// charts' cell to the right of each row.
const nvitopWideASCII = `Wed Jul 19 08:00:04 2023
+-----------------------------------------------------------------------------+
| NVITOP 1.3.0       Driver Version: 535.54.03      CUDA Driver Version: 12.2 |
+-------------------------------+----------------------+----------------------+
| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |
|===============================+======================+======================+============+
|   0  A100-SXM4-80GB      On   | 00000000:07:00.0 Off |                    0 | MEM: 52.3% |
| N/A   34C    P0    62W / 400W |  5120MiB / 80.00GiB  |     87%      Default | UTL: 87%   |
+===============================+======================+======================+============+
`

// TestNvitopOnce: nvitop's device panel is read as nvidia-smi's table,
// its units as written; its process panel and host lines are not read.
func TestNvitopOnce(t *testing.T) {
	const gib, mib = 1 << 30, 1 << 20
	type sample struct {
		Time        string
		GPU         int
		Used, Total int64
	}
	tests := []struct {
		name, in string
		want     []sample
	}{
		{"unicode with host and process panels", nvitopOnce, []sample{
			{"2023-07-19T07:56:04Z", 0, bytesOf(40.72, gib), 80 * gib},
			{"2023-07-19T07:56:04Z", 1, 15232 * mib, 80 * gib},
		}},
		{"ascii, wide", nvitopWideASCII, []sample{{"2023-07-19T08:00:04Z", 0, 5120 * mib, 80 * gib}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if f, ok := gpulog.SniffLog([]byte(tc.in)); !ok || f != gpulog.FormatTable {
				t.Fatalf("sniffed %q %v, want the table", f, ok)
			}
			l, err := gpulog.ReadLog(strings.NewReader(tc.in), gpulog.FormatTable, gpulog.ReadOptions{Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			var got []sample
			for _, s := range l.Samples {
				got = append(got, sample{s.Time.UTC().Format(time.RFC3339), s.GPU, s.MemoryUsed, s.MemoryTotal})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("samples (-want +got):\n%s", diff)
			}
			if len(l.Processes) != 0 {
				t.Errorf("process readings %+v, want none (nvitop's rows are not nvidia-smi's)", l.Processes)
			}
			if l.Driver != "535.54.03" {
				t.Errorf("driver %q", l.Driver)
			}
		})
	}
	// Other box-drawn text (a memory_summary() drawn with box characters,
	// a table without nvitop's banner) is not claimed.
	if f, ok := gpulog.SniffLog([]byte("╒════════╕\n│ Memory │\n╘════════╛\n")); ok {
		t.Errorf("a box without a banner sniffed as %q", f)
	}
}

// FuzzNvitop: nvitop's output read as the table never panics and keeps
// the log's invariants.
func FuzzNvitop(f *testing.F) {
	f.Add([]byte(nvitopOnce))
	f.Add([]byte(nvitopWideASCII))
	f.Add([]byte("╞═╪═╡\n│ NVITOP │\n│   0  X  On │ 00000000:07:00.0 Off │\n│ N/A │ 99999999999GiB / 1e400GiB │\n"))
	fuzzReader(f, gpulog.FormatTable)
}
