"""gpureport's capture kit: leave behind a run folder gpureport reads well.

Two lines in a training script::

    import gpureport_capture as capture

    capture.start("run42", every=100)      # once, after torch.cuda.set_device
    for step, batch in enumerate(loader):
        train_step(batch)
        capture.step(step)                  # at the end of every step

or, scoped::

    with capture.start("run42", every=100) as cap:
        for step, batch in enumerate(loader):
            train_step(batch)
            cap.step(step)

Each rank (torchrun's RANK and LOCAL_RANK, or Slurm's) then leaves, in
``run42/rank{R}/``:

- ``snapshot_step_{n:06d}.pickle`` every ``every`` steps: the allocator's
  live blocks with their allocation stacks, and its last ``max_entries``
  events;
- ``snapshot_oom_step_{n:06d}.pickle`` when the allocator runs out of
  memory, taken by PyTorch's OOM observer before the stack unwinds (while
  the failing step's tensors are still alive); gpureport explains the OOM
  from it;
- ``memory_stats.jsonl``: one JSON line of ``torch.cuda.memory_stats()``
  per step with time, rank, device, pid and the GPU's UUID;
- ``gpureport-capture.json``: the manifest (torch and CUDA versions,
  allocator settings, world size, CUDA_VISIBLE_DEVICES, the GPU's UUID,
  the settings used, each dump's size and time, each OOM).

Local rank 0 of each machine also logs the GPUs in the background
(``gpureport record``, else ``nvidia-smi --query-gpu``) into
``run42/gpu_logs/{host}/``, stopped when capture stops. Then run
``gpureport run42``.

Sizing, measured on the 34 real snapshots of gpureport's test corpus with
at least 1,000 trace entries (PyTorch 2.1 to 2.9; README "Sizing"): a
trace entry costs 88 to 335 bytes in a dump, so ``max_entries`` adds that
much per entry to every dump (100,000 entries: 9 to 33 MB); the live
blocks add their own, whatever ``max_entries`` is. ``stacks="all"`` also
records C++ frames: 1.4 to 2.5 times the trace bytes of the same events
without them (estimated), a few microseconds more per allocation, and
slower dumps while C++ frames are symbolised; it is what attributes
allocations made on the autograd engine's backward thread, which have no
Python frames. The manifest records each dump's trace entries, bytes and
seconds, so a run measures its own cost.

Importing this package needs no torch; torch is imported by start().
Set ``GPUREPORT_CAPTURE=0`` to turn capture off without editing the
script. PyTorch Lightning and Hugging Face Trainer users add a callback
instead: ``gpureport_capture.lightning.CaptureCallback`` and
``gpureport_capture.huggingface.CaptureCallback``.
"""

from ._capture import DEFAULT_EVERY, DEFAULT_MAX_ENTRIES, DEFAULT_MAX_OOM_SNAPSHOTS, Capture, identity
from ._layout import MANIFEST_NAME

__version__ = "0.1.0"

__all__ = [
    "Capture",
    "DEFAULT_EVERY",
    "DEFAULT_MAX_ENTRIES",
    "DEFAULT_MAX_OOM_SNAPSHOTS",
    "MANIFEST_NAME",
    "current",
    "identity",
    "start",
    "step",
    "stop",
]

# The capture start() made, which step() and stop() act on: the one piece
# of module state, so that a training loop needs no handle to it.
_current = None


def start(run_dir, every=DEFAULT_EVERY, **options):
    """Start capturing into run_dir and make it the current capture.

    options are Capture's keyword arguments (max_entries, stacks,
    oom_snapshot, pinned_host, memory_stats, gpu_log, ...). Returns the
    Capture, which is also a context manager that stops it. A capture
    already running is stopped first.
    """
    global _current
    if _current is not None:
        _current.stop()
    _current = Capture(run_dir, every, **options).start()
    return _current


def step(n):
    """Record the end of training step n in the current capture (a
    memory_stats line, and a snapshot every ``every`` steps). Does nothing
    when no capture was started, so a script can leave its step() calls in
    when capture is off."""
    if _current is not None:
        _current.step(n)


def stop():
    """Stop the current capture (also done at interpreter exit)."""
    global _current
    if _current is not None:
        _current.stop()
        _current = None


def current():
    """The current capture, or None."""
    return _current
