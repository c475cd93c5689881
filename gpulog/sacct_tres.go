package gpulog

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Slurm's accounting (sacct --format=JobID,State,...,TRESUsageInMax, with
// -P's '|' separators or in fixed-width columns) gives, since Slurm 23.02's
// acct_gather_gpu plugin, a job step's GPU memory as the TRES
// "gres/gpumem": TRESUsageInMax is the most any task of the step used
// (NVML's used memory of its processes), in Slurm's binary units (M is
// MiB). It is one figure per step: no series, no time, and not the GPU it
// was on, so it gives no trend and no device, and gpureport has no place
// for a job-level peak of used memory. The file is recognised and listed
// as read without a series, with its figures in the reason. Its State
// column's OUT_OF_MEMORY is Slurm's cgroup memory limit (host RAM, the
// MaxRSS column), never a GPU out-of-memory error, and the reason says so,
// since the word invites the mistake.

var (
	// reSacctGPUMem is a TRES list's GPU memory figure and unit.
	reSacctGPUMem = regexp.MustCompile(`\bgres/gpumem=(\d+(?:\.\d+)?)([KMGTP]?)\b`)
	// reSacctHeader is sacct's header: JobID first, and a TRES usage
	// column.
	reSacctHeader = regexp.MustCompile(`^\s*JobID(?:Raw)?\b.*\bTRESUsage(?:In|Out)(?:Max|Min|Ave|Tot)\b`)
)

// sacctMaxSteps bounds how many steps' figures the reason quotes; a job
// array's listing can hold thousands, and the reason is one line.
const sacctMaxSteps = 4

// SacctTRESReason returns the reason a Slurm sacct listing with GPU memory
// TRES (head: the file's first bytes) is listed without being read, and
// true; false when head is no such listing.
func SacctTRESReason(head []byte) (string, bool) {
	lines := strings.Split(string(head), "\n")
	hdr := -1
	for i, l := range lines {
		if reSacctHeader.MatchString(l) {
			hdr = i
			break
		}
	}
	if hdr < 0 {
		return "", false
	}
	var figures []string
	steps, hostOOM := 0, false
	for _, l := range lines[hdr+1:] {
		if strings.Contains(l, "OUT_OF_MEMORY") {
			hostOOM = true
		}
		m := reSacctGPUMem.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if v, err := strconv.ParseFloat(m[1], 64); err != nil || v == 0 {
			continue
		}
		steps++
		if len(figures) < sacctMaxSteps {
			id := strings.TrimSpace(l)
			if i := strings.IndexAny(id, "| \t"); i >= 0 {
				id = id[:i]
			}
			figures = append(figures, fmt.Sprintf("%s gres/gpumem=%s%s", id, m[1], m[2]))
		}
	}
	if steps == 0 && !strings.Contains(string(head), "gres/gpumem") {
		return "", false
	}
	what := "no step with GPU memory above 0"
	if steps > 0 {
		what = strings.Join(figures, ", ")
		if steps > len(figures) {
			what += fmt.Sprintf(" and %d more", steps-len(figures))
		}
	}
	reason := "Slurm sacct accounting with GPU memory TRES (" + what + "; Slurm's M is MiB): read, but it gives no series: " +
		"TRESUsageInMax's gres/gpumem is one peak of used memory per job step, without times or the GPU it was on, and gpureport keeps no job-level peak; " +
		"record nvidia-smi --query-gpu=timestamp,index,memory.used,memory.total --format=csv -l 10 beside the job for a series"
	if hostOOM {
		reason += "; its State OUT_OF_MEMORY is Slurm's cgroup memory limit (host RAM, see MaxRSS), not a GPU out-of-memory error"
	}
	return reason, true
}
