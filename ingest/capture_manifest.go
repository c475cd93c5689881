package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gpureport/input"
)

// The capture kit's manifest. gpureport's capture kit (python/,
// gpureport_capture) writes one manifest per rank,
// rank{R}/gpureport-capture.json, beside the rank's snapshots and
// memory_stats lines: the torch and CUDA versions, the allocator settings,
// the job's world size, CUDA_VISIBLE_DEVICES, the rank's CUDA device and
// its GPU UUID, the settings it captured with, what it dumped and each
// OOM it saw. Discovery finds manifests by that file name anywhere in the
// run folder; ReadCaptureManifest reads one.
//
// A manifest is read field by field: a field of the wrong type or out of
// range costs that field (listed in Problems), not the manifest. Only a
// file that is no JSON object, has another schema, or has no rank is
// refused, with a *ManifestError naming the field.

// CaptureManifestName is the file name of a capture manifest.
const CaptureManifestName = "gpureport-capture.json"

// CaptureSchema is the manifest schema this gpureport reads: the kit's
// "gpureport-capture/v1".
const CaptureSchema = "gpureport-capture/v1"

// maxManifestBytes bounds a manifest file, bytes. The kit keeps at most 20
// errors and a few OOM entries, so a real manifest stays under 16 KiB;
// 1 MiB refuses a file that only borrowed the name without reading it
// whole.
const maxManifestBytes = 1 << 20

// maxManifestRank bounds a rank or world size: no job has a million ranks,
// and a larger number is a corrupt field.
const maxManifestRank = 1 << 20

// maxUTCOffset is the largest UTC offset of any time zone (UTC+14).
const maxUTCOffset = 14 * time.Hour

// CaptureManifest is one rank's capture manifest.
type CaptureManifest struct {
	// Path is the manifest's path relative to the run directory.
	Path string
	// KitVersion is the capture kit's version ("" when not given).
	KitVersion string
	// Rank is the global rank that wrote the manifest; LocalRank its rank
	// on its machine (input.NoRank when not given).
	Rank, LocalRank int
	// WorldSize is the job's number of ranks (0 when not given);
	// LocalWorldSize the ranks per machine and NodeRank the machine's
	// number (-1 when not given).
	WorldSize, LocalWorldSize, NodeRank int
	// Host is the machine's host name; PID the rank's process id (0 when
	// not given).
	Host string
	PID  int
	// Started and Stopped are when capture started and stopped (zero when
	// not given: a run killed before stop() has no Stopped).
	Started, Stopped time.Time
	// UTCOffset is the machine's UTC offset, the zone of its nvidia-smi
	// timestamps; valid when HasUTCOffset.
	UTCOffset    time.Duration
	HasUTCOffset bool
	// Python is the Python version.
	Python string
	// Torch is what the kit learnt of the user's torch.
	Torch CaptureTorch
	// AllocatorSettings are the allocator's environment variables as set
	// (PYTORCH_CUDA_ALLOC_CONF, ...); nil when none was set.
	AllocatorSettings map[string]string
	// CUDAVisibleDevices is CUDA_VISIBLE_DEVICES as set; VisibleDevicesSet
	// is false when it was not set at all.
	CUDAVisibleDevices string
	VisibleDevicesSet  bool
	// Device is the rank's CUDA device; nil when the rank stopped before
	// it learnt it.
	Device *CaptureDevice
	// Settings are the options the kit captured with.
	Settings CaptureSettings
	// Recording says what the kit could record on this torch, by name:
	// history, pinned_host_memory ("on", "unsupported", "off"),
	// oom_observer ("attached", "unavailable", "off"), gpu_log.
	Recording map[string]string
	// Files are the kit's files of this rank, as patterns relative to the
	// run directory.
	Files CaptureFiles
	// Dumps summarises the periodic snapshots the kit wrote.
	Dumps CaptureDumps
	// OOMs are the out-of-memory errors the kit's observer saw, in order.
	OOMs []CaptureOOM
	// Errors are the kit's own failures (a dump that could not be
	// written, ...), as it recorded them.
	Errors []string
	// Problems are the fields gpureport could not use, with the reason
	// ("device.uuid: not a string").
	Problems []string
}

