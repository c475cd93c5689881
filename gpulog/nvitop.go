package gpulog

import "strings"

// nvitop (github.com/XuehaiPan/nvitop) prints, with -1/--once, its device
// panel as nvidia-smi's table drawn with box-drawing characters:
//
//	Wed Jul 19 07:56:04 2023
//	╒═════════════════════════════════════════════════════════════════════════════╕
//	│ NVITOP 1.3.0       Driver Version: 535.54.03      CUDA Driver Version: 12.2 │
//	├───────────────────────────────┬──────────────────────┬──────────────────────┤
//	│ GPU  Name        Persistence-M│ Bus-Id        Disp.A │ Volatile Uncorr. ECC │
//	│ Fan  Temp  Perf  Pwr:Usage/Cap│         Memory-Usage │ GPU-Util  Compute M. │
//	╞═══════════════════════════════╪══════════════════════╪══════════════════════╡
//	│   0  A100-SXM4-80GB      On   │ 00000000:07:00.0 Off │                    0 │
//	│ N/A   34C    P0    62W / 400W │  4.72GiB / 80.00GiB  │      0%      Default │
//	╘═══════════════════════════════╧══════════════════════╧══════════════════════╛
//
// (nvitop/tui/screens/main/panels/device.py; with -U, or a terminal
// without Unicode, the same in ASCII). Wider output appends bar charts
// ("MEM: ███ 5.9%") as a further cell, which holds no figure read. The
// memory figures are its bytes2human: binary units with their suffix
// (MiB below 20 GiB, GiB to two decimals above, within 5 MiB), so the
// rows are read as nvidia-smi's are, the units as written. nvitopASCII
// turns the box characters into nvidia-smi's ASCII, so that the table
// reader (nvsmi_table.go) reads both, and the NVITOP banner opens a table
// as the NVIDIA-SMI one does. nvitop's host panel and its process panel
// (a table of its own, "Processes:", GPU-MEM in the same human units) are
// not read: the lines are skipped and counted.

// nvitopASCII returns s with nvitop's box-drawing characters as
// nvidia-smi draws its table: "│" as "|", a "╞═╪═╡" rule (the one under
// the header) as "|=+=|", other rules and corners as "+---+". A line that
// does not start with one of them is returned as it is.
func nvitopASCII(s string) string {
	if len(s) < 3 || s[0] != 0xe2 {
		return s
	}
	var first rune
	for _, r := range s {
		first = r
		break
	}
	if !strings.ContainsRune("│╒├╞╘", first) {
		return s
	}
	header := first == '╞'
	return strings.Map(func(r rune) rune {
		switch r {
		case '│':
			return '|'
		case '╞', '╡':
			return '|'
		case '╒', '╕', '├', '┤', '╘', '╛', '╪', '┼', '┬', '┴', '╤', '╧':
			return '+'
		case '═':
			if header {
				return '='
			}
			return '-'
		case '─':
			return '-'
		}
		return r
	}, s)
}

// isTableBanner reports whether s (in ASCII) is a table's banner line:
// nvidia-smi's or nvitop's.
func isTableBanner(s string) bool {
	return strings.HasPrefix(s, "| NVIDIA-SMI ") || strings.HasPrefix(s, "| NVITOP ")
}
