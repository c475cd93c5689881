package analyze

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/internal/testutil"
)

// fixtureRun loads a run folder holding copies of the named fixtures of
// testdata/logs (go run ./internal/gen logs).
func fixtureRun(t *testing.T, names ...string) *ingest.Run {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "testdata", "logs", filepath.FromSlash(n)))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(n)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Skipped) > 0 {
		t.Fatalf("skipped %+v", run.Skipped)
	}
	return run
}

// TestUntimedReadingsMakeADevice: readings without times (one table, then
// 1,236 CSV rows; an XML without <timestamp>; a query CSV without a
// timestamp column) give a device with every reading, its maximum used
// and total, on the reading axis.
func TestUntimedReadingsMakeADevice(t *testing.T) {
	const mib = 1 << 20
	for _, tt := range []struct {
		name           string
		readings       int
		maxUsed, total int64
		trend          bool
	}{
		{"table_then_query_csv.log", 1237, 30716 * mib, 32768 * mib, true},
		{"xml_no_timestamp.xml", 1, 17250 * mib, 23034 * mib, false},
		{"query_no_timestamp.csv", 1, 38211 * mib, 40960 * mib, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := Analyze(fixtureRun(t, tt.name), Options{})
			if len(f.Devices) != 1 {
				t.Fatalf("%d devices", len(f.Devices))
			}
			d := f.Devices[0]
			if d.Axis != AxisReading || d.GPU == nil || len(d.GPU.Used) != tt.readings || d.GPU.MaxUsed != tt.maxUsed || d.GPU.Total != tt.total {
				t.Fatalf("axis %s, GPU %+v", d.Axis, d.GPU)
			}
			if d.Capacity != tt.total {
				t.Errorf("capacity %d, want %d", d.Capacity, tt.total)
			}
			if got := len(d.Trends) > 0; got != tt.trend {
				t.Errorf("trends %+v, want a trend: %v", d.Trends, tt.trend)
			}
			for _, tr := range d.Trends {
				if tr.Per != "reading" {
					t.Errorf("trend per %q, want reading", tr.Per)
				}
			}
		})
	}
}

// TestTimedLogKeepsHours: a timed log stays on the hours axis.
func TestTimedLogKeepsHours(t *testing.T) {
	f := Analyze(fixtureRun(t, "epoch_seconds_nounits.csv"), Options{})
	if len(f.Devices) != 1 || f.Devices[0].Axis != AxisHours || len(f.Devices[0].GPU.Used) != 12 {
		t.Fatalf("devices %+v", f.Devices)
	}
}

// TestTrainingLogOOMFindings: OOM messages become OOM findings with their
// numbers, classified, and raise the oom flag without snapshots.
func TestTrainingLogOOMFindings(t *testing.T) {
	const gib = 1 << 30
	for _, tt := range []struct {
		name      string
		class     OOMCause
		rank      int
		requested int64
		frag      bool
	}{
		// 1.23 GiB free + 1.20 GiB cached >= 2 GiB: fragmentation.
		{"train_oom.log", "fragmentation", 0, 2 * gib, true},
		// 5.69 MiB free + 1.42 GiB cached >= 20 MiB: fragmentation.
		{"train_oom_legacy.log", "fragmentation", input.NoRank, 20 << 20, true},
		{"train_nccl_oom.err", "unknown", input.NoRank, 6291456, false},
		{"train_cuda_error.out", "unknown", input.NoRank, gpulog.Unknown, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := Analyze(fixtureRun(t, tt.name), Options{})
			if len(f.OOMs) != 1 {
				t.Fatalf("OOMs %+v", f.OOMs)
			}
			o := f.OOMs[0]
			if o.Cause != tt.class || o.Rank != tt.rank || o.Requested != tt.requested || o.Path != tt.name {
				t.Errorf("OOM %+v", o)
			}
			if !f.Verdict.OOM || f.Verdict.Fragmentation != tt.frag || f.Verdict.Severity != "critical" {
				t.Errorf("verdict %+v", f.Verdict)
			}
			if o.Message == nil || o.Message.Line == 0 {
				t.Errorf("OOM message %+v: want the line that reported it", o.Message)
			}
		})
	}
}

