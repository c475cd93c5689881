package gpulog_test

import (
	"fmt"
	"strings"
	"testing"

	"gpureport/gpulog"
)

// queryDoc is one `nvidia-smi -q` document of two GPUs at stamp: GPU 0
// uses used0 MiB and runs one process, GPU 1 is idle and reports power
// the way drivers before 535 did.
func queryDoc(stamp string, used0 int) string {
	return fmt.Sprintf(`
==============NVSMI LOG==============

Timestamp                                 : %s
Driver Version                            : 535.54.03
CUDA Version                              : 12.2

Attached GPUs                             : 2
GPU 00000000:01:00.0
    Product Name                          : NVIDIA A100-SXM4-80GB
    GPU UUID                              : GPU-aaaa
    FB Memory Usage
        Total                             : 81559 MiB
        Reserved                          : 569 MiB
        Used                              : %d MiB
        Free                              : 1000 MiB
    BAR1 Memory Usage
        Total                             : 131072 MiB
        Used                              : 1 MiB
        Free                              : 131071 MiB
    Utilization
        Gpu                               : 99 %%
        Memory                            : 40 %%
    GPU Power Readings
        Power Draw                        : 250.00 W
        Current Power Limit               : 400.00 W
    Processes
        GPU instance ID                   : N/A
        Compute instance ID               : N/A
        Process ID                        : 4242
            Type                          : C
            Name                          : python
            Used GPU Memory               : %d MiB

GPU 00000000:02:00.0
    Product Name                          : NVIDIA A100-SXM4-80GB
    GPU UUID                              : GPU-bbbb
    FB Memory Usage
        Total                             : 81559 MiB
        Reserved                          : 569 MiB
        Used                              : 3 MiB
        Free                              : 80987 MiB
    Power Readings
        Power Draw                        : 61.02 W
    Processes                             : None
`, stamp, used0, used0-500)
}

func TestReadQueryText(t *testing.T) {
	in := queryDoc("Thu Nov 26 12:00:00 2026", 40000) + queryDoc("Thu Nov 26 12:00:05 2026", 40100)
	if f, ok := gpulog.SniffLog([]byte(in)); !ok || f != gpulog.FormatQueryText {
		t.Errorf("SniffLog = %q, %v", f, ok)
	}
	runReadCases(t, []readCase{
		{name: "two documents", format: gpulog.FormatQueryText, in: in,
			samples: []sampleWant{
				{0, 40000 * logMiB, 81559 * logMiB, "2026-11-26T11:00:00Z"}, {1, 3 * logMiB, 81559 * logMiB, "2026-11-26T11:00:00Z"},
				{0, 40100 * logMiB, 81559 * logMiB, "2026-11-26T11:00:05Z"}, {1, 3 * logMiB, 81559 * logMiB, "2026-11-26T11:00:05Z"}},
			procs: []gpulog.ProcessSample{
				{GPU: 0, UUID: "GPU-aaaa", BusID: "00000000:01:00.0", PID: 4242, Name: "python", UsedMemory: 39500 * logMiB},
				{GPU: 0, UUID: "GPU-aaaa", BusID: "00000000:01:00.0", PID: 4242, Name: "python", UsedMemory: 39600 * logMiB}},
			gpus: 2,
			check: func(t *testing.T, l *gpulog.GPULog) {
				s0, s1 := l.Samples[0], l.Samples[1]
				if s0.MemoryReserved != 569*logMiB || s0.MemoryFree != 1000*logMiB || s0.UtilizationGPU != 99 || s0.UtilizationMemory != 40 || s0.PowerW != 250 {
					t.Errorf("GPU 0: %+v", s0)
				}
				if s1.PowerW != 61.02 {
					t.Errorf("GPU 1 power %v, want 61.02 (old Power Readings section)", s1.PowerW)
				}
				if g := l.GPUs[1]; g.UUID != "GPU-bbbb" || g.BusID != "00000000:02:00.0" || g.Name != "NVIDIA A100-SXM4-80GB" {
					t.Errorf("GPU 1: %+v", g)
				}
			}},
		// A bad value costs its line; a document cut mid-GPU (here inside
		// its Free line) keeps what was read.
		{name: "bad value, cut off", format: gpulog.FormatQueryText,
			in:      strings.Replace(queryDoc("Thu Nov 26 12:00:00 2026", 40000), "Total                             : 81559 MiB", "Total                             : lots", 1)[:600],
			samples: []sampleWant{{0, 40000 * logMiB, logNA, "2026-11-26T11:00:00Z"}}, gpus: 1, skipped: 2},
	})
}

