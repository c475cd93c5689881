package gpulog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"gpureport/input"
)

// FormatKinetoTrace is torch.profiler's Chrome trace (*.pt.trace.json,
// possibly gzip-compressed), read for its allocator events
// (kineto_trace.go).
const FormatKinetoTrace LogFormat = "kineto-trace"

// torch.profiler with profile_memory=True (exported by
// tensorboard_trace_handler or export_chrome_trace, through Kineto) writes
// every allocation and free of the caching allocator as an instant event:
//
//	{"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 4964, "tid": 4964, "ts": 1000.0,
//	 "args": {"Total Reserved": 25769803776, "Total Allocated": 21541945344, "Bytes": 67108864,
//	          "Addr": 139638043836416, "Device Id": 0, "Device Type": 1}}
//
// "Total Allocated" and "Total Reserved" are the allocator's
// allocated_bytes.all.current and reserved_bytes.all.current after the
// event, on device "Device Id" of "Device Type" 1 (CUDA; ROCm builds
// report CUDA too; 0 is the CPU). Each such event is therefore a
// torch.cuda.memory_stats() reading of that device (MemoryStatsSample),
// not a GPU-log reading: it is the process's allocator, not the device's
// use, and it joins the run's devices as memory_stats JSON lines do. The
// trace's "distributedInfo" gives the rank, "deviceProperties" each
// device's name and totalGlobalMem (its capacity, GPU.MemoryTotal).
//
// Times: "ts" is microseconds, from "baseTimeNanoseconds" when the trace
// gives it (Kineto since 2023, before or after the events); without it, a
// ts of Unix microseconds (older Kineto) is read as such, and a smaller
// one counts from an unknown start, anchored so that the last event falls
// at the file's modification time (the trace is written when profiling
// ends), with a note.
//
// Steps: torch.profiler run with a schedule (prof.step() each step)
// wraps each recorded step in a "ph": "X" span named ProfilerStep#N
// (cat user_annotation, or cpu_op/Operator in older traces; the copy on
// the GPU timeline, cat gpu_user_annotation, is passed over). Within a
// step allocated memory rises in forward and falls after backward, so
// readings placed by time over a trace (often under a second) fit that
// sawtooth, not a leak. With spans that hold most readings, a device
// gets one reading per step: Step N, the allocated
// and reserved memory at the step's end (its last [memory] event, what
// the step leaves behind), and the step's highest figures as
// PeakAllocated and PeakReserved. These are exact, never thinned, for
// the events of a span read before them (traceDevice.inStep; Kineto
// writes a step's span before its operators and events); spans read
// after the events are matched to the thinned readings
// (traceStepReadings), exact to within a thinned group, with a note.
// Without spans the readings stay placed by time, and a note gives the
// window they cover.
//
// A trace is streamed: one event is held at a time, never the file
// (traces of a few steps reach hundreds of MB); events are framed by
// their braces and only [memory] events decoded (scanTraceEvents: a
// 500 MB trace of 1.4 M memory events reads in about 11 s in 11 MB of
// memory on a shared 2-core machine), and the readings of
// a device are thinned to maxTraceReadings (kineto's events are every
// allocation, millions in a long profile): when a device's readings reach
// twice the bound, neighbouring pairs merge into one reading at the
// higher allocated figure (its time) with the higher reserved figure, so
// that peaks survive, and a note says how far they were thinned. Events
// of the CPU, and older traces' events without the totals, are passed
// over (counted in a note); a trace without any CUDA totals is no log,
// with the reason.

// maxTraceReadings bounds the readings kept per device of one trace:
// analysis bins a memory_stats series to 400 points (maxMemStatsPoints
// in package analyze), so 4096 keeps ten times that resolution, about
// 0.5 MiB per device.
const maxTraceReadings = 4096

// maxStepLookback is how many of the latest ProfilerStep spans an event
// is matched against while streaming: the spans of one step from a few
// threads that each call prof.step(), and the step before it.
const maxStepLookback = 8

// traceMemArgs are the args of a "[memory]" event that are read.
type traceMemArgs struct {
	Allocated  *json.Number `json:"Total Allocated"`
	Reserved   *json.Number `json:"Total Reserved"`
	DeviceID   *json.Number `json:"Device Id"`
	DeviceType any          `json:"Device Type"`
}

