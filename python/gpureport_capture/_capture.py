"""The capture: what start() sets up, step() records and stop() ends."""

import atexit
import json
import logging
import os
import pickle
import socket
import threading
import time

from . import _gpulog, _layout, _manifest, _torchapi

log = logging.getLogger("gpureport_capture")

#: Default size of the allocator's trace ring buffer (entries). Real
#: snapshots hold 88 to 335 bytes of trace per entry (measured on 34 real
#: snapshots, README "Sizing"), so 100,000 entries add 9 to 33 MB to each
#: dump; one training step of a small transformer records about 20,000
#: entries, so the buffer covers the last few steps before an OOM, which
#: is what explaining an OOM needs.
DEFAULT_MAX_ENTRIES = 100_000

#: Default number of steps between snapshot dumps.
DEFAULT_EVERY = 100

#: Default number of OOM snapshots per process: the allocator's OOM
#: observer also fires for OOMs that PyTorch catches and retries (cuDNN
#: falling back to an algorithm with less workspace), so the first may not
#: be the fatal one; each dump is as large as a periodic one.
DEFAULT_MAX_OOM_SNAPSHOTS = 2

#: Pickle protocol of the dumps: 4, what torch's own _dump_snapshot writes
#: on Python 3.8 to 3.13. Python 3.14 defaults to 5, which PyTorch's
#: memory viewer (pytorch.org/memory_viz) cannot open; gpureport reads
#: both.
PICKLE_PROTOCOL = 4

#: Environment variable that turns capture off without editing the
#: training script: 0, false, no or off.
ENV_SWITCH = "GPUREPORT_CAPTURE"

#: At most this many errors are kept in the manifest (and each written
#: there at once): a capture that fails at every step says so in the
#: first few.
MAX_ERRORS = 20

STACKS = ("python", "all")
CONTEXTS = ("state", "alloc", "all")
GPU_LOGGERS = ("auto", "gpureport", "nvidia-smi")


def identity(rank=None, local_rank=None, world_size=None, env=None):
    """The process's place in the job: rank, local rank, world size, local
    world size and node rank, from the arguments, else torchrun's
    environment (RANK, LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE,
    GROUP_RANK), else Slurm's (SLURM_PROCID, SLURM_LOCALID, SLURM_NTASKS,
    SLURM_NODEID), else a single process."""
    env = os.environ if env is None else env

    def first(*names):
        for n in names:
            v = env.get(n)
            if v is not None and v.strip().lstrip("-").isdigit():
                return int(v)
        return None

    r = rank if rank is not None else first("RANK", "SLURM_PROCID")
    lr = local_rank if local_rank is not None else first("LOCAL_RANK", "SLURM_LOCALID")
    ws = world_size if world_size is not None else first("WORLD_SIZE", "SLURM_NTASKS")
    r = 0 if r is None else r
    return {
        "rank": r,
        "local_rank": r if lr is None else lr,
        "world_size": 1 if ws is None else ws,
        "local_world_size": first("LOCAL_WORLD_SIZE", "SLURM_NTASKS_PER_NODE"),
        "node_rank": first("GROUP_RANK", "NODE_RANK", "SLURM_NODEID"),
    }


