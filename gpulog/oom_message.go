package gpulog

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"gpureport/internal/units"
)

// An out-of-memory message is read by meaning, not by wording: it is a
// list of quantities (a number and its byte unit), each bound to the
// phrase written right before or right after it. PyTorch's allocators
// have reworded the message many times since 1.0 (docs/oom-messages.md
// lists every wording, with the versions that print it), and other
// backends print the same shape with their own names; the phrases are
// what stayed:
//
//	Tried to allocate X                    the request (the segment the allocator asked for)
//	X total capacity / total capacity of X the device's memory
//	X free / of which X is free            what the driver reported free
//	X already allocated                    live tensors (before 2.1)
//	X cached                               before 1.4: reserved minus allocated
//	X reserved in total by PyTorch         1.4 to 2.0: all reserved memory
//	X is allocated by PyTorch              2.1 on: live tensors, private pools included
//	with X allocated in private pools      CUDA graphs' and MemPools' share of it
//	X is reserved by PyTorch but unallocated   2.1 on: reserved minus allocated
//	X allowed / max allowed: X             a cap on the process (memory fraction, MPS watermark)
//	this process has X memory in use       the process, non-PyTorch memory included
//	Process N has X memory in use          another process on the device
//	MPS allocated: X, other allocations: X Apple's MPS allocator
//	Failed to CUDA calloc N bytes          NCCL's failed allocation
//	Currently allocated : X, Requested : X, Device limit : X, Free (according to CUDA): X,
//	PyTorch limit (set by user-supplied memory fraction) : X   cudaMallocAsync's lines
//
// The binding ignores white space, case and the order of the phrases, so
// a message wrapped by a console (at any column, even inside a number),
// with colour codes, or with its clauses reordered reads the same. A
// quantity whose phrase is cut off (a message pasted only in part) is
// left unknown, never given to another field.

// oomField is what a quantity of a message measures.
type oomField uint8

const (
	fieldNone oomField = iota
	fieldRequested
	fieldCapacity
	fieldFree
	fieldAllocated
	fieldCached
	fieldReserved
	fieldUnallocated
	fieldPrivatePools
	fieldAllowed
	fieldProcessInUse
	fieldOtherProcess
	fieldOtherAllocations
	// fieldIgnored marks quantities that are recognised but not kept (the
	// NPU's "current active", LMS builds' "inactive"), so that no other
	// phrase claims them.
	fieldIgnored
)

// oomPhrase binds a quantity to a field: the compact text (lower case,
// white space removed) that ends right before the quantity, and the one
// that starts right after it; "" matches anything. beforeRE, when set,
// replaces before.
type oomPhrase struct {
	before   string
	beforeRE *regexp.Regexp
	after    string
	field    oomField
}

// oomPhrases are the phrases of every wording (see the comment above).
var oomPhrases = []oomPhrase{
	{before: "triedtoallocate", field: fieldRequested},
	{beforeRE: regexp.MustCompile(`failedtocuda[cm]alloc(?:async)?$`), field: fieldRequested},
	{after: "totalcapacity", field: fieldCapacity},
	// 2.0 and 2.1 spell "capacty".
	{before: "capacityof", field: fieldCapacity},
	{before: "capactyof", field: fieldCapacity},
	{before: "ofwhich", after: "isfree", field: fieldFree},
	{after: "free", field: fieldFree},
	{after: "alreadyallocated", field: fieldAllocated},
	{after: "cached", field: fieldCached},
	{after: "reservedintotalbypytorch", field: fieldReserved},
	{after: "isallocatedbypytorch", field: fieldAllocated},
	{after: "allocatedinprivatepools", field: fieldPrivatePools},
	{after: "isreservedbypytorchbutunallocated", field: fieldUnallocated},
	{after: "allowed", field: fieldAllowed},
	{before: "maxallowed:", field: fieldAllowed},
	{before: "thisprocesshas", after: "memoryinuse", field: fieldProcessInUse},
	{beforeRE: regexp.MustCompile(`process\d+has$`), after: "memoryinuse", field: fieldOtherProcess},
	{before: "mpsallocated:", field: fieldAllocated},
	{before: "otherallocations:", field: fieldOtherAllocations},
	// cudaMallocAsync's lines ("Currently allocated     : X").
	{before: "currentlyallocated:", field: fieldAllocated},
	{before: "requested:", field: fieldRequested},
	{before: "devicelimit:", field: fieldCapacity},
	{before: "free(accordingtocuda):", field: fieldFree},
	{before: "memoryfraction):", field: fieldAllowed},
	{after: "currentactive", field: fieldIgnored},
	{after: "inactive", field: fieldIgnored},
}

