package gpulog_test

import (
	"fmt"
	"testing"

	"gpureport/gpulog"
)

// TestOOMListedSelf: a 2.1+ message without "this process has" whose
// "Process N" entries and PyTorch's reserved memory add up to more than
// the device's used memory (capacity less free) lists this process as
// one of them: the smallest entry of at least the reserved memory. The
// figures are printed sizes; reserved is allocated plus unallocated.
func TestOOMListedSelf(t *testing.T) {
	cases := []struct {
		name                   string
		capacity, free         string
		procs                  string // the "Process N has X memory in use." sentences
		allocated, unallocated string
		// inUse and others are the printed sizes read as this process's
		// and the other processes' ("" unknown); pid the entry read as
		// this process (0: none).
		inUse, others string
		pid           int
		// otherPID and otherCount are the largest other process's pid
		// and how many other processes there are (0: none).
		otherPID, otherCount int
	}{
		{name: "container-one-entry", capacity: "79.15 GiB", free: "1.23 GiB", procs: "Process 12345 has 77.91 GiB memory in use.",
			allocated: "74.50 GiB", unallocated: "2.88 GiB", inUse: "77.91 GiB", pid: 12345},
		{name: "capacty-small-gpu", capacity: "14.75 GiB", free: "1.06 MiB", procs: "Process 21763 has 14.74 GiB memory in use.",
			allocated: "14.39 GiB", unallocated: "225.91 MiB", inUse: "14.74 GiB", pid: 21763},
		{name: "self-among-others", capacity: "79.15 GiB", free: "1.15 GiB", procs: "Process 1 has 10.00 GiB memory in use. Process 2 has 68.00 GiB memory in use.",
			allocated: "60.00 GiB", unallocated: "7.00 GiB", inUse: "68.00 GiB", others: "10.00 GiB", pid: 2, otherPID: 1, otherCount: 1},
		{name: "two-could-be-self-smallest", capacity: "79.15 GiB", free: "18.15 GiB", procs: "Process 7 has 31.00 GiB memory in use. Process 8 has 30.00 GiB memory in use.",
			allocated: "28.00 GiB", unallocated: "1.00 GiB", inUse: "30.00 GiB", others: "31.00 GiB", pid: 8, otherPID: 7, otherCount: 1},
		{name: "others-fit", capacity: "79.15 GiB", free: "1.15 GiB", procs: "Process 1 has 5.00 GiB memory in use.",
			allocated: "69.00 GiB", unallocated: "1.00 GiB", others: "5.00 GiB", otherPID: 1, otherCount: 1},
		{name: "within-rounding", capacity: "10.00 GiB", free: "5.00 GiB", procs: "Process 1 has 2.50 GiB memory in use.",
			allocated: "2.50 GiB", unallocated: "0.01 GiB", others: "2.50 GiB", otherPID: 1, otherCount: 1},
		{name: "entries-exceed-used", capacity: "10.00 GiB", free: "5.00 GiB", procs: "Process 1 has 6.00 GiB memory in use.",
			allocated: "3.00 GiB", unallocated: "0.00 GiB", others: "6.00 GiB", otherPID: 1, otherCount: 1},
		{name: "none-holds-reserved", capacity: "10.00 GiB", free: "1.00 GiB", procs: "Process 1 has 4.00 GiB memory in use. Process 2 has 4.00 GiB memory in use.",
			allocated: "5.00 GiB", unallocated: "0.50 GiB", others: "4.00 GiB + 4.00 GiB", otherPID: 1, otherCount: 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := fmt.Sprintf("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of %s of which %s is free. %s "+
				"Of the allocated memory %s is allocated by PyTorch, and %s is reserved by PyTorch but unallocated.", c.capacity, c.free, c.procs, c.allocated, c.unallocated)
			ooms := readOOMs(t, msg+"\n")
			if len(ooms) != 1 {
				t.Fatalf("%d messages: %+v", len(ooms), ooms)
			}
			o := ooms[0]
			want := func(s string) int64 {
				if s == "" {
					return gpulog.Unknown
				}
				return parseWant(t, s)
			}
			if o.ProcessInUse != want(c.inUse) || o.OtherProcesses != want(c.others) || o.ListedSelfPID != c.pid {
				t.Errorf("in use %d, others %d, pid %d; want %d, %d, %d", o.ProcessInUse, o.OtherProcesses, o.ListedSelfPID,
					want(c.inUse), want(c.others), c.pid)
			}
			if o.LargestOtherPID != c.otherPID || o.OtherCount != c.otherCount || (c.otherCount > 0) != (o.LargestOther > 0) {
				t.Errorf("largest other pid %d (%d bytes) of %d; want pid %d of %d", o.LargestOtherPID, o.LargestOther, o.OtherCount, c.otherPID, c.otherCount)
			}
			if o.Reserved != parseWant(t, c.allocated+" + "+c.unallocated) {
				t.Errorf("reserved %d", o.Reserved)
			}
		})
	}
}
