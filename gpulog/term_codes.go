package gpulog

import (
	"regexp"
	"strings"
)

// A loop that clears the screen before each nvidia-smi (`while true; do
// clear; nvidia-smi; sleep 5; done | tee gpu.log`, or the same captured
// with script(1)) writes the terminal's control sequences into the log,
// before the date line or the table: ESC[H ESC[2J ESC[3J (cursor home,
// erase screen, erase scrollback), and with script(1) mode switches such
// as ESC[?1049h or ESC(B. They are no text: a line is read without them,
// so that the date line after them still times its table.

// reTermControl matches a terminal control sequence: CSI (ESC [ parameters
// intermediates final byte), OSC (ESC ] ... BEL or ESC \), a character
// set designation (ESC ( B), the other two-byte escapes, and the SI byte
// that `tput sgr0` writes after colours (gpustat --color).
var reTermControl = regexp.MustCompile(`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[()*+][ -~]|\x1b[ -~]|\x0f`)

// stripTermControl removes terminal control sequences from a line.
func stripTermControl(s string) string {
	if strings.IndexByte(s, 0x1b) < 0 && strings.IndexByte(s, 0x0f) < 0 {
		return s
	}
	return reTermControl.ReplaceAllString(s, "")
}