class Capture:
    """One process's capture into ``run_dir``.

    Start it with start() (or use it as a context manager), call step(n) at
    the end of every training step n, and stop() at the end (also done at
    interpreter exit). Every method is safe to call from training code: a
    failure of the capture is logged and recorded in the manifest, never
    raised into training, except for wrong arguments and a missing torch
    at start().

    Arguments:
        run_dir: the run folder (created if missing).
        every: dump a snapshot at every step n with n % every == 0; 0 or
            None for no periodic snapshots.
        max_entries: size of the allocator's trace ring buffer, in entries
            (see the README's sizing advice).
        stacks: "python" (Python frames only: cheap, but allocations on the
            autograd engine's backward thread get no stack) or "all" (also
            C++ frames, which name the autograd node of a backward-pass
            allocation; about twice the trace bytes per entry, and slower
            dumps while C++ frames are symbolised).
        context: which events keep a stack: "all" (allocations and frees),
            "alloc" or "state" (only live blocks).
        oom_snapshot: dump a snapshot when the allocator runs out of memory.
        max_oom_snapshots: at most this many OOM dumps per process.
        pinned_host: also record pinned host memory where torch has it
            (2.14+); quietly off elsewhere.
        memory_stats: write one JSON line of torch.cuda.memory_stats() per
            step (every stats_every steps).
        stats_every: steps between memory_stats lines.
        full_stats: write every key of memory_stats(); by default the
            per-pool breakdowns (large_pool, small_pool) are left out,
            which halves the line.
        gpu_log: on local rank 0, log the GPUs in the background: "auto"
            (gpureport record, else nvidia-smi), "gpureport", "nvidia-smi",
            or None/False for no log.
        gpu_log_interval: seconds between GPU log samples.
        rank, local_rank, world_size: the process's place in the job when
            the environment does not say (torchrun and Slurm set it).
    """

    def __init__(self, run_dir, every=DEFAULT_EVERY, *, max_entries=DEFAULT_MAX_ENTRIES, stacks="python",
                 context="all", oom_snapshot=True, max_oom_snapshots=DEFAULT_MAX_OOM_SNAPSHOTS, pinned_host=True,
                 memory_stats=True, stats_every=1, full_stats=False, gpu_log="auto", gpu_log_interval=1.0,
                 rank=None, local_rank=None, world_size=None):
        if stacks not in STACKS:
            raise ValueError("stacks must be one of %s, not %r" % (", ".join(STACKS), stacks))
        if context not in CONTEXTS:
            raise ValueError("context must be one of %s, not %r" % (", ".join(CONTEXTS), context))
        if gpu_log not in GPU_LOGGERS and gpu_log not in (None, False):
            raise ValueError("gpu_log must be one of %s or None, not %r" % (", ".join(GPU_LOGGERS), gpu_log))
        every = every or 0
        for name, v in (("every", every), ("max_entries", max_entries), ("max_oom_snapshots", max_oom_snapshots),
                        ("stats_every", stats_every)):
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ValueError("%s must be a whole number >= 0, not %r" % (name, v))
        if stats_every < 1:
            raise ValueError("stats_every must be at least 1")
        if not gpu_log_interval > 0:
            raise ValueError("gpu_log_interval must be positive")
        self.run_dir = os.path.abspath(os.fspath(run_dir))
        self.ident = identity(rank, local_rank, world_size)
        self.rank = self.ident["rank"]
        self.dir = _layout.rank_dir(self.run_dir, self.rank)
        self.settings = {
            "every": every, "max_entries": max_entries, "stacks": stacks, "context": context,
            "oom_snapshot": bool(oom_snapshot), "max_oom_snapshots": max_oom_snapshots,
            "pinned_host": bool(pinned_host), "memory_stats": bool(memory_stats), "stats_every": stats_every,
            "full_stats": bool(full_stats), "gpu_log": gpu_log or None, "gpu_log_interval": gpu_log_interval,
        }
        self.enabled = os.environ.get(ENV_SWITCH, "").strip().lower() not in ("0", "false", "no", "off")
        self.running = False
        self.torch = None
        self.device = None
        self.last_step = None
        self.manifest = None
        self._lock = threading.RLock()
        self._stats = None
        self._gpu = None
        self._oom_dumps = 0
        self._oom_in_step = {}

    # --- starting and stopping ---

    def start(self):
        """Start capturing; returns self. A second call does nothing."""
        with self._lock:
            if self.running or not self.enabled:
                return self
            self.torch = _torchapi.import_torch()
            os.makedirs(self.dir, exist_ok=True)
            from . import __version__

            self.manifest = _manifest.new(self.run_dir, self.ident, self.settings, __version__)
            self.manifest["torch"] = {
                "version": str(getattr(self.torch, "__version__", "")),
                "cuda": getattr(self.torch.version, "cuda", None),
                "hip": getattr(self.torch.version, "hip", None),
                "allocator_backend": _torchapi.allocator_backend(self.torch),
            }
            rec = self.manifest["recording"]
            try:
                pinned = _torchapi.record_history(self.torch, self.settings["max_entries"], self.settings["stacks"],
                                                  self.settings["context"], self.settings["pinned_host"])
                rec["history"] = "on"
                rec["pinned_host_memory"] = "on" if pinned else ("unsupported" if self.settings["pinned_host"] else "off")
            except Exception as e:  # noqa: BLE001 - e.g. the cudaMallocAsync backend records no history
                rec["history"] = rec["pinned_host_memory"] = "failed"
                self._error("recording allocation history: %s" % e)
            if self.settings["oom_snapshot"]:
                # After _record_memory_history: attaching before the
                # allocator exists crashed torch 2.0 (pytorch#102796).
                rec["oom_observer"] = "attached" if _torchapi.attach_oom_observer(self.torch, self._on_oom) else "unavailable"
            else:
                rec["oom_observer"] = "off"
            if self.settings["memory_stats"]:
                self._stats = open(os.path.join(self.dir, _layout.MEMORY_STATS_NAME), "a", encoding="utf-8")
            if self.settings["gpu_log"] and self.ident["local_rank"] == 0:
                self._start_gpu_log()
            self.running = True
            self._resolve_device(initial=True)
            self._write_manifest()
            atexit.register(self.stop)
            log.info("gpureport capture: rank %d into %s", self.rank, self.dir)
            return self

    def _start_gpu_log(self):
        g = _gpulog.GPULogger(self.run_dir, socket.gethostname(), self.settings["gpu_log_interval"],
                              self.settings["gpu_log"])
        try:
            started = g.start()
        except OSError as e:
            self._error("GPU log: cannot start the supervisor: %s" % e)
            return
        rec = self.manifest["recording"]
        if not started:
            rec["gpu_log"] = "no logger: neither gpureport nor nvidia-smi is on PATH"
            return
        self._gpu = g
        rec["gpu_log"] = "on"
        self.manifest["files"]["gpu_log_dir"] = _layout.relative(self.run_dir, g.dir)
        self.manifest["gpu_log_commands"] = g.commands

    def stop(self):
        """Stop capturing: history recording, the memory_stats file and the
        GPU logger; the manifest records the stop. Safe to call twice."""
        with self._lock:
            if not self.running:
                return
            self.running = False
            try:
                _torchapi.stop_history(self.torch)
            except Exception as e:  # noqa: BLE001 - never raise into training
                self._error("stopping history recording: %s" % e)
            if self._stats is not None:
                self._stats.close()
                self._stats = None
            if self._gpu is not None:
                try:
                    self._gpu.stop()
                except Exception as e:  # noqa: BLE001
                    self._error("stopping the GPU log: %s" % e)
                self._gpu = None
            self.manifest["stopped"] = _manifest.iso_now()
            self._write_manifest()
            try:
                atexit.unregister(self.stop)
            except Exception:  # noqa: BLE001
                pass

    def __enter__(self):
        return self.start()

    def __exit__(self, exc_type, exc, tb):
        self.stop()
        return False

    # --- per step ---

    def step(self, n):
        """Record the end of training step n: a memory_stats line (every
        stats_every steps) and, when n is a multiple of every, a snapshot."""
        if not self.running:
            return
        n = int(n)
        with self._lock:
            self.last_step = n
            self._resolve_device()
            if self._stats is not None and n % self.settings["stats_every"] == 0:
                self._write_stats(n)
            every = self.settings["every"]
            if every and n % every == 0:
                self.dump(n)

    def dump(self, n):
        """Dump a snapshot for step n now (as every=... does); returns its
        path, or None when it could not be written."""
        if not self.running:
            return None
        with self._lock:
            path = os.path.join(self.dir, _layout.snapshot_name(n))
            info = self._dump(path, self.device)
            if info is None:
                return None
            d = self.manifest["dumps"]
            d["count"] += 1
            d["bytes"] += info["bytes"]
            d["last_step"] = n
            d["last_path"] = _layout.relative(self.run_dir, path)
            d["trace_entries"] = info["trace_entries"]
            d["gather_seconds_max"] = max(d["gather_seconds_max"] or 0.0, info["gather_seconds"])
            d["write_seconds_max"] = max(d["write_seconds_max"] or 0.0, info["write_seconds"])
            d["last"] = info
            self._write_manifest()
            return path

    def _dump(self, path, device):
        """Pickle torch.cuda.memory._snapshot() to path atomically (a
        temporary file renamed into place, so a killed dump leaves no
        half file under the final name); its size and timings, or None."""
        tmp = path + ".tmp"
        try:
            t0 = time.perf_counter()
            snap = _torchapi.snapshot(self.torch)
            t1 = time.perf_counter()
            with open(tmp, "wb") as f:
                pickle.dump(snap, f, protocol=PICKLE_PROTOCOL)
            os.replace(tmp, path)
            t2 = time.perf_counter()
        except Exception as e:  # noqa: BLE001 - a failed dump must not stop training
            self._error("dumping %s: %s" % (_layout.relative(self.run_dir, path), e))
            try:
                os.remove(tmp)
            except OSError:
                pass
            return None
        return {
            "bytes": os.path.getsize(path),
            "trace_entries": _torchapi.trace_entries(snap, device if device is not None else 0),
            "gather_seconds": round(t1 - t0, 6),
            "write_seconds": round(t2 - t1, 6),
        }

    def _write_stats(self, n):
        torch = self.torch
        try:
            stats = torch.cuda.memory_stats(self.device)
        except Exception as e:  # noqa: BLE001
            self._error("memory_stats at step %d: %s" % (n, e))
            return
        line = {"step": n, "time": round(time.time(), 6), "rank": self.rank, "local_rank": self.ident["local_rank"],
                "device": self.device, "pid": os.getpid()}
        uuid = (self.manifest.get("device") or {}).get("uuid")
        if uuid:
            line["uuid"] = uuid
        full = self.settings["full_stats"]
        for k, v in stats.items():
            if full or not (".large_pool." in k or ".small_pool." in k):
                line[k] = v
        self._stats.write(json.dumps(line, separators=(",", ":")) + "\n")
        self._stats.flush()

    # --- the device ---

    def _resolve_device(self, initial=False):
        """Learn (or re-learn) the CUDA device this process uses and its
        UUID. At start CUDA may not be initialised yet (torchrun scripts
        call torch.cuda.set_device after the imports): asking for the
        current device then would create a context on device 0 for every
        rank, so the device is learnt at the first step instead."""
        torch = self.torch
        try:
            if initial and hasattr(torch.cuda, "is_initialized") and not torch.cuda.is_initialized():
                return
            d = int(torch.cuda.current_device())
        except Exception as e:  # noqa: BLE001
            self._error("current CUDA device: %s" % e)
            return
        if d == self.device:
            return
        self.device = d
        uuid, source = _torchapi.device_uuid(torch, d)
        dev = {"index": d, "uuid": uuid, "uuid_source": source}
        try:
            props = torch.cuda.get_device_properties(d)
            dev["name"] = getattr(props, "name", None)
            dev["total_memory"] = getattr(props, "total_memory", None)
        except Exception:  # noqa: BLE001
            pass
        self.manifest["device"] = dev
        if not initial:
            self._write_manifest()

    # --- the OOM ---

    def _on_oom(self, device, alloc, device_alloc, device_free):
        """The allocator's OOM observer: runs before OutOfMemoryError is
        raised, while every tensor of the failing step is still alive."""
        try:
            with self._lock:
                if not self.running:
                    return
                step = 0 if self.last_step is None else self.last_step + 1
                event = {"time": _manifest.iso_now(), "step": step, "device": int(device),
                         "requested_bytes": int(alloc), "device_allocated_bytes": int(device_alloc),
                         "device_free_bytes": int(device_free), "snapshot": None}
                self.manifest["ooms"].append(event)
                if self._oom_dumps < self.settings["max_oom_snapshots"]:
                    nth = self._oom_in_step.get(step, 0) + 1
                    self._oom_in_step[step] = nth
                    path = os.path.join(self.dir, _layout.oom_snapshot_name(step, nth))
                    info = self._dump(path, int(device))
                    if info is not None:
                        self._oom_dumps += 1
                        event["snapshot"] = _layout.relative(self.run_dir, path)
                        event.update(info)
                self._write_manifest()
        except Exception as e:  # noqa: BLE001 - the OOM error itself must reach the user
            log.warning("gpureport capture: OOM snapshot failed: %s", e)

    # --- bookkeeping ---

    def _error(self, text):
        log.warning("gpureport capture: %s", text)
        if self.manifest is not None:
            errs = self.manifest["errors"]
            if len(errs) < MAX_ERRORS:
                errs.append(text)
                self._write_manifest()

    def _write_manifest(self):
        try:
            _manifest.write(os.path.join(self.dir, _layout.MANIFEST_NAME), self.manifest)
        except OSError as e:
            log.warning("gpureport capture: cannot write the manifest: %s", e)
