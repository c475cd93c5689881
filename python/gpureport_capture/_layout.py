"""Where the capture kit puts its files inside a run folder.

This is the one place file names are made. gpureport reads them by their
names (its ingest/naming.go): a folder ``rank{R}`` gives the rank, a
``step_{n}`` keyword the training step, and ``oom`` as a word of its own
marks a dump taken at an out-of-memory error rather than a trend point.

Layout of ``run_dir``::

    rank{R}/snapshot_step_{n:06d}.pickle      every N steps
    rank{R}/snapshot_oom_step_{n:06d}.pickle  at an OOM, n = the step that was running
    rank{R}/memory_stats.jsonl                one JSON line of memory_stats() per step
    rank{R}/gpureport-capture.json            the rank's manifest
    gpu_logs/{host}/...                       the GPU log of one machine (local rank 0)

Every rank writes only inside its own ``rank{R}`` folder, so ranks never
write the same file; each machine's GPU log has a folder named after the
machine.
"""

import os
import re

#: File name of a rank's manifest. gpureport finds the manifests by this
#: name anywhere in the run folder.
MANIFEST_NAME = "gpureport-capture.json"

#: File name of a rank's memory_stats JSON lines.
MEMORY_STATS_NAME = "memory_stats.jsonl"

#: Folder (under the run folder) of the GPU logs, one subfolder per machine.
GPU_LOG_DIR = "gpu_logs"


def rank_dir(run_dir, rank):
    """The folder of one rank's files: ``run_dir/rank{rank}``."""
    return os.path.join(run_dir, "rank%d" % rank)


def snapshot_name(step):
    """The periodic snapshot's file name for a step."""
    return "snapshot_step_%06d.pickle" % step


def oom_snapshot_name(step, nth=1):
    """The OOM snapshot's file name for the step that was running.

    The first OOM dump of a step is ``snapshot_oom_step_{step:06d}.pickle``;
    a further one in the same step gets ``_{nth}`` after the step.
    """
    if nth <= 1:
        return "snapshot_oom_step_%06d.pickle" % step
    return "snapshot_oom_step_%06d_%d.pickle" % (step, nth)


def host_folder(host):
    """A machine's host name made safe as a folder name."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", host).strip("._")
    return safe or "host"


def gpu_log_dir(run_dir, host):
    """The folder of one machine's GPU log: ``run_dir/gpu_logs/{host}``."""
    return os.path.join(run_dir, GPU_LOG_DIR, host_folder(host))


def relative(run_dir, path):
    """A path inside the run folder as the manifest records it: relative,
    with forward slashes on every system."""
    return os.path.relpath(path, run_dir).replace(os.sep, "/")


def pattern(run_dir, rank, name_for_step):
    """A rank's file-name pattern with the step left as ``{step:06d}``, as
    the manifest records it (``rank3/snapshot_step_{step:06d}.pickle``)."""
    example = name_for_step(0).replace("000000", "{step:06d}")
    return relative(run_dir, os.path.join(rank_dir(run_dir, rank), example))