// TestCapacityOOM: a request larger than free plus cached memory is a
// capacity OOM.
func TestCapacityOOM(t *testing.T) {
	m := gpulog.TrainingOOM{Line: 3, Count: 1, Kind: gpulog.OOMTorch, Rank: input.NoRank, Device: 1, Requested: 4 << 30,
		Capacity: 80 << 30, Free: 1 << 30, Allocated: 70 << 30, ReservedUnallocated: 1 << 30, Reserved: 71 << 30, ProcessInUse: 78 << 30}
	o := trainingOOM("out.log", m, DeviceKey{Rank: input.NoRank, Device: 1}, 0, false)
	if o.Cause != "capacity" || o.Device != 1 || o.Capacity != 80<<30 || o.EstimatedCapacity != 72<<30 || len(o.Recommendations) != 0 {
		t.Errorf("%+v", o)
	}
	if m := o.Message; m == nil || m.Line != 3 || m.GPU != 1 || m.Fits || m.ProcessInUse != 78<<30 || o.Path != "out.log" {
		t.Errorf("message %+v of %s: want line 3 of out.log, GPU 1, not fitting, 78 GiB in use", m, o.Path)
	}
}

// TestMessageDevice: an OOM message's "GPU N" is the run's device N when
// the rank has one; else the device joined to nvidia-smi GPU N
// (CUDA_VISIBLE_DEVICES); else the rank's only device; else N, and
// device 0 for a message naming none.
func TestMessageDevice(t *testing.T) {
	gpu := &GPUSeries{}
	single := []*Device{{DeviceKey: DeviceKey{Rank: input.NoRank, Device: 0}, GPU: gpu, GPUIndex: 6}}
	ranks := []*Device{
		{DeviceKey: DeviceKey{Rank: 0, Device: 0}, GPU: gpu, GPUIndex: 2},
		{DeviceKey: DeviceKey{Rank: 1, Device: 1}, GPU: gpu, GPUIndex: 3},
	}
	unjoined := []*Device{{DeviceKey: DeviceKey{Rank: 0, Device: 0}}, {DeviceKey: DeviceKey{Rank: 0, Device: 1}}}
	visible := []*Device{
		{DeviceKey: DeviceKey{Rank: input.NoRank, Device: 0}, GPU: gpu, GPUIndex: 2},
		{DeviceKey: DeviceKey{Rank: input.NoRank, Device: 1}, GPU: gpu, GPUIndex: 3},
	}
	local := []*Device{
		{DeviceKey: DeviceKey{Rank: 0, Device: 0}, GPU: gpu, GPUIndex: 2},
		{DeviceKey: DeviceKey{Rank: 1, Device: 0}, GPU: gpu, GPUIndex: 3},
	}
	twoHosts := []*Device{
		{DeviceKey: DeviceKey{Rank: 0, Device: 0}, GPU: gpu, GPUIndex: 2},
		{DeviceKey: DeviceKey{Rank: 8, Device: 0}, GPU: gpu, GPUIndex: 2},
	}
	one := 1
	for _, tt := range []struct {
		name       string
		rank, gpu  int
		devices    []*Device
		wantDevice int
		wantRank   *int // nil: the message's own
	}{
		{"a device of the run", input.NoRank, 0, single, 0, nil},
		{"the nvidia-smi index of the joined GPU", input.NoRank, 6, single, 0, nil},
		{"no such device or GPU: the only device", input.NoRank, 4, single, 0, nil},
		{"no GPU named: the only device", input.NoRank, -1, single, 0, nil},
		{"no GPU named, two devices: cuda:0", 0, -1, unjoined, 0, nil},
		{"CUDA_VISIBLE_DEVICES=2,3: cuda:0 as printed", input.NoRank, 0, visible, 0, nil},
		{"CUDA_VISIBLE_DEVICES=2,3: nvidia-smi GPU 3 is cuda:1", input.NoRank, 3, visible, 1, nil},
		{"rank 1's message naming its nvidia-smi GPU", 1, 3, ranks, 1, nil},
		{"rank 0's own device", 0, 0, ranks, 0, nil},
		{"rank 1's only device", 1, 7, ranks, 1, nil},
		{"two devices, neither joined: as written", 0, 5, unjoined, 5, nil},
		{"no devices: as written", 0, 2, nil, 2, nil},
		// Each rank's process sees its GPU as cuda:0: the nvidia-smi
		// index names the rank; a shared index or CUDA number does not.
		{"no rank, nvidia-smi GPU 3 is rank 1's cuda:0", input.NoRank, 3, local, 0, &one},
		{"no rank, cuda:0 is every rank's", input.NoRank, 0, local, 0, nil},
		{"no rank, nvidia-smi GPU 2 on two machines", input.NoRank, 2, twoHosts, 0, nil},
	} {
		want := DeviceKey{Rank: tt.rank, Device: tt.wantDevice}
		if tt.wantRank != nil {
			want.Rank = *tt.wantRank
		}
		if got := messageDevice(CUDA, tt.gpu, tt.rank, 0, tt.devices); got != want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, want)
		}
	}
	// A message of another device type is never placed on a CUDA device:
	// not on the only device, nor through the GPU join; its number stays
	// as printed, with its type.
	xpu := DeviceType("xpu")
	withXPU := append([]*Device{{DeviceKey: DeviceKey{Rank: 0, Device: 1, Type: xpu}}}, unjoined...)
	for _, tt := range []struct {
		name      string
		rank, gpu int
		devices   []*Device
		want      DeviceKey
	}{
		{"XPU 4 beside the only CUDA device", input.NoRank, 4, single, DeviceKey{Rank: input.NoRank, Device: 4, Type: xpu}},
		{"XPU 6 beside CUDA joined to nvidia-smi 6", input.NoRank, 6, single, DeviceKey{Rank: input.NoRank, Device: 6, Type: xpu}},
		{"XPU naming none beside CUDA devices", 0, -1, unjoined, DeviceKey{Rank: 0, Device: 0, Type: xpu}},
		{"XPU naming none: the rank's only XPU", 0, -1, withXPU, DeviceKey{Rank: 0, Device: 1, Type: xpu}},
	} {
		if got := messageDevice(xpu, tt.gpu, tt.rank, 0, tt.devices); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// TestTrainingOOMCoveredBySnapshot: a message on a device whose snapshot
// already explains an OOM adds no second finding.
func TestTrainingOOMCoveredBySnapshot(t *testing.T) {
	l := &gpulog.GPULog{Source: input.Source{Path: "out.log"}, OOMs: []gpulog.TrainingOOM{{Line: 1, Count: 1, Kind: gpulog.OOMCUDAError,
		Rank: 2, Device: 0, Requested: gpulog.Unknown, Free: gpulog.Unknown, Capacity: gpulog.Unknown, Allocated: gpulog.Unknown,
		Reserved: gpulog.Unknown, ReservedUnallocated: gpulog.Unknown, ProcessInUse: gpulog.Unknown}}}
	placed := placeLogOOMs([]*gpulog.GPULog{l}, pathRank, nil)
	if got := trainingLogOOMs(placed, []OOM{{Rank: 2, Device: 0}}, nil, 0); len(got) != 0 {
		t.Errorf("%+v", got)
	}
	if got := trainingLogOOMs(placed, []OOM{{Rank: 3, Device: 0}}, nil, 0); len(got) != 1 {
		t.Errorf("%+v", got)
	}
}

// TestFragmentationOOMFromLogExpandable: a training log's fragmentation OOM
// advises expandable segments unless the run's snapshots show that device
// using them already.
func TestFragmentationOOMFromLogExpandable(t *testing.T) {
	m := gpulog.TrainingOOM{Line: 9, Count: 1, Kind: gpulog.OOMTorch, Rank: input.NoRank, Device: 0, Requested: 2 << 30,
		Capacity: 80 << 30, Free: 1 << 30, Allocated: 60 << 30, ReservedUnallocated: 6 << 30, Reserved: 66 << 30, ProcessInUse: 79 << 30}
	for _, expandable := range []bool{false, true} {
		o := trainingOOM("out.log", m, DeviceKey{Rank: input.NoRank, Device: 0}, 0, expandable)
		advised := slices.ContainsFunc(o.Recommendations, func(r Recommendation) bool { return r.Kind == StepExpandable })
		if o.Cause != CauseFragmentation || o.Expandable != expandable || advised == expandable {
			t.Errorf("expandable %v: class %q, Expandable %v, advised %v", expandable, o.Cause, o.Expandable, advised)
		}
	}
	dev := &Device{DeviceKey: DeviceKey{Rank: input.NoRank, Device: 0}, Fragmentation: &Fragmentation{Expandable: true}}
	on := func(d int) logOOM { return logOOM{key: DeviceKey{Rank: input.NoRank, Device: d}} }
	if !expandableOn([]*Device{dev}, on(0)) || expandableOn([]*Device{dev}, on(1)) {
		t.Error("expandableOn: want device 0 only")
	}
}

// TestTrainingOOMCause: a training log's OOM is classified in docs/design.md's
// order from the message's figures (issue 28 classes 1 and 9): limit when
// the device's free memory alone covered the request beyond the printed
// rounding, then fragmentation when free plus cached did, else capacity;
// an MPS message is capacity against its watermark. MissingBytes is the
// request less free memory, the shortfall the explanation states.
func TestTrainingOOMCause(t *testing.T) {
	unknown := gpulog.Unknown
	msg := func(req, reqSlack, free, freeSlack, alloc, unalloc, allowed, others int64) gpulog.TrainingOOM {
		res := unknown
		if alloc >= 0 && unalloc >= 0 {
			res = alloc + unalloc
		}
		return gpulog.TrainingOOM{Line: 7, Count: 1, Kind: gpulog.OOMTorch, Rank: input.NoRank, Device: 0, Requested: req, RequestedSlack: reqSlack,
			Capacity: 64 << 30, Free: free, FreeSlack: freeSlack, Allocated: alloc, ReservedUnallocated: unalloc, Reserved: res,
			ProcessInUse: unknown, PrivatePools: unknown, Allowed: allowed, OtherProcesses: others, OtherAllocations: unknown}
	}
	mps := gpulog.TrainingOOM{Line: 2, Count: 1, Kind: gpulog.OOMMPS, Backend: "MPS", Rank: input.NoRank, Device: -1, Requested: 512 << 20,
		Capacity: unknown, Free: unknown, Allocated: 8 << 30, OtherAllocations: 1 << 30, Allowed: 9 << 30, Reserved: unknown,
		ReservedUnallocated: unknown, ProcessInUse: unknown, PrivatePools: unknown, OtherProcesses: unknown}
	vllm := func(needed, available int64) gpulog.TrainingOOM {
		return gpulog.TrainingOOM{Line: 8, Count: 1, Kind: gpulog.OOMVLLMKVCache, Rank: input.NoRank, Device: -1, Requested: needed,
			RequestedSlack: 5 << 20, Capacity: unknown, Free: unknown, Allocated: unknown, Reserved: unknown, ReservedUnallocated: unknown,
			ProcessInUse: unknown, PrivatePools: unknown, Allowed: available, OtherProcesses: unknown, OtherAllocations: unknown}
	}
	async := func(m gpulog.TrainingOOM) gpulog.TrainingOOM {
		m.Kind, m.Backend = gpulog.OOMMallocAsync, "CUDA"
		return m
	}
	for _, tt := range []struct {
		name     string
		m        gpulog.TrainingOOM
		class    OOMCause
		missing  int64
		says     []string
		checkFor string
	}{
		// A ROCm log: 612 MiB free for a 100 MiB request.
		{"free covers the request", msg(100<<20, 5242, 612<<20, 5242, 62<<30, 890<<20, unknown, unknown), CauseLimit, 0,
			[]string{"limit OOM", "612 MiB free"}, "per_process_memory_fraction"},
		{"free covers it, under a memory fraction", msg(4<<30, 0, 52<<30, 0, 21<<30, 1<<30, 24<<30, unknown), CauseLimit, 0,
			[]string{"24.0 GiB allowed"}, "raise or remove torch.cuda.set_per_process_memory_fraction"},
		{"free covers it, other processes on the GPU", msg(1<<30, 0, 2<<30, 0, 50<<30, 0, unknown, 3<<30), CauseLimit, 0,
			[]string{"other processes had 3.00 GiB"}, "other processes on the GPU"},
		// Equal as printed: within the rounding, not beyond it.
		{"free equals the request as printed", msg(20<<20, 5242, 20<<20, 5242, 10<<30, 0, unknown, unknown), CauseCapacity, 0, nil, ""},
		// Before 1.4: 576 KiB free and 30.96 MiB cached for 1 MiB.
		{"cached covers the rest", msg(1<<20, 5, 576<<10, 5, 10<<30, 31<<20, unknown, unknown), CauseFragmentation, 448 << 10,
			[]string{"lacked 448 KiB"}, ExpandableSetting},
		{"nothing covers it", msg(4<<30, 0, 1<<30, 0, 70<<30, 1<<30, unknown, unknown), CauseCapacity, 3 << 30,
			[]string{"lacked 3.00 GiB"}, ""},
		// "Tried to allocate 0 bytes" (18.06 MiB free, 237 MiB cached):
		// nothing lacked, and 0 is not the size that failed.
		{"zero-byte request", msg(0, 0, 18<<20, 5242, 23<<30, 237<<20, unknown, unknown), CauseUnknown, 0,
			[]string{"0 bytes were requested, which is not the size that failed"}, ""},
		// Cut after "of which 1.23 GiB is free": no reserved figures.
		{"cut before reserved", msg(2<<30, 0, 1<<30, 0, unknown, unknown, unknown, unknown), CauseUnknown, 1 << 30,
			[]string{"cut short before its reserved memory"}, ""},
		// Cut as well, but free memory alone covered the request.
		{"cut, free covers it", msg(1<<30, 0, 2<<30, 0, unknown, unknown, unknown, unknown), CauseLimit, 0,
			[]string{"limit OOM"}, "per_process_memory_fraction"},
		// cudaMallocAsync prints no reserved memory.
		{"cudaMallocAsync short of free memory", async(msg(2<<30, 0, 1<<30, 0, 76<<30, unknown, unknown, unknown)), CauseUnknown, 1 << 30,
			[]string{"cudaMallocAsync allocator ran out", "the CUDA memory pool keeps its own cache"}, ""},
		{"cudaMallocAsync under a memory fraction", async(msg(4<<30, 0, 40<<30, 0, 38<<30, unknown, 40<<30, unknown)), CauseLimit, 0,
			[]string{"40.0 GiB allowed"}, "raise or remove torch.cuda.set_per_process_memory_fraction"},
		{"MPS past its watermark", mps, CauseCapacity, 512 << 20, []string{"high watermark allows 9.00 GiB", "lacked 512 MiB"}, "PYTORCH_MPS_HIGH_WATERMARK_RATIO"},
		// vLLM's startup check: 16 GiB of KV cache needed, 1.25 GiB left.
		{"vLLM KV cache past its budget", vllm(16<<30, 5<<30/4), CauseCapacity, 16<<30 - 5<<30/4,
			[]string{"vLLM engine did not start", "needs 16.0 GiB of KV cache", "only 1.25 GiB was left", "14.8 GiB short"}, "gpu_memory_utilization"},
		{"vLLM without cache blocks", vllm(unknown, 0), CauseCapacity, 0, []string{"no memory was left for the KV cache"}, "max_model_len"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := trainingOOM("out.log", tt.m, DeviceKey{Rank: tt.m.Rank, Device: 0}, 0, false)
			e := explain(t, &o)
			if o.Cause != tt.class || o.Missing != tt.missing {
				t.Fatalf("class %q missing %d, want %q %d\n%s", o.Cause, o.Missing, tt.class, tt.missing, e)
			}
			for _, w := range tt.says {
				if !strings.Contains(e, w) {
					t.Errorf("explanation lacks %q: %s", w, e)
				}
			}
			var recs []string
			for _, r := range o.Recommendations {
				recs = append(recs, setting(t, &o, r))
			}
			if tt.checkFor != "" && !slices.ContainsFunc(recs, func(r string) bool { return strings.Contains(r, tt.checkFor) }) {
				t.Errorf("no recommendation %q in %q", tt.checkFor, recs)
			}
			if negativeAmount.MatchString(e) {
				t.Errorf("negative amount in %s", e)
			}
			if why := proseFlaw(e); why != "" {
				t.Errorf("explanation %s: %s", why, e)
			}
		})
	}
}