// migQueryDoc is one `nvidia-smi -q` document of an A100-40GB in MIG mode
// at stamp: two MIG devices (GI 1 using used1 MiB, GI 2 flat) listed
// before the GPU's own FB Memory Usage, with the "MIG Devices" heading
// when nested, or each "MIG Device" straight under the GPU when not.
func migQueryDoc(stamp string, used1 int, nested bool) string {
	dev := func(index, gi, used int) string {
		return fmt.Sprintf(`MIG Device
    Index                         : %d
    GPU Instance ID               : %d
    Compute Instance ID           : 0
    Device Attributes
        Shared
            Multiprocessor count  : 42
    FB Memory Usage
        Total                     : 19968 MiB
        Reserved                  : 0 MiB
        Used                      : %d MiB
        Free                      : %d MiB
    BAR1 Memory Usage
        Total                     : 32767 MiB
        Used                      : 0 MiB
`, index, gi, used, 19968-used)
	}
	ind := "    "
	devs := dev(0, 1, used1) + dev(1, 2, 9826)
	head := ""
	if nested {
		ind, head = "        ", "    MIG Devices\n"
	}
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(devs, "\n"), "\n") {
		b.WriteString(ind + l + "\n")
	}
	return fmt.Sprintf(`
==============NVSMI LOG==============

Timestamp                                 : %s
Driver Version                            : 510.47.03

Attached GPUs                             : 1
GPU 00000000:00:04.0
    Product Name                          : NVIDIA A100-SXM4-40GB
    MIG Mode
        Current                           : Enabled
        Pending                           : Enabled
%s%s    Accounting Mode                       : Disabled
    FB Memory Usage
        Total                             : 40960 MiB
        Reserved                          : 605 MiB
        Used                              : %d MiB
        Free                              : 1000 MiB
    BAR1 Memory Usage
        Total                             : 65536 MiB
        Used                              : 1 MiB
`, stamp, head, b.String(), used1+9826+38)
}

// TestReadQueryTextMIG checks that a GPU in MIG mode is read as the GPU's
// own memory, with each MIG device as a MIG reading of its own.
func TestReadQueryTextMIG(t *testing.T) {
	migs := func(l *gpulog.GPULog) string {
		var b strings.Builder
		for _, m := range l.MIG {
			fmt.Fprintf(&b, "%s gpu%d mig%d gi%d ci%d %d/%d;", m.Time.UTC().Format("15:04"), m.GPU, m.MIG, m.GPUInstance, m.ComputeInstance,
				m.MemoryUsed/logMiB, m.MemoryTotal/logMiB)
		}
		return b.String()
	}
	want := "11:00 gpu0 mig0 gi1 ci0 4000/19968;11:00 gpu0 mig1 gi2 ci0 9826/19968;" +
		"11:05 gpu0 mig0 gi1 ci0 7000/19968;11:05 gpu0 mig1 gi2 ci0 9826/19968;"
	var cases []readCase
	for _, nested := range []bool{true, false} {
		in := migQueryDoc("Thu Nov 26 12:00:00 2026", 4000, nested) + migQueryDoc("Thu Nov 26 12:05:00 2026", 7000, nested)
		cases = append(cases, readCase{name: fmt.Sprintf("nested %v", nested), format: gpulog.FormatQueryText, in: in,
			samples: []sampleWant{{0, 13864 * logMiB, 40960 * logMiB, "2026-11-26T11:00:00Z"}, {0, 16864 * logMiB, 40960 * logMiB, "2026-11-26T11:05:00Z"}},
			gpus:    1,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if got := migs(l); got != want {
					t.Errorf("MIG readings\n%s\nwant\n%s", got, want)
				}
				if s := l.Samples[0]; s.MemoryReserved != 605*logMiB || s.MemoryFree != 1000*logMiB {
					t.Errorf("GPU sample %+v, want the GPU's own FB Memory Usage", s)
				}
			}})
	}
	// A MIG device's bad size costs its line and leaves that figure
	// unknown; its ids and the GPU's reading stay.
	bad := strings.Replace(migQueryDoc("Thu Nov 26 12:00:00 2026", 4000, true), "Used                      : 4000 MiB", "Used                      : lots", 1)
	cases = append(cases, readCase{name: "bad MIG size", format: gpulog.FormatQueryText, in: bad,
		samples: []sampleWant{{0, 13864 * logMiB, 40960 * logMiB, "2026-11-26T11:00:00Z"}}, gpus: 1, skipped: 1,
		check: func(t *testing.T, l *gpulog.GPULog) {
			if len(l.MIG) != 2 || l.MIG[0].MemoryUsed != gpulog.Unknown || l.MIG[0].MemoryTotal != 19968*logMiB || l.MIG[0].GPUInstance != 1 {
				t.Errorf("MIG readings %+v", l.MIG)
			}
		}})
	runReadCases(t, cases)
}

