package gpulog

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"gpureport/internal/testutil"
)

// Fuzz targets of the parsers behind issue 28: the reading of an OOM
// message by meaning, the date lines of shell loops, and line prefixes.

// FuzzOOMMessage reads arbitrary text as a message's text and checks that
// white space does not matter: the same text with a space or a line
// break inserted anywhere (a console's wrap, a paste) binds the same
// figures, and no figure is below Unknown.
func FuzzOOMMessage(f *testing.F) {
	for _, s := range []string{
		"CUDA out of memory. Tried to allocate 1024.00 KiB (GPU 0; 11.17 GiB total capacity; 10.90 GiB already allocated; 576.00 KiB free; 30.96 MiB cached)",
		"CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacty of 23.65 GiB of which 5.06 MiB is free. Process 3340 has 1.20 GiB memory in use. Of the allocated memory 21.86 GiB is allocated by PyTorch, with 1.00 GiB allocated in private pools (e.g., CUDA Graphs), and 99.06 MiB is reserved by PyTorch but unallocated.",
		"MPS backend out of memory (MPS allocated: 8.00 GB, other allocations: 1.20 GB, max allowed: 9.07 GB). Tried to allocate 512.00 MB on private pool.",
		"NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 29.50 GiB total capacity; 26.10 GiB already allocated; 26.10 GiB current active; 1.20 GiB free; 3.00 GiB allowed; 27.90 GiB reserved in total by PyTorch)",
		"node7:4711:4790 [2] NCCL WARN Failed to CUDA calloc 8388608 bytes",
		"Allocation on device 0 would exceed allowed memory. (out of memory)\nCurrently allocated     : 76.50 GiB\nRequested               : 2.00 GiB\nDevice limit            : 79.15 GiB\nFree (according to CUDA): 1.23 GiB\nPyTorch limit (set by user-supplied memory fraction)\n                        : 40.00 GiB",
		// This process listed as "Process N" (a container): selfListed.
		"CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.23 GiB is free. Process 12345 has 77.91 GiB memory in use. Of the allocated memory 74.50 GiB is allocated by PyTorch, and 2.88 GiB is reserved by PyTorch but unallocated.",
		"GPU \x01 has a total capacity of 1 bytes of which 2 bytes is free",
	} {
		f.Add(s, uint(17))
	}
	f.Fuzz(func(t *testing.T, msg string, at uint) {
		a := readOOMMessage(msg)
		for _, v := range []int64{a.requested, a.capacity, a.free, a.allocated, a.cached, a.reserved, a.unallocated, a.privatePools,
			a.allowed, a.processInUse, a.otherProcesses, a.otherAllocs, a.requestedSlack, a.freeSlack} {
			if v < Unknown {
				t.Fatalf("figure %d below Unknown in %+v", v, a)
			}
		}
		if len(msg) == 0 {
			return
		}
		i := int(at % uint(len(msg)))
		for _, gap := range []string{" ", "\n"} {
			b := readOOMMessage(msg[:i] + gap + msg[i:])
			b.backend, b.mps, b.legacy = a.backend, a.mps, a.legacy
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("a %q inserted at %d changes the figures:\n%+v\n%+v", gap, i, a, b)
			}
		}
	})
}

