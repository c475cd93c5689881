"""The Lightning and Hugging Face callbacks, against stand-ins for the two
libraries' callback base classes and trainer state (neither library is
installed where the tests run)."""

import contextlib
import importlib
import json
import os
import sys
import tempfile
import types
import unittest
from unittest import mock

import fake_torch

CLEAN_ENV = {k: v for k, v in os.environ.items()
             if not k.startswith(("RANK", "LOCAL_", "WORLD_", "GROUP_", "NODE_", "SLURM_", "GPUREPORT_"))}


@contextlib.contextmanager
def modules(**mods):
    """Install stand-in modules (dotted names) for the block, and import
    the kit's integration modules afresh inside it."""
    saved = {k: sys.modules.get(k) for k in list(mods) + ["gpureport_capture.lightning", "gpureport_capture.huggingface"]}
    for name in ("gpureport_capture.lightning", "gpureport_capture.huggingface"):
        sys.modules.pop(name, None)
    sys.modules.update(mods)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


def lightning_modules(package):
    base = type("Callback", (), {})
    cb = types.ModuleType(package + ".callbacks")
    cb.Callback = base
    return {package: types.ModuleType(package), package + ".callbacks": cb}, base


def read(run, rank):
    with open(os.path.join(run, "rank%d" % rank, "gpureport-capture.json")) as f:
        m = json.load(f)
    with open(os.path.join(run, "rank%d" % rank, "memory_stats.jsonl")) as f:
        steps = [json.loads(x)["step"] for x in f]
    return m, steps


class CallbackCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.run_dir = os.path.join(self.tmp.name, "run")
        env = mock.patch.dict(os.environ, CLEAN_ENV, clear=True)
        env.start()
        self.addCleanup(env.stop)


class LightningTest(CallbackCase):
    def test_steps_ranks_and_stop(self):
        for package in ("lightning.pytorch", "pytorch_lightning"):
            with self.subTest(package=package):
                mods, base = lightning_modules(package)
                if package == "pytorch_lightning":
                    # Lightning 2's namespace missing: the 1.x package is used.
                    mods["lightning"] = None
                    mods["lightning.pytorch"] = None
                    mods["lightning.pytorch.callbacks"] = None
                fake = fake_torch.make(devices=4)
                fake.cuda.set_device(2)
                run = os.path.join(self.run_dir, package)
                with modules(**mods), fake_torch.installed(fake):
                    lit = importlib.import_module("gpureport_capture.lightning")
                    cb = lit.CaptureCallback(run, every=2, gpu_log=None)
                    self.assertIsInstance(cb, base)
                    trainer = types.SimpleNamespace(global_rank=6, local_rank=2, world_size=8, global_step=0)
                    cb.on_fit_start(trainer, None)
                    # Gradient accumulation over 2 micro-batches: the step
                    # counter moves every other batch.
                    for batch in range(8):
                        trainer.global_step = (batch + 1) // 2
                        cb.on_train_batch_end(trainer, None, None, None, batch)
                    cb.on_fit_end(trainer, None)
                    cb.teardown(trainer, None, "fit")
                m, steps = read(run, 6)
                self.assertEqual((m["rank"], m["local_rank"], m["world_size"]), (6, 2, 8))
                self.assertEqual(m["device"]["index"], 2)
                self.assertEqual(steps, [1, 2, 3, 4])
                self.assertIsNotNone(m["stopped"])
                self.assertEqual(sorted(f for f in os.listdir(os.path.join(run, "rank6")) if f.startswith("snapshot")),
                                 ["snapshot_step_000002.pickle", "snapshot_step_000004.pickle"])

    def test_exception_stops(self):
        mods, _ = lightning_modules("lightning.pytorch")
        fake = fake_torch.make()
        with modules(**mods), fake_torch.installed(fake):
            lit = importlib.import_module("gpureport_capture.lightning")
            cb = lit.CaptureCallback(self.run_dir, gpu_log=None)
            trainer = types.SimpleNamespace(global_rank=0, local_rank=0, world_size=1, global_step=0)
            cb.on_fit_start(trainer, None)
            cb.on_exception(trainer, None, RuntimeError("boom"))
        self.assertFalse(cb.capture.running)
        self.assertEqual(fake.history_calls[-1]["enabled"], None)

    def test_without_lightning(self):
        with modules(**{"lightning": None, "lightning.pytorch": None, "lightning.pytorch.callbacks": None,
                        "pytorch_lightning": None, "pytorch_lightning.callbacks": None}):
            with self.assertRaisesRegex(ImportError, "needs PyTorch Lightning"):
                importlib.import_module("gpureport_capture.lightning")


class HuggingFaceTest(CallbackCase):
    def test_steps_ranks_and_stop(self):
        base = type("TrainerCallback", (), {})
        tf = types.ModuleType("transformers")
        tf.TrainerCallback = base
        fake = fake_torch.make(devices=2)
        fake.cuda.set_device(1)
        with modules(transformers=tf), fake_torch.installed(fake):
            hf = importlib.import_module("gpureport_capture.huggingface")
            cb = hf.CaptureCallback(self.run_dir, every=3, gpu_log=None)
            self.assertIsInstance(cb, base)
            args = types.SimpleNamespace(process_index=3, local_process_index=1, world_size=4)
            state = types.SimpleNamespace(global_step=0)
            cb.on_train_begin(args, state, None)
            for s in range(1, 7):
                state.global_step = s
                cb.on_step_end(args, state, None)
            cb.on_train_end(args, state, None)
        m, steps = read(self.run_dir, 3)
        self.assertEqual((m["rank"], m["local_rank"], m["world_size"]), (3, 1, 4))
        self.assertEqual(steps, [1, 2, 3, 4, 5, 6])
        self.assertIsNotNone(m["stopped"])
        self.assertEqual(sorted(f for f in os.listdir(os.path.join(self.run_dir, "rank3")) if f.startswith("snapshot")),
                         ["snapshot_step_000003.pickle", "snapshot_step_000006.pickle"])

    def test_without_transformers(self):
        with modules(transformers=None):
            with self.assertRaisesRegex(ImportError, "needs transformers"):
                importlib.import_module("gpureport_capture.huggingface")


if __name__ == "__main__":
    unittest.main()
