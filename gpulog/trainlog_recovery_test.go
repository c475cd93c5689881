package gpulog_test

import (
	"fmt"
	"strings"
	"testing"

	"gpureport/input"
)

// TestOOMHandled: a message that a recovery line of the same stream
// answers, before it (a handler that logs and then prints the traceback)
// or after it (fairseq, after its memory tables), is Handled; a message
// without one, or whose recovery line belongs to another rank, lies too
// far, or comes before it with other output between, is not, nor the
// message closest before a fatal end (the exception the log ends with, a
// launcher's failure report, a finder giving up).
func TestOOMHandled(t *testing.T) {
	legacy := func(req string) string {
		return "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate " + req + " (GPU 0; 23.99 GiB total capacity; 19.21 GiB already allocated; 1.12 GiB free; 21.30 GiB reserved in total by PyTorch)"
	}
	traceback := "Traceback (most recent call last):\n  File \"/w/train.py\", line 188, in main\n    loss.backward()\n"
	table := strings.Repeat("|  Allocated memory      |  28774 MiB |  30012 MiB |   1234 GiB |   1161 GiB |\n", 30)
	fairseq := func(req string) string {
		return "2021-05-04 12:00:28 | WARNING | fairseq.trainer | OOM: Ran out of memory with exception: " + legacy(req) + "\n" + table +
			"2021-05-04 12:00:35 | WARNING | fairseq.trainer | attempting to recover from OOM in forward/backward pass\n" +
			"2021-05-04 12:00:42 | INFO | train_inner | epoch 001:    400 / 4000 loss=8.7\n"
	}
	modern := func(req string) string {
		return "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate " + req + ". GPU 0 has a total capacity of 79.15 GiB of which 1.52 GiB is free. Of the allocated memory 74.87 GiB is allocated by PyTorch, and 2.10 GiB is reserved by PyTorch but unallocated."
	}
	steps := func(n int) string {
		var sb strings.Builder
		for i := range n {
			fmt.Fprintf(&sb, "12:00:%02d | train step %d\n", i, i)
		}
		return sb.String()
	}
	finder := func(bs int) string {
		return fmt.Sprintf("OOM Detected, reducing batch/grad size to %d/1.\n", bs) + traceback
	}
	elastic := "E0504 12:01:10.123000 139 torch/distributed/elastic/multiprocessing/api.py:826] failed (exitcode: 1) local_rank: 0 (pid: 2045) of binary: /usr/bin/python\n" +
		"Traceback (most recent call last):\n  File \"/usr/bin/torchrun\", line 8, in <module>\n    sys.exit(main())\n" +
		"torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n============================================================\ntrain.py FAILED\n" +
		"------------------------------------------------------------\nFailures:\n  <NO_OTHER_FAILURES>\n" +
		"------------------------------------------------------------\nRoot Cause (first observed failure):\n[0]:\n  time      : 2024-05-04_12:01:10\n" +
		"  rank      : 0 (local_rank: 0)\n  exitcode  : 1 (pid: 2045)\n============================================================\n"
	cases := []struct {
		name string
		text string
		want []bool
	}{
		{"finder gives up: the last caught OOM was fatal", finder(2) + modern("3.00 GiB") + "\n" + finder(1) + modern("1.50 GiB") + "\n" + finder(0) + modern("0.75 GiB") + "\n" +
			"Traceback (most recent call last):\n  File \"/w/memory.py\", line 117, in decorator\n    raise RuntimeError(\"No executable batch size found, reached zero.\")\n" +
			"RuntimeError: No executable batch size found, reached zero.\n", []bool{true, true, false}},
		{"finder gives up, then more output", finder(1) + modern("1.50 GiB") + "\n" + finder(0) + modern("0.75 GiB") + "\n" +
			"Traceback (most recent call last):\n  File \"/w/memory.py\", line 117, in decorator\n    raise RuntimeError(\"No executable batch size found, reached zero.\")\n" +
			"RuntimeError: No executable batch size found, reached zero.\nwandb: Waiting for W&B process to finish... (failed 1).\n", []bool{true, false}},
		{"handler's traceback ends the log", finder(16) + modern("3.91 GiB") + "\n", []bool{true}},
		{"Lightning finder's line, then a fatal OOM after training", "Batch size 16 failed, trying batch size 8\nFinished batch size finder, will continue with full run using batch size 8\n" +
			steps(20) + traceback + modern("2.00 GiB") + "\n", []bool{false}},
		{"a recovery line before the traceback, but output between", "Batch size 16 failed, trying batch size 8\n" + steps(20) + traceback + modern("2.00 GiB") + "\n" + steps(3), []bool{false}},
		{"ParlAI skip line, then a fatal OOM", "12:00:05 | Ran out of memory, skipping batch. if this happens frequently, decrease batchsize\n" + steps(20) + traceback + modern("6.00 GiB") + "\n", []bool{false}},
		{"fatal OOM, then torchelastic's report", "[rank0]: " + modern("1.00 GiB") + "\n[rank0]: attempting to recover from OOM\n" + steps(3) + elastic, []bool{false}},
		{"recovered, trained long, then an unrelated failure", modern("1.00 GiB") + "\nattempting to recover from OOM in forward/backward pass\n" + steps(700) + elastic, []bool{true}},
		{"srun reports the task failed", modern("1.00 GiB") + "\nattempting to recover from OOM\nsrun: error: gpu-node-3: task 0: Exited with exit code 1\n", []bool{false}},
		{"fairseq: recovered, then irrecoverable", fairseq("1.25 GiB") + "2021-05-04 12:01:10 | WARNING | fairseq.trainer | OOM: Ran out of memory with exception: " + legacy("2.00 GiB") + "\n" +
			"2021-05-04 12:01:10 | ERROR | fairseq.trainer | OOM during optimization, irrecoverable\n" + traceback + "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 23.99 GiB total capacity; 19.21 GiB already allocated; 1.12 GiB free; 21.30 GiB reserved in total by PyTorch)\n", []bool{true, false}},
		{"the shell killed the job", modern("1.00 GiB") + "\nattempting to recover from OOM\n" + steps(2) + "Killed\n", []bool{false}},
		{"CUDA's hints after the exception the log ends with", "attempting to recover from OOM\n" + traceback + modern("1.00 GiB") + "\nattempting to recover from OOM\n" + traceback +
			"RuntimeError: CUDA error: an illegal memory access was encountered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n" +
			"For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n", []bool{false}},
		{"the other rank's fatal end", "[rank1]: " + modern("1.00 GiB") + "\n[rank1]: OOM detected, reducing batch size and retrying\n[rank0]: Traceback (most recent call last):\n[rank0]:   File \"/w/train.py\", line 188, in main\n[rank0]: " + modern("3.00 GiB") + "\n", []bool{true, false}},
		{"fairseq: recovery after the message and its tables", fairseq("1.25 GiB") + fairseq("1.31 GiB") + "done training in 4120.3 seconds\n", []bool{true, true}},
		{"handler's line before its traceback", "OOM Detected, reducing batch/grad size to 12/1.\n" + traceback + legacy("3.00 GiB") + "\n" +
			"OOM Detected, reducing batch/grad size to 6/1.\n" + traceback + legacy("1.50 GiB") + "\nTraining complete.\n", []bool{true, true}},
		{"Lightning batch size finder", legacy("3.00 GiB") + "\nBatch size 16 failed, trying batch size 8\n", []bool{true}},
		{"ParlAI skips the batch", legacy("3.00 GiB") + "\nRan out of memory, skipping batch. if this happens frequently, decrease batchsize\n", []bool{true}},
		{"fatal: the process ends", "step 10 loss 2.0\n" + traceback + legacy("3.00 GiB") + "\n", []bool{false}},
		{"training lines after the message are no evidence", legacy("3.00 GiB") + "\nstep 11 loss 2.0\nstep 12 loss 1.9\nTraining complete.\n", []bool{false}},
		{"one recovery line for two messages: the older one", legacy("3.00 GiB") + "\n" + traceback + legacy("1.50 GiB") + "\nattempting to recover from OOM in forward/backward pass\n", []bool{true, false}},
		{"two processes' messages, then their recovery lines", legacy("3.00 GiB") + "\n" + legacy("1.50 GiB") + "\nattempting to recover from OOM in forward/backward pass\nattempting to recover from OOM in forward/backward pass\n", []bool{true, true}},
		{"another rank's recovery line", "[rank0]: " + legacy("3.00 GiB") + "\n[rank1]: attempting to recover from OOM in forward/backward pass\n", []bool{false}},
		{"the same rank's recovery line among another's lines", "[rank0]: " + legacy("3.00 GiB") + "\n[rank1]: " + legacy("1.50 GiB") + "\n[rank1]: step 3\n[rank0]: attempting to recover from OOM\n", []bool{true, false}},
		{"a quoted phrase in a source line", legacy("3.00 GiB") + "\n    logger.warning(\"attempting to recover from OOM in forward/backward pass\")\n", []bool{false}},
		{"too far", legacy("3.00 GiB") + "\n" + strings.Repeat("step\n", 700) + "attempting to recover from OOM\n", []bool{false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []bool
			for _, o := range readOOMs(t, c.text) {
				got = append(got, o.Handled)
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("handled %v, want %v", got, c.want)
			}
		})
	}
}