// TestLogSamplesCountMemoryReadings: a GPU log's samples in the inputs are
// the readings that give memory; rows of a lost GPU, kept by the reader
// for the total they may give, are no samples, as they are no points of
// the device's series.
func TestLogSamplesCountMemoryReadings(t *testing.T) {
	const head = "timestamp, index, memory.used [MiB], memory.total [MiB]\n"
	for _, tt := range []struct {
		name             string
		in               string
		samples, devRead int
	}{
		{"two readings, then lost and unknown", head +
			"2024/05/01 12:00:00.000, 0, 1000 MiB, 81920 MiB\n" +
			"2024/05/01 12:00:01.000, 0, 1500 MiB, 81920 MiB\n" +
			"2024/05/01 12:00:02.000, 0, [GPU is lost], [GPU is lost]\n" +
			"2024/05/01 12:00:03.000, 0, [Unknown Error], 81920 MiB\n", 2, 2},
		{"all readings", head +
			"2024/05/01 12:00:00.000, 0, 1000 MiB, 81920 MiB\n" +
			"2024/05/01 12:00:01.000, 1, 1500 MiB, 81920 MiB\n", 2, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(tt.in), gpulog.FormatQueryCSV, gpulog.ReadOptions{Location: time.UTC, Name: "gpu.csv"})
			if err != nil {
				t.Fatal(err)
			}
			l.Path = "gpu.csv"
			f := Analyze(&ingest.Run{Dir: "run", Logs: []*gpulog.GPULog{l}}, Options{})
			if got := f.Inputs.Logs[0].Samples; got != tt.samples {
				t.Errorf("inputs samples %d, want %d", got, tt.samples)
			}
			if len(f.Devices) == 0 || f.Devices[0].GPU == nil || len(f.Devices[0].GPU.Used) != tt.devRead {
				t.Errorf("device 0 readings: want %d", tt.devRead)
			}
		})
	}
}