// CaptureTorch describes the torch a rank ran.
type CaptureTorch struct {
	// Version is torch.__version__; CUDA and HIP torch.version.cuda and
	// .hip ("" when none); AllocatorBackend is "native" or
	// "cudaMallocAsync" ("" when not known).
	Version, CUDA, HIP, AllocatorBackend string
}

// CaptureDevice is a rank's CUDA device.
type CaptureDevice struct {
	// Index is the CUDA device index the process used (its cuda:N).
	Index int
	// UUID is the GPU's UUID as nvidia-smi prints it (GPU-...); "" when
	// no source gave one. UUIDSource says which did.
	UUID, UUIDSource string
	// Name is the GPU's name; TotalMemory its memory in bytes (0 when not
	// given).
	Name        string
	TotalMemory int64
}

// CaptureSettings are the kit's options.
type CaptureSettings struct {
	// Every is the number of steps between snapshot dumps (0: none).
	Every int64
	// MaxEntries is the trace ring buffer's size, entries.
	MaxEntries int64
	// Stacks is "python" or "all"; Context "all", "alloc" or "state".
	Stacks, Context string
	// OOMSnapshot is true when the kit dumped at OOMs, at most
	// MaxOOMSnapshots per process.
	OOMSnapshot     bool
	MaxOOMSnapshots int64
	// PinnedHost is true when pinned host memory recording was asked for.
	PinnedHost bool
	// MemoryStats is true when memory_stats lines were written, one every
	// StatsEvery steps.
	MemoryStats bool
	StatsEvery  int64
	// GPULog is the GPU logger asked for ("auto", "gpureport",
	// "nvidia-smi"; "" for none); GPULogInterval its sampling interval.
	GPULog         string
	GPULogInterval time.Duration
}

// CaptureFiles are the patterns of a rank's files, relative to the run
// directory ("" when the kit did not write that kind): Snapshots and
// OOMSnapshots with the step as "{step:06d}".
type CaptureFiles struct {
	Snapshots, OOMSnapshots, MemoryStats string
	// GPULogDir is the folder of the machine's GPU log (local rank 0 only).
	GPULogDir string
}

// CaptureDumps summarises a rank's periodic dumps.
type CaptureDumps struct {
	// Count is the number of dumps written; Bytes their total size.
	Count int64
	Bytes int64
	// LastStep is the last dump's step (input.NoStep when none); LastPath
	// its file.
	LastStep int64
	LastPath string
	// TraceEntries is the last dump's trace entries on the rank's device
	// (-1 when not given).
	TraceEntries int64
	// GatherMax is the longest torch.cuda.memory._snapshot() call and
	// WriteMax the longest pickling and writing of one dump (0 when not
	// given).
	GatherMax, WriteMax time.Duration
}

// CaptureOOM is one out-of-memory error the kit's observer saw.
type CaptureOOM struct {
	// Time is when it happened (zero when not given); Step the step that
	// was running (input.NoStep when not given); Device the CUDA device.
	Time   time.Time
	Step   int64
	Device int
	// Requested, DeviceAllocated and DeviceFree are the observer's
	// arguments, bytes: the failed request, the device memory the
	// allocator held and the memory CUDA reported free (-1 when not given).
	Requested, DeviceAllocated, DeviceFree int64
	// Snapshot is the OOM dump's path relative to the run directory; ""
	// when none was written (the kit's limit, or the dump failed).
	Snapshot string
}

// ManifestError is why a capture manifest cannot be read: the field
// ("" for the whole file) and what is wrong with it. ReadCaptureManifest
// returns it wrapped in an *input.FileError naming the file.
type ManifestError struct {
	Field string
	Err   error
}

func (e *ManifestError) Error() string {
	if e.Field == "" {
		return "capture manifest: " + e.Err.Error()
	}
	return fmt.Sprintf("capture manifest: %s: %s", e.Field, e.Err)
}

// Unwrap returns the problem.
func (e *ManifestError) Unwrap() error { return e.Err }

