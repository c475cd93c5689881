"""GPU logging beside training, on local rank 0 of each machine.

The log is what the driver sees (nvidia-smi's memory.used), which the
allocator's own numbers cannot show: the CUDA context, NCCL buffers, other
processes. gpureport joins it to each rank's device by the UUID in the
rank's manifest.

The logger is, in order of preference:

- ``gpureport record -o DIR --interval I`` when gpureport is on PATH
  (NVML, one CSV per GPU sample and one per process sample);
- ``nvidia-smi --query-gpu=... --format=csv -l S -f DIR/nvidia-smi-START.csv``.

It runs under a small supervisor process (``python -m
gpureport_capture._supervise``) that starts the first command, falls back
to the next when one fails at once (gpureport built without NVML, say),
and stops the logger when the capture stops, when it is terminated, or
when the training process is gone (killed with SIGKILL, crashed in C++):
no logger outlives its run.
"""

import json
import os
import shutil
import subprocess
import sys
import time

from . import _layout, _supervise

#: nvidia-smi's query: the columns gpureport's nvidia-smi reader knows
#: (timestamp, index, uuid, name, memory.used, memory.total,
#: utilization.gpu), as the README's manual recipe logs them.
NVIDIA_SMI_QUERY = "timestamp,index,uuid,name,memory.used,memory.total,utilization.gpu"

#: How long stop() waits for the supervisor to end its logger before it
#: kills it, in seconds: gpureport record and nvidia-smi stop at once on
#: SIGTERM; this only bounds a hung one.
STOP_TIMEOUT = 10.0


def commands(log_dir, interval, prefer, which=shutil.which):
    """The logger commands to try, in order, for interval seconds between
    samples; prefer is "auto", "gpureport" or "nvidia-smi". Empty when no
    logger is installed."""
    out = []
    gpureport = which("gpureport") if prefer in ("auto", "gpureport") else None
    if gpureport:
        out.append([gpureport, "record", "-o", log_dir, "--interval", "%dms" % max(10, round(interval * 1000))])
    smi = which("nvidia-smi") if prefer in ("auto", "nvidia-smi", "gpureport") else None
    if smi:
        path = os.path.join(log_dir, "nvidia-smi-%s.csv" % time.strftime("%Y%m%d-%H%M%S"))
        if interval >= 1 and float(interval).is_integer():
            loop = ["-l", str(int(interval))]
        else:
            loop = ["-lms", str(max(1, round(interval * 1000)))]
        out.append([smi, "--query-gpu=" + NVIDIA_SMI_QUERY, "--format=csv"] + loop + ["-f", path])
    return out


class GPULogger:
    """The supervised GPU logger of one machine."""

    def __init__(self, run_dir, host, interval, prefer, which=shutil.which):
        self.dir = _layout.gpu_log_dir(run_dir, host)
        self.commands = commands(self.dir, interval, prefer, which)
        self.proc = None

    def start(self):
        """Start the supervisor; False when there is no logger to run."""
        if not self.commands:
            return False
        os.makedirs(self.dir, exist_ok=True)
        argv = [sys.executable, "-m", "gpureport_capture._supervise", "--parent", str(os.getpid()),
                "--commands", json.dumps(self.commands)]
        env = dict(os.environ)
        # The supervisor imports this package from where it was imported,
        # installed or not.
        pkg_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env["PYTHONPATH"] = os.pathsep.join(p for p in (pkg_parent, env.get("PYTHONPATH")) if p)
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=env)
        return True

    def stop(self):
        """Stop the logger and wait for it (at most STOP_TIMEOUT)."""
        p, self.proc = self.proc, None
        if p is not None and p.poll() is None:
            _supervise.terminate(p, STOP_TIMEOUT)
