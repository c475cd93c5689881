"""A stand-in for the few torch calls the capture kit makes, for tests on
machines without a GPU (or without torch).

It is not torch: it models one CUDA caching allocator per device well
enough that the kit's calls behave as torch's do, and that the snapshots
it returns are real snapshot dicts (segments, blocks with frames, a trace
ring buffer, allocator settings) that gpureport decodes. Version
differences the kit adapts to are switches: ``uuid`` (get_device_properties
has .uuid, torch 2.4+), ``pinned`` (_record_memory_history takes
record_pinned_host_memory, 2.14+), ``observer`` (torch._C has the OOM
observer hook).

Use::

    fake = fake_torch.make(version="2.4.0", devices=2)
    with fake_torch.installed(fake):
        ...  # `import torch` gives the fake
    fake.cuda.set_device(1)
    fake.allocate(1 << 20, "train.py", 57, "train_step")
    fake.oom(device=1, size=8 << 30)    # calls the observers, then raises
"""

import contextlib
import sys
import time
import types

MiB = 1 << 20

#: Default device memory of a fake GPU, bytes (an 80 GB card).
CAPACITY = 80 * 1000**3


class OutOfMemoryError(RuntimeError):
    """What torch.cuda.OutOfMemoryError is to the caller."""


class Properties:
    """torch.cuda.get_device_properties(d)'s result."""

    def __init__(self, name, total_memory, uuid):
        self.name = name
        self.total_memory = total_memory
        if uuid is not None:
            self.uuid = FakeUUID(uuid)


class FakeUUID:
    """torch's _CUuuid: prints the bare UUID (no "GPU-" prefix)."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text

    __str__ = __repr__


class Device:
    """One device's allocator: live blocks and a trace ring buffer."""

    def __init__(self, index):
        self.index = index
        self.blocks = []  # [address, size, requested, frames]
        self.trace = []
        self.next_addr = 0x7F0000000000 + index * 0x10000000000
        self.num_ooms = 0
        self.peak = 0

    def allocated(self):
        return sum(b[1] for b in self.blocks)