// TestElasticNodesOOMs: torchelastic's worker logs of two nodes, each its
// local rank 0 on its cuda:0, are two processes: their OOMs are on two
// devices (global ranks 0 and 1), not twice on one.
func TestElasticNodesOOMs(t *testing.T) {
	msg := func(req string) []byte {
		return []byte("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate " + req + ". GPU 0 has a total capacity of 79.15 GiB of which 1.52 GiB is free. " +
			"Of the allocated memory 74.87 GiB is allocated by PyTorch, and 2.10 GiB is reserved by PyTorch but unallocated.\n")
	}
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, map[string][]byte{
		"node0/logs/none_a/attempt_0/0/stderr.log": msg("2.00 GiB"),
		"node1/logs/none_b/attempt_0/0/stderr.log": msg("2.50 GiB"),
	})
	run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	f := Analyze(run, Options{})
	if len(f.OOMs) != 2 {
		t.Fatalf("%d OOMs, want 2: %+v", len(f.OOMs), f.OOMs)
	}
	for i, o := range f.OOMs {
		if o.Rank != i || o.Device != 0 || o.Path != []string{"node0/logs/none_a/attempt_0/0/stderr.log", "node1/logs/none_b/attempt_0/0/stderr.log"}[i] {
			t.Errorf("OOM %d: %s rank %d device %d, want rank %d device 0", i, o.Path, o.Rank, o.Device, i)
		}
	}
}

