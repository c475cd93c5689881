package gpulog_test

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"gpureport/gpulog"
)

// yoloHeader and yoloLine make YOLOv5/Ultralytics progress output.
const yoloHeader = "\n      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size\n"

// bytesOf is v units in bytes, rounded as the reader rounds.
func bytesOf(v, unit float64) int64 { return int64(math.Round(v * unit)) }

func yoloLine(epoch, mem string) string {
	return "   " + epoch + "      " + mem + "     0.9137     0.7809      1.061         31        640: 100%|##########| 246/246 [02:17<00:00,  1.79it/s]\n" +
		"                 Class     Images  Instances      Box(P          R      mAP50  mAP50-95): 100%|##########| 31/31 [00:05<00:00,  5.60it/s]\n"
}

// TestYOLOGPUMem: the GPU_mem column is read as reserved memory at the
// epoch, in the unit the banner's printer divides by (decimal GB for
// YOLOv5 and Ultralytics before 8.3, GiB from 8.3.100), decimal GB with
// a note of the ambiguity otherwise; the banner's MiB is the capacity.
func TestYOLOGPUMem(t *testing.T) {
	const gb, gib, mib = 1e9, 1 << 30, 1 << 20
	type reading struct {
		Step     int64
		Reserved int64
	}
	tests := []struct {
		name     string
		log      string
		want     []reading
		capacity int64
		note     string
	}{
		{
			name: "ultralytics 8.0 divides by 1E9",
			log: "Ultralytics YOLOv8.0.18 🚀 Python-3.9.13 torch-1.13.0 CUDA:0 (NVIDIA GeForce RTX 3090, 24576MiB)\n" + yoloHeader +
				yoloLine("1/300", "2.80G") + yoloLine("2/300", "2.82G"),
			want:     []reading{{1, bytesOf(2.80, gb)}, {2, bytesOf(2.82, gb)}},
			capacity: 24576 * mib,
			note:     "Ultralytics 8.0.18, which divides by 1E9",
		},
		{
			name: "ultralytics 8.3.150 divides by 2**30; redraws of one epoch give one reading",
			log: "Ultralytics 8.3.150 🚀 Python-3.11.4 torch-2.6.0+cu124 CUDA:0 (NVIDIA A100-SXM4-80GB, 81051MiB)\n" + yoloHeader +
				"        1/5      4.38G      1.234      2.345      1.111         26        640:  50%|#####     | 8/15 [00:02<00:02]\r" +
				"        1/5      4.40G      1.234      2.345      1.111         26        640: 100%|##########| 15/15 [00:04<00:00]\n" +
				"        1/5      4.41G      1.234      2.345      1.111         26        640: 100%|##########| 15/15 [00:04<00:00]\n" +
				"        2/5      4.50G      1.2        2.3        1.1           26        640: 100%|##########| 15/15 [00:04<00:00]\n",
			want:     []reading{{1, bytesOf(4.41, gib)}, {2, bytesOf(4.50, gib)}},
			capacity: 81051 * mib,
			note:     "G is GiB",
		},
		{
			name: "yolov5 with its old header, epochs from 0",
			log: "YOLOv5 🚀 v6.1-12-gabc1234 torch 1.10.0+cu113 CUDA:0 (Tesla T4, 15110MiB)\n" +
				"\n     Epoch   gpu_mem       box       obj       cls    labels  img_size\n" +
				"     0/299     3.21G   0.04526   0.02519   0.01911        94       640: 100%|##########| 8/8 [00:03<00:00,  2.33it/s]\n" +
				"     1/299     3.22G   0.04526   0.02519   0.01911        94       640: 100%|##########| 8/8 [00:03<00:00,  2.33it/s]\n",
			want:     []reading{{0, bytesOf(3.21, gb)}, {1, bytesOf(3.22, gb)}},
			capacity: 15110 * mib,
			note:     "YOLOv5, which divides by 1E9",
		},
		{
			name: "ultralytics 8.3.40 is ambiguous: read in GB with a note",
			log: "Ultralytics 8.3.40 🚀 Python-3.10.12 torch-2.5.1+cu121 CUDA:0 (Tesla T4, 15102MiB)\n" + yoloHeader +
				yoloLine("1/10", "1.5G"),
			want:     []reading{{1, bytesOf(1.5, gb)}},
			capacity: 15102 * mib,
			note:     "the unit is ambiguous: the banner names Ultralytics 8.3.40",
		},
		{
			name: "no banner is ambiguous",
			log:  yoloHeader + yoloLine("1/10", "1.5G"),
			want: []reading{{1, bytesOf(1.5, gb)}},
			note: "no banner names the printer",
		},
		{
			name: "no header, a CPU run's 0G and an MPS run give nothing",
			log: yoloLine("1/10", "4.38G") + "Ultralytics 8.2.1 🚀 Python-3.10 torch-2.2 CPU (Intel Xeon)\n" + yoloHeader + yoloLine("1/10", "0G") +
				"Ultralytics 8.3.40 🚀 Python-3.10 torch-2.5 MPS (Apple M2)\n" + yoloHeader + yoloLine("1/10", "1.2G"),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := readTrainLogCase(t, tc.log, len(tc.want))
			var got []reading
			for _, r := range l.MemoryStats {
				if r.Allocated != gpulog.Unknown || r.PeakAllocated != 0 || r.Device != 0 || !r.Time.IsZero() {
					t.Errorf("reading %+v: want reserved memory only, on device 0, without a time", r)
				}
				got = append(got, reading{r.Step, r.Reserved})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("readings (-want +got):\n%s", diff)
			}
			var capacity int64
			for _, c := range l.Capacities {
				capacity = c.Total
			}
			if capacity != tc.capacity {
				t.Errorf("capacity %d, want %d", capacity, tc.capacity)
			}
			if tc.note != "" && !strings.Contains(strings.Join(l.Notes, "\n"), tc.note) {
				t.Errorf("notes %q, want one saying %q", l.Notes, tc.note)
			}
		})
	}
}

// FuzzYOLOGPUMem: the GPU_mem reader never panics, gives only reserved
// figures a device can hold, and a file it reads is claimed.
func FuzzYOLOGPUMem(f *testing.F) {
	f.Add([]byte("Ultralytics YOLOv8.0.18 🚀 Python-3.9.13 torch-1.13.0 CUDA:0 (NVIDIA GeForce RTX 3090, 24576MiB)\n" + yoloHeader +
		yoloLine("1/300", "2.80G") + yoloLine("1/300", "99999999999999999999G")))
	f.Add([]byte("YOLOv5 🚀 2022-8-21 torch 1.12 CUDA:0 (Tesla T4, 99999999999999999999MiB)\n" + yoloHeader + yoloLine("99999999999999999999/3", "1.0G")))
	f.Add([]byte("Ultralytics 99999999999.3.150 🚀 CUDA:0 (X, 1MiB)\n" + yoloHeader + "1/5 \x1b[31m4.38G \r 2/5 1e9G x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l := fuzzTrainingLog(t, data, "memory readings")
		if l == nil {
			return
		}
		for _, r := range l.MemoryStats {
			if r.Allocated < 0 && r.Reserved < 0 && r.PeakAllocated <= 0 || r.Reserved > 1<<50 {
				t.Fatalf("reading %+v", r)
			}
		}
		for _, c := range l.Capacities {
			if c.Total <= 0 {
				t.Fatalf("capacity %+v", c)
			}
		}
	})
}
