package gpulog

import (
	"fmt"
	"regexp"
	"strings"
)

// When the driver loses a GPU (it fell off the bus: Xid 79 in the kernel
// log) or cannot be reached at all, a logging loop keeps running and
// writes what nvidia-smi prints instead of readings:
//
//	2024/05/01 12:00:08.123, 0, NVIDIA A100-SXM4-80GB, [GPU is lost], [GPU is lost]
//	2024/05/01 12:00:09.123, 0, [Unknown Error], [Unknown Error], [Unknown Error]
//	Unable to determine the device handle for GPU0000:18:00.0: Unknown Error
//	NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure ...
//	No devices were found
//
// and an nvidia-smi table's Memory-Usage cell reads "ERR!  /  81559MiB"
// first, in the last table before nvidia-smi stops finding the GPU.
// The readers skip such lines or read their fields as not available; the
// line reader counts them wherever they are in a text log, and a note
// names the file, the count and the first line: the GPU's readings end
// there, which a user looking at a run that stopped needs to know.

// driverFailureMarks are the texts that report a lost GPU or a failed
// driver: the --query-gpu values of NVML_ERROR_GPU_IS_LOST and
// NVML_ERROR_UNKNOWN (bracketed as nvidia-smi prints them, so the words
// in a sentence do not count), nvidia-smi's messages when it finds no
// handle, no driver or no device, and the kernel's Xid 79 text in a log
// that captures dmesg.
var driverFailureMarks = []string{
	"[GPU is lost]",
	"[Unknown Error]",
	"Unable to determine the device handle for GPU",
	"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver",
	"No devices were found",
	"GPU has fallen off the bus",
}

// memoryErrCell matches an nvidia-smi table's Memory-Usage cell whose
// used memory reads "ERR!" ("|   ERR!  /  81559MiB |"): NVML failed to
// read the GPU's memory, as a GPU about to be lost does in the table
// printed before nvidia-smi stops finding it. "ERR!" elsewhere in a table
// (a fan or power sensor) is no failure of the memory readings and does
// not match.
var memoryErrCell = regexp.MustCompile(`\|\s*ERR!\s*/\s*\d+\s*MiB\s*\|`)

// driverFailure reports whether a line reports a lost GPU or a failed
// driver, or a memory reading the driver failed to give.
func driverFailure(line string) bool {
	if strings.Contains(line, "ERR!") && memoryErrCell.MatchString(line) {
		return true
	}
	for _, m := range driverFailureMarks {
		if strings.Contains(line, m) {
			return true
		}
	}
	return false
}

// maxFailureQuote bounds the text of the first failure line a note
// quotes, in bytes.
const maxFailureQuote = 100

// noteDriverFailures records the failure lines the line reader counted
// and notes them.
func (b *logBuilder) noteDriverFailures() {
	lr := b.lr
	if lr == nil || lr.failures == 0 {
		return
	}
	b.log.DriverFailures, b.log.FirstDriverFailure = lr.failures, lr.firstFailure
	name := b.opt.Name
	if name == "" {
		name = "this log"
	}
	quote := lr.firstFailureText
	if len(quote) > maxFailureQuote {
		quote = quote[:maxFailureQuote] + "..."
	}
	verb := "report"
	if lr.failures == 1 {
		verb = "reports"
	}
	b.note(fmt.Sprintf("%s: %s %s a GPU lost by the driver or a driver nvidia-smi could not reach, the first at line %d (%q): "+
		"the GPU's readings end there; a GPU that fell off the bus (Xid 79 in the kernel log) needs a reset or a reboot",
		name, plural(lr.failures, "line"), verb, lr.firstFailure, quote))
}
