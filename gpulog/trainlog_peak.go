package gpulog

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"gpureport/input"
)

// The vision toolkits' loggers print one figure of the caching allocator
// on their progress lines: torch.cuda.max_memory_allocated(), the most
// memory tensors held, over a span that ends at the line. That is a peak,
// not the memory allocated when the line was printed, so it is kept as
// the reading's PeakAllocated (the highest allocated bytes over the span
// the reading stands for, as a profiler step's reading), never as its
// Allocated: a reading that gives only a peak has no current allocated or
// reserved figure, and adds to the device's peak allocated memory and to
// its trend of peak allocated memory (analyze's peak_allocated_bytes,
// decided as analyze/peaktrend.go says). PeakSinceStart tells the two
// kinds of peak apart: a peak per interval (reset after each line:
// MMEngine, fairseq) is the interval's high-water mark, which wanders
// around a level under a steady workload and whose floor a leak raises;
// a peak since the process started (never reset: MMCV 1.x, detectron2's
// max_mem, torchvision) only ever rises, a new largest batch at a time
// under a steady workload, which analyze must not read as growth. The
// frameworks of trainlog_framework.go
// print current figures beside their peaks (Megatron-LM's "allocated"
// beside "max allocated"), and are read for those. The toolkits, the
// lines and their units:
//
//   - MMEngine's LogProcessor (mmengine/runner/log_processor.py; MMDetection
//     3.x, MMSegmentation 1.x, MMPretrain and the rest of OpenMMLab 2.0):
//     "Epoch(train)  [1][  50/1000]  lr: 2.0000e-02  eta: ...  time: 0.4
//     data_time: 0.01  memory: 3456  loss: ...", or "Iter(train) [  50/
//     90000]  ..." when training by iterations. The figure is
//     get_max_cuda_memory() (mmengine/device/utils.py):
//     max_memory_allocated() // (1024 * 1024), MiB rounded down, after
//     which it calls torch.cuda.reset_peak_memory_stats(), so each line's
//     figure is the peak since the previous line. The bracket is the
//     epoch (from 1) and the iteration within it (from 1) of N, or the
//     iteration of the run; the step is the run's iteration,
//     (epoch-1)*N + iteration in the first form. Lines of the val and test
//     loops ("Epoch(val)") are passed over: their iteration is no
//     training step.
//   - MMCV 1.x's TextLoggerHook (mmcv/runner/hooks/logger/text.py;
//     MMDetection 2.x and the OpenMMLab 1.x toolkits): "Epoch [1][50/7330]
//     lr: 1.000e-02, eta: ..., time: 0.500, data_time: 0.050, memory:
//     3456, loss: ...", or "Iter [50/90000]". The figure is
//     max_memory_allocated() / (1024 * 1024) cast to an int tensor (MiB,
//     rounded down), never reset, so the peak since the process started;
//     in a distributed run it is reduced with MAX over the ranks before
//     rank 0 prints it, so it is the largest peak of any rank (the note
//     says so). The step is counted as MMEngine's.
//   - detectron2's CommonMetricPrinter (detectron2/utils/events.py):
//     "eta: 0:10:00  iter: 19  total_loss: 1.2  ...  lr: 0.0002
//     max_mem: 2345M". The figure is max_memory_allocated() / 1024.0 /
//     1024.0 printed with "{:.0f}M": MiB, rounded. Nothing in the trainer
//     resets the peak, so it is the peak since the process started (or
//     since the last TorchMemoryStats line, which resets it). "iter" is
//     the run's iteration, counted from 0.
//   - detectron2's TorchMemoryStats hook (detectron2/engine/hooks.py):
//     " iter: 19  max_reserved_mem: 3000MB  reserved_mem: 2900MB
//     max_allocated_mem: 2400MB  allocated_mem: 1200MB ". All four are
//     the torch.cuda figures / 1024.0 / 1024.0 with "{:.0f}MB" (MiB,
//     rounded); the hook resets the peaks after each line, so a line is a
//     whole reading: current allocated and reserved memory, and their
//     peaks since the previous line.
//   - torchvision's reference scripts' MetricLogger.log_every
//     (references/*/utils.py, copied by DETR, DeiT, MAE, DINO and many
//     others): "Epoch: [0]  [ 10/5005]  eta: ...  lr: 0.1  loss: ...
//     time: 0.5  data: 0.1  max mem: 1234". The figure is
//     max_memory_allocated() / MB, MB = 1024.0 * 1024.0, printed with
//     "{memory:.0f}": MiB, rounded, never reset, the peak since the
//     process started. The epoch and the batch index within it are
//     counted from 0; the step is epoch*N + index. Evaluation lines
//     ("Test:  [ 10/196] ...") name no epoch and are passed over.
//   - fairseq's Trainer (fairseq/trainer.py, since January 2021) logs
//     gb_free after every step: total_memory_in_GB - max_memory_allocated()
//     / 1024**3, the peak reset after each step, rounded to 0.1 with
//     weight 0 (the last step's value). Its progress lines print it as
//     "epoch 001:    100 / 4000 loss=9.1, ..., num_updates=100, ...,
//     gb_free=6.2, wall=50", the epoch's summary as "... | num_updates
//     4000 | ... | gb_free 6.2 | ...", the JSON format as "gb_free":
//     "6.2". The total is the one fairseq printed for the worker at start
//     (fairseqCapacity; rank 0's, which prints the lines, unless the line's
//     prefix names a rank), so the peak is total - gb_free, to within
//     0.05 GiB; a line with no such total before it is not read, and
//     neither is one that also gives gb_total (the TPU branch, whose
//     gb_free is XLA's free memory). The step is num_updates.
//
// YOLOv5's and Ultralytics' "GPU_mem" column ("4.38G") is reserved
// memory, not a peak, in a unit the banner decides: trainlog_yolo.go.
// Hand-written prints such as "GPU memory allocated: 12.50 GB" are read
// by trainlog_handwritten.go, their "GB" as written with a note of its
// ambiguity.