// TestNCCLReraise: ncclUnhandledCudaError's "Last error: Cuda failure
// 'out of memory'" quotes the NCCL WARN lines of the same failure: one
// OOM, on the WARN's device, with the quote's rank when only one
// unranked NCCL failure precedes it. Without WARN lines, the quote is
// the OOM.
func TestNCCLReraise(t *testing.T) {
	warn := func(pid, dev int) string {
		return fmt.Sprintf("ng30903:%d:3066152 [%d] include/alloc.h:178 NCCL WARN Cuda failure 'out of memory'\n\n"+
			"ng30903:%d:3066152 [%d] include/alloc.h:185 NCCL WARN Failed to CUDA calloc 6291456 bytes\n"+
			"ng30903:%d:3066152 [%d] NCCL INFO transport/p2p.cc:204 -> 1\n", pid, dev, pid, dev, pid, dev)
	}
	quote := func(rank int) string {
		p := fmt.Sprintf("[rank%d]: ", rank)
		return p + "Traceback (most recent call last):\n" + p + "  File \"/w/train.py\", line 90, in <module>\n" + p + "    dist.all_reduce(t)\n" +
			p + "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled cuda error, NCCL version 2.19.3\n" +
			p + "ncclUnhandledCudaError: Call to CUDA function failed.\n" + p + "Last error:\n" + p + "Cuda failure 'out of memory'\n"
	}
	type want struct{ rank, device int }
	cases := []struct {
		name string
		text string
		want []want
	}{
		{"WARN then the quote", warn(3063028, 3) + quote(3), []want{{3, 3}}},
		{"the quote echoed by torchrun's summary", warn(3063028, 3) + quote(3) + quote(3), []want{{3, 3}}},
		{"two processes' WARNs, two quotes: ranks unknown", warn(1, 2) + warn(2, 3) + quote(2) + quote(3), []want{{input.NoRank, 2}, {input.NoRank, 3}}},
		{"quote alone", quote(3), []want{{3, -1}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []want
			for _, o := range readOOMs(t, c.text) {
				got = append(got, want{o.Rank, o.Device})
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("got (rank device) %v, want %v", got, c.want)
			}
		})
	}
}