// TestPodLabelledSidecarOOM: kubectl logs --prefix over two pods, each
// with an nvidia-smi sidecar and a training container, one stream: each
// pod's GPU 0 is a GPU of its own, and the OOM message of pod w-1 (its
// rank 1's cuda:0) is on w-1's GPU, not on w-0's GPU 0.
func TestPodLabelledSidecarOOM(t *testing.T) {
	var b strings.Builder
	b.WriteString("[pod/w-0/smi] timestamp, index, memory.used [MiB], memory.total [MiB]\n[pod/w-1/smi] timestamp, index, memory.used [MiB], memory.total [MiB]\n")
	for m := range 6 {
		fmt.Fprintf(&b, "[pod/w-0/smi] 2024/03/08 10:%02d:00.000, 0, %d MiB, 81559 MiB\n", 10*m/6, 30000+100*m)
		fmt.Fprintf(&b, "[pod/w-1/smi] 2024/03/08 10:%02d:00.000, 0, %d MiB, 81559 MiB\n", 10*m/6, 70000+10*m)
	}
	b.WriteString("[pod/w-1/pytorch] [rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.91 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.52 GiB is free. " +
		"Of the allocated memory 74.87 GiB is allocated by PyTorch, and 2.10 GiB is reserved by PyTorch but unallocated.\n")
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, map[string][]byte{"job.log": []byte(b.String())})
	run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	f := Analyze(run, Options{})
	if len(f.Devices) != 2 || len(f.OOMs) != 1 {
		t.Fatalf("%d devices, %d OOMs, want 2 and 1", len(f.Devices), len(f.OOMs))
	}
	var w1 *Device
	for _, d := range f.Devices {
		if d.GPU != nil && d.GPU.MaxUsed >= 70000<<20 {
			w1 = d
		}
	}
	if w1 == nil {
		t.Fatalf("no device holds w-1's readings alone: %+v", f.Devices)
	}
	if o := f.OOMs[0]; o.Rank != 1 || o.Device != w1.Device {
		t.Errorf("OOM on rank %d device %d, want rank 1 on w-1's device %d", o.Rank, o.Device, w1.Device)
	}
}