// FuzzDateLine reads arbitrary lines as date lines: never a panic, the
// same answer twice, a plausible year when read, and a line with a
// script's marker around it reads as the line does without it.
func FuzzDateLine(f *testing.F) {
	base := os.Getenv("GPUREPORT_REAL_DATA")
	if base == "" {
		base = filepath.Join(testutil.RepoRoot(f), "..", "shared", "testdata-real")
	}
	files, _ := filepath.Glob(filepath.Join(base, "nvidia-smi", "table", "*"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		lines := strings.SplitN(string(b[:min(len(b), 4<<10)]), "\n", 3)
		for _, l := range lines[:min(2, len(lines))] {
			f.Add(l)
		}
	}
	for _, s := range []string{"Sun 02 Mar 2025 08:11:59 AM UTC", "Sun, 02 Mar 2025 08:11:59 +0000", "==== Sun Mar  2 08:11:59 UTC 2025 ====",
		"[2025-03-02 08:11:59]", "Sunday, March 2, 2025 12:00:00 PM CET", "2023/06/22 18:56:56.252, 0, NVIDIA"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ta, za, oka := parseDateLine(s, time.UTC)
		tb, zb, okb := parseDateLine(s, time.UTC)
		if oka != okb || !ta.Equal(tb) || za != zb {
			t.Fatalf("%q read twice differently", s)
		}
		if oka && (ta.Year() < 1970 || ta.Year() > 9999) {
			t.Fatalf("%q read as %v", s, ta)
		}
		if u := unmarkDate(s); u != "" && !strings.ContainsAny(u, "=#") {
			tm, zm, okm := parseDateLine("==== "+u+" ====", time.UTC)
			tu, zu, oku := parseDateLine(u, time.UTC)
			if okm != oku || okm && (!tm.Equal(tu) || zm != zu) {
				t.Fatalf("%q inside a marker reads %v %v, alone %v %v", u, tm, okm, tu, oku)
			}
		}
	})
}

// FuzzLineHead reads arbitrary line prefixes: the rest is always a suffix
// of the line, and a rank, when read, is not negative.
func FuzzLineHead(f *testing.F) {
	for _, s := range []string{"2025-03-02 08:11:59 [rank6]: torch.OutOfMemoryError", "[rank6]:[2025-03-02 08:11:59,120] train.py:88",
		"[1,6]<stderr>:RuntimeError", "[6]: 2025-03-02T08:11:59.120Z ERROR - x", "[default3]:x", "- | : [rank 2] WARNING x",
		"[2024-03-01 10:01:41 TP2] Scheduler hit", "[2024-03-01 10:01:41 DP1 TP99999] x", "[2024-03-01 10:01:41 TP2 EP2]: x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h := readLineHead(s)
		if !strings.HasSuffix(s, h.rest) {
			t.Fatalf("rest %q is not the end of %q", h.rest, s)
		}
		if h.rank < -1 {
			t.Fatalf("rank %d", h.rank)
		}
	})
}

// TestDateLineYears: a date line is a clock's reading, so a year before
// the Unix epoch is refused, in every layout parseDateLine reads.
func TestDateLineYears(t *testing.T) {
	for _, tt := range []struct {
		line string
		ok   bool
	}{
		{"Fri Aug  1 05:47:06 2025", true},
		{"Fri Aug 1 5:47:06 0225", false},
		{"==== Fri Aug 1 05:47:06 UTC 1969 ====", false},
		{"Thu Jan  1 00:00:00 UTC 1970", true},
	} {
		if _, _, ok := parseDateLine(tt.line, time.UTC); ok != tt.ok {
			t.Errorf("%q: read %v, want %v", tt.line, ok, tt.ok)
		}
	}
}

// FuzzVLLMMessage reads arbitrary text as vLLM's KV cache message: no
// figure below Unknown, none negative but Unknown, and white space
// inserted anywhere (a console's wrap) changes nothing.
func FuzzVLLMMessage(f *testing.F) {
	for _, s := range []string{
		"To serve at least one request with the models's max seq len (131072), (16.00 GiB KV cache is needed, which is larger than the available KV cache memory (1.20 GiB). Based on the available memory, the estimated maximum model length is 9808.",
		"To serve at least one request with the model's max seq len (8192), 1.00 GiB KV cache is needed, which is larger than the available KV cache memory (-2.50 GiB).",
		"No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.",
		"The model's max seq len (32768) is larger than the maximum number of tokens that can be stored in KV cache (28000).",
	} {
		f.Add(s, uint(40))
	}
	f.Fuzz(func(t *testing.T, msg string, at uint) {
		a := vllmReading(msg)
		if a.requested < Unknown || a.allowed < Unknown || a.requestedSlack < 0 {
			t.Fatalf("figures %+v", a)
		}
		if len(msg) == 0 {
			return
		}
		i := int(at % uint(len(msg)))
		for _, gap := range []string{" ", "\n"} {
			if b := vllmReading(msg[:i] + gap + msg[i:]); !reflect.DeepEqual(a, b) {
				t.Fatalf("a %q inserted at %d changes the figures:\n%+v\n%+v", gap, i, a, b)
			}
		}
	})
}
