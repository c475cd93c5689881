package record

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
)

// fakeClock is a clock that moves only when the recorder sleeps (or a
// fake read takes time), so the tests never wait.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

// fakeSource is a Source with fixed GPUs whose used memory grows by
// 1 MiB per read of that GPU.
type fakeSource struct {
	clock *fakeClock
	devs  []DeviceInfo
	reads map[int]int
	// readCost is how long one Read takes on the fake clock.
	readCost time.Duration
	// broken is a GPU whose reads fail (-1: none).
	broken int
}

func newFakeSource(clock *fakeClock, n int) *fakeSource {
	s := &fakeSource{clock: clock, reads: map[int]int{}, broken: -1}
	for i := range n {
		s.devs = append(s.devs, DeviceInfo{Index: i, Name: "NVIDIA H100 80GB HBM3", UUID: "GPU-000" + string(rune('0'+i)), BusID: "00000000:0" + string(rune('1'+i)) + ":00.0"})
	}
	return s
}

func (s *fakeSource) Driver() string                 { return "570.133.20" }
func (s *fakeSource) Devices() ([]DeviceInfo, error) { return s.devs, nil }
func (s *fakeSource) Close() error                   { return nil }

func (s *fakeSource) Read(i int) (DeviceReading, error) {
	s.clock.t = s.clock.t.Add(s.readCost)
	if i == s.broken {
		return DeviceReading{}, errors.New("GPU is lost")
	}
	s.reads[i]++
	used := int64(1000+s.reads[i]) << 20
	return DeviceReading{Total: 81559 << 20, Used: used, Free: 81559<<20 - used - 500<<20, Reserved: 500 << 20,
		UtilGPU: 50, UtilMem: math.NaN(), PowerW: 123.456}, nil
}

func (s *fakeSource) Processes(i int) ([]ProcReading, error) {
	if i != 0 {
		return nil, nil
	}
	return []ProcReading{{PID: 4242, Name: "python train.py --lr=1,2", Used: int64(900+s.reads[0]) << 20}, {PID: 7, Name: "Xorg", Used: -1}}, nil
}

// testRecord runs record with a fake clock; each sleep advances the clock
// and then calls after (when set) with the number of samples written.
func testRecord(t *testing.T, ctx context.Context, src *fakeSource, opt Options, after func(samples int)) (Result, error) {
	t.Helper()
	if opt.Dir == "" {
		opt.Dir = t.TempDir()
	}
	opt.Host = "box"
	opt.Now = src.clock.now
	samples := 0
	opt.Sleep = func(ctx context.Context, d time.Duration) error {
		if d <= 0 || d > opt.Interval {
			t.Errorf("sleep %v with interval %v", d, opt.Interval)
		}
		samples++
		if after != nil {
			after(samples)
		}
		src.clock.t = src.clock.t.Add(d)
		return ctx.Err()
	}
	opt.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	return Record(ctx, src, opt, io.Discard)
}