// TestPIDDeviceLogOOMs: processes told apart by their pids alone are
// numbered in path order, no rank of the job; a training log's OOM line
// is placed on one of them only by evidence of the process (its GPU, its
// pid in the log's path or in the message), never because the line's
// rank or CUDA number equals that path-order number.
func TestPIDDeviceLogOOMs(t *testing.T) {
	gpu := &GPUSeries{}
	joined := func() []*Device {
		return []*Device{
			{DeviceKey: DeviceKey{Rank: 0, Device: 0, PID: 4242}, GPU: gpu, GPUIndex: 1},
			{DeviceKey: DeviceKey{Rank: 1, Device: 0, PID: 5151}, GPU: gpu, GPUIndex: 3},
		}
	}
	unjoined := func() []*Device {
		return []*Device{{DeviceKey: DeviceKey{Rank: 0, Device: 0, PID: 4242}}, {DeviceKey: DeviceKey{Rank: 1, Device: 0, PID: 5151}}}
	}
	for _, tt := range []struct {
		name      string
		path      string
		rank, gpu int
		listed    int
		devices   []*Device
		// want is the pid of the one device the OOM is on alone; 0: none.
		want int
	}{
		{"rank 0, GPU 0: every process's cuda:0", "train.log", 0, 0, 0, joined(), 0},
		{"no rank, GPU 0: every process's cuda:0", "train.log", input.NoRank, 0, 0, joined(), 0},
		{"rank 0, GPU 0, not joined", "train.log", 0, 0, 0, unjoined(), 0},
		{"rank 1, GPU 0, not joined", "train.log", 1, 0, 0, unjoined(), 0},
		{"no rank, nvidia-smi GPU 3: the process joined to it", "train.log", input.NoRank, 3, 0, joined(), 5151},
		{"rank 0, nvidia-smi GPU 3: the process joined to it", "train.log", 0, 3, 0, joined(), 5151},
		{"the log's path names pid 5151", "worker_pid5151.log", 0, 0, 0, unjoined(), 5151},
		{"the message lists pid 4242 as this process", "train.log", 1, 0, 4242, unjoined(), 4242},
		{"the log's path names a pid of no device", "worker_pid777.log", 0, 0, 0, unjoined(), 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := &gpulog.GPULog{Source: input.Source{Path: tt.path}, OOMs: []gpulog.TrainingOOM{{Line: 1, Count: 1, Kind: gpulog.OOMCUDAError,
				Rank: tt.rank, Device: tt.gpu, ListedSelfPID: tt.listed, Requested: 1 << 30, Free: 1 << 20}}}
			placed := placeLogOOMs([]*gpulog.GPULog{l}, func(*gpulog.GPULog) int { return input.NoRank }, tt.devices)
			if len(placed) != 1 {
				t.Fatalf("%d OOMs placed", len(placed))
			}
			o := trainingOOM(l.Path, l.OOMs[0], placed[0].key, 0, false)
			for _, d := range tt.devices {
				want := d.PID == tt.want
				if got := placed[0].onlyOn(d, tt.devices); got != want {
					t.Errorf("key %+v: on pid %d alone %v, want %v", placed[0].key, d.PID, got, want)
				}
				if got := ranOutBy(o, tt.devices, d); got != want {
					t.Errorf("OOM %+v: ran out pid %d %v, want %v", o.Key(), d.PID, got, want)
				}
			}
		})
	}
}
