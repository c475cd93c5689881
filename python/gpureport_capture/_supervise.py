"""Supervisor of the GPU logger: ``python -m gpureport_capture._supervise
--parent PID --commands JSON``.

Runs the first of the commands (a JSON list of argument lists). When one
exits with an error within QUICK_FAILURE seconds (it could not start: no
NVML, no driver), the next is tried; a logger that ran longer than that
is not replaced. The logger is terminated, and the supervisor exits, when
the supervisor gets SIGTERM or SIGINT (the capture stopped) or, on POSIX,
when its parent, the training process, is gone (it is then re-parented,
so os.getppid() changes): a training job killed with SIGKILL leaves no
logger running.

Standard library only; it never imports torch.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import time

#: A logger that exits with an error sooner than this after it started
#: could not start at all (seconds): the next command is tried. NVML or
#: nvidia-smi fail within a second when there is no driver; a logger that
#: sampled for longer and then failed is a failure to report, not one to
#: hide behind another logger.
QUICK_FAILURE = 5.0

#: How often the supervisor checks on its parent and its logger, seconds.
POLL = 0.5

#: How long a terminated logger gets to exit before it is killed, seconds.
GRACE = 5.0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="gpureport_capture._supervise")
    ap.add_argument("--parent", type=int, required=True)
    ap.add_argument("--commands", required=True)
    args = ap.parse_args(argv)
    cmds = json.loads(args.commands)
    stopping = []

    def on_signal(signum, frame):
        stopping.append(signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    for cmd in cmds:
        started = time.monotonic()
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        except OSError as e:
            print("gpureport_capture: cannot start %s: %s" % (cmd[0], e), file=sys.stderr)
            continue
        rc = _watch(proc, args.parent, stopping)
        if rc is None:
            return 0
        if rc == 0 or time.monotonic() - started >= QUICK_FAILURE:
            return 0
        print("gpureport_capture: %s exited with status %d at once; trying the next GPU logger" % (os.path.basename(cmd[0]), rc),
              file=sys.stderr)
    return 0


def _watch(proc, parent, stopping):
    """Wait for proc; stop it when asked or when the parent is gone.
    Returns proc's exit status, or None when it was stopped."""
    while True:
        rc = proc.poll()
        if rc is not None:
            return rc
        if stopping or not _parent_alive(parent):
            terminate(proc)
            return None
        time.sleep(POLL)


def _parent_alive(parent):
    if os.name != "posix":
        # Windows does not re-parent orphans; there the capture's stop()
        # and the interpreter's exit handler end the logger.
        return True
    return os.getppid() == parent


def terminate(proc, grace=GRACE):
    """Terminate proc, and kill it when it has not exited after grace
    seconds."""
    proc.terminate()
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


if __name__ == "__main__":
    sys.exit(main())
