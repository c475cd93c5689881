package gpulog

import (
	"fmt"
	"math"
	"strings"
	"time"

	"gpureport/internal/units"
)

// The query CSV readers: nvidia-smi --query-gpu=... --format=csv and
// --query-compute-apps=... --format=csv, and the NVML recordings of
// `gpureport record`, which use the same layout.
//
// Columns are found by the header's field names, in any order and any
// subset; aliases (gpu_name for name, gpu_bus_id for pci.bus_id,
// used_gpu_memory for used_memory, fb_memory_usage.used for memory.used,
// ...) map to one name. Values may carry units ("841 MiB", "22 %") or not
// (csv,nounits); "[N/A]"-style values are read as unknown. A header that
// repeats (each -l sample printed one) or changes mid-file starts a new
// column layout. A row whose field count does not match its header, or
// whose values do not parse, is skipped with the reason. When the file
// ends mid-line, that last line is skipped when it is incomplete.
//
// A file without any header (csv,noheader) is read only when its first row
// fits exactly one of knownOrders; otherwise the reader fails and says how
// to fix the file.

// csvHeader is the column layout of a query CSV, from a header line or a
// known header-less field order.
type csvHeader struct {
	// apps is true for --query-compute-apps headers (pid, process_name,
	// used_memory).
	apps bool
	// keys are the canonical field names, units the units the header gave
	// in brackets ("MiB", "%"; "" when none).
	keys  []string
	units []string
	// col maps a canonical field to its column, absent when not logged;
	// cols holds the columns parseRow reads (-1: absent) and unitBytes the
	// byte unit of each column (MiB unless the header says otherwise).
	col       map[string]int
	cols      [numRoles]int
	unitBytes []int64
	// text is the column of free text that may hold commas (the process
	// name), -1 when none.
	text int
	// seq numbers the header lines of the file (a repeated header starts
	// a new segment).
	seq int
	// lastUnit is true when the last field of the previous good row ended
	// with a unit, so an unterminated last line ending in a digit was cut.
	lastUnit bool
}

// fieldAliases maps the alternative spellings of query fields to one
// canonical name.
var fieldAliases = map[string]string{
	"gpu_name":                 "name",
	"gpu_serial":               "serial",
	"gpu_uuid":                 "uuid",
	"gpu_bus_id":               "pci.bus_id",
	"fb_memory_usage.total":    "memory.total",
	"fb_memory_usage.used":     "memory.used",
	"fb_memory_usage.free":     "memory.free",
	"fb_memory_usage.reserved": "memory.reserved",
	"used_gpu_memory":          "used_memory",
	"gpu_index":                "index",
}

// queryFields are the exact field names of --query-gpu and
// --query-compute-apps (nvidia-smi --help-query-gpu, with aliases) that
// a header may hold; queryPrefixes cover the families of dotted fields.
var queryFields = map[string]bool{
	"timestamp": true, "driver_version": true, "count": true, "name": true, "gpu_name": true,
	"serial": true, "gpu_serial": true, "uuid": true, "gpu_uuid": true, "pci.bus_id": true,
	"gpu_bus_id": true, "index": true, "display_mode": true, "display_active": true,
	"display_attached": true, "persistence_mode": true, "vbios_version": true, "pstate": true,
	"compute_mode": true, "compute_cap": true, "pid": true, "process_name": true,
	"used_memory": true, "used_gpu_memory": true, "addressing_mode": true, "gpu_index": true,
	"vgpu_device_capability": true, "serial_number": true,
}

var queryPrefixes = []string{
	"memory.", "fb_memory_usage.", "utilization.", "power.", "enforced.power.", "temperature.",
	"clocks.", "clocks_throttle_reasons.", "clocks_event_reasons.", "clocks_event_reasons_counters.",
	"ecc.", "retired_pages.", "remapped_rows.", "encoder.stats.", "pcie.link.", "pci.", "inforom.",
	"fan.", "mig.mode.", "gom.", "gpu_operation_mode.", "driver_model.", "accounting.",
	"protected_memory.", "fabric.", "gsp.", "platform.", "module.", "c2c.", "reset_status.",
	"clocks_applications.", "clocks_default_applications.",
}

// genericFields alone do not make a header nvidia-smi's: a CSV with only
// "name, index" may be anything.
var genericFields = map[string]bool{"name": true, "index": true, "timestamp": true, "count": true, "serial": true, "uuid": true, "pid": true}

// appsFields mark a --query-compute-apps header.
var appsFields = map[string]bool{"pid": true, "process_name": true, "used_memory": true}

func isQueryField(name string) bool {
	if queryFields[name] {
		return true
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '.') {
			return false
		}
	}
	for _, p := range queryPrefixes {
		if strings.HasPrefix(name, p) && len(name) > len(p) {
			return true
		}
	}
	return false
}

