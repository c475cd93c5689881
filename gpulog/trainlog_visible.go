package gpulog

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// VisibleDevices is a CUDA_VISIBLE_DEVICES setting a training log printed
// (a launch script's "export CUDA_VISIBLE_DEVICES=3", a launch line's
// "CUDA_VISIBLE_DEVICES=3 python train.py", an environment dump's
// "'CUDA_VISIBLE_DEVICES': '2,3'"): the process's CUDA device i is
// physical GPU GPUs[i], so an OOM message's "GPU 0" after it is GPU
// GPUs[0] of an nvidia-smi log of the machine. GPUs is nil for a launch
// line that ran its process without a setting (every GPU visible): it
// ends the mapping of the settings before it.
type VisibleDevices struct {
	// Line is the 1-based line; Rank the rank its prefix gives
	// (input.NoRank when none).
	Line, Rank int
	// GPUs are the physical GPU indices listed, in order; a list of
	// UUIDs or MIG names is not read (it says no index).
	GPUs []int
}

// reVisibleDevices matches a CUDA_VISIBLE_DEVICES setting of GPU
// indices: the name, an optional quote, "=" or ":" (or " is"), an
// optional quote, then a comma-separated list of indices ended by the
// line, a space, a quote or punctuation; a name followed by a UUID
// ("GPU-..."), by text, or by a number run into letters is no setting.
var reVisibleDevices = regexp.MustCompile(`CUDA_VISIBLE_DEVICES['"]?\s*(?:=|:|\bis\b)\s*['"]?(\d{1,3}(?:\s*,\s*\d{1,3})*)(?:$|[\s'";),\]}])`)

// A shell's command line, as a `set -x` trace ("+ cmd", "++ cmd") or a
// prompt ("$ cmd") prints it, or as a script echoes it: shell
// assignments (VAR=value, each for this command only), wrappers that run
// the command after them, then the command. reCommandLine splits it into
// the assignments (m[1]) and what follows them (m[2]).
var reCommandLine = regexp.MustCompile(`^\s*(?:\++|\$)?\s*((?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|\S*)(?:\s+|$))*)(.*)$`)

// reLauncher matches a command that starts a training process, after its
// wrappers: a Python interpreter, torchrun, DeepSpeed's or Accelerate's
// launcher, an MPI or Slurm step, or a script run by path, at the start
// of the line (after a trace's or prompt's mark and the assignments).
var reLauncher = regexp.MustCompile(`^(?:(?:nohup|exec|time|env|stdbuf\s+\S+|numactl\s+\S+)\s+)*(?:\S*/)?(?:python(?:\d(?:\.\d+)?)?|torchrun|deepspeed|accelerate|mpirun|srun|horovodrun|\S+\.(?:py|sh))(?:\s|$)`)

// visibleState follows the CUDA_VISIBLE_DEVICES settings of a training
// log in reading order. A setting counts for the messages after it when
// the log's process runs under it: an export (or a bare assignment,
// which the shell keeps for the commands after it), an environment dump
// the process printed, or a per-command prefix ("CUDA_VISIBLE_DEVICES=7
// python ...") on the launch line of a process run in the foreground. A
// prefix applies to its command alone: a later launch line without one
// runs its process under the exported setting (nil: every GPU), and a
// command sent to the background (nohup, a trailing "&": a server beside
// the job) sets nothing for the messages after it, which are the
// foreground process's.
type visibleState struct {
	// exported is the setting the shell passes to its commands (nil:
	// none); current the one the log's latest process runs under.
	exported, current []int
	// set is true once some setting was read: before it, launch lines
	// change nothing.
	set bool
}

// line reads line n of b's log; it returns true when the line was a
// setting. The line may also be something else (a launch command), so
// the caller reads it on.
func (vs *visibleState) line(b *logBuilder, n int, line string) bool {
	hasName := strings.Contains(line, "CUDA_VISIBLE_DEVICES")
	if !hasName && !vs.set {
		return false
	}
	if !hasName && !mayLaunch(line) {
		return false
	}
	text := visibleText(line)
	cm := reCommandLine.FindStringSubmatch(text)
	launch := cm != nil && reLauncher.MatchString(cm[2])
	background := launch && (strings.HasPrefix(strings.TrimSpace(cm[2]), "nohup") || strings.HasSuffix(strings.TrimSpace(cm[2]), "&"))
	var gpus []int
	ok := false
	if hasName {
		gpus, ok = visibleList(text)
	}
	_, rank := fwTimeRank(b, line)
	record := func(g []int) {
		vs.current = g
		b.log.VisibleDevices = append(b.log.VisibleDevices, VisibleDevices{Line: n, Rank: rank, GPUs: g})
	}
	switch {
	case launch && background:
		return false
	case launch:
		// A launch line: its own prefix, else the exported setting.
		prefix := ok && strings.Contains(cm[1], "CUDA_VISIBLE_DEVICES")
		if !prefix {
			if !vs.set || slices.Equal(vs.current, vs.exported) {
				return false
			}
			record(vs.exported)
			return false
		}
		vs.set = true
		record(gpus)
		return true
	case !ok:
		return false
	}
	// An export, a bare assignment (kept by the shell), or a dump of the
	// process's environment.
	vs.set = true
	if exportLine(cm) {
		vs.exported = gpus
	}
	record(gpus)
	return true
}

// exportLine reports whether command line cm sets the shell's
// CUDA_VISIBLE_DEVICES for the commands after it: "export VAR=..." or
// "declare -x VAR=...", or an assignment alone on its line.
func exportLine(cm []string) bool {
	if cm == nil {
		return false
	}
	rest := strings.TrimSpace(cm[2])
	if strings.HasPrefix(rest, "export ") || strings.HasPrefix(rest, "declare -x ") {
		return strings.Contains(rest, "CUDA_VISIBLE_DEVICES=")
	}
	return strings.Contains(cm[1], "CUDA_VISIBLE_DEVICES=") && (rest == "" || rest[0] == ';' || strings.HasPrefix(rest, "&&"))
}

// visibleList reads the GPU index list of text's CUDA_VISIBLE_DEVICES
// setting.
func visibleList(text string) ([]int, bool) {
	m := reVisibleDevices.FindStringSubmatch(text)
	if m == nil {
		return nil, false
	}
	var gpus []int
	for f := range strings.SplitSeq(m[1], ",") {
		g, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, false
		}
		gpus = append(gpus, g)
	}
	return gpus, true
}

// launcherWords are the words one of which a launch line holds
// (reLauncher): a quick test before the regexps.
var launcherWords = []string{"python", "torchrun", "deepspeed", "accelerate", "mpirun", "srun", "horovodrun", ".py", ".sh"}

// mayLaunch reports whether line may be a launch line.
func mayLaunch(line string) bool {
	for _, w := range launcherWords {
		if strings.Contains(line, w) {
			return true
		}
	}
	return false
}