// TestReadQueryTextMIGAtMargin: a "MIG Device" heading at the margin is
// no MIG device of the GPU above, and does not take its lines.
func TestReadQueryTextMIGAtMargin(t *testing.T) {
	in := strings.Replace(migQueryDoc("Thu Nov 26 12:00:00 2026", 4000, false), "    MIG Device\n", "MIG Device\n", 1)
	runReadCases(t, []readCase{{name: "margin", format: gpulog.FormatQueryText, in: in,
		samples: []sampleWant{{0, 13864 * logMiB, 40960 * logMiB, "2026-11-26T11:00:00Z"}}, gpus: 1,
		check: func(t *testing.T, l *gpulog.GPULog) {
			if len(l.MIG) != 1 || l.MIG[0].GPUInstance != 2 {
				t.Errorf("MIG readings %+v, want GI 2's only", l.MIG)
			}
		}}})
}

// TestReadQueryTextMIGNone: a GPU with MIG disabled prints a "MIG
// Device" heading over "None" (r535), or "MIG Devices : None": no MIG
// reading, one GPU sample a document.
func TestReadQueryTextMIGNone(t *testing.T) {
	doc := func(stamp, mig string, used int) string {
		return "==============NVSMI LOG==============\n\nTimestamp                                 : " + stamp + "\n" +
			"Driver Version                            : 535.104.05\n\nAttached GPUs                             : 1\n" +
			"GPU 00000000:07:00.0\n    Product Name                          : NVIDIA A100-SXM4-80GB\n" +
			"    MIG Mode\n        Current                           : Disabled\n        Pending                           : Disabled\n" +
			mig +
			"    FB Memory Usage\n        Total                             : 81920 MiB\n        Reserved                          : 573 MiB\n" +
			fmt.Sprintf("        Used                              : %d MiB\n        Free                              : %d MiB\n", used, 81920-573-used) +
			"    BAR1 Memory Usage\n        Total                             : 131072 MiB\n        Used                              : 1 MiB\n\n"
	}
	var cases []readCase
	for name, mig := range map[string]string{
		"MIG Device heading over None":  "    MIG Device\n        None\n",
		"MIG Devices heading over None": "    MIG Devices\n        None\n",
		"nested headings over None":     "    MIG Devices\n        MIG Device\n            None\n",
		"MIG Devices : None":            "    MIG Devices                           : None\n",
	} {
		in := doc("Fri Mar 01 10:00:00 2024", mig, 30000) + doc("Fri Mar 01 10:01:00 2024", mig, 30300)
		cases = append(cases, readCase{name: name, format: gpulog.FormatQueryText, in: in,
			samples: []sampleWant{{0, 30000 * logMiB, 81920 * logMiB, "2024-03-01T09:00:00Z"}, {0, 30300 * logMiB, 81920 * logMiB, "2024-03-01T09:01:00Z"}},
			gpus:    1,
			check: func(t *testing.T, l *gpulog.GPULog) {
				if len(l.MIG) != 0 {
					t.Errorf("MIG readings %+v, want none", l.MIG)
				}
			}})
	}
	runReadCases(t, cases)
}