var (
	// reMMEngineHead is MMEngine's training header: "Epoch(train)" with
	// the epoch and the iteration of N, or "Iter(train)" with the run's
	// iteration of the run's length.
	reMMEngineHead = regexp.MustCompile(`\b(?:Epoch\(train\)\s*\[\s*(\d+)\]\s*\[\s*(\d+)/(\d+)\]|Iter\(train\)\s*\[\s*(\d+)/\d+\])\s`)
	// reMMCVHead is MMCV 1.x's training header, the same fields without
	// the mode.
	reMMCVHead = regexp.MustCompile(`\b(?:Epoch \[(\d+)\]\[(\d+)/(\d+)\]|Iter \[(\d+)/\d+\])\s`)
	// reMMMemory is the "memory: N" field of both (MMEngine separates
	// fields with two spaces, MMCV with ", ").
	reMMMemory = regexp.MustCompile(`(?:^|[\s,])memory: (\d+)(?:[\s,]|$)`)
	// reD2Iter and reD2MaxMem are CommonMetricPrinter's iteration and
	// figure.
	reD2Iter   = regexp.MustCompile(`(?:^|\s)iter: (\d+)\s`)
	reD2MaxMem = regexp.MustCompile(`\smax_mem: (\d+)M(?:\s|$)`)
	// reD2Stats is TorchMemoryStats' line.
	reD2Stats = regexp.MustCompile(`(?:^|\s)iter: (\d+)\s+max_reserved_mem: (\d+)MB\s+reserved_mem: (\d+)MB\s+max_allocated_mem: (\d+)MB\s+allocated_mem: (\d+)MB\b`)
	// reTVHead and reTVMaxMem are MetricLogger's training header (epoch,
	// index, length) and figure.
	reTVHead   = regexp.MustCompile(`\bEpoch: \[(\d+)\]\s+\[\s*(\d+)/(\d+)\]\s`)
	reTVMaxMem = regexp.MustCompile(`\smax mem: (\d+)(?:\s|$)`)
)

// mayBePeakLine rules out most lines before peakLine looks at them.
func mayBePeakLine(line string) bool {
	return containsAny(line, "memory: ", "max_mem: ", "_mem: ", "max mem: ")
}