// decodeRecording sniffs and decodes a recorder file as discovery would.
func decodeRecording(t *testing.T, path string) *gpulog.GPULog {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if f, ok := gpulog.SniffLog(b); !ok || f != gpulog.FormatNVML {
		t.Fatalf("%s sniffed as %q, %v; want nvml", path, f, ok)
	}
	l, err := gpulog.DecodeLog(path, gpulog.FormatNVML, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if l.SkippedLines != 0 {
		t.Fatalf("%s: %d lines skipped: %+v", path, l.SkippedLines, l.Problems)
	}
	return l
}

var recordStart = time.Date(2025, 8, 1, 15, 47, 6, 0, time.FixedZone("CEST", 2*3600))

func TestRecordRoundTrip(t *testing.T) {
	clock := &fakeClock{recordStart}
	src := newFakeSource(clock, 2)
	res, err := testRecord(t, context.Background(), src, Options{Interval: time.Second, Duration: 3 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Samples != 3 || filepath.Base(res.GPUPath) != "gpureport-nvml-box-20250801-154706.csv" {
		t.Fatalf("result %+v", res)
	}
	l := decodeRecording(t, res.GPUPath)
	if len(l.Samples) != 6 || len(l.GPUs) != 2 || l.Zoneless {
		t.Fatalf("%d samples, GPUs %+v, zoneless %v", len(l.Samples), l.GPUs, l.Zoneless)
	}
	if g := l.GPUs[1]; g.UUID != "GPU-0001" || g.BusID != "00000000:02:00.0" || g.Name != "NVIDIA H100 80GB HBM3" || g.MemoryTotal != 81559<<20 {
		t.Errorf("GPU 1: %+v", g)
	}
	for i, s := range l.Samples {
		k := i / 2 // sample number
		if s.GPU != i%2 || s.MemoryUsed != int64(1001+k)<<20 || s.MemoryReserved != 500<<20 || s.UtilizationGPU != 50 ||
			!math.IsNaN(s.UtilizationMemory) || s.PowerW != 123.46 || !s.Time.Equal(recordStart.Add(time.Duration(k)*time.Second)) {
			t.Errorf("sample %d: %+v", i, s)
		}
	}
	apps := decodeRecording(t, res.AppsPath)
	if len(apps.Processes) != 6 {
		t.Fatalf("%d processes, want 6", len(apps.Processes))
	}
	p := apps.Processes[0]
	if p.GPU != 0 || p.UUID != "GPU-0000" || p.PID != 4242 || p.Name != "python train.py --lr=1,2" || p.UsedMemory != 901<<20 || !p.Time.Equal(recordStart) {
		t.Errorf("process 0: %+v", p)
	}
	if p := apps.Processes[1]; p.PID != 7 || p.UsedMemory != gpulog.Unknown {
		t.Errorf("process 1: %+v", p)
	}
}

// TestRecordFlushesEachSample reads the file from disk while the
// recorder sleeps: every sample written so far must be there, whole.
func TestRecordFlushesEachSample(t *testing.T) {
	clock := &fakeClock{recordStart}
	src := newFakeSource(clock, 3)
	dir := t.TempDir()
	path := filepath.Join(dir, "gpureport-nvml-box-20250801-154706.csv")
	res, err := testRecord(t, context.Background(), src, Options{Dir: dir, Interval: 2 * time.Second, Duration: 10 * time.Second}, func(samples int) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasSuffix(b, []byte("\n")) {
			t.Errorf("after %d samples the file ends mid-line", samples)
		}
		if l := decodeRecording(t, path); len(l.Samples) != 3*samples {
			t.Errorf("after %d samples the file holds %d readings, want %d", samples, len(l.Samples), 3*samples)
		}
	})
	if err != nil || res.Samples != 5 {
		t.Fatalf("samples %d, error %v", res.Samples, err)
	}
}

// TestRecordStopsOnCancel cancels the context (as SIGINT does) during the
// third sleep: the recording ends cleanly with three samples.
func TestRecordStopsOnCancel(t *testing.T) {
	clock := &fakeClock{recordStart}
	src := newFakeSource(clock, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := testRecord(t, ctx, src, Options{Interval: time.Second}, func(samples int) {
		if samples == 3 {
			cancel()
		}
	})
	if err != nil || res.Samples != 3 {
		t.Fatalf("samples %d, error %v", res.Samples, err)
	}
	if l := decodeRecording(t, res.GPUPath); len(l.Samples) != 3 {
		t.Errorf("%d readings in the file, want 3", len(l.Samples))
	}
}

func TestRecordDuration(t *testing.T) {
	tests := []struct {
		name               string
		interval, duration time.Duration
		readCost           time.Duration
		want               int
	}{
		{"samples on the grid within the duration", 3 * time.Second, 10 * time.Second, 0, 4},
		{"one sample when the duration is shorter than the interval", time.Minute, time.Second, 0, 1},
		{"slow reads skip grid slots instead of catching up", time.Second, 10 * time.Second, 1500 * time.Millisecond, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := &fakeClock{recordStart}
			src := newFakeSource(clock, 1)
			src.readCost = tt.readCost
			res, err := testRecord(t, context.Background(), src, Options{Interval: tt.interval, Duration: tt.duration}, nil)
			if err != nil || res.Samples != tt.want {
				t.Fatalf("samples %d, error %v; want %d", res.Samples, err, tt.want)
			}
			l := decodeRecording(t, res.GPUPath)
			for i := 1; i < len(l.Samples); i++ {
				dt := l.Samples[i].Time.Sub(recordStart)
				if dt%tt.interval != 0 {
					t.Errorf("sample %d at %v: off the interval grid", i, dt)
				}
			}
		})
	}
}

func TestRecordGPUSelection(t *testing.T) {
	clock := &fakeClock{recordStart}
	src := newFakeSource(clock, 3)
	res, err := testRecord(t, context.Background(), src, Options{Interval: time.Second, Duration: 2 * time.Second, GPUs: []int{2, 0}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	l := decodeRecording(t, res.GPUPath)
	var got []int
	for _, g := range l.GPUs {
		got = append(got, g.Index)
	}
	if len(got) != 2 || got[0] != 2 || got[1] != 0 || len(l.Samples) != 4 {
		t.Errorf("GPUs %v, %d samples; want GPUs 2 and 0, 4 samples", got, len(l.Samples))
	}
	_, err = testRecord(t, context.Background(), src, Options{Interval: time.Second, GPUs: []int{5}}, nil)
	if !errors.Is(err, ErrSelection) || !strings.Contains(err.Error(), "no GPU 5 on this machine (it has 0, 1, 2)") {
		t.Errorf("error %v", err)
	}
}

// TestRecordUnreadableGPU writes [N/A] for a GPU that fails, which the
// reader reads as unknown, and keeps recording the others.
func TestRecordUnreadableGPU(t *testing.T) {
	clock := &fakeClock{recordStart}
	src := newFakeSource(clock, 2)
	src.broken = 1
	res, err := testRecord(t, context.Background(), src, Options{Interval: time.Second, Duration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	l := decodeRecording(t, res.GPUPath)
	if len(l.Samples) != 4 || l.Samples[1].MemoryUsed != gpulog.Unknown || l.Samples[2].MemoryUsed != 1002<<20 {
		t.Errorf("samples %+v", l.Samples)
	}
}
