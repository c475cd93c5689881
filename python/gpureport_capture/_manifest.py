"""The rank's manifest, ``rank{R}/gpureport-capture.json``.

One manifest per rank, written only by that rank, inside its own folder:
ranks never write the same file, so none can clobber another's entry,
on one machine or many, with no lock (file locks are unreliable on the
network file systems runs are written to). gpureport reads every
manifest in the run folder and puts them together.

Each write goes to a temporary file in the same folder, which then
replaces the manifest (os.replace, atomic on POSIX and Windows): a reader
sees the old manifest or the new one, never half of one.

The manifest is written when capture starts, when the device becomes
known, after every snapshot dump, at an OOM and when capture stops, so a
run that was killed still has one that is at most one dump old.
"""

import json
import os
import platform
import socket
import time

from . import _layout

#: The manifest's schema; gpureport refuses other schemas by name.
SCHEMA = "gpureport-capture/v1"

#: Environment variables that configure PyTorch's CUDA allocator, recorded
#: as they were (PYTORCH_ALLOC_CONF is the newer, device-neutral name).
ALLOCATOR_ENV = ("PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF", "PYTORCH_NO_CUDA_MEMORY_CACHING")


def iso_now(t=None):
    """A local time with its UTC offset, e.g. 2024-05-01T12:00:00.123+02:00."""
    t = time.time() if t is None else t
    lt = time.localtime(t)
    off = lt.tm_gmtoff if lt.tm_gmtoff is not None else -time.timezone
    sign = "+" if off >= 0 else "-"
    off = abs(off)
    return time.strftime("%Y-%m-%dT%H:%M:%S", lt) + ".%03d" % int((t % 1) * 1000) + "%s%02d:%02d" % (sign, off // 3600, off % 3600 // 60)


def utc_offset_seconds(t=None):
    """This machine's UTC offset at time t, in seconds (nvidia-smi writes
    local times without a zone; this says which zone)."""
    lt = time.localtime(time.time() if t is None else t)
    return lt.tm_gmtoff if lt.tm_gmtoff is not None else -time.timezone


def new(run_dir, ident, settings, kit_version):
    """A manifest for a rank that is starting to capture.

    ident is the rank's identity (rank, local_rank, world_size,
    local_world_size, node_rank); settings the options it captures with.
    """
    rank = ident["rank"]
    return {
        "schema": SCHEMA,
        "kit": {"name": "gpureport-capture", "version": kit_version},
        "rank": rank,
        "local_rank": ident["local_rank"],
        "world_size": ident["world_size"],
        "local_world_size": ident.get("local_world_size"),
        "node_rank": ident.get("node_rank"),
        "host": socket.gethostname(),
        "pid": os.getpid(),
        "started": iso_now(),
        "stopped": None,
        "utc_offset_seconds": utc_offset_seconds(),
        "python": platform.python_version(),
        "torch": None,
        "allocator_settings": {k: os.environ[k] for k in ALLOCATOR_ENV if k in os.environ},
        "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES"),
        "device": None,
        "settings": settings,
        "recording": {},
        "files": {
            "snapshots": _layout.pattern(run_dir, rank, _layout.snapshot_name) if settings.get("every") else None,
            "oom_snapshots": _layout.pattern(run_dir, rank, _layout.oom_snapshot_name) if settings.get("oom_snapshot") else None,
            "memory_stats": _layout.relative(run_dir, os.path.join(_layout.rank_dir(run_dir, rank), _layout.MEMORY_STATS_NAME))
            if settings.get("memory_stats")
            else None,
            "gpu_log_dir": None,
        },
        "dumps": {"count": 0, "bytes": 0, "last_step": None, "last_path": None, "trace_entries": None,
                  "gather_seconds_max": None, "write_seconds_max": None},
        "ooms": [],
        "errors": [],
    }


def write(path, manifest):
    """Write the manifest atomically: a temporary file in the same folder,
    flushed to disk, then renamed over path."""
    tmp = "%s.%d.tmp" % (path, os.getpid())
    data = json.dumps(manifest, indent=2, sort_keys=False) + "\n"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