// minCutPhrase is the shortest start of a phrase that binds a quantity at
// the very end of a message that was cut off: two letters ("re") could
// begin several phrases, three rarely do, and a tie binds nothing.
const minCutPhrase = 3

var (
	// reQuantity finds sizes in compact text. PyTorch's format_size
	// prints "N bytes" below 1 KiB, else two decimals of KiB, MiB or GiB;
	// MPS and older backends print KB, MB, GB for the same binary units.
	reQuantity = regexp.MustCompile(`(\d+(?:\.\d+)?)(bytes|byte|kib|mib|gib|tib|kb|mb|gb|tb|b)`)
	// reOOMDevice finds the device a message names: "GPU 0 has a total
	// capacity" (2.1 on; some builds print the index as a raw byte, so
	// device 0 shows as nothing), "(GPU 0;" (before 2.1; NPU, MLU and
	// "Device" alike), NCCL's "host:pid:tid [2]" (the CUDA device).
	reOOMDevice = regexp.MustCompile(`(?:gpu|npu|mlu|musa|xpu|device)(\d+|[\x01-\x08\x0e-\x1f])?hasatotalcapac|\((?:gpu|npu|mlu|musa|device)(\d+);|:\d+:\d+\[(\d+)\]|allocationondevice(\d+)wouldexceed`)
	// reOOMBackend names the allocator that failed.
	reOOMBackend = regexp.MustCompile(`\b(CUDA|HIP|NPU|XPU|MLU|MUSA|DPCPP|OpenCL|MPS backend) out of memory`)
)

// oomReading is what a message's quantities say, in bytes (Unknown where
// it does not say).
type oomReading struct {
	requested, requestedSlack     int64
	capacity, free, freeSlack     int64
	allocated, cached, reserved   int64
	unallocated, privatePools     int64
	allowed, processInUse         int64
	otherProcesses, otherAllocs   int64
	device                        int
	backend                       string
	legacy, mps, anyQuantityBound bool
	// listed are the "Process N has X memory in use" entries, in order;
	// selfPID is the pid of the one read as this process (selfListed),
	// 0 when none.
	listed  []listedProcess
	selfPID int
	// selfAt is the index in listed of the entry read as this process,
	// -1 when none.
	selfAt int
	// slack is how far the true figure of each field may be from the
	// printed one (sizeWithSlack), for the first quantity bound to it.
	slack [fieldIgnored + 1]int64
}

// listedProcess is one "Process N has X memory in use" entry.
type listedProcess struct {
	pid          int
	bytes, slack int64
}

// reListedPID reads the pid of a "Process N has" entry from the compact
// text before its quantity.
var reListedPID = regexp.MustCompile(`process(\d+)has$`)