// ReadCaptureManifest reads the capture manifest at p (rel is its path
// relative to the run directory, kept as Path). Errors are
// *input.FileError naming p, wrapping a *ManifestError or the I/O error.
func ReadCaptureManifest(p, rel string) (*CaptureManifest, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, input.NewFileError(p, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxManifestBytes+1))
	if err != nil {
		return nil, input.NewFileError(p, err)
	}
	if len(data) > maxManifestBytes {
		return nil, input.NewFileError(p, &ManifestError{Err: fmt.Errorf("larger than %d bytes: not a capture manifest", maxManifestBytes)})
	}
	m, err := ParseCaptureManifest(data)
	if err != nil {
		return nil, input.NewFileError(p, err)
	}
	m.Path = rel
	return m, nil
}

// ParseCaptureManifest reads a capture manifest from its bytes. The error
// is a *ManifestError.
func ParseCaptureManifest(data []byte) (*CaptureManifest, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var top map[string]any
	if err := dec.Decode(&top); err != nil {
		return nil, &ManifestError{Err: fmt.Errorf("not a JSON object: %w", err)}
	}
	if top == nil {
		return nil, &ManifestError{Err: errors.New("not a JSON object")}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &ManifestError{Err: errors.New("more than one JSON value")}
	}
	r := &fieldReader{obj: top}
	schema, ok := top["schema"].(string)
	switch {
	case !ok:
		return nil, &ManifestError{Field: "schema", Err: errors.New("missing or not a string")}
	case schema != CaptureSchema:
		return nil, &ManifestError{Field: "schema", Err: fmt.Errorf("%q is not %q, the schema this gpureport reads", clipText(schema), CaptureSchema)}
	}
	rank, ok := r.integer("rank", 0, maxManifestRank)
	if !ok {
		return nil, &ManifestError{Field: "rank", Err: errors.New("missing or not a whole number from 0 to 1048576")}
	}
	m := &CaptureManifest{
		Rank:               int(rank),
		KitVersion:         r.object("kit").str("version"),
		LocalRank:          int(r.integerOr("local_rank", 0, maxManifestRank, int64(input.NoRank))),
		WorldSize:          int(r.integerOr("world_size", 1, maxManifestRank, 0)),
		LocalWorldSize:     int(r.integerOr("local_world_size", 1, maxManifestRank, -1)),
		NodeRank:           int(r.integerOr("node_rank", 0, maxManifestRank, -1)),
		Host:               r.str("host"),
		PID:                int(r.integerOr("pid", 1, math.MaxInt32, 0)),
		Started:            r.timestamp("started"),
		Stopped:            r.timestamp("stopped"),
		Python:             r.str("python"),
		AllocatorSettings:  r.strMap("allocator_settings"),
		Recording:          r.strMap("recording"),
		CUDAVisibleDevices: r.str("cuda_visible_devices"),
		Errors:             r.strList("errors"),
	}
	if v, ok := r.integer("utc_offset_seconds", -int64(maxUTCOffset/time.Second), int64(maxUTCOffset/time.Second)); ok {
		m.UTCOffset, m.HasUTCOffset = time.Duration(v)*time.Second, true
	}
	_, m.VisibleDevicesSet = top["cuda_visible_devices"].(string)
	t := r.object("torch")
	m.Torch = CaptureTorch{Version: t.str("version"), CUDA: t.str("cuda"), HIP: t.str("hip"), AllocatorBackend: t.str("allocator_backend")}
	if d := r.object("device"); d.obj != nil {
		if idx, ok := d.integer("index", 0, 1<<16); ok {
			m.Device = &CaptureDevice{Index: int(idx), UUID: d.uuid("uuid"), UUIDSource: d.str("uuid_source"), Name: d.str("name"),
				TotalMemory: d.integerOr("total_memory", 1, math.MaxInt64, 0)}
		}
	}
	s := r.object("settings")
	m.Settings = CaptureSettings{
		Every: s.integerOr("every", 0, math.MaxInt64, 0), MaxEntries: s.integerOr("max_entries", 0, math.MaxInt64, 0),
		Stacks: s.str("stacks"), Context: s.str("context"), OOMSnapshot: s.boolean("oom_snapshot"),
		MaxOOMSnapshots: s.integerOr("max_oom_snapshots", 0, math.MaxInt64, 0), PinnedHost: s.boolean("pinned_host"),
		MemoryStats: s.boolean("memory_stats"), StatsEvery: s.integerOr("stats_every", 1, math.MaxInt64, 0),
		GPULog: s.str("gpu_log"), GPULogInterval: s.seconds("gpu_log_interval"),
	}
	fl := r.object("files")
	m.Files = CaptureFiles{Snapshots: fl.relPath("snapshots"), OOMSnapshots: fl.relPath("oom_snapshots"),
		MemoryStats: fl.relPath("memory_stats"), GPULogDir: fl.relPath("gpu_log_dir")}
	du := r.object("dumps")
	m.Dumps = CaptureDumps{Count: du.integerOr("count", 0, math.MaxInt64, 0), Bytes: du.integerOr("bytes", 0, math.MaxInt64, 0),
		LastStep: du.integerOr("last_step", 0, math.MaxInt64, input.NoStep), LastPath: du.relPath("last_path"),
		TraceEntries: du.integerOr("trace_entries", 0, math.MaxInt64, -1),
		GatherMax:    du.seconds("gather_seconds_max"), WriteMax: du.seconds("write_seconds_max")}
	for i, o := range r.objList("ooms") {
		if i == maxManifestOOMs {
			r.problem("ooms", fmt.Sprintf("more than %d entries; the rest are left out", maxManifestOOMs))
			break
		}
		m.OOMs = append(m.OOMs, CaptureOOM{
			Time: o.timestamp("time"), Step: o.integerOr("step", 0, math.MaxInt64, input.NoStep), Device: int(o.integerOr("device", 0, 1<<16, 0)),
			Requested: o.integerOr("requested_bytes", 0, math.MaxInt64, -1), DeviceAllocated: o.integerOr("device_allocated_bytes", 0, math.MaxInt64, -1),
			DeviceFree: o.integerOr("device_free_bytes", 0, math.MaxInt64, -1), Snapshot: o.relPath("snapshot"),
		})
	}
	m.Problems = r.root().problems
	return m, nil
}

