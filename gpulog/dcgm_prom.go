package gpulog

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// DCGM exporter Prometheus text, as `curl host:9400/metrics` prints it, one
// scrape or many appended to one file:
//
//	# HELP DCGM_FI_DEV_FB_FREE Framebuffer memory free (in MiB).
//	# TYPE DCGM_FI_DEV_FB_FREE gauge
//	DCGM_FI_DEV_FB_FREE{gpu="0",UUID="GPU-...",device="nvidia0",modelName="NVIDIA A100-SXM4-80GB",Hostname="node1"} 80986
//
// The framebuffer fields are in MiB: DCGM_FI_DEV_FB_USED, _FREE, _TOTAL
// and _RESERVED. The device's total is _TOTAL, else used + free +
// reserved, as NVML's nvmlMemory_v2_t splits the framebuffer (total =
// reserved + used + free). dcgm-exporter's default counters list has
// _USED and _FREE but not _RESERVED: the total is then used + free,
// which leaves out the driver's reservation (a few hundred MiB on a
// data-centre card), and a note says so. DCGM_FI_DEV_GPU_UTIL and DCGM_FI_DEV_MEM_COPY_UTIL are percent,
// DCGM_FI_DEV_POWER_USAGE watts. The labels gpu (the index), UUID,
// pci_bus_id and modelName identify the device; a line with a
// GPU_I_ID label is a MIG instance and gives a MIGSample. Other metrics
// are passed over.
//
// One scrape gives one reading per GPU. A scrape ends where a metric of a
// GPU repeats, or at a date line (a `date; curl ...` loop), which dates
// the scrape after it; a sample's own Prometheus timestamp (milliseconds)
// dates its reading too. Scrapes without either have no time (reading
// order; see placeUntimed).

// dcgmPrefix starts every DCGM exporter metric.
const dcgmPrefix = "DCGM_FI_"

// sniffDCGM reports whether the first lines are DCGM exporter output.
func sniffDCGM(lines []string) bool {
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "# HELP "+dcgmPrefix), strings.HasPrefix(l, "# TYPE "+dcgmPrefix):
			return true
		case strings.HasPrefix(l, dcgmPrefix) && strings.Contains(l, "{"):
			return true
		case strings.HasPrefix(l, "#"):
			continue
		}
		if _, _, ok := parseDateLine(l, time.UTC); ok {
			continue
		}
		return false
	}
	return false
}

// promSample is one Prometheus sample line.
type promSample struct {
	name   string
	labels map[string]string
	value  float64
	// ms is the sample's timestamp in Unix milliseconds, 0 when none.
	ms int64
}

// parsePromLine reads `name{k="v",...} value [timestamp]`.
func parsePromLine(s string) (promSample, error) {
	var p promSample
	i := strings.IndexAny(s, "{ \t")
	if i <= 0 {
		return p, fmt.Errorf("no value")
	}
	p.name = s[:i]
	rest := s[i:]
	if rest[0] == '{' {
		p.labels = map[string]string{}
		j := 1
		for {
			for j < len(rest) && (rest[j] == ' ' || rest[j] == ',') {
				j++
			}
			if j >= len(rest) {
				return p, fmt.Errorf("labels not closed")
			}
			if rest[j] == '}' {
				j++
				break
			}
			eq := strings.IndexByte(rest[j:], '=')
			if eq <= 0 || j+eq+1 >= len(rest) || rest[j+eq+1] != '"' {
				return p, fmt.Errorf("label at byte %d is not name=\"value\"", i+j)
			}
			key := strings.TrimSpace(rest[j : j+eq])
			j += eq + 2
			var val strings.Builder
			closed := false
			for j < len(rest) {
				c := rest[j]
				if c == '\\' && j+1 < len(rest) {
					switch rest[j+1] {
					case 'n':
						val.WriteByte('\n')
					default:
						val.WriteByte(rest[j+1])
					}
					j += 2
					continue
				}
				j++
				if c == '"' {
					closed = true
					break
				}
				val.WriteByte(c)
			}
			if !closed {
				return p, fmt.Errorf("label %q not closed", key)
			}
			p.labels[key] = val.String()
		}
		rest = rest[j:]
	}
	f := strings.Fields(rest)
	if len(f) == 0 || len(f) > 2 {
		return p, fmt.Errorf("want a value and an optional timestamp after the labels")
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return p, fmt.Errorf("value %q is not a number", clip(f[0]))
	}
	p.value = v
	if len(f) == 2 {
		ms, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil || ms <= 0 || ms > 1e14 {
			return p, fmt.Errorf("timestamp %q is not Unix milliseconds", clip(f[1]))
		}
		p.ms = ms
	}
	return p, nil
}