// parseCSVHeader reads a query CSV header line ("timestamp, index,
// memory.used [MiB]"). Every field must be an nvidia-smi query field and
// at least one must be more than an identifier.
func parseCSVHeader(line string) (*csvHeader, bool) {
	// Data rows are far more common than headers: reject them on their
	// first field before splitting the line.
	first, _, _ := strings.Cut(line, ",")
	if _, _, ok := headerField(first); !ok {
		return nil, false
	}
	parts := strings.Split(line, ",")
	names := make([]string, len(parts))
	units := make([]string, len(parts))
	h := &csvHeader{col: map[string]int{}, text: -1}
	specific := false
	for i, p := range parts {
		name, unit, ok := headerField(p)
		if !ok {
			return nil, false
		}
		if !genericFields[name] {
			specific = true
		}
		if appsFields[name] || name == "used_gpu_memory" {
			h.apps = true
		}
		names[i], units[i] = name, unit
	}
	if !specific {
		return nil, false
	}
	for i, name := range names {
		key := name
		switch {
		case h.apps && name == "name":
			// In --query-compute-apps, "name" is the process name.
			key = "process_name"
		case fieldAliases[name] != "":
			key = fieldAliases[name]
		}
		h.keys = append(h.keys, key)
		h.units = append(h.units, units[i])
		if _, dup := h.col[key]; !dup {
			h.col[key] = i
		}
	}
	if c, ok := h.col["process_name"]; ok {
		h.text = c
	}
	h.resolve()
	return h, true
}

// headerField reads one header field, "memory.used [MiB]": its lower-case
// name and unit; false when the name is no query field.
func headerField(p string) (name, unit string, ok bool) {
	p = strings.TrimSpace(p)
	name = p
	if j := strings.IndexByte(p, '['); j >= 0 {
		if !strings.HasSuffix(p, "]") {
			return "", "", false
		}
		name, unit = strings.TrimSpace(p[:j]), p[j+1:len(p)-1]
	}
	name = strings.ToLower(name)
	return name, unit, name != "" && isQueryField(name)
}

// knownOrder is a field list that header-less (csv,noheader) logs are
// recognised by.
type knownOrder struct {
	name   string
	fields []string
}

// knownOrders are the header-less field orders DecodeLog recognises from
// the shape of the values. They come from NVIDIA's documented example
// query (the "Useful nvidia-smi Queries" knowledge-base article) and its
// common trimmings. Orders that differ only in the order of two fields of
// the same shape (memory.used before memory.free) cannot be told apart and
// are deliberately not listed: such a file needs its header.
var knownOrders = []knownOrder{
	{"NVIDIA's documented example query", []string{"timestamp", "name", "pci.bus_id", "driver_version", "pstate",
		"pcie.link.gen.max", "pcie.link.gen.current", "temperature.gpu", "utilization.gpu", "utilization.memory",
		"memory.total", "memory.free", "memory.used"}},
	{"NVIDIA's example query without PCI, driver, pstate and temperature",
		[]string{"timestamp", "name", "utilization.gpu", "utilization.memory", "memory.total", "memory.free", "memory.used"}},
	{"NVIDIA's example query without PCI, driver and pstate",
		[]string{"timestamp", "name", "temperature.gpu", "utilization.gpu", "utilization.memory", "memory.total", "memory.free", "memory.used"}},
	{"NVIDIA's example query with index, without PCI, driver, pstate and temperature",
		[]string{"timestamp", "index", "name", "utilization.gpu", "utilization.memory", "memory.total", "memory.free", "memory.used"}},
	{"the GPU-exporter query (index first)",
		[]string{"index", "name", "temperature.gpu", "utilization.gpu", "utilization.memory", "memory.total", "memory.free", "memory.used"}},
	{"the GPU-exporter query (name first)",
		[]string{"name", "index", "temperature.gpu", "utilization.gpu", "utilization.memory", "memory.total", "memory.free", "memory.used"}},
}

// matchKnownOrder returns the header of the one known order the row's
// values fit, or false when none or several fit.
func matchKnownOrder(fields []string) (*csvHeader, *knownOrder, bool) {
	var found *knownOrder
	for i := range knownOrders {
		o := &knownOrders[i]
		if len(o.fields) != len(fields) || !fitsOrder(o.fields, fields) {
			continue
		}
		if found != nil {
			return nil, nil, false
		}
		found = o
	}
	if found == nil {
		return nil, nil, false
	}
	h := &csvHeader{col: map[string]int{}, text: -1, keys: found.fields, units: make([]string, len(found.fields))}
	for i, k := range found.fields {
		h.col[k] = i
	}
	h.resolve()
	return h, found, true
}

