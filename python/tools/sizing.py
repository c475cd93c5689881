"""Measure what a trace entry costs in real snapshots: the figures behind
the capture kit's sizing advice (python/README.md and the README, "Sizing
the capture").

    python3 python/tools/sizing.py [SNAPSHOT_DIR]

SNAPSHOT_DIR defaults to ../shared/testdata-real/snapshots beside the
repository. For every pickle snapshot with at least MIN_ENTRIES trace
entries it prints:

- entries: trace entries, all devices;
- B/entry: the trace's bytes per entry, the file pickled again with and
  without its device_traces (pickle.dumps reproduces the real files byte
  for byte, memo sharing included, so the difference is the trace's own);
- frames: frames per entry; C++: the share of them that are C++ frames
  (line 0), which stacks="all" records and stacks="python" does not;
- py B/entry: the trace's bytes per entry with the C++ frames taken out,
  what the same events cost with stacks="python" (an estimate: a
  Python-only recording also loses the backward thread's stacks whole);
- pickle us/entry: CPython's pickle.dumps time per entry, the write half of
  a dump (the gather half, torch.cuda.memory._snapshot(), needs a GPU).

Standard library only; torch is not needed.
"""

import glob
import os
import pickle
import sys
import time

#: Snapshots with fewer trace entries are left out: their live blocks, not
#: their trace, make the file.
MIN_ENTRIES = 1000

#: Timing repeats; the fastest is kept (a loaded machine only adds time).
REPEATS = 3


def measure(path):
    with open(path, "rb") as f:
        raw = f.read()
    snap = pickle.loads(raw)
    if not isinstance(snap, dict) or not snap.get("device_traces"):
        return None
    traces = snap["device_traces"]
    entries = sum(len(t) for t in traces)
    if entries < MIN_ENTRIES:
        return None
    full = len(pickle.dumps(snap, protocol=4))
    bare = dict(snap, device_traces=[[] for _ in traces])
    without = len(pickle.dumps(bare, protocol=4))
    frames = [f for t in traces for e in t for f in (e.get("frames") or [])]
    cpp = sum(1 for f in frames if f.get("line", 0) == 0)

    def python_only(e):
        return dict(e, frames=[f for f in (e.get("frames") or []) if f.get("line", 0) != 0])

    stripped = dict(snap, device_traces=[[python_only(e) for e in t] for t in traces])
    py = len(pickle.dumps(stripped, protocol=4))
    best = float("inf")
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        pickle.dumps(snap, protocol=4)
        best = min(best, time.perf_counter() - t0)
    return {
        "file": len(raw), "same": full == len(raw), "entries": entries,
        "b_entry": (full - without) / entries, "frames": len(frames) / entries,
        "cpp": cpp / max(len(frames), 1), "py_b_entry": (py - without) / entries,
        "pickle_us": best / entries * 1e6,
    }


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.join(here, "..", "..", "..", "shared", "testdata-real", "snapshots")
    root = argv[1] if len(argv) > 1 else default
    rows = []
    for p in sorted(glob.glob(os.path.join(root, "**", "*.pickle"), recursive=True)):
        try:
            m = measure(p)
        except Exception as e:  # noqa: BLE001 - a file that does not load is reported, not fatal
            print("%s: %s" % (p, e), file=sys.stderr)
            continue
        if m:
            rows.append((os.path.relpath(p, root), m))
    print("%-70s %8s %9s %7s %5s %11s %16s" % ("file", "entries", "B/entry", "frames", "C++", "py B/entry", "pickle us/entry"))
    for name, m in rows:
        print("%-70s %8d %9.1f %7.1f %4.0f%% %11.1f %16.2f%s" % (
            name, m["entries"], m["b_entry"], m["frames"], 100 * m["cpp"], m["py_b_entry"], m["pickle_us"],
            "" if m["same"] else "  (re-pickled size differs)"))
    if not rows:
        return 1
    mixed = [m for _, m in rows if m["cpp"] >= 0.5]
    print("\n%d snapshots with at least %d trace entries" % (len(rows), MIN_ENTRIES))
    print("trace bytes per entry: %.0f to %.0f" % (min(m["b_entry"] for _, m in rows), max(m["b_entry"] for _, m in rows)))
    if mixed:
        ratios = [m["b_entry"] / m["py_b_entry"] for m in mixed]
        print("%d recorded C++ frames (stacks=\"all\"): %.0f to %.0f B/entry; without the C++ frames %.0f to %.0f, "
              "so C++ frames multiply the trace bytes by %.1f to %.1f" % (
                  len(mixed), min(m["b_entry"] for m in mixed), max(m["b_entry"] for m in mixed),
                  min(m["py_b_entry"] for m in mixed), max(m["py_b_entry"] for m in mixed), min(ratios), max(ratios)))
    print("CPython pickling: %.1f to %.1f us per entry" % (min(m["pickle_us"] for _, m in rows), max(m["pickle_us"] for _, m in rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