// traceEvent is the part of a trace event that is read.
type traceEvent struct {
	Name string        `json:"name"`
	Ts   json.Number   `json:"ts"`
	Args *traceMemArgs `json:"args"`
}

// traceReading is one kept reading before its time is resolved: the
// highest allocated figure of the events it stands for (at ts) and their
// highest reserved figure, and the figures of its latest event (at
// lastTs), which is what a step ends with.
type traceReading struct {
	ts                  float64
	allocated, reserved int64
	lastTs              float64
	lastAlloc, lastRes  int64
}

// traceStep is a ProfilerStep#N span: torch.profiler's schedule wraps
// each step between prof.step() calls in a "ph": "X" event named
// ProfilerStep#N (N its step_num, counted over the whole run), from ts
// for dur microseconds.
type traceStep struct {
	n          int64
	start, end float64
}

// traceDevice holds one device's kept readings: every reading stands for
// 2^level events.
type traceDevice struct {
	kept  []traceReading
	level int
	// pending merges the events of the reading being formed (count of
	// them so far).
	pending traceReading
	count   int
	events  int
	// inStep holds, by step number, the exact reading of the events that
	// fell in a ProfilerStep span read before them (torch.profiler
	// writes a step's span before its operators and events), never
	// thinned; stepEvents counts those events.
	inStep     map[int64]*traceReading
	stepEvents int
}

// add takes one event's reading.
func (d *traceDevice) add(r traceReading) {
	d.events++
	if d.count == 0 {
		d.pending = r
	} else {
		d.pending = mergeTraceReadings(d.pending, r)
	}
	d.count++
	if d.count < 1<<d.level {
		return
	}
	d.kept = append(d.kept, d.pending)
	d.count = 0
	if len(d.kept) < 2*maxTraceReadings {
		return
	}
	half := d.kept[:0]
	for i := 0; i+1 < len(d.kept); i += 2 {
		half = append(half, mergeTraceReadings(d.kept[i], d.kept[i+1]))
	}
	d.kept = half
	d.level++
}

// readings returns the kept readings, the one being formed included.
func (d *traceDevice) readings() []traceReading {
	if d.count > 0 {
		d.kept = append(d.kept, d.pending)
		d.count = 0
	}
	return d.kept
}

// mergeTraceReadings is one reading for two: at the higher allocated
// figure's time, with the higher of each figure.
func mergeTraceReadings(a, b traceReading) traceReading {
	m := a
	if b.allocated > a.allocated {
		m = b
	}
	m.allocated = max(a.allocated, b.allocated)
	m.reserved = max(a.reserved, b.reserved)
	m.lastTs, m.lastAlloc, m.lastRes = a.lastTs, a.lastAlloc, a.lastRes
	if b.lastTs >= a.lastTs {
		m.lastTs, m.lastAlloc, m.lastRes = b.lastTs, b.lastAlloc, b.lastRes
	}
	return m
}

// sniffKinetoTrace reports whether head is the start of a Chrome trace
// torch.profiler wrote: a JSON object with "traceEvents", or Kineto's
// "schemaVersion" with its "deviceProperties" or "distributedInfo"
// before the events.
func sniffKinetoTrace(head []byte) bool {
	h := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(h) == 0 || h[0] != '{' {
		return false
	}
	if bytes.Contains(h, []byte(`"traceEvents"`)) {
		return true
	}
	return bytes.Contains(h, []byte(`"schemaVersion"`)) && (bytes.Contains(h, []byte(`"deviceProperties"`)) || bytes.Contains(h, []byte(`"distributedInfo"`)))
}

// errNotTrace is returned for input that is no trace object at all.
var errNotTrace = errors.New("not a Chrome trace: no JSON object")