// containsAny reports whether s contains any of subs.
func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// peakLine reads the toolkits' lines into r (whose figures are Unknown
// and step input.NoStep); it returns the framework and the note of the
// line's kind, and where the toolkit's own text starts (the prefix before
// it gives the time and rank: "Epoch: [0]" at the start of a line is no
// host label and rank); ok is false when the line is none of them.
func peakLine(r *MemoryStatsSample, line string) (framework, note string, at int, ok bool) {
	if m := reMMMemory.FindStringSubmatch(line); m != nil {
		if h := reMMEngineHead.FindStringSubmatchIndex(line); h != nil {
			r.Step, r.PeakAllocated = epochStep(group(line, h, 1), group(line, h, 2), group(line, h, 3), group(line, h, 4), 1), peakFigure(m[1])
			return "mmengine", "MMEngine log lines (\"Epoch(train) [E][I/N] ... memory: M\") are read as the peak allocated memory of the process's device, assumed to be cuda:0: M is torch.cuda.max_memory_allocated() in MiB rounded down (MMEngine divides by 1024*1024) since the previous logged line (MMEngine resets the peak after each); the lines give no current allocated or reserved memory, and the trend is fitted on these per-interval peaks, whose floor a leak raises", h[0], true
		}
		if h := reMMCVHead.FindStringSubmatchIndex(line); h != nil {
			r.Step, r.PeakAllocated = epochStep(group(line, h, 1), group(line, h, 2), group(line, h, 3), group(line, h, 4), 1), peakFigure(m[1])
			r.PeakSinceStart = true
			return "mmcv", "MMCV 1.x log lines (\"Epoch [E][I/N] ... memory: M\") are read as the peak allocated memory of the process's device, assumed to be cuda:0: M is torch.cuda.max_memory_allocated() in MiB rounded down (MMCV divides by 1024*1024) since the process started, and in a distributed run the largest over the ranks (MMCV reduces it with MAX before rank 0 prints it); the lines give no current allocated or reserved memory, and a peak since start only rises, so it is called growing only when it rises at more lines than a steady workload's new largest batches would raise it", h[0], true
		}
	}
	if loc := reD2Stats.FindStringSubmatchIndex(line); loc != nil {
		m := submatches(line, loc)
		r.Step = fwStep(m[1])
		r.PeakReserved, r.Reserved, r.PeakAllocated, r.Allocated = peakFigure(m[2]), mibFigure(m[3]), peakFigure(m[4]), mibFigure(m[5])
		if r.Reserved < 0 && r.Allocated < 0 {
			return "", "", 0, false
		}
		return "detectron2-stats", "detectron2 TorchMemoryStats lines (\"iter: N max_reserved_mem: ...MB reserved_mem: ...MB max_allocated_mem: ...MB allocated_mem: ...MB\", MB meaning MiB: detectron2 divides by 1024*1024) are read as memory_stats readings of the process's device, assumed to be cuda:0, with the peaks since the previous line (the hook resets them after each)", loc[0], true
	}
	if m := reD2MaxMem.FindStringSubmatch(line); m != nil {
		if loc := reD2Iter.FindStringSubmatchIndex(line); loc != nil {
			it := submatches(line, loc)
			// The printer's text starts at its ETA when it has one.
			at := loc[0]
			if e := strings.LastIndex(line[:at], "eta: "); e >= 0 {
				at = e
			}
			r.Step, r.PeakAllocated, r.PeakSinceStart = fwStep(it[1]), peakFigure(m[1]), true
			return "detectron2", "detectron2 metric lines (\"iter: N ... max_mem: MM\") are read as the peak allocated memory of the process's device, assumed to be cuda:0: M is torch.cuda.max_memory_allocated() in MiB (detectron2 divides by 1024*1024 and rounds), the peak since the process started; the lines give no current allocated or reserved memory, and a peak since start only rises, so it is called growing only when it rises at more lines than a steady workload's new largest batches would raise it", at, true
		}
	}
	if m := reTVMaxMem.FindStringSubmatch(line); m != nil {
		if h := reTVHead.FindStringSubmatchIndex(line); h != nil {
			r.Step, r.PeakAllocated = epochStep(group(line, h, 1), group(line, h, 2), group(line, h, 3), "", 0), peakFigure(m[1])
			r.PeakSinceStart = true
			return "torchvision", "torchvision-style MetricLogger lines (\"Epoch: [E] [I/N] ... max mem: M\") are read as the peak allocated memory of the process's device, assumed to be cuda:0: M is torch.cuda.max_memory_allocated() in MiB (MB = 1024.0 * 1024.0, rounded), the peak since the process started; the lines give no current allocated or reserved memory, and a peak since start only rises, so it is called growing only when it rises at more lines than a steady workload's new largest batches would raise it", h[0], true
		}
	}
	return "", "", 0, false
}