class FakeTorch(types.ModuleType):
    """The fake torch module, with the test controls as methods."""

    def __init__(self, version="2.4.0", devices=1, uuid=True, pinned=False, observer=True, cuda_version="12.1"):
        super().__init__("torch")
        self.__version__ = version
        self.version = types.SimpleNamespace(cuda=cuda_version, hip=None)
        self._devices = [Device(i) for i in range(devices)]
        self._current = 0
        self._initialized = False
        self._uuid = uuid
        self._observers = []
        self._history = None
        self.history_calls = []
        self.max_entries = None
        self.clock_us = int(time.time() * 1e6)

        cuda = types.ModuleType("torch.cuda")
        cuda.OutOfMemoryError = OutOfMemoryError
        cuda.is_available = lambda: True
        cuda.is_initialized = lambda: self._initialized
        cuda.device_count = lambda: len(self._devices)
        cuda.current_device = self._current_device
        cuda.set_device = self._set_device
        cuda.get_device_properties = self._properties
        cuda.memory_stats = self._memory_stats
        cuda.get_allocator_backend = lambda: "native"
        memory = types.ModuleType("torch.cuda.memory")
        if pinned:
            def record(enabled="all", context="all", stacks="all", max_entries=sys.maxsize, device=None,
                       clear_history=False, compile_context=False, global_record_annotations=False,
                       skip_actions=None, record_pinned_host_memory=False, record_cuda=True):
                self._record(enabled, context, stacks, max_entries, record_pinned_host_memory)
        else:
            def record(enabled="all", context="all", stacks="all", max_entries=sys.maxsize, device=None):
                self._record(enabled, context, stacks, max_entries, None)
        memory._record_memory_history = record
        memory._snapshot = self._snapshot
        cuda.memory = memory
        self.cuda = cuda
        self._C = types.SimpleNamespace()
        if observer:
            self._C._cuda_attach_out_of_memory_observer = self._observers.append

    # --- what the kit calls ---

    def _current_device(self):
        self._initialized = True
        return self._current

    def _set_device(self, d):
        self._initialized = True
        self._current = int(d)

    def _properties(self, d):
        u = None
        if self._uuid:
            u = "%08x-0000-4000-8000-%012x" % (0x5EED0000 + d, d)
        return Properties("Fake GPU", CAPACITY, u)

    def _record(self, enabled, context, stacks, max_entries, pinned):
        self.history_calls.append({"enabled": enabled, "context": context, "stacks": stacks,
                                   "max_entries": max_entries, "record_pinned_host_memory": pinned})
        self._history = None if enabled is None else stacks
        self.max_entries = max_entries

    def _memory_stats(self, device=None):
        d = self._devices[self._current if device is None else device]
        if not self._initialized:
            return {}
        out = {}
        alloc = d.allocated()
        reserved = reserved_for(alloc)
        for metric, cur in (("allocated_bytes", alloc), ("reserved_bytes", reserved), ("active_bytes", alloc),
                            ("inactive_split_bytes", 0), ("requested_bytes", alloc)):
            for pool in ("all", "large_pool", "small_pool"):
                v = cur if pool != "small_pool" else 0
                for kind in ("current", "peak", "allocated", "freed"):
                    out["%s.%s.%s" % (metric, pool, kind)] = v if kind != "freed" else 0
        out["num_alloc_retries"] = 0
        out["num_ooms"] = d.num_ooms
        out["max_split_size"] = -1
        return dict(sorted(out.items()))

    def _snapshot(self):
        segments = []
        traces = []
        for d in self._devices:
            if d.blocks:
                total = reserved_for(d.allocated())
                start = d.blocks[0][0]
                blocks = [{"address": a, "size": s, "requested_size": r, "state": "active_allocated",
                           "frames": [dict(f) for f in fr]} for a, s, r, fr in d.blocks]
                used = sum(b["size"] for b in blocks)
                if total > used:
                    blocks.append({"address": start + used, "size": total - used, "requested_size": 0,
                                   "state": "inactive", "frames": []})
                segments.append({"device": d.index, "address": start, "total_size": total,
                                 "allocated_size": used, "active_size": used, "requested_size": used,
                                 "stream": 0, "segment_type": "large", "segment_pool_id": (0, 0),
                                 "is_expandable": False, "frames": [], "blocks": blocks})
            traces.append(list(d.trace) if self._history is not None else [])
        return {"segments": segments, "device_traces": traces,
                "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": "", "max_split_size": -1,
                                       "garbage_collection_threshold": 0.0, "expandable_segments": False}}

    # --- test controls ---

    def allocate(self, size, filename="train.py", line=1, name="step", device=None):
        """Allocate size bytes on a device (default: the current one) as
        the given Python frame did; returns the block's address."""
        d = self._devices[self._current if device is None else device]
        self._initialized = True
        addr = d.next_addr
        d.next_addr += size
        frames = [{"filename": filename, "line": line, "name": name}]
        d.blocks.append([addr, size, size, frames])
        self._event(d, "alloc", addr, size, frames)
        return addr

    def oom(self, size, device=None):
        """Fail an allocation of size bytes: the observers are called, as
        the allocator calls them before raising, then OutOfMemoryError."""
        d = self._devices[self._current if device is None else device]
        d.num_ooms += 1
        free = max(CAPACITY - reserved_for(d.allocated()), 0)
        if self._history is not None:
            d.trace.append({"action": "oom", "addr": 0, "device_free": free, "size": size, "stream": 0,
                            "time_us": self._tick(), "frames": []})
        for obs in list(self._observers):
            obs(d.index, size, reserved_for(d.allocated()), free)
        raise OutOfMemoryError("CUDA out of memory. Tried to allocate %d bytes" % size)

    def observers(self):
        return list(self._observers)

    def _event(self, d, action, addr, size, frames):
        if self._history is None:
            return
        d.trace.append({"action": action, "addr": addr, "size": size, "stream": 0, "time_us": self._tick(),
                        "frames": [dict(f) for f in frames]})
        if self.max_entries is not None and len(d.trace) > self.max_entries:
            del d.trace[: len(d.trace) - self.max_entries]

    def _tick(self):
        self.clock_us += 1000
        return self.clock_us


def reserved_for(allocated):
    """Reserved bytes for allocated bytes: whole 20 MiB segments, as the
    caching allocator rounds large-pool segments (at least one)."""
    seg = 20 * MiB
    return max(1, -(-allocated // seg)) * seg


def make(**kwargs):
    """A fresh fake torch (see FakeTorch for the switches)."""
    return FakeTorch(**kwargs)


@contextlib.contextmanager
def installed(fake):
    """Make ``import torch`` give fake inside the block."""
    saved = sys.modules.get("torch")
    sys.modules["torch"] = fake
    try:
        yield fake
    finally:
        if saved is None:
            sys.modules.pop("torch", None)
        else:
            sys.modules["torch"] = saved