// maxManifestOOMs bounds the OOM entries read from one manifest: the kit
// records every OOM its observer sees, and a job that catches and retries
// OOMs in a loop sees thousands; the first ones say what is needed.
const maxManifestOOMs = 100

// fieldReader reads the fields of one JSON object of a manifest, noting
// each field it cannot use in the root reader's problems.
type fieldReader struct {
	obj    map[string]any
	prefix string
	parent *fieldReader
	// problems are collected on the root reader.
	problems []string
}

func (r *fieldReader) root() *fieldReader {
	for r.parent != nil {
		r = r.parent
	}
	return r
}

func (r *fieldReader) problem(key, why string) {
	root := r.root()
	root.problems = append(root.problems, r.prefix+key+": "+why)
}

// get returns a field's value; absent and null fields are not there.
func (r *fieldReader) get(key string) (any, bool) {
	if r.obj == nil {
		return nil, false
	}
	v, ok := r.obj[key]
	return v, ok && v != nil
}

func (r *fieldReader) str(key string) string {
	v, ok := r.get(key)
	if !ok {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		r.problem(key, "not a string")
		return ""
	}
	return s
}

// int reads a whole number within [lo, hi]; false when it is absent or
// unusable (unusable ones are noted).
func (r *fieldReader) integer(key string, lo, hi int64) (int64, bool) {
	v, ok := r.get(key)
	if !ok {
		return 0, false
	}
	n, isNum := v.(json.Number)
	if !isNum {
		r.problem(key, "not a number")
		return 0, false
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil || i < lo || i > hi {
		r.problem(key, fmt.Sprintf("%s is not a whole number from %d to %d", clipText(string(n)), lo, hi))
		return 0, false
	}
	return i, true
}

func (r *fieldReader) integerOr(key string, lo, hi, def int64) int64 {
	if i, ok := r.integer(key, lo, hi); ok {
		return i
	}
	return def
}

func (r *fieldReader) boolean(key string) bool {
	v, ok := r.get(key)
	if !ok {
		return false
	}
	b, isBool := v.(bool)
	if !isBool {
		r.problem(key, "not true or false")
	}
	return b
}

// seconds reads a non-negative number of seconds; 0 when absent or
// unusable.
func (r *fieldReader) seconds(key string) time.Duration {
	v, ok := r.get(key)
	if !ok {
		return 0
	}
	n, isNum := v.(json.Number)
	f, err := n.Float64()
	// A day bounds any dump or sampling interval the kit measures.
	if !isNum || err != nil || math.IsNaN(f) || f < 0 || f > 86400 {
		r.problem(key, "not a number of seconds from 0 to 86400")
		return 0
	}
	return time.Duration(f * float64(time.Second))
}

// time reads an RFC 3339 time (the kit writes local times with their
// offset); zero when absent or unusable.
func (r *fieldReader) timestamp(key string) time.Time {
	s := r.str(key)
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		r.problem(key, fmt.Sprintf("%q is not an RFC 3339 time", clipText(s)))
		return time.Time{}
	}
	return t
}