// epochStep is the run's step of a progress header: the run's iteration
// iter when the header gives one, else (epoch-base)*n + index. It is
// input.NoStep when a number does not parse or the product overflows.
func epochStep(epoch, index, n, iter string, base int64) int64 {
	if iter != "" {
		return fwStep(iter)
	}
	e, i, l := fwStep(epoch), fwStep(index), fwStep(n)
	if e == input.NoStep || i == input.NoStep || l == input.NoStep || e < base {
		return input.NoStep
	}
	// A step past 2^53 is no run's; it also keeps the product in range.
	const maxStep = 1 << 53
	if e-base > 0 && l > maxStep/(e-base) {
		return input.NoStep
	}
	s := (e-base)*l + i
	if s > maxStep {
		return input.NoStep
	}
	return s
}

// mibFigure is an integer MiB figure in bytes, Unknown when it is not a
// size a device holds.
func mibFigure(s string) int64 {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 || v > maxMiB {
		return Unknown
	}
	return v * mib
}

// peakFigure is mibFigure for a peak: 0, the model's "no span peak", where
// mibFigure is Unknown.
func peakFigure(s string) int64 {
	return max(mibFigure(s), 0)
}

// group is submatch i of a FindStringSubmatchIndex match, "" when it did
// not take part.
func group(s string, loc []int, i int) string {
	if loc[2*i] < 0 {
		return ""
	}
	return s[loc[2*i]:loc[2*i+1]]
}

// submatches turns a FindStringSubmatchIndex match into its strings.
func submatches(s string, loc []int) []string {
	m := make([]string, len(loc)/2)
	for i := range m {
		m[i] = group(s, loc, i)
	}
	return m
}

var (
	// reFairseqFree and reFairseqUpdates are fairseq's gb_free and
	// num_updates in its three formats: "key=v", "key v" between pipes,
	// and JSON's "key": "v".
	reFairseqFree    = regexp.MustCompile(`\bgb_free(?:=|\s+|"\s*:\s*"?)(\d+(?:\.\d+)?)(?:[\s,|"]|$)`)
	reFairseqUpdates = regexp.MustCompile(`\bnum_updates(?:=|\s+|"\s*:\s*"?)(\d+)(?:[\s,|"]|$)`)
)

// fairseqLine reads fairseq's gb_free into r's PeakAllocated, with the
// step and the line's time and rank; false when the line gives none or
// the log printed no total for the worker before it.
func fairseqLine(b *logBuilder, r *MemoryStatsSample, line string) bool {
	if strings.Contains(line, "gb_total") {
		return false
	}
	line = visibleText(line)
	fm := reFairseqFree.FindStringSubmatchIndex(line)
	um := reFairseqUpdates.FindStringSubmatch(line)
	if fm == nil || um == nil {
		return false
	}
	free, err := strconv.ParseFloat(line[fm[2]:fm[3]], 64)
	if err != nil || free > float64(maxMiB)/1024 {
		return false
	}
	t, rank := fwTimeRank(b, line)
	want := rank
	if want == input.NoRank {
		want = 0
	}
	var total int64
	for i := len(b.log.Capacities) - 1; i >= 0; i-- {
		if c := b.log.Capacities[i]; c.Framework == "fairseq" && c.Rank == want {
			total = c.Total
			break
		}
	}
	peak := total - int64(math.Round(free*(1<<30)))
	if total <= 0 || peak <= 0 {
		return false
	}
	r.Step, r.Time, r.Rank, r.PeakAllocated = fwStep(um[1]), t, rank, peak
	return true
}
