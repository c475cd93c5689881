package gpulog_test

import (
	"fmt"
	"strings"
	"testing"

	"gpureport/gpulog"
	"gpureport/input"
)

// oomText is PyTorch 2.x's CUDA OOM message for device gpu.
func oomText(gpu int) string {
	return fmt.Sprintf("CUDA out of memory. Tried to allocate 3.91 GiB. GPU %d has a total capacity of 79.15 GiB of which 1.52 GiB is free. "+
		"Including non-PyTorch memory, this process has 77.62 GiB memory in use. Of the allocated memory 74.87 GiB is allocated by PyTorch, "+
		"and 2.10 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting "+
		"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.", gpu)
}

// TestOOMRanksBehindLauncherLabels: the rank of an OOM message is read
// behind kubectl logs --prefix's pod label (also with --timestamps, and
// for a message the console wrapped) and from SageMaker's mpirun tag.
func TestOOMRanksBehindLauncherLabels(t *testing.T) {
	msg := "torch.OutOfMemoryError: " + oomText(0)
	wrapped := msg[:80] + "\n[pod/ft-worker-1/pytorch] [rank1]: " + msg[80:]
	type want struct{ rank, device int }
	tests := []struct {
		name string
		text string
		want []want
	}{{
		name: "kubectl logs --prefix",
		text: "[pod/ft-worker-0/pytorch] step 10 loss 2.0\n" +
			"[pod/ft-worker-1/pytorch] [rank1]: " + msg + "\n" +
			"[pod/ft-worker-0/pytorch] [rank0]: " + strings.Replace(msg, "3.91 GiB", "3.50 GiB", 1) + "\n",
		want: []want{{1, 0}, {0, 0}},
	}, {
		name: "kubectl logs --prefix --timestamps",
		text: "[pod/ft-worker-1/pytorch] 2024-03-08T10:00:11.123456789Z [rank1]: " + msg + "\n",
		want: []want{{1, 0}},
	}, {
		name: "kubectl logs --prefix, a wrapped message",
		text: "[pod/ft-worker-1/pytorch] [rank1]: " + wrapped + "\n[pod/ft-worker-1/pytorch] [rank1]: done\n",
		want: []want{{1, 0}},
	}, {
		name: "SageMaker mpirun",
		text: "[1,mpirank:1,algo-1]<stderr>:" + strings.Replace(msg, "GPU 0", "GPU 1", 1) + "\n" +
			"[1,mpirank:0,algo-1]<stderr>:" + strings.Replace(msg, "3.91 GiB", "3.50 GiB", 1) + "\n",
		want: []want{{1, 1}, {0, 0}},
	}, {
		name: "a pod label without a rank",
		text: "[pod/ft-worker-1/pytorch] " + msg + "\n",
		want: []want{{input.NoRank, 0}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := gpulog.ReadLog(strings.NewReader(tt.text), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(l.OOMs) != len(tt.want) {
				t.Fatalf("%d OOMs, want %d: %+v", len(l.OOMs), len(tt.want), l.OOMs)
			}
			for i, w := range tt.want {
				if o := l.OOMs[i]; o.Rank != w.rank || o.Device != w.device || o.Requested <= 0 || o.Free <= 0 {
					t.Errorf("OOM %d: rank %d device %d requested %d free %d, want %+v", i, o.Rank, o.Device, o.Requested, o.Free, w)
				}
			}
		})
	}
}

// TestRanklessOOMsOfTwoPods: the same message from two pods without a
// rank is two events, each with its pod as the machine, and a note says
// they are on different machines; one pod's message written twice is one.
func TestRanklessOOMsOfTwoPods(t *testing.T) {
	msg := "torch.OutOfMemoryError: " + oomText(0) + "\n"
	text := "[pod/ft-worker-0/pytorch] " + msg + "[pod/ft-worker-1/pytorch] " + msg + "[pod/ft-worker-1/pytorch] " + msg
	l, err := gpulog.ReadLog(strings.NewReader(text), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.OOMs) != 2 || l.OOMs[0].Machine != "pod/ft-worker-0" || l.OOMs[1].Machine != "pod/ft-worker-1" || l.OOMs[1].Count != 2 {
		t.Fatalf("OOMs %+v", l.OOMs)
	}
	if !strings.Contains(strings.Join(l.Notes, "\n"), "come from 2 machines (pod/ft-worker-0, pod/ft-worker-1") {
		t.Errorf("notes %q", l.Notes)
	}
	// pdsh's host label names the machine too; ranks need no note.
	l, err = gpulog.ReadLog(strings.NewReader("worker-1: [rank9]: "+msg+"worker-2: [rank1]: "+msg), gpulog.FormatTrainingLog, gpulog.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.OOMs) != 2 || l.OOMs[0].Machine != "worker-1" || l.OOMs[0].Rank != 9 || strings.Contains(strings.Join(l.Notes, "\n"), "machines") {
		t.Errorf("OOMs %+v, notes %q", l.OOMs, l.Notes)
	}
}
