"""The few torch calls the capture kit makes, each where it exists.

torch is imported only when capture starts (import_torch), so importing
the kit needs no torch. Every call below names the PyTorch version it
appeared in; where the user's torch is older, the kit does without it and
the manifest says so.

- ``torch.cuda.memory._record_memory_history(enabled, context, stacks,
  max_entries)``: string arguments since 2.1 (2.0 took booleans);
  ``record_pinned_host_memory`` since 2.14 (host_segments/host_traces in
  the snapshot).
- ``torch.cuda.memory._snapshot()``: the dict _dump_snapshot pickles
  (1.13+; blocks carry their own stacks from 2.1; the kit pickles it
  itself, so that a dump is written atomically and timed).
- ``torch._C._cuda_attach_out_of_memory_observer(fn)``: fn(device, alloc,
  device_alloc, device_free) is called before the allocator raises
  OutOfMemoryError, before the stack unwinds (2.0+; attached to every device
  and safe before the allocator is initialised since 2.1). Observers cannot
  be detached: the kit's observer checks whether its capture is running.
- ``torch.cuda.memory_stats(device)``: the allocator counters (1.4+).
- ``torch.cuda.get_device_properties(d).uuid``: the GPU's UUID (2.4+);
  older versions: CUDA_VISIBLE_DEVICES when it lists UUIDs, else the CUDA
  driver's cuDeviceGetUuid through ctypes.
- ``torch.cuda.get_allocator_backend()``: "native" or "cudaMallocAsync"
  (2.0+).
"""

import ctypes
import ctypes.util
import importlib
import inspect
import os
import sys


def import_torch():
    """Import the user's torch (raises ImportError when there is none)."""
    return importlib.import_module("torch")


def record_history(torch, max_entries, stacks, context, pinned_host):
    """Start recording allocation history.

    Returns whether pinned host memory is recorded too: True when asked and
    the torch version has ``record_pinned_host_memory`` (2.14+), else False.
    """
    record = torch.cuda.memory._record_memory_history
    kwargs = {"enabled": "all", "context": context, "stacks": stacks, "max_entries": max_entries}
    if not pinned_host:
        record(**kwargs)
        return False
    accepts = _accepts(record, "record_pinned_host_memory")
    if accepts is False:
        record(**kwargs)
        return False
    try:
        record(record_pinned_host_memory=True, **kwargs)
        return True
    except TypeError:
        if accepts:
            raise
        # The signature could not be read and the call refused the
        # argument: a version without pinned host recording.
        record(**kwargs)
        return False


def _accepts(fn, name):
    """Whether fn takes the keyword argument name: True, False, or None
    when its signature cannot be read or takes any keyword."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return None
    if name in params:
        return True
    if any(p.kind == inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return None
    return False


def stop_history(torch):
    """Stop recording allocation history."""
    torch.cuda.memory._record_memory_history(enabled=None)


def attach_oom_observer(torch, observer):
    """Attach observer(device, alloc, device_alloc, device_free) to the
    allocator's out-of-memory path; False when this torch has no observer
    hook (or it is not the caching allocator)."""
    attach = getattr(torch._C, "_cuda_attach_out_of_memory_observer", None)
    if attach is None:
        return False
    attach(observer)
    return True


def snapshot(torch):
    """The allocator's state and trace as a dict (what _dump_snapshot pickles)."""
    return torch.cuda.memory._snapshot()


def trace_entries(snap, device):
    """Number of trace entries of one device in a snapshot dict."""
    traces = snap.get("device_traces") or []
    if 0 <= device < len(traces):
        return len(traces[device] or [])
    return 0


def allocator_backend(torch):
    """The CUDA allocator backend's name, or None when unknown."""
    get = getattr(torch.cuda, "get_allocator_backend", None)
    if get is None:
        return None
    try:
        return str(get())
    except Exception:  # noqa: BLE001 - only a description
        return None


def device_uuid(torch, device):
    """The UUID of CUDA device ``device`` as nvidia-smi prints it
    ("GPU-8-4-4-4-12 hex"), and where it came from; (None, None) when
    nothing says."""
    try:
        props = torch.cuda.get_device_properties(device)
    except Exception:  # noqa: BLE001
        props = None
    uuid = getattr(props, "uuid", None)
    if uuid is not None:
        text = str(uuid).strip()
        if text:
            if getattr(torch.version, "hip", None) is None and not text.upper().startswith(("GPU-", "MIG-")):
                text = "GPU-" + text
            return text, "torch.cuda.get_device_properties"
    from_env = uuid_from_visible_devices(os.environ.get("CUDA_VISIBLE_DEVICES"), device)
    if from_env:
        return from_env, "CUDA_VISIBLE_DEVICES"
    from_driver = uuid_from_driver(device)
    if from_driver:
        return from_driver, "cuDeviceGetUuid"
    return None, None


#: Length of a whole GPU UUID as nvidia-smi prints it: "GPU-" and 36
#: characters. CUDA_VISIBLE_DEVICES also accepts unique prefixes, which
#: name no GPU on their own.
FULL_UUID_LEN = len("GPU-") + 36


def uuid_from_visible_devices(visible, device):
    """The UUID CUDA_VISIBLE_DEVICES gives CUDA device ``device``, when it
    lists whole UUIDs; None otherwise."""
    if not visible:
        return None
    entries = [e.strip() for e in visible.split(",") if e.strip()]
    if not 0 <= device < len(entries):
        return None
    e = entries[device]
    if e.upper().startswith("GPU-") and len(e) == FULL_UUID_LEN:
        return "GPU-" + e[4:]
    return None


def uuid_from_driver(device):
    """The UUID the CUDA driver API gives CUDA device ``device`` (the same
    numbering as torch: CUDA_VISIBLE_DEVICES applies), None when the
    driver library is not there."""
    lib = _driver_library()
    if lib is None:
        return None
    try:
        if lib.cuInit(0) != 0:
            return None
        dev = ctypes.c_int()
        if lib.cuDeviceGet(ctypes.byref(dev), device) != 0:
            return None
        raw = (ctypes.c_ubyte * 16)()
        if lib.cuDeviceGetUuid(raw, dev) != 0:
            return None
    except (AttributeError, OSError):
        return None
    return format_uuid(bytes(raw))


def format_uuid(raw):
    """16 bytes as nvidia-smi prints a GPU UUID: GPU-8-4-4-4-12 hex digits."""
    h = raw.hex()
    return "GPU-%s-%s-%s-%s-%s" % (h[0:8], h[8:12], h[12:16], h[16:20], h[20:32])


def _driver_library():
    names = ["nvcuda.dll"] if sys.platform == "win32" else ["libcuda.so.1", "libcuda.so", ctypes.util.find_library("cuda")]
    for name in names:
        if not name:
            continue
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    return None