// fitsOrder checks each value's shape against its field in the order.
func fitsOrder(order, fields []string) bool {
	mem := map[string]int64{}
	for i, k := range order {
		v := strings.TrimSpace(fields[i])
		switch {
		case k == "timestamp":
			if _, _, ok := parseStamp(v, time.UTC); !ok || !strings.Contains(v, ":") {
				return false
			}
		case k == "name":
			if v == "" || isNA(v) || isBusID(v) || strings.Contains(v, ":") {
				return false
			}
			if _, ok := parseNumber(v, ""); ok {
				return false
			}
		case k == "pci.bus_id":
			if !isBusID(v) {
				return false
			}
		case k == "driver_version":
			if !strings.Contains(v, ".") || strings.Trim(v, "0123456789.") != "" {
				return false
			}
		case k == "pstate":
			if len(v) < 2 || v[0] != 'P' {
				return false
			}
			if _, ok := atoi(v[1:]); !ok {
				return false
			}
		case k == "index" || strings.HasPrefix(k, "pcie.link.gen."):
			if _, ok := atoi(v); !ok {
				return false
			}
		case strings.HasPrefix(k, "utilization."):
			f, ok := parseNumber(v, "%")
			if !ok || f < 0 || f > 100 {
				return false
			}
		case k == "temperature.gpu":
			if _, ok := parseNumber(v, ""); !ok {
				return false
			}
		case strings.HasPrefix(k, "memory."):
			b, ok := parseBytes(v, mib)
			if !ok {
				return false
			}
			mem[k] = b
		}
	}
	if t, ok := mem["memory.total"]; ok && t >= 0 {
		if mem["memory.used"] > t || mem["memory.free"] > t {
			return false
		}
	}
	return true
}

// looksLikeHeaderlessRow reports whether a line is clearly an nvidia-smi
// query row printed without its header: it starts with nvidia-smi's
// timestamp followed by a comma, or holds a "N MiB" field among several.
func looksLikeHeaderlessRow(line string) bool {
	fields := strings.Split(line, ",")
	if len(fields) < 2 {
		return false
	}
	first := strings.TrimSpace(fields[0])
	if len(first) >= 19 && first[4] == '/' && first[7] == '/' && first[13] == ':' {
		if _, _, ok := parseStamp(first, time.UTC); ok {
			return true
		}
	}
	for _, f := range fields {
		f = strings.TrimSpace(f)
		if num, unit := units.SplitUnit(f); unit == "MiB" && num != "" {
			if _, ok := atoi(num); ok {
				return true
			}
		}
	}
	return false
}

// noHeaderError explains a header-less CSV that fits no known order.
func noHeaderError(line int, fields int) error {
	return fmt.Errorf("line %d: CSV rows without a header line (csv,noheader) and the %d fields fit none of the "+
		"known field orders; put the query's field list as the first line: the --query-gpu fields (e.g. "+
		"\"timestamp, index, memory.used [MiB], memory.total [MiB]\"), or for per-process rows the --query-compute-apps "+
		"fields (e.g. \"timestamp, gpu_bus_id, pid, process_name, used_memory [MiB]\"); or log with --format=csv", line, fields)
}

// splitRow splits a CSV row into h's columns, joining extra commas into
// the free-text column.
func (h *csvHeader) splitRow(line string) ([]string, error) {
	fields := strings.Split(line, ",")
	if len(fields) > len(h.keys) && h.text >= 0 {
		extra := len(fields) - len(h.keys)
		joined := strings.Join(fields[h.text:h.text+extra+1], ",")
		fields = append(append(fields[:h.text:h.text], joined), fields[h.text+extra+1:]...)
	}
	if len(fields) != len(h.keys) {
		return nil, fmt.Errorf("%d fields, the header has %d", len(fields), len(h.keys))
	}
	for i := range fields {
		fields[i] = strings.TrimSpace(fields[i])
	}
	return fields, nil
}

// csvRole is a column parseRow reads.
type csvRole int

const (
	roleTimestamp csvRole = iota
	roleIndex
	roleUUID
	roleBusID
	roleName
	rolePID
	roleProcessName
	roleUsedMemory
	roleMemUsed
	roleMemTotal
	roleMemFree
	roleMemReserved
	roleUtilGPU
	roleUtilMem
	rolePower
	numRoles
)

// roleKeys are the canonical fields of the roles; the power draw is the
// first of several fields.
var roleKeys = [numRoles][]string{
	{"timestamp"}, {"index"}, {"uuid"}, {"pci.bus_id"}, {"name"}, {"pid"}, {"process_name"}, {"used_memory"},
	{"memory.used"}, {"memory.total"}, {"memory.free"}, {"memory.reserved"}, {"utilization.gpu"}, {"utilization.memory"},
	{"power.draw", "power.draw.instant", "power.draw.average"},
}