func readKinetoTrace(r io.Reader, b *logBuilder) error {
	d := json.NewDecoder(r)
	d.UseNumber()
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("%s log: %w", FormatKinetoTrace, errNotTrace)
	}
	var (
		props []struct {
			ID, TotalGlobalMem json.Number
			Name               string
		}
		rank    = input.NoRank
		base    json.Number
		devs    = map[int]*traceDevice{}
		cpu     int
		noTotal int
		events  int
		steps   []traceStep
		readErr error
	)
	for d.More() {
		t, err := d.Token()
		if err != nil {
			readErr = err
			break
		}
		key, _ := t.(string)
		switch key {
		case "deviceProperties":
			err = d.Decode(&props)
		case "distributedInfo":
			var info struct{ Rank *json.Number }
			if err = d.Decode(&info); err == nil && info.Rank != nil {
				if n, ok := jsonInt(*info.Rank); ok && n >= 0 && n < 1<<20 {
					rank = int(n)
				}
			}
		case "baseTimeNanoseconds":
			err = d.Decode(&base)
		case "traceEvents":
			// The events are framed by scanTraceEvents from what the
			// decoder has not read; the rest of the object, if any, is
			// read by a new decoder.
			var rest io.Reader
			events, cpu, noTotal, rest, err = scanTraceEvents(io.MultiReader(d.Buffered(), r), devs, &steps)
			if err == nil && rest == nil {
				goto done
			}
			if err == nil {
				d = json.NewDecoder(rest)
				d.UseNumber()
				_, err = d.Token() // the '{' put before the rest
			}
		default:
			var skip json.RawMessage
			err = d.Decode(&skip)
		}
		if err != nil {
			readErr = fmt.Errorf("%q: %w", key, err)
			break
		}
	}
done:
	if readErr != nil {
		// Keep what was read before the break (a trace cut off while
		// being written).
		b.skip(0, "unreadable trace", fmt.Sprintf("after %d events: %v", events, readErr))
	}
	for _, p := range props {
		id, ok := jsonInt(p.ID)
		total, okT := jsonInt(p.TotalGlobalMem)
		if ok && id >= 0 && id < 1<<20 && okT && total > 0 && total <= maxMiB*mib {
			b.device(GPU{Index: int(id), Name: p.Name, MemoryTotal: total})
		}
	}
	ids := make([]int, 0, len(devs))
	for id := range devs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	at := b.traceClock(base, devs)
	steps = mergeTraceSteps(steps)
	var first, last float64 // the time-placed readings' range (µs)
	timed := false
	for _, id := range ids {
		dev := devs[id]
		rs := dev.readings()
		slices.SortStableFunc(rs, func(x, y traceReading) int { return cmpFloat(x.ts, y.ts) })
		if _, seen := b.byIndex[id]; !seen {
			b.device(GPU{Index: id})
		}
		// Steps place the readings when most of them fall in a step:
		// spans that hold few of the events (a trace whose schedule
		// covers part of the profile) leave the time placement.
		perStep, outside := traceStepReadings(rs, steps)
		total, exact := len(rs), dev.level == 0
		if len(dev.inStep) > 0 {
			// Spans read before their events give exact steps.
			perStep, outside, total, exact = perStep[:0], dev.events-dev.stepEvents, dev.events, true
			for n, r := range dev.inStep {
				perStep = append(perStep, stepReading{traceReading: *r, step: n})
			}
			slices.SortFunc(perStep, func(a, b stepReading) int { return cmpFloat(float64(a.step), float64(b.step)) })
		}
		if len(perStep) > 0 && 2*outside <= total {
			for _, r := range perStep {
				s := MemoryStatsSample{Step: r.step, Time: at(r.lastTs), Device: id, Rank: rank, Allocated: r.lastAlloc, Reserved: r.lastRes,
					PeakAllocated: r.allocated, PeakReserved: r.reserved,
					Active: Unknown, InactiveSplit: Unknown, NumAllocRetries: Unknown, NumOOMs: Unknown}
				b.log.MemoryStats = append(b.log.MemoryStats, s)
			}
			msg := fmt.Sprintf("device %d's allocator events are read as one reading per profiler step (%d steps, ProfilerStep#%d to #%d): the allocated and reserved memory at the step's end (its last [memory] event), which is what the step leaves behind, with the step's highest figures as its peak", id, len(perStep), perStep[0].step, perStep[len(perStep)-1].step)
			if outside > 0 {
				msg += fmt.Sprintf("; %d readings outside every step were passed over", outside)
			}
			if !exact {
				// The spans came after the events, which were thinned.
				msg += "; the trace gives its steps after their events, which were thinned, so a step's figures are those of the thinned readings that end in it (a step's last events may count with the next)"
			}
			b.note(msg)
		} else {
			if !timed || rs[0].ts < first {
				first = rs[0].ts
			}
			last, timed = max(last, rs[len(rs)-1].lastTs), true
			for _, r := range rs {
				s := MemoryStatsSample{Step: input.NoStep, Time: at(r.ts), Device: id, Rank: rank, Allocated: r.allocated, Reserved: r.reserved,
					Active: Unknown, InactiveSplit: Unknown, NumAllocRetries: Unknown, NumOOMs: Unknown}
				b.log.MemoryStats = append(b.log.MemoryStats, s)
			}
		}
		if dev.level > 0 {
			b.note(fmt.Sprintf("device %d's %d allocator events were thinned to %d readings, each the highest allocated and reserved memory of %d events in a row", id, dev.events, len(rs), 1<<dev.level))
		}
	}
	if len(b.log.MemoryStats) == 0 {
		why := "a Chrome trace without [memory] events (torch.profiler records them with profile_memory=True)"
		switch {
		case noTotal > 0:
			why = fmt.Sprintf("a Chrome trace whose %d CUDA [memory] events give no Total Allocated or Total Reserved (PyTorch before 1.10 does not record them)", noTotal)
		case cpu > 0:
			why = fmt.Sprintf("a Chrome trace with CPU [memory] events only (%d)", cpu)
		}
		if readErr != nil {
			why += fmt.Sprintf("; the trace breaks off after %d events: %v", events, readErr)
		}
		return fmt.Errorf("%s log: %s: %w", FormatKinetoTrace, why, ErrNoReadings)
	}
	if timed {
		b.note(fmt.Sprintf("the trace has no ProfilerStep#N spans (torch.profiler writes them when a schedule is stepped with prof.step()): its readings are placed by time, and they cover %s, so a trend of them is one within that window (allocated memory rises and falls within each step)", time.Duration(math.Round((last-first)*1e3)).Round(time.Millisecond)))
	}
	if cpu > 0 {
		b.note(fmt.Sprintf("%d [memory] events of the CPU were passed over: they are host memory", cpu))
	}
	if noTotal > 0 {
		b.note(fmt.Sprintf("%d CUDA [memory] events without Total Allocated and Total Reserved were passed over", noTotal))
	}
	return nil
}