// TestOOMFatal: the message closest before a fatal end (the uncaught
// traceback the log ends with, a launcher's failure report) is Fatal,
// with or without recovery lines in the log; a message the job went on
// from, one far before an unrelated failure, and one whose handler
// printed the traceback the log ends with are not.
func TestOOMFatal(t *testing.T) {
	modern := func(req string) string {
		return "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate " + req + ". GPU 0 has a total capacity of 79.15 GiB of which 1.52 GiB is free. Of the allocated memory 74.87 GiB is allocated by PyTorch, and 2.10 GiB is reserved by PyTorch but unallocated."
	}
	traceback := "Traceback (most recent call last):\n  File \"/w/train.py\", line 188, in main\n    loss.backward()\n"
	launcher := "[2024-03-01 10:00:14,123] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 1) local_rank: 0 (pid: 12345) of binary: /opt/conda/bin/python\n"
	steps := strings.Repeat("step 11 loss 2.0\n", 3)
	cases := []struct {
		name string
		text string
		want []bool
	}{
		{"the traceback ends the log", steps + traceback + modern("8.00 GiB") + "\n", []bool{true}},
		{"an emergency checkpoint's line, the traceback, torchrun's report", steps + "Emergency checkpoint after OOM: saving to /ckpt/emergency.pt\n" + traceback + modern("8.00 GiB") + "\n" + launcher, []bool{true}},
		{"the log goes on after the message", traceback + modern("8.00 GiB") + "\n" + steps + "Training complete.\n", []bool{false}},
		{"recovered, trained long, then torchrun's report", modern("1.00 GiB") + "\nattempting to recover from OOM\n" + strings.Repeat("step\n", 700) + launcher, []bool{false}},
		{"caught, then an uncaught one", modern("1.00 GiB") + "\nattempting to recover from OOM\n" + steps + traceback + modern("2.00 GiB") + "\n", []bool{false, true}},
		{"the handler's printed traceback ends the log", "OOM Detected, reducing batch/grad size to 12/1.\n" + traceback + modern("3.00 GiB") + "\n", []bool{false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []bool
			for _, o := range readOOMs(t, c.text) {
				got = append(got, o.Fatal)
				if o.Fatal && o.Handled {
					t.Errorf("line %d: fatal and handled", o.Line)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("fatal %v, want %v", got, c.want)
			}
		})
	}
}
