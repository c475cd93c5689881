package gpulog_test

import (
	"fmt"
	"strings"
	"testing"

	"gpureport/gpulog"
)

// TestMachinesOfLabelledLines: a GPU log whose lines several machines
// wrote, each labelled by the launcher that gathered them (kubectl logs
// --prefix's pod, pdsh's host), holds each machine's GPUs apart: they are
// numbered one machine after another, machines in natural name order,
// each GPU keeping its machine and its index there, with a note. One
// machine's labelled lines keep their numbers.
func TestMachinesOfLabelledLines(t *testing.T) {
	const mib = 1 << 20
	csvRows := func(label string, gpus, used int) []string {
		out := []string{label + "timestamp, index, memory.used [MiB], memory.total [MiB]"}
		for m := range 3 {
			for g := range gpus {
				out = append(out, fmt.Sprintf("%s2024/03/08 10:%02d:00.%03d, %d, %d MiB, 81559 MiB", label, m, 100+g, g, used+1000*g+10*m))
			}
		}
		return out
	}
	dmonRows := func(label string, used int) []string {
		out := []string{label + "# gpu     fb   bar1", label + "# Idx     MB     MB"}
		for range 3 {
			out = append(out, fmt.Sprintf("%s    0  %5d      5", label, used))
		}
		return out
	}
	// interleave takes one line of each machine's in turn.
	interleave := func(machines ...[]string) string {
		var b strings.Builder
		for i := 0; ; i++ {
			any := false
			for _, m := range machines {
				if i < len(m) {
					b.WriteString(m[i] + "\n")
					any = true
				}
			}
			if !any {
				return b.String()
			}
		}
	}
	type gpu struct {
		machine string
		local   int
		used    int64 // first reading's used memory, bytes
	}
	tests := []struct {
		name   string
		format gpulog.LogFormat
		text   string
		want   []gpu // by GPU index
	}{{
		name:   "kubectl --prefix, two pods' query CSVs",
		format: gpulog.FormatQueryCSV,
		text:   interleave(csvRows("[pod/train-0/gpu-monitor] ", 1, 30000), csvRows("[pod/train-1/gpu-monitor] ", 1, 52000)),
		want:   []gpu{{"pod/train-0", 0, 30000 * mib}, {"pod/train-1", 0, 52000 * mib}},
	}, {
		name:   "kubectl --prefix, natural order, two GPUs each",
		format: gpulog.FormatQueryCSV,
		text:   interleave(csvRows("[pod/train-10/smi] ", 2, 50000), csvRows("[pod/train-2/smi] ", 2, 20000)),
		want:   []gpu{{"pod/train-2", 0, 20000 * mib}, {"pod/train-2", 1, 21000 * mib}, {"pod/train-10", 0, 50000 * mib}, {"pod/train-10", 1, 51000 * mib}},
	}, {
		// kubectl logs without --follow writes one pod's lines after
		// the other's.
		name:   "kubectl --prefix, two pods' dmon, one after the other",
		format: gpulog.FormatDmon,
		text:   interleave(append(dmonRows("[pod/w-1/dmon] ", 60000), dmonRows("[pod/w-0/dmon] ", 30000)...)),
		want:   []gpu{{"pod/w-0", 0, 30000 * mib}, {"pod/w-1", 0, 60000 * mib}},
	}, {
		name:   "pdsh host labels",
		format: gpulog.FormatQueryCSV,
		text:   interleave(csvRows("node1: ", 1, 30000), csvRows("node2: ", 1, 60000)),
		want:   []gpu{{"node1", 0, 30000 * mib}, {"node2", 0, 60000 * mib}},
	}, {
		// pdsh ... 'nvidia-smi --format=csv,noheader': the rows are
		// told apart from a GPU name's first word by the host's colon.
		name:   "pdsh host labels, headerless rows",
		format: gpulog.FormatQueryCSV,
		text:   interleave(csvRows("gpu-node-01: ", 1, 40000)[1:], csvRows("gpu-node-02: ", 1, 40000)[1:]),
		want:   []gpu{{"gpu-node-01", 0, 40000 * mib}, {"gpu-node-02", 0, 40000 * mib}},
	}, {
		name:   "one pod",
		format: gpulog.FormatQueryCSV,
		text:   interleave(csvRows("[pod/train-0/gpu-monitor] ", 2, 30000)),
		want:   []gpu{{"", 0, 30000 * mib}, {"", 1, 31000 * mib}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if f, ok := gpulog.SniffLog([]byte(tt.text)); !ok || f != tt.format {
				t.Fatalf("SniffLog = %q, %v; want %q", f, ok, tt.format)
			}
			l, err := gpulog.ReadLog(strings.NewReader(tt.text), tt.format, gpulog.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(l.GPUs) != len(tt.want) || l.SkippedLines > 0 {
				t.Fatalf("GPUs %+v, want %d; skipped %d %+v", l.GPUs, len(tt.want), l.SkippedLines, l.Problems)
			}
			first := map[int]int64{}
			perGPU := map[int]int{}
			for _, s := range l.Samples {
				if _, ok := first[s.GPU]; !ok {
					first[s.GPU] = s.MemoryUsed
				}
				perGPU[s.GPU]++
			}
			for _, g := range l.GPUs {
				if g.Index < 0 || g.Index >= len(tt.want) {
					t.Fatalf("GPU index %d", g.Index)
				}
				w := tt.want[g.Index]
				if g.Machine != w.machine || g.MachineIndex != w.local && w.machine != "" || first[g.Index] != w.used || perGPU[g.Index] != 3 {
					t.Errorf("GPU %d: machine %q index %d, first used %d, %d readings; want %+v, 3 readings", g.Index, g.Machine, g.MachineIndex, first[g.Index], perGPU[g.Index], w)
				}
			}
			noted := strings.Contains(strings.Join(l.Notes, "\n"), "machines")
			if noted != (tt.want[0].machine != "") {
				t.Errorf("notes %q", l.Notes)
			}
		})
	}
}