// uuid reads a GPU UUID: printable, without spaces, at most 64 bytes (an
// nvidia-smi UUID has 40, a MIG UUID 41).
func (r *fieldReader) uuid(key string) string {
	s := strings.TrimSpace(r.str(key))
	if s == "" {
		return ""
	}
	if len(s) > 64 || strings.ContainsFunc(s, func(c rune) bool { return c <= ' ' || c == utf8.RuneError || c > '~' }) {
		r.problem(key, fmt.Sprintf("%q is not a GPU UUID", clipText(s)))
		return ""
	}
	return s
}

// relPath reads a path relative to the run directory: slash-separated,
// clean, not absolute and not climbing out ("" when absent or unusable).
func (r *fieldReader) relPath(key string) string {
	s := r.str(key)
	if s == "" {
		return ""
	}
	if strings.Contains(s, `\`) || path.IsAbs(s) || path.Clean(s) != s || s == ".." || strings.HasPrefix(s, "../") ||
		!utf8.ValidString(s) || strings.ContainsRune(s, 0) {
		r.problem(key, fmt.Sprintf("%q is not a path inside the run folder", clipText(s)))
		return ""
	}
	return s
}

func (r *fieldReader) strMap(key string) map[string]string {
	o := r.object(key)
	if o.obj == nil {
		return nil
	}
	keys := make([]string, 0, len(o.obj))
	for k := range o.obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := map[string]string{}
	for _, k := range keys {
		if s := o.str(k); s != "" {
			out[k] = s
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// list reads a JSON list; nil when absent or not a list (noted).
func (r *fieldReader) list(key string) []any {
	v, ok := r.get(key)
	if !ok {
		return nil
	}
	l, isList := v.([]any)
	if !isList {
		r.problem(key, "not a list")
	}
	return l
}

func (r *fieldReader) strList(key string) []string {
	var out []string
	for i, e := range r.list(key) {
		s, isStr := e.(string)
		if !isStr {
			r.problem(fmt.Sprintf("%s[%d]", key, i), "not a string")
			continue
		}
		out = append(out, s)
	}
	return out
}

// object is the reader of a nested object (its obj nil when absent or not
// an object).
func (r *fieldReader) object(key string) *fieldReader {
	sub := &fieldReader{prefix: r.prefix + key + ".", parent: r}
	v, ok := r.get(key)
	if !ok {
		return sub
	}
	o, isObj := v.(map[string]any)
	if !isObj {
		r.problem(key, "not an object")
		return sub
	}
	sub.obj = o
	return sub
}

func (r *fieldReader) objList(key string) []*fieldReader {
	var out []*fieldReader
	for i, e := range r.list(key) {
		o, isObj := e.(map[string]any)
		if !isObj {
			r.problem(fmt.Sprintf("%s[%d]", key, i), "not an object")
			continue
		}
		out = append(out, &fieldReader{obj: o, prefix: fmt.Sprintf("%s%s[%d].", r.prefix, key, i), parent: r})
	}
	return out
}

// clipText shortens a value quoted in a problem to 40 bytes.
func clipText(s string) string {
	if len(s) <= 40 {
		return s
	}
	cut := 40
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// classifyManifest claims a capture manifest by its file name.
func classifyManifest(p, rel string) (Candidate, bool) {
	if !strings.EqualFold(filepath.Base(p), CaptureManifestName) {
		return Candidate{}, false
	}
	st, err := os.Stat(p)
	if err != nil || !st.Mode().IsRegular() {
		return Candidate{}, false
	}
	return Candidate{Path: p, Rel: rel, Kind: KindCaptureManifest,
		Source: input.Source{Path: rel, Bytes: st.Size(), ModTime: st.ModTime()}}, true
}