// maxTraceEvent bounds one event of a trace: an operator with its
// stack and shapes is a few KiB; 16 MiB is no event.
const maxTraceEvent = 16 << 20

// scanTraceEvents reads the traceEvents array from src (positioned at
// it), framing each event by its braces (strings and escapes followed)
// without decoding it, and decodes only the [memory] events into devs:
// a trace is mostly operators and kernels, and framing is several times
// faster than decoding. It returns the events read, the [memory] events
// of the CPU and those without totals, and what follows the array as an
// object of the remaining keys ("{" put before them), nil when the trace
// object ends with the array.
func scanTraceEvents(src io.Reader, devs map[int]*traceDevice, steps *[]traceStep) (events, cpu, noTotal int, rest io.Reader, err error) {
	br := bufio.NewReaderSize(src, 64<<10)
	next := func() (byte, error) {
		for {
			c, err := br.ReadByte()
			if err != nil || !isJSONSpace(c) {
				return c, err
			}
		}
	}
	c, err := next()
	if err == nil && c == ':' {
		// The decoder stops after the key, before its colon.
		c, err = next()
	}
	if err != nil || c != '[' {
		return 0, 0, 0, nil, fmt.Errorf("not an array")
	}
	var ev []byte
	for {
		c, err := next()
		if err != nil {
			return events, cpu, noTotal, nil, fmt.Errorf("the events end early: %w", err)
		}
		switch c {
		case ',':
			continue
		case ']':
			c, err := next()
			switch {
			case err != nil:
				return events, cpu, noTotal, nil, fmt.Errorf("the trace ends after its events: %w", err)
			case c == '}':
				return events, cpu, noTotal, nil, nil
			case c == ',':
				return events, cpu, noTotal, io.MultiReader(strings.NewReader("{"), br), nil
			}
			return events, cpu, noTotal, nil, fmt.Errorf("%q after the events", c)
		case '{':
		default:
			return events, cpu, noTotal, nil, fmt.Errorf("event %d is not an object", events+1)
		}
		ev, err = frameObject(br, append(ev[:0], '{'))
		if err != nil {
			return events, cpu, noTotal, nil, fmt.Errorf("event %d: %w", events+1, err)
		}
		events++
		if bytes.Contains(ev, []byte(`"ProfilerStep#`)) {
			if st, ok := traceStepSpan(ev); ok {
				*steps = append(*steps, st)
			}
			continue
		}
		if !bytes.Contains(ev, []byte(`"[memory]"`)) {
			continue
		}
		switch traceMemory(ev, devs, *steps) {
		case memCPU:
			cpu++
		case memNoTotal:
			noTotal++
		}
	}
}