// dcgmScrape collects one scrape's readings, per device key, in order.
type dcgmScrape struct {
	time  time.Time
	order []string
	gpus  map[string]*dcgmDevice
	seen  map[string]bool
}

type dcgmDevice struct {
	gpu       GPU
	mig       int
	gi        int
	line      int
	t         time.Time
	used      int64
	free      int64
	total     int64
	reserved  int64
	util, mem float64
	power     float64
}

func newDCGMScrape(t time.Time) *dcgmScrape {
	return &dcgmScrape{time: t, gpus: map[string]*dcgmDevice{}, seen: map[string]bool{}}
}

func readDCGM(r io.Reader, b *logBuilder) error {
	lr := b.lines(r)
	sc := newDCGMScrape(time.Time{})
	// metrics counts DCGM sample lines, memory those of framebuffer
	// fields, so that a scrape without any says why it gives no reading;
	// unreserved counts the readings whose total is used + free without
	// the reserved memory.
	var tally dcgmTally
	unreserved := 0
	for {
		s, n, ok := b.nextContent(lr)
		if !ok {
			break
		}
		if strings.HasPrefix(s, "#") {
			continue
		}
		if t, zoneless, ok := parseDateLine(s, b.opt.Location); ok {
			unreserved += b.flushDCGM(sc)
			sc = newDCGMScrape(t)
			if zoneless {
				b.log.Zoneless = true
			}
			continue
		}
		p, err := parsePromLine(s)
		if err != nil {
			b.skipRow(n, "unreadable metric line", err.Error())
			continue
		}
		if !strings.HasPrefix(p.name, dcgmPrefix) {
			continue
		}
		field, idx, ok := tally.series(b, n, "", p.name, p.labels)
		if !ok {
			continue
		}
		key := dcgmKey(p.labels)
		if sc.seen[key+"|"+field] {
			unreserved += b.flushDCGM(sc)
			sc = newDCGMScrape(time.Time{})
		}
		sc.seen[key+"|"+field] = true
		d := sc.dcgmDevice(p.labels, idx, n)
		if p.ms > 0 {
			d.t = time.UnixMilli(p.ms).UTC()
		}
		if why := d.set(field, p.name, p.value); why != "" {
			b.skip(n, kindBadRow, why)
		}
	}
	if lr.err != nil {
		return fmt.Errorf("line %d: %w", lr.n+1, lr.err)
	}
	unreserved += b.flushDCGM(sc)
	if unreserved > 0 {
		b.note(fmt.Sprintf("%d readings have used and free memory but neither DCGM_FI_DEV_FB_TOTAL nor DCGM_FI_DEV_FB_RESERVED: "+
			"their total is used + free, which leaves out the driver's reserved memory, so the device's capacity is that much below the card's; "+
			"add DCGM_FI_DEV_FB_RESERVED to the exporter's counters list, or pass --capacity", unreserved))
	}
	if tally.metrics > 0 && tally.memory == 0 {
		b.note(fmt.Sprintf("%d DCGM metric lines, none of them a framebuffer field (DCGM_FI_DEV_FB_USED, _FREE, _TOTAL): the exporter's counters list leaves GPU memory out; add those fields to it", tally.metrics))
		if len(b.log.Samples)+len(b.log.MIG) == 0 {
			return fmt.Errorf("%d DCGM metric lines and no framebuffer field (DCGM_FI_DEV_FB_USED, _FREE, _TOTAL): the exporter's counters list leaves GPU memory out; add those fields to it", tally.metrics)
		}
	}
	return nil
}

// dcgmKey is the device a sample's labels name: its host, UUID, index
// and MIG GPU instance.
func dcgmKey(labels map[string]string) string {
	return labels["Hostname"] + "|" + labels["UUID"] + "|" + labels["gpu"] + "|" + labels["GPU_I_ID"]
}

// dcgmDevice returns the scrape's reading of the device labels name (GPU
// index idx), new at line n when the scrape has none yet.
func (sc *dcgmScrape) dcgmDevice(labels map[string]string, idx, n int) *dcgmDevice {
	key := dcgmKey(labels)
	d := sc.gpus[key]
	if d != nil {
		return d
	}
	d = &dcgmDevice{gpu: GPU{Index: idx, UUID: labels["UUID"], BusID: normBusID(labels["pci_bus_id"]), Name: labels["modelName"]},
		mig: -1, gi: -1, line: n, used: Unknown, free: Unknown, total: Unknown, reserved: Unknown,
		util: math.NaN(), mem: math.NaN(), power: math.NaN()}
	if gi, ok := atoi(labels["GPU_I_ID"]); ok {
		d.gi, d.mig = gi, gi
	}
	sc.gpus[key] = d
	sc.order = append(sc.order, key)
	return d
}