// resolve finds each role's column (-1 when absent) and each column's
// byte unit, once per header rather than once per row.
func (h *csvHeader) resolve() {
	for r, keys := range roleKeys {
		h.cols[r] = -1
		for _, k := range keys {
			if c, ok := h.col[k]; ok {
				h.cols[r] = c
				break
			}
		}
	}
	h.unitBytes = make([]int64, len(h.keys))
	for i, u := range h.units {
		h.unitBytes[i] = mib
		if b, ok := byteUnit(u); ok {
			h.unitBytes[i] = b
		}
	}
}

// parseRow reads one CSV row into a reading.
func (h *csvHeader) parseRow(b *logBuilder, fields []string) (reading, error) {
	r := reading{seq: h.seq, proc: h.apps}
	get := func(role csvRole) (string, bool) {
		if c := h.cols[role]; c >= 0 {
			return fields[c], true
		}
		return "", false
	}
	if v, ok := get(roleTimestamp); ok {
		t, ok := b.stampOrNumber(v, 0, h.keys[h.cols[roleTimestamp]])
		if !ok {
			return r, fmt.Errorf("timestamp %q is not a time", clip(v))
		}
		r.time = t
	}
	r.gpu.Index = -1
	if v, ok := get(roleIndex); ok {
		n, ok := atoi(v)
		if !ok {
			return r, fmt.Errorf("index %q is not a GPU index", clip(v))
		}
		r.gpu.Index = n
		r.hasIndex = true
	}
	if v, ok := get(roleUUID); ok && !isNA(v) {
		r.gpu.UUID = v
	}
	if v, ok := get(roleBusID); ok && !isNA(v) {
		if !isBusID(v) {
			return r, fmt.Errorf("pci.bus_id %q is not a PCI bus id", clip(v))
		}
		r.gpu.BusID = normBusID(v)
	}
	if v, ok := get(roleName); ok && !isNA(v) {
		r.gpu.Name = v
	}
	mem := func(role csvRole) (int64, error) {
		c := h.cols[role]
		if c < 0 {
			return Unknown, nil
		}
		n, ok := parseBytes(fields[c], h.unitBytes[c])
		if !ok {
			return 0, fmt.Errorf("%s %q is not a memory size", h.keys[c], clip(fields[c]))
		}
		if h.units[c] == "" && endsInDigit(fields[c]) {
			b.note(fmt.Sprintf("column %q has no unit in the header or the values: read as MiB, nvidia-smi's unit", h.keys[c]))
		}
		return n, nil
	}
	num := func(role csvRole, unit string) (float64, error) {
		c := h.cols[role]
		if c < 0 {
			return math.NaN(), nil
		}
		f, ok := parseNumber(fields[c], unit)
		if !ok {
			return 0, fmt.Errorf("%s %q is not a number", h.keys[c], clip(fields[c]))
		}
		return f, nil
	}
	var err error
	if h.apps {
		p := &r.p
		p.GPU = r.gpu.Index
		p.UUID, p.BusID = r.gpu.UUID, r.gpu.BusID
		p.Time = r.time
		if v, ok := get(rolePID); ok && !isNA(v) {
			n, ok := atoi(v)
			if !ok {
				return r, fmt.Errorf("pid %q is not a process id", clip(v))
			}
			p.PID = n
		}
		if v, ok := get(roleProcessName); ok && !isNA(v) {
			p.Name = v
		}
		if p.UsedMemory, err = mem(roleUsedMemory); err != nil {
			return r, err
		}
		return r, nil
	}
	s := &r.s
	s.Time = r.time
	if s.MemoryUsed, err = mem(roleMemUsed); err != nil {
		return r, err
	}
	if s.MemoryTotal, err = mem(roleMemTotal); err != nil {
		return r, err
	}
	if s.MemoryFree, err = mem(roleMemFree); err != nil {
		return r, err
	}
	if s.MemoryReserved, err = mem(roleMemReserved); err != nil {
		return r, err
	}
	if s.UtilizationGPU, err = num(roleUtilGPU, "%"); err != nil {
		return r, err
	}
	if s.UtilizationMemory, err = num(roleUtilMem, "%"); err != nil {
		return r, err
	}
	if s.PowerW, err = num(rolePower, "W"); err != nil {
		return r, err
	}
	if s.MemoryTotal > 0 {
		r.gpu.MemoryTotal = s.MemoryTotal
	}
	return r, nil
}

// clip shortens a value quoted in a problem.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
