"""Write a run folder with the capture kit against the torch stand-in.

    python3 tests/make_run.py OUT_DIR

Two ranks of one job (torchrun numbering), each on its own GPU (rank r on
cuda:r), captured with every=2 for 8 steps:

- rank 0 leaks 4 MiB per step at train.py:57 and finishes;
- rank 1 runs out of memory during step 6 (after step(5)): the OOM
  observer dumps rank1/snapshot_oom_step_000006.pickle.

gpureport's Go tests run this script and read OUT_DIR (ingest's
TestCaptureKitRun), so the file layout and the JSON lines the kit writes
are checked by the reader that consumes them. No GPU logger is started.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import fake_torch  # noqa: E402

import gpureport_capture  # noqa: E402

MiB = 1 << 20
STEPS = 8
EVERY = 2
#: Step after which rank 1 fails: its OOM happens in step OOM_AFTER + 1.
OOM_AFTER = 5


def run_rank(out, rank):
    fake = fake_torch.make(version="2.4.0", devices=2)
    with fake_torch.installed(fake):
        cap = gpureport_capture.Capture(out, every=EVERY, rank=rank, local_rank=rank, world_size=2, gpu_log=None,
                                        max_entries=1000)
        fake.cuda.set_device(rank)
        cap.start()
        fake.allocate(512 * MiB, "model.py", 12, "__init__")
        for step in range(STEPS):
            if rank == 0:
                fake.allocate(4 * MiB, "train.py", 57, "train_step")
            cap.step(step)
            if rank == 1 and step == OOM_AFTER:
                try:
                    fake.oom(100 * 1000**3)
                except fake_torch.OutOfMemoryError:
                    break
        cap.stop()


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    # The OOM observers of the stand-in run only this rank's capture.
    for rank in (0, 1):
        run_rank(out, rank)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