// set keeps value as the device's field (dcgmField's name) of metric
// name: the framebuffer fields are MiB, utilization percent, power watts.
// It returns why the value cannot be kept, "" when it was.
func (d *dcgmDevice) set(field, name string, value float64) string {
	if why := dcgmBadValue(field, name, value); why != "" {
		return why
	}
	switch field {
	case "used", "free", "total", "reserved":
		v := int64(value * mib)
		switch field {
		case "used":
			d.used = v
		case "free":
			d.free = v
		case "total":
			d.total = v
		case "reserved":
			d.reserved = v
		}
	case "util":
		d.util = value
	case "memutil":
		d.mem = value
	case "power":
		d.power = value
	}
	return ""
}

// dcgmBadValue says why value cannot be the field (dcgmField's name) of
// metric name, "" when it can: a framebuffer field is a MiB count.
func dcgmBadValue(field, name string, value float64) string {
	switch field {
	case "used", "free", "total", "reserved":
		if value < 0 || value > maxMiB || math.IsNaN(value) {
			return fmt.Sprintf("%s %v is not a MiB count", name, value)
		}
	}
	return ""
}

// dcgmTally counts what both DCGM readers (the exporter's text, a
// Prometheus response) say of a log that reads nothing: the DCGM metrics
// seen, and of them the framebuffer fields a reading needs.
type dcgmTally struct{ metrics, memory int }

// series counts DCGM metric name of series (or line) n, with its labels,
// and returns its memory field and GPU index; ok is false when it is no
// memory field, or when it has no gpu label, which is skipped with the
// reason (where prefixed: "series 3: ").
func (t *dcgmTally) series(b *logBuilder, n int, where, name string, labels map[string]string) (field string, idx int, ok bool) {
	t.metrics++
	field = dcgmField(name)
	if field == "" {
		return "", 0, false
	}
	switch field {
	case "used", "free", "total":
		t.memory++
	}
	idx, ok = atoi(labels["gpu"])
	if !ok {
		b.skip(n, kindBadRow, fmt.Sprintf("%s%s has no gpu=\"N\" label", where, name))
		return "", 0, false
	}
	return field, idx, true
}

// dcgmField names the DCGM fields the reader uses, "" for others.
func dcgmField(name string) string {
	switch name {
	case "DCGM_FI_DEV_FB_USED":
		return "used"
	case "DCGM_FI_DEV_FB_FREE":
		return "free"
	case "DCGM_FI_DEV_FB_TOTAL":
		return "total"
	case "DCGM_FI_DEV_FB_RESERVED":
		return "reserved"
	case "DCGM_FI_DEV_GPU_UTIL":
		return "util"
	case "DCGM_FI_DEV_MEM_COPY_UTIL":
		return "memutil"
	case "DCGM_FI_DEV_POWER_USAGE":
		return "power"
	}
	return ""
}

// flushDCGM emits a scrape's readings and returns how many of them have
// a total of used + free alone (no _TOTAL and no _RESERVED).
func (b *logBuilder) flushDCGM(sc *dcgmScrape) (unreserved int) {
	for _, key := range sc.order {
		d := sc.gpus[key]
		t := d.t
		if t.IsZero() {
			t = sc.time
		}
		total := d.total
		// short is true when the total leaves out the reserved memory.
		short := false
		if total < 0 && d.used >= 0 && d.free >= 0 {
			total = d.used + d.free + max(d.reserved, 0)
			short = d.reserved < 0
		}
		if d.mig >= 0 {
			if short {
				unreserved++
			}
			b.log.MIG = append(b.log.MIG, MIGSample{Time: t, GPU: d.gpu.Index, MIG: d.mig, GPUInstance: d.gi, ComputeInstance: -1,
				MemoryUsed: d.used, MemoryTotal: total})
			continue
		}
		g := d.gpu
		if total > 0 {
			g.MemoryTotal = total
		}
		if why := b.device(g); why != "" {
			b.skip(d.line, kindOtherGPU, why)
			continue
		}
		if short {
			unreserved++
		}
		b.log.Samples = append(b.log.Samples, GPUSample{Time: t, GPU: d.gpu.Index, MemoryUsed: d.used, MemoryTotal: total,
			MemoryFree: d.free, MemoryReserved: d.reserved, UtilizationGPU: d.util, UtilizationMemory: d.mem, PowerW: d.power})
	}
	return unreserved
}