// traceStepSpan reads a ProfilerStep#N span of the CPU timeline. Its
// copy on the GPU timeline (cat "gpu_user_annotation", the step's kernels
// in GPU time) is passed over: [memory] events are on the CPU timeline.
func traceStepSpan(raw []byte) (traceStep, bool) {
	var ev struct {
		Ph, Cat, Name string
		Ts, Dur       json.Number
	}
	if err := json.Unmarshal(raw, &ev); err != nil || ev.Ph != "X" || ev.Cat == "gpu_user_annotation" {
		return traceStep{}, false
	}
	num, ok := strings.CutPrefix(ev.Name, "ProfilerStep#")
	if !ok {
		return traceStep{}, false
	}
	n, err := strconv.ParseInt(num, 10, 64)
	ts, errT := ev.Ts.Float64()
	dur, errD := ev.Dur.Float64()
	if err != nil || n < 0 || errT != nil || errD != nil || !(ts >= 0) || !(dur > 0) || ts+dur > 1e17 {
		return traceStep{}, false
	}
	return traceStep{n: n, start: ts, end: ts + dur}, true
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// frameObject appends to buf (holding the object's '{') the rest of a
// JSON object read from br, through its closing brace.
func frameObject(br *bufio.Reader, buf []byte) ([]byte, error) {
	depth, inString, escaped := 1, false, false
	for {
		chunk, err := br.Peek(max(br.Buffered(), 1))
		if len(chunk) == 0 {
			if err == nil {
				err = io.ErrUnexpectedEOF
			}
			return buf, fmt.Errorf("cut off: %w", err)
		}
		for i, c := range chunk {
			switch {
			case escaped:
				escaped = false
			case inString:
				switch c {
				case '\\':
					escaped = true
				case '"':
					inString = false
				}
			case c == '"':
				inString = true
			case c == '{' || c == '[':
				depth++
			case c == '}' || c == ']':
				depth--
				if depth == 0 {
					buf = append(buf, chunk[:i+1]...)
					_, _ = br.Discard(i + 1)
					return buf, nil
				}
			}
		}
		buf = append(buf, chunk...)
		_, _ = br.Discard(len(chunk))
		if len(buf) > maxTraceEvent {
			return buf, fmt.Errorf("more than %d bytes", maxTraceEvent)
		}
	}
}

// maxTraceTs bounds an event's ts, in microseconds: 9e15 µs from the Unix
// epoch is the year 2255, and in nanoseconds about what a time.Duration
// holds (9.2e18), which traceClock converts the ts to.
const maxTraceTs = 9e15

// Kinds of [memory] events (traceMemory).
const (
	memRead = iota
	memCPU
	memNoTotal
	memOther
)

// traceMemory reads one event holding "[memory]" into devs, and into its
// step's exact reading when one of steps (the spans read so far) holds
// it, and says which kind it was.
func traceMemory(raw []byte, devs map[int]*traceDevice, steps []traceStep) int {
	var ev traceEvent
	if err := json.Unmarshal(raw, &ev); err != nil || ev.Name != "[memory]" || ev.Args == nil {
		return memOther
	}
	a := ev.Args
	if !cudaDeviceType(a.DeviceType) {
		return memCPU
	}
	if a.Allocated == nil || a.DeviceID == nil {
		return memNoTotal
	}
	id, ok := jsonInt(*a.DeviceID)
	alloc, okA := jsonInt(*a.Allocated)
	ts, errT := ev.Ts.Float64()
	// A ts beyond maxTraceTs or below 0 is no time.
	if !ok || id < 0 || id >= 1<<10 || !okA || alloc < 0 || errT != nil || math.IsNaN(ts) || ts < 0 || ts > maxTraceTs {
		return memNoTotal
	}
	res := Unknown
	if a.Reserved != nil {
		if v, ok := jsonInt(*a.Reserved); ok && v >= 0 {
			res = v
		}
	}
	dev := devs[int(id)]
	if dev == nil {
		dev = &traceDevice{}
		devs[int(id)] = dev
	}
	r := traceReading{ts: ts, allocated: alloc, reserved: res, lastTs: ts, lastAlloc: alloc, lastRes: res}
	dev.add(r)
	// Kineto writes a step's span just before its events, so only the
	// latest spans are looked at (maxStepLookback): an event outside
	// every span then costs a few comparisons, not one per step of a
	// long profile. An event of an older span counts as outside every
	// step (the note counts those).
	for i := len(steps) - 1; i >= max(0, len(steps)-maxStepLookback); i-- {
		if s := steps[i]; ts >= s.start && ts <= s.end {
			if dev.inStep == nil {
				dev.inStep = map[int64]*traceReading{}
			}
			if acc := dev.inStep[s.n]; acc != nil {
				*acc = mergeTraceReadings(*acc, r)
			} else {
				dev.inStep[s.n] = &r
			}
			dev.stepEvents++
			break
		}
	}
	return memRead
}

// cudaDeviceType reports whether an event's "Device Type" is CUDA:
// c10's DeviceType 1, or its name.
func cudaDeviceType(v any) bool {
	switch x := v.(type) {
	case json.Number:
		n, ok := jsonInt(x)
		return ok && n == 1
	case float64:
		return x == 1
	case string:
		return strings.EqualFold(x, "cuda")
	}
	return false
}

// traceClock returns how a trace's ts (microseconds) becomes a time:
// from baseTimeNanoseconds when given, as Unix microseconds when that
// large, else as elapsed time anchored at the end of the read
// (anchorElapsed).
func (b *logBuilder) traceClock(base json.Number, devs map[int]*traceDevice) func(ts float64) time.Time {
	if n, ok := jsonInt(base); ok && n > 0 {
		return func(ts float64) time.Time {
			d := math.Round(ts * 1e3)
			if d >= float64(math.MaxInt64-n) {
				return time.Time{} // placed by placeUntimed
			}
			return time.Unix(0, n+int64(d)).UTC()
		}
	}
	unix := true
	for _, d := range devs {
		for _, r := range d.kept {
			unix = unix && r.ts >= epochMinSeconds*1e6
		}
		if d.count > 0 {
			unix = unix && d.pending.ts >= epochMinSeconds*1e6
		}
	}
	if !unix {
		b.elapsed, b.elapsedWhere = true, "the trace's \"ts\" (microseconds from the profiler's start)"
	}
	return func(ts float64) time.Time {
		return elapsedBase.Add(time.Duration(math.Round(ts * 1e3)))
	}
}

// stepReading is the reading of one profiler step (traceStepReadings).
type stepReading struct {
	traceReading
	step int64
}

// mergeTraceSteps orders the spans by start and makes one of the spans of
// a step number (threads that each call prof.step()).
func mergeTraceSteps(steps []traceStep) []traceStep {
	slices.SortFunc(steps, func(a, b traceStep) int { return cmpFloat(a.start, b.start) })
	out := steps[:0]
	for _, s := range steps {
		if i := slices.IndexFunc(out, func(o traceStep) bool { return o.n == s.n }); i >= 0 {
			out[i].start, out[i].end = min(out[i].start, s.start), max(out[i].end, s.end)
			continue
		}
		out = append(out, s)
	}
	return out
}

// traceStepReadings makes one reading per step of a device's readings
// (ordered by ts): a step's reading has the figures of its last event
// (lastTs, lastAlloc, lastRes: the memory the step leaves behind, which a
// leak raises step after step while the rise and fall of activations
// within a step does not) and the step's highest figures (allocated,
// reserved: its peak). A reading belongs to the step whose span holds its
// last event; a thinned reading stands for events in a row, so a step's
// figures are then exact to within one such group at its edges. It also
// returns how many readings fall outside every step. Steps without
// readings give none.
func traceStepReadings(rs []traceReading, steps []traceStep) (out []stepReading, outside int) {
	if len(steps) == 0 {
		return nil, 0
	}
	for _, r := range rs {
		i := slices.IndexFunc(steps, func(s traceStep) bool { return r.lastTs >= s.start && r.lastTs <= s.end })
		if i < 0 {
			outside++
			continue
		}
		j := slices.IndexFunc(out, func(o stepReading) bool { return o.step == steps[i].n })
		if j < 0 {
			out = append(out, stepReading{traceReading: r, step: steps[i].n})
			continue
		}
		o := &out[j]
		last := o.traceReading
		o.traceReading = mergeTraceReadings(last, r)
	}
	slices.SortFunc(out, func(a, b stepReading) int { return cmpFloat(float64(a.step), float64(b.step)) })
	return out, outside
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
