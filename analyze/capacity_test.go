package analyze

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"gpureport/gpulog"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/internal/testutil"
)

// TestOOMMessageCapacity: a device whose capacity no GPU log, option or
// manifest gives takes the total capacity of a training-log OOM message
// placed on it (placeLogOOMs); a message of the exact rank wins over one
// without a rank, one on another device or giving no capacity is not
// used, nor one without a rank whose device number other ranks share.
func TestOOMMessageCapacity(t *testing.T) {
	const gib = int64(1) << 30
	oom := func(rank, dev, line int, capacity int64) gpulog.TrainingOOM {
		return gpulog.TrainingOOM{Rank: rank, Device: dev, Line: line, Capacity: capacity}
	}
	logs := []*gpulog.GPULog{
		{Source: input.Source{Path: "a/train.log"}, OOMs: []gpulog.TrainingOOM{oom(input.NoRank, 0, 7, 79*gib), oom(1, 1, 9, 40*gib)}},
		{Source: input.Source{Path: "b/rank2.log"}, OOMs: []gpulog.TrainingOOM{oom(input.NoRank, 0, 3, 0), oom(input.NoRank, 0, 5, 24*gib), oom(3, -1, 6, 48*gib)}},
	}
	tests := []struct {
		key  DeviceKey
		want int64
		src  string
	}{
		{DeviceKey{Rank: 0, Device: 0}, 0, ""},                          // a message without a rank, on cuda:0 of ranks 0, 1 and 2: none alone
		{DeviceKey{Rank: 2, Device: 0}, 24 * gib, "b/rank2.log line 5"}, // its log's rank, with a capacity
		{DeviceKey{Rank: 1, Device: 1}, 40 * gib, "a/train.log line 9"}, // its device
		{DeviceKey{Rank: 3, Device: 4}, 48 * gib, "b/rank2.log line 6"}, // a message naming no device: the rank's only one
		{DeviceKey{Rank: 1, Device: 0}, 0, ""},                          // rank 1's message names cuda:1; the rankless one is not its alone
		{DeviceKey{Rank: 4, Device: 2}, 0, ""},                          // none for it
	}
	var devices []*Device
	for _, tt := range tests {
		devices = append(devices, &Device{DeviceKey: tt.key})
	}
	placed := placeLogOOMs(logs, pathRank, devices)
	for i, tt := range tests {
		got, src, ok := oomMessageCapacity(placed, devices[i], devices)
		if got != tt.want || src != tt.src || ok != (tt.want > 0) {
			t.Errorf("%+v: %d %q %v, want %d %q", tt.key, got, src, ok, tt.want, tt.src)
		}
	}
}

// TestOOMMessageCapacityVisibleDevices: under CUDA_VISIBLE_DEVICES=2,3 a
// message printing nvidia-smi GPU 3 is cuda:1's (joined to GPU 3), and its
// capacity is cuda:1's, as its OOM is.
func TestOOMMessageCapacityVisibleDevices(t *testing.T) {
	gpu := &GPUSeries{}
	devices := []*Device{
		{DeviceKey: DeviceKey{Rank: input.NoRank, Device: 0}, GPU: gpu, GPUIndex: 2},
		{DeviceKey: DeviceKey{Rank: input.NoRank, Device: 1}, GPU: gpu, GPUIndex: 3},
	}
	logs := []*gpulog.GPULog{{Source: input.Source{Path: "train.log"}, OOMs: []gpulog.TrainingOOM{oomMessage(4, input.NoRank, 3, 79*gib)}}}
	placed := placeLogOOMs(logs, pathRank, devices)
	if c, _, ok := oomMessageCapacity(placed, devices[0], devices); ok {
		t.Errorf("cuda:0 took capacity %d", c)
	}
	if c, src, ok := oomMessageCapacity(placed, devices[1], devices); !ok || c != 79*gib || src != "train.log line 4" {
		t.Errorf("cuda:1: capacity %d from %q, want 79 GiB from train.log line 4", c, src)
	}
	if got := trainingLogOOMs(placed, nil, devices, 0); len(got) != 1 || got[0].Device != 1 {
		t.Errorf("OOMs %+v, want one on cuda:1", got)
	}
}

// TestOOMMessageCapacityAmbiguous: a message without a rank whose CUDA
// number several ranks' devices share (each process on its cuda:0; two
// nodes' cuda:0) is on none of them alone, and gives none of them its
// capacity; on the one device with its number, it gives that one its
// capacity.
func TestOOMMessageCapacityAmbiguous(t *testing.T) {
	logs := []*gpulog.GPULog{{Source: input.Source{Path: "train.log"}, OOMs: []gpulog.TrainingOOM{oomMessage(4, input.NoRank, 0, 79*gib)}}}
	tests := []struct {
		name string
		keys []DeviceKey
		want []int64
	}{
		{"two ranks on cuda:0", []DeviceKey{{Rank: 0, Device: 0}, {Rank: 1, Device: 0}}, []int64{0, 0}},
		{"rank 0 on cuda:0, rank 1 on cuda:1", []DeviceKey{{Rank: 0, Device: 0}, {Rank: 1, Device: 1}}, []int64{79 * gib, 0}},
		{"one process", []DeviceKey{{Rank: input.NoRank, Device: 0}}, []int64{79 * gib}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var devices []*Device
			for _, k := range tt.keys {
				devices = append(devices, &Device{DeviceKey: k})
			}
			placed := placeLogOOMs(logs, pathRank, devices)
			for i, d := range devices {
				c, _, _ := oomMessageCapacity(placed, d, devices)
				if c != tt.want[i] {
					t.Errorf("%+v: capacity %d, want %d", d.DeviceKey, c, tt.want[i])
				}
			}
		})
	}
}

// TestNodeFolderOOMCapacity: two nodes' folders, each with one rank's
// memory_stats lines; node1's plain train.log holds an OOM message with no
// rank. The message is rank 1's (its folder's), and only rank 1's device
// takes its capacity; rank 0's cuda:0 is another machine's GPU.
func TestNodeFolderOOMCapacity(t *testing.T) {
	stats := func(rank int) []byte {
		var b strings.Builder
		for i := range 6 {
			fmt.Fprintf(&b, `{"step": %d, "time": %d, "rank": %d, "device": 0, "allocated_bytes.all.current": %d, "reserved_bytes.all.current": %d}`+"\n",
				10*i, 1709892000+60*i, rank, (30+i)<<30, (32+i)<<30)
		}
		return []byte(b.String())
	}
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, map[string][]byte{
		"node0/memstats.jsonl": stats(0),
		"node1/memstats.jsonl": stats(1),
		"node1/train.log": []byte("step 50\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 12.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 10.00 GiB is free. " +
			"Of the allocated memory 35.00 GiB is allocated by PyTorch, and 2.00 GiB is reserved by PyTorch but unallocated.\n"),
	})
	run, err := ingest.Load(context.Background(), dir, ingest.LoadOptions{Location: time.UTC, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	f := Analyze(run, Options{})
	if len(f.OOMs) != 1 || f.OOMs[0].Rank != 1 {
		t.Fatalf("OOMs %+v, want one of rank 1", f.OOMs)
	}
	for _, d := range f.Devices {
		if want := d.Rank == 1; (d.Capacity > 0) != want {
			t.Errorf("%+v: capacity %d, want one: %v", d.DeviceKey, d.Capacity, want)
		}
	}
}