// compactText lower-cases s and removes its white space and control
// characters below 0x20 that are white space (tabs, returns): the form
// phrases are matched in.
func compactText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if unicode.IsSpace(r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// readOOMMessage binds the quantities of one message (its text after the
// line prefix, continuation lines joined) to their fields.
func readOOMMessage(msg string) oomReading {
	r := oomReading{requested: Unknown, capacity: Unknown, free: Unknown, allocated: Unknown, cached: Unknown, reserved: Unknown,
		unallocated: Unknown, privatePools: Unknown, allowed: Unknown, processInUse: Unknown, otherProcesses: Unknown,
		otherAllocs: Unknown, device: -1, selfAt: -1}
	if m := reOOMBackend.FindStringSubmatch(msg); m != nil {
		r.backend = strings.TrimSuffix(m[1], " backend")
	}
	c := compactText(msg)
	r.mps = r.backend == "MPS"
	r.legacy = strings.Contains(c, "totalcapacity;")
	if m := reOOMDevice.FindStringSubmatch(c); m != nil {
		switch {
		case m[1] != "":
			if n, ok := atoi(m[1]); ok {
				r.device = n
			} else {
				r.device = int(m[1][0])
			}
		case m[2] != "":
			r.device, _ = atoi(m[2])
		case m[3] != "":
			r.device, _ = atoi(m[3])
		case m[4] != "":
			r.device, _ = atoi(m[4])
		}
	}
	for _, loc := range reQuantity.FindAllStringSubmatchIndex(c, -1) {
		num, unit := c[loc[2]:loc[3]], c[loc[4]:loc[5]]
		field := bindQuantity(c[:loc[0]], c[loc[1]:])
		if field == fieldNone || field == fieldIgnored {
			continue
		}
		v, slack := sizeWithSlack(num, unit)
		if v < 0 {
			continue
		}
		r.anyQuantityBound = true
		if field != fieldOtherProcess && r.slack[field] == 0 {
			r.slack[field] = slack
		}
		set := func(dst *int64) {
			if *dst < 0 {
				*dst = v
			}
		}
		switch field {
		case fieldRequested:
			if r.requested < 0 {
				r.requested, r.requestedSlack = v, slack
			}
		case fieldCapacity:
			set(&r.capacity)
		case fieldFree:
			if r.free < 0 {
				r.free, r.freeSlack = v, slack
			}
		case fieldAllocated:
			set(&r.allocated)
		case fieldCached:
			set(&r.cached)
		case fieldReserved:
			set(&r.reserved)
		case fieldUnallocated:
			set(&r.unallocated)
		case fieldPrivatePools:
			set(&r.privatePools)
		case fieldAllowed:
			set(&r.allowed)
		case fieldProcessInUse:
			set(&r.processInUse)
		case fieldOtherProcess:
			r.otherProcesses = max(r.otherProcesses, 0) + v
			p := listedProcess{bytes: v, slack: slack}
			if m := reListedPID.FindStringSubmatch(c[:loc[0]]); m != nil {
				p.pid, _ = atoi(m[1])
			}
			r.listed = append(r.listed, p)
		case fieldOtherAllocations:
			set(&r.otherAllocs)
		}
	}
	return r
}

// selfListed finds this process among the "Process N has X memory in
// use" entries of a message that prints no "this process has" figure.
// PyTorch prints every process NVML lists on the device and names its
// own "this process" only when NVML's pid is its own; in a container (a
// PID namespace: most Docker, Kubernetes and Slurm-container runs) it is
// not, and the process is listed as "Process N" like any other.
//
// The arithmetic tells: every process's memory is part of the device's
// used memory (capacity less free), and this process uses at least what
// PyTorch reserved. When the listed entries and the reserved memory add
// up to more than the used memory, beyond the printed rounding, the
// entries cannot all be other processes: one of them is this process.
// It is an entry of at least the reserved memory (this process's use
// includes it) that leaves the others within the used memory; of several
// such, the smallest, since this process's use is its reserved memory
// plus its CUDA context and other non-PyTorch memory, which is small
// beside it. That entry becomes processInUse and leaves otherProcesses.
func (r *oomReading) selfListed(reserved, reservedSlack int64) {
	if r.processInUse >= 0 || len(r.listed) == 0 || r.capacity < 0 || r.free < 0 || reserved < 0 {
		return
	}
	used := r.capacity - r.free
	usedSlack := r.slack[fieldCapacity] + r.freeSlack
	var sum, sumSlack int64
	for _, p := range r.listed {
		sum, sumSlack = sum+p.bytes, sumSlack+p.slack
	}
	if sum+reserved-sumSlack-reservedSlack <= used+usedSlack {
		return // the entries can all be other processes
	}
	if sum-sumSlack > used+usedSlack {
		return // not even the entries fit: the figures disagree
	}
	self := -1
	for i, p := range r.listed {
		if p.bytes+p.slack+reservedSlack < reserved {
			continue
		}
		if self < 0 || p.bytes < r.listed[self].bytes {
			self = i
		}
	}
	if self < 0 {
		return
	}
	p := r.listed[self]
	r.processInUse, r.selfPID, r.selfAt = p.bytes, p.pid, self
	r.otherProcesses = Unknown
	if rest := sum - p.bytes; len(r.listed) > 1 {
		r.otherProcesses = rest
	}
}

// largestOther is the largest "Process N has X memory in use" entry that
// is another process's (not selfAt), and how many such entries there are;
// a zero entry when there are none.
func (r *oomReading) largestOther() (top listedProcess, n int) {
	for i, p := range r.listed {
		if i == r.selfAt {
			continue
		}
		n++
		if p.bytes > top.bytes {
			top = p
		}
	}
	return top, n
}

// bindQuantity is the field of the quantity between the compact texts pre
// and post (see oomPhrases); fieldNone when no phrase, or more than one
// field, fits.
func bindQuantity(pre, post string) oomField {
	best, bestLen, tie := fieldNone, -1, false
	consider := func(f oomField, n int) {
		switch {
		case n > bestLen:
			best, bestLen, tie = f, n, false
		case n == bestLen && f != best:
			tie = true
		}
	}
	for _, p := range oomPhrases {
		n := 0
		switch {
		case p.beforeRE != nil:
			loc := p.beforeRE.FindStringIndex(pre)
			if loc == nil {
				continue
			}
			n += loc[1] - loc[0]
		case p.before != "":
			if !strings.HasSuffix(pre, p.before) {
				continue
			}
			n += len(p.before)
		}
		if p.after != "" {
			switch {
			case strings.HasPrefix(post, p.after):
				n += len(p.after)
			case len(post) >= minCutPhrase && strings.HasPrefix(p.after, post):
				// The message ends inside the phrase: cut short.
				n += len(post)
			default:
				continue
			}
		}
		if n > 0 {
			consider(p.field, n)
		}
	}
	if tie {
		return fieldNone
	}
	return best
}

// sizeWithSlack reads a number and its unit as bytes, and how far the
// true size may be from the printed one: half the value of the last
// printed digit ("793.71 MiB": 0.005 MiB, 5,242 bytes; "20 bytes": 0).
// PyTorch prints binary units, KB, MB and GB included. Unknown when the
// value is out of range.
func sizeWithSlack(num, unit string) (int64, int64) {
	n := parseSize(num, unit)
	if n < 0 {
		return n, 0
	}
	u, ok := units.UnitBytes(unit, units.Binary)
	if !ok {
		u = 1
	}
	decimals := 0
	if dot := strings.IndexByte(num, '.'); dot >= 0 {
		decimals = len(num) - dot - 1
	}
	return n, int64(0.5 * float64(u) / math.Pow10(decimals))
}

// parseSize reads a number and its unit as bytes; PyTorch prints binary
// units (and "bytes" below 1 KiB). Unknown when the number does not
// parse or is beyond maxMiB.
func parseSize(num, unit string) int64 {
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 {
		return Unknown
	}
	u, ok := units.UnitBytes(unit, units.Binary)
	if !ok {
		u = 1
	}
	if f*float64(u) > float64(maxMiB)*mib {
		return Unknown
	}
	return int64(f * float64(u))
}

// reOOMMessageStart finds where an allocator's out-of-memory message
// starts, for the backends that print the caching allocator's shape
// ("CUDA out of memory", "HIP out of memory", "MPS backend out of
// memory", and the device-neutral "torch.OutOfMemoryError: Out of
// memory. Tried to allocate").
var reOOMMessageStart = regexp.MustCompile(`(?:\b(?:CUDA|HIP|NPU|XPU|MLU|MUSA|DPCPP|OpenCL) out of memory|MPS backend out of memory|OutOfMemoryError: Out of memory|\bOut of memory\. Tried to allocate)`)

// reBareColour matches a colour code that lost its escape byte (a log
// pasted into a web page keeps "[31m"); stripTermControl removes those
// that kept it.
var reBareColour = regexp.MustCompile(`\[[0-9;]{1,12}m`)

// visibleText is what a terminal shows of a log line: colour codes
// removed and, where a carriage return moved back to the start of the
// line (a progress bar redrawn in place), the part that holds an
// out-of-memory message, else the last part written.
func visibleText(line string) string {
	line = stripTermControl(line)
	if strings.IndexByte(line, '[') >= 0 {
		line = reBareColour.ReplaceAllString(line, "")
	}
	if strings.IndexByte(line, '\r') < 0 {
		return line
	}
	parts := strings.Split(line, "\r")
	last := ""
	for i := len(parts) - 1; i >= 0; i-- {
		p := parts[i]
		if mayBeOOMLine(p) {
			return p
		}
		if last == "" && strings.TrimSpace(p) != "" {
			last = p
		}
	}
	return last
}
