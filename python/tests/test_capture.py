"""The capture against the torch stand-in: file names, the manifest, the
memory_stats JSON lines and the OOM observer's wiring."""

import json
import os
import pickle
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

import fake_torch

import gpureport_capture
from gpureport_capture import _layout, _torchapi
from gpureport_capture._capture import identity

MiB = 1 << 20
PKG_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# No test may pick up the environment of the machine it runs on.
CLEAN_ENV = {k: v for k, v in os.environ.items()
             if not k.startswith(("RANK", "LOCAL_", "WORLD_", "GROUP_", "NODE_", "SLURM_", "GPUREPORT_", "CUDA_VISIBLE"))}


def read_manifest(run, rank=0):
    with open(os.path.join(run, "rank%d" % rank, "gpureport-capture.json"), encoding="utf-8") as f:
        return json.load(f)


def read_lines(run, rank=0):
    with open(os.path.join(run, "rank%d" % rank, "memory_stats.jsonl"), encoding="utf-8") as f:
        return [json.loads(line) for line in f]


class CaptureCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.run_dir = os.path.join(self.tmp.name, "run42")
        patcher = mock.patch.dict(os.environ, CLEAN_ENV, clear=True)
        patcher.start()
        self.addCleanup(patcher.stop)
        self.addCleanup(self.tmp.cleanup)

    def capture(self, fake, **kw):
        kw.setdefault("gpu_log", None)
        with fake_torch.installed(fake):
            cap = gpureport_capture.Capture(self.run_dir, **kw)
            cap.start()
        self.addCleanup(cap.stop)
        return cap


class LayoutTest(CaptureCase):
    def test_file_names(self):
        # Snapshot dumps at every multiple of every, the JSON lines and the
        # manifest, all in the rank's folder.
        fake = fake_torch.make()
        cap = self.capture(fake, every=3)
        fake.cuda.set_device(0)
        for n in range(8):
            fake.allocate(MiB)
            cap.step(n)
        cap.stop()
        got = sorted(os.listdir(os.path.join(self.run_dir, "rank0")))
        want = ["gpureport-capture.json", "memory_stats.jsonl", "snapshot_step_000000.pickle",
                "snapshot_step_000003.pickle", "snapshot_step_000006.pickle"]
        self.assertEqual(got, want)

    def test_every_zero_dumps_no_snapshots(self):
        fake = fake_torch.make()
        cap = self.capture(fake, every=0)
        for n in range(3):
            cap.step(n)
        cap.stop()
        self.assertEqual(sorted(os.listdir(os.path.join(self.run_dir, "rank0"))),
                         ["gpureport-capture.json", "memory_stats.jsonl"])
        self.assertIsNone(read_manifest(self.run_dir)["files"]["snapshots"])

    def test_snapshot_is_the_allocator_state(self):
        fake = fake_torch.make()
        cap = self.capture(fake, every=1, max_entries=50)
        fake.cuda.set_device(0)
        fake.allocate(3 * MiB, "train.py", 57, "train_step")
        path = cap.dump(7)
        with open(path, "rb") as f:
            # Protocol 4 on every Python: PyTorch's memory viewer cannot
            # open 5, Python 3.14's default.
            self.assertEqual(f.read(2), b"\x80\x04")
            f.seek(0)
            snap = pickle.load(f)
        self.assertEqual(snap["segments"][0]["blocks"][0]["frames"][0]["line"], 57)
        self.assertEqual(len(snap["device_traces"][0]), 1)
        self.assertEqual(fake.max_entries, 50)

    def test_names_match_gpureports_rules(self):
        # The names gpureport's ingest/naming.go reads: a step keyword, an
        # "oom" word of its own, a rank folder.
        self.assertEqual(_layout.snapshot_name(42), "snapshot_step_000042.pickle")
        self.assertEqual(_layout.oom_snapshot_name(42), "snapshot_oom_step_000042.pickle")
        self.assertEqual(_layout.oom_snapshot_name(42, 2), "snapshot_oom_step_000042_2.pickle")
        self.assertEqual(_layout.rank_dir("r", 3), os.path.join("r", "rank3"))
        self.assertEqual(_layout.host_folder("node-1.cluster"), "node-1.cluster")
        self.assertEqual(_layout.host_folder("a b/c"), "a_b_c")
        self.assertEqual(_layout.host_folder("..."), "host")

    def test_no_temporary_files_left(self):
        fake = fake_torch.make()
        cap = self.capture(fake, every=1)
        for n in range(4):
            cap.step(n)
        cap.stop()
        left = [f for f in os.listdir(os.path.join(self.run_dir, "rank0")) if f.endswith(".tmp")]
        self.assertEqual(left, [])


class RankTest(CaptureCase):
    def test_identity_sources(self):
        cases = [
            ({}, {}, (0, 0, 1, None)),
            ({"RANK": "5", "LOCAL_RANK": "1", "WORLD_SIZE": "8", "GROUP_RANK": "2"}, {}, (5, 1, 8, 2)),
            ({"SLURM_PROCID": "3", "SLURM_LOCALID": "3", "SLURM_NTASKS": "4", "SLURM_NODEID": "0"}, {}, (3, 3, 4, 0)),
            # torchrun's variables win over Slurm's (torchrun under srun).
            ({"RANK": "1", "SLURM_PROCID": "0", "LOCAL_RANK": "1", "SLURM_LOCALID": "0"}, {}, (1, 1, 1, None)),
            ({"RANK": "1"}, {"rank": 7, "local_rank": 3, "world_size": 16}, (7, 3, 16, None)),
            # A rank without a local rank is its own local rank.
            ({"RANK": "2"}, {}, (2, 2, 1, None)),
            ({"RANK": "x"}, {}, (0, 0, 1, None)),
        ]
        for env, args, want in cases:
            with self.subTest(env=env, args=args):
                got = identity(env=env, **args)
                self.assertEqual((got["rank"], got["local_rank"], got["world_size"], got["node_rank"]), want)

    def test_ranks_write_their_own_folders(self):
        # Two ranks of one job in one run folder: each manifest is its own,
        # none overwrites the other's.
        caps = []
        for rank in (0, 1):
            fake = fake_torch.make(devices=2)
            fake.cuda.set_device(rank)
            with mock.patch.dict(os.environ, {"RANK": str(rank), "LOCAL_RANK": str(rank), "WORLD_SIZE": "2"}):
                caps.append((fake, self.capture(fake, every=2)))
        for n in range(3):
            for _, cap in caps:
                cap.step(n)
        for _, cap in caps:
            cap.stop()
        for rank in (0, 1):
            m = read_manifest(self.run_dir, rank)
            self.assertEqual((m["rank"], m["local_rank"], m["world_size"]), (rank, rank, 2))
            self.assertEqual(m["device"]["index"], rank)
            self.assertEqual(m["files"]["snapshots"], "rank%d/snapshot_step_{step:06d}.pickle" % rank)
            self.assertTrue(os.path.exists(os.path.join(self.run_dir, "rank%d" % rank, "snapshot_step_000002.pickle")))
            self.assertEqual([line["rank"] for line in read_lines(self.run_dir, rank)], [rank] * 3)


class StatsLineTest(CaptureCase):
    def test_one_line_per_step(self):
        fake = fake_torch.make()
        fake.cuda.set_device(0)
        cap = self.capture(fake, every=0)
        for n in range(4):
            fake.allocate(2 * MiB)
            cap.step(n)
        cap.stop()
        lines = read_lines(self.run_dir)
        self.assertEqual([x["step"] for x in lines], [0, 1, 2, 3])
        first = lines[0]
        # What gpureport's memory_stats reader takes (gpulog/memstats_jsonl.go):
        # PyTorch's flat keys, step, time in Unix seconds, device, rank,
        # pid and uuid.
        for key in ("step", "time", "device", "rank", "pid", "uuid", "allocated_bytes.all.current",
                    "reserved_bytes.all.current", "num_ooms", "num_alloc_retries"):
            self.assertIn(key, first)
        self.assertEqual(first["device"], 0)
        self.assertEqual(first["pid"], os.getpid())
        self.assertEqual(first["uuid"], "GPU-5eed0000-0000-4000-8000-000000000000")
        self.assertEqual([x["allocated_bytes.all.current"] for x in lines], [2 * MiB, 4 * MiB, 6 * MiB, 8 * MiB])
        self.assertGreater(first["time"], 1e9)
        self.assertLess(first["time"], 1e11)

    def test_pool_breakdown_only_with_full_stats(self):
        for full, want in ((False, False), (True, True)):
            with self.subTest(full_stats=full):
                fake = fake_torch.make()
                fake.cuda.set_device(0)
                run = os.path.join(self.tmp.name, "full%s" % full)
                with fake_torch.installed(fake):
                    cap = gpureport_capture.Capture(run, every=0, full_stats=full, gpu_log=None).start()
                cap.step(0)
                cap.stop()
                line = read_lines(run)[0]
                self.assertEqual("allocated_bytes.large_pool.current" in line, want)
                self.assertIn("allocated_bytes.all.peak", line)

    def test_stats_every(self):
        fake = fake_torch.make()
        cap = self.capture(fake, every=0, stats_every=5)
        for n in range(12):
            cap.step(n)
        cap.stop()
        self.assertEqual([x["step"] for x in read_lines(self.run_dir)], [0, 5, 10])

    def test_device_learnt_at_first_step(self):
        # start() before torch.cuda.set_device must not pick device 0 for
        # every rank (nor create a context on it).
        fake = fake_torch.make(devices=4)
        cap = self.capture(fake, every=0)
        self.assertFalse(fake.cuda.is_initialized())
        self.assertIsNone(read_manifest(self.run_dir)["device"])
        fake.cuda.set_device(3)
        cap.step(0)
        m = read_manifest(self.run_dir)
        self.assertEqual(m["device"]["index"], 3)
        self.assertEqual(m["device"]["uuid"], "GPU-5eed0003-0000-4000-8000-000000000003")
        self.assertEqual(m["device"]["uuid_source"], "torch.cuda.get_device_properties")
        self.assertEqual(read_lines(self.run_dir)[0]["device"], 3)


class ManifestTest(CaptureCase):
    def test_fields(self):
        env = {"RANK": "0", "LOCAL_RANK": "0", "WORLD_SIZE": "1", "CUDA_VISIBLE_DEVICES": "2,3",
               "PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"}
        fake = fake_torch.make(version="2.3.1", cuda_version="12.1")
        fake.cuda.set_device(0)
        with mock.patch.dict(os.environ, env):
            cap = self.capture(fake, every=10, max_entries=5000, stacks="all")
        cap.step(10)
        cap.stop()
        m = read_manifest(self.run_dir)
        self.assertEqual(m["schema"], "gpureport-capture/v1")
        self.assertEqual(m["kit"], {"name": "gpureport-capture", "version": gpureport_capture.__version__})
        self.assertEqual(m["torch"]["version"], "2.3.1")
        self.assertEqual(m["torch"]["cuda"], "12.1")
        self.assertEqual(m["torch"]["allocator_backend"], "native")
        self.assertEqual(m["allocator_settings"], {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"})
        self.assertEqual(m["cuda_visible_devices"], "2,3")
        self.assertEqual(m["world_size"], 1)
        s = m["settings"]
        self.assertEqual((s["every"], s["max_entries"], s["stacks"], s["context"]), (10, 5000, "all", "all"))
        self.assertEqual(m["files"], {"snapshots": "rank0/snapshot_step_{step:06d}.pickle",
                                      "oom_snapshots": "rank0/snapshot_oom_step_{step:06d}.pickle",
                                      "memory_stats": "rank0/memory_stats.jsonl", "gpu_log_dir": None})
        self.assertEqual(m["dumps"]["count"], 1)
        self.assertEqual(m["dumps"]["last_path"], "rank0/snapshot_step_000010.pickle")
        self.assertEqual(m["dumps"]["bytes"], os.path.getsize(os.path.join(self.run_dir, "rank0", "snapshot_step_000010.pickle")))
        self.assertIsNotNone(m["dumps"]["gather_seconds_max"])
        self.assertIsNotNone(m["stopped"])
        self.assertEqual(m["errors"], [])
        self.assertEqual(fake.history_calls[0]["stacks"], "all")
        self.assertEqual(fake.history_calls[-1]["enabled"], None)

    def test_manifest_is_written_at_start(self):
        fake = fake_torch.make()
        self.capture(fake, every=1)
        m = read_manifest(self.run_dir)
        self.assertIsNone(m["stopped"])
        self.assertEqual(m["recording"]["history"], "on")

    def test_failed_dump_is_recorded_not_raised(self):
        fake = fake_torch.make()
        cap = self.capture(fake, every=1)

        def broken():
            raise RuntimeError("snapshot failed")

        fake.cuda.memory._snapshot = broken
        with self.assertLogs("gpureport_capture", "WARNING"):
            cap.step(0)
        m = read_manifest(self.run_dir)
        self.assertEqual(m["dumps"]["count"], 0)
        self.assertIn("snapshot failed", m["errors"][0])
        self.assertEqual(sorted(os.listdir(os.path.join(self.run_dir, "rank0"))),
                         ["gpureport-capture.json", "memory_stats.jsonl"])


class HistoryFailureTest(CaptureCase):
    def test_capture_goes_on_without_history(self):
        # PyTorch refuses to record history with the cudaMallocAsync
        # backend; the memory_stats lines and the manifest still come.
        fake = fake_torch.make()

        def refuse(**kw):
            raise RuntimeError("memory history is not supported by cudaMallocAsync")

        fake.cuda.memory._record_memory_history = refuse
        with self.assertLogs("gpureport_capture", "WARNING"):
            cap = self.capture(fake, every=0)
        cap.step(0)
        cap.stop()
        m = read_manifest(self.run_dir)
        self.assertEqual(m["recording"]["history"], "failed")
        self.assertIn("cudaMallocAsync", m["errors"][0])
        self.assertEqual(len(read_lines(self.run_dir)), 1)


class PinnedHostTest(CaptureCase):
    def test_recorded_where_torch_has_it(self):
        cases = [
            # (torch has record_pinned_host_memory, asked, passed, manifest)
            (True, True, True, "on"),
            (False, True, None, "unsupported"),
            (True, False, False, "off"),
        ]
        for has, asked, passed, state in cases:
            with self.subTest(has=has, asked=asked):
                fake = fake_torch.make(pinned=has)
                run = os.path.join(self.tmp.name, "p%s%s" % (has, asked))
                with fake_torch.installed(fake):
                    cap = gpureport_capture.Capture(run, pinned_host=asked, gpu_log=None).start()
                cap.stop()
                self.assertEqual(fake.history_calls[0]["record_pinned_host_memory"], passed)
                self.assertEqual(read_manifest(run)["recording"]["pinned_host_memory"], state)

    def test_signature_unreadable(self):
        # A record function whose signature cannot be read and which
        # refuses the keyword: recorded without it.
        calls = []

        class Refusing:
            __signature__ = None

            def __call__(self, **kw):
                if "record_pinned_host_memory" in kw:
                    raise TypeError("unexpected keyword")
                calls.append(kw)

        fake = fake_torch.make()
        fake.cuda.memory._record_memory_history = Refusing()
        with mock.patch.object(_torchapi, "_accepts", return_value=None):
            self.assertFalse(_torchapi.record_history(fake, 10, "python", "all", True))
        self.assertEqual(calls, [{"enabled": "all", "context": "all", "stacks": "python", "max_entries": 10}])


class OOMTest(CaptureCase):
    def test_observer_dumps_before_the_error(self):
        fake = fake_torch.make(devices=2)
        fake.cuda.set_device(1)
        cap = self.capture(fake, every=100)
        self.assertEqual(len(fake.observers()), 1)
        fake.allocate(100 * MiB, "train.py", 80, "forward")
        cap.step(0)
        cap.step(1)
        with self.assertRaises(fake_torch.OutOfMemoryError):
            fake.oom(70 * 1000**3)
        # The step that was running when memory ran out: the one after the
        # last step() call.
        path = os.path.join(self.run_dir, "rank0", "snapshot_oom_step_000002.pickle")
        with open(path, "rb") as f:
            snap = pickle.load(f)
        self.assertEqual(snap["device_traces"][1][-1]["action"], "oom")
        # The failing step's tensors are still in the dump.
        self.assertEqual(snap["segments"][0]["blocks"][0]["frames"][0]["name"], "forward")
        m = read_manifest(self.run_dir)
        self.assertEqual(len(m["ooms"]), 1)
        oom = m["ooms"][0]
        self.assertEqual((oom["step"], oom["device"], oom["requested_bytes"]), (2, 1, 70 * 1000**3))
        self.assertEqual(oom["snapshot"], "rank0/snapshot_oom_step_000002.pickle")

    def test_oom_before_first_step(self):
        fake = fake_torch.make()
        self.capture(fake)
        with self.assertRaises(fake_torch.OutOfMemoryError):
            fake.oom(1 << 40)
        self.assertTrue(os.path.exists(os.path.join(self.run_dir, "rank0", "snapshot_oom_step_000000.pickle")))

    def test_at_most_max_oom_snapshots(self):
        fake = fake_torch.make()
        cap = self.capture(fake, max_oom_snapshots=2)
        cap.step(4)
        for _ in range(3):
            with self.assertRaises(fake_torch.OutOfMemoryError):
                fake.oom(1 << 40)
        names = sorted(f for f in os.listdir(os.path.join(self.run_dir, "rank0")) if "oom" in f)
        self.assertEqual(names, ["snapshot_oom_step_000005.pickle", "snapshot_oom_step_000005_2.pickle"])
        m = read_manifest(self.run_dir)
        self.assertEqual([o["snapshot"] is not None for o in m["ooms"]], [True, True, False])

    def test_stopped_capture_ignores_ooms(self):
        # Observers cannot be detached from torch: a stopped capture's
        # observer must do nothing.
        fake = fake_torch.make()
        cap = self.capture(fake)
        cap.stop()
        with self.assertRaises(fake_torch.OutOfMemoryError):
            fake.oom(1 << 40)
        self.assertFalse(any("oom" in f for f in os.listdir(os.path.join(self.run_dir, "rank0"))))

    def test_observer_attached_after_history(self):
        # torch 2.0 crashed when the observer was attached before the
        # allocator existed; history recording creates it.
        fake = fake_torch.make()
        order = []
        record = fake.cuda.memory._record_memory_history
        # The wrapper's signature hides record_pinned_host_memory: not asked.
        fake.cuda.memory._record_memory_history = lambda **kw: (order.append("history"), record(**kw))
        fake._C._cuda_attach_out_of_memory_observer = lambda fn: order.append("observer")
        self.capture(fake, pinned_host=False)
        self.assertEqual(order, ["history", "observer"])

    def test_no_observer_hook(self):
        fake = fake_torch.make(observer=False)
        self.capture(fake)
        self.assertEqual(read_manifest(self.run_dir)["recording"]["oom_observer"], "unavailable")

    def test_oom_snapshot_off(self):
        fake = fake_torch.make()
        self.capture(fake, oom_snapshot=False)
        self.assertEqual(fake.observers(), [])
        m = read_manifest(self.run_dir)
        self.assertEqual(m["recording"]["oom_observer"], "off")
        self.assertIsNone(m["files"]["oom_snapshots"])


class UUIDTest(unittest.TestCase):
    def test_sources(self):
        u = "GPU-0123abcd-0000-1111-2222-333344445555"
        cases = [
            (True, None, "GPU-5eed0001-0000-4000-8000-000000000001", "torch.cuda.get_device_properties"),
            (False, "GPU-aaaa0000-0000-1111-2222-333344445555," + u, u, "CUDA_VISIBLE_DEVICES"),
            # Indices or UUID prefixes name no GPU on their own.
            (False, "0,1", None, None),
            (False, "GPU-0123,GPU-4567", None, None),
        ]
        for has_uuid, visible, want, source in cases:
            with self.subTest(has_uuid=has_uuid, visible=visible):
                fake = fake_torch.make(devices=2, uuid=has_uuid)
                env = dict(CLEAN_ENV)
                if visible is not None:
                    env["CUDA_VISIBLE_DEVICES"] = visible
                with mock.patch.dict(os.environ, env, clear=True), \
                        mock.patch.object(_torchapi, "uuid_from_driver", return_value=None):
                    self.assertEqual(_torchapi.device_uuid(fake, 1), (want, source))

    def test_driver_fallback(self):
        fake = fake_torch.make(uuid=False)
        with mock.patch.dict(os.environ, CLEAN_ENV, clear=True), \
                mock.patch.object(_torchapi, "uuid_from_driver", return_value="GPU-x"):
            self.assertEqual(_torchapi.device_uuid(fake, 0), ("GPU-x", "cuDeviceGetUuid"))

    def test_format(self):
        raw = bytes(range(16))
        self.assertEqual(_torchapi.format_uuid(raw), "GPU-00010203-0405-0607-0809-0a0b0c0d0e0f")


class SwitchTest(CaptureCase):
    def test_environment_turns_capture_off(self):
        fake = fake_torch.make()
        with mock.patch.dict(os.environ, {"GPUREPORT_CAPTURE": "0"}):
            cap = self.capture(fake)
        cap.step(0)
        self.assertFalse(cap.running)
        self.assertFalse(os.path.exists(self.run_dir))
        self.assertEqual(fake.history_calls, [])

    def test_bad_arguments(self):
        bad = [{"stacks": "cpp"}, {"context": "none"}, {"every": -1}, {"max_entries": 1.5}, {"gpu_log": "dcgm"},
               {"stats_every": 0}, {"gpu_log_interval": 0}]
        for kw in bad:
            with self.subTest(kw=kw):
                with self.assertRaises(ValueError):
                    gpureport_capture.Capture(self.run_dir, **kw)

    def test_context_manager_and_module_functions(self):
        fake = fake_torch.make()
        with fake_torch.installed(fake):
            with gpureport_capture.Capture(self.run_dir, every=1, gpu_log=None) as cap:
                cap.step(0)
            self.assertFalse(cap.running)
            cap2 = gpureport_capture.start(self.run_dir, every=1, gpu_log=None)
            self.assertIs(gpureport_capture.current(), cap2)
            gpureport_capture.step(1)
            gpureport_capture.stop()
            self.assertIsNone(gpureport_capture.current())
            gpureport_capture.step(2)  # no capture: nothing happens
        names = sorted(f for f in os.listdir(os.path.join(self.run_dir, "rank0")) if f.startswith("snapshot"))
        self.assertEqual(names, ["snapshot_step_000000.pickle", "snapshot_step_000001.pickle"])

    def test_import_needs_no_torch(self):
        code = ("import sys; sys.modules['torch'] = None\n"
                "import gpureport_capture, gpureport_capture._supervise\n"
                "assert gpureport_capture.Capture is not None\n"
                "print('ok')\n")
        out = subprocess.run([sys.executable, "-c", code], cwd=PKG_PARENT, capture_output=True, text=True,
                             env=dict(CLEAN_ENV, PYTHONPATH=PKG_PARENT))
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.strip(), "ok")

    def test_start_without_torch_says_so(self):
        with mock.patch.dict(sys.modules, {"torch": None}):
            with self.assertRaises(ImportError):
                gpureport_capture.Capture(self.run_dir, gpu_log=None).start()


if __name__ == "__main__":
    unittest.main()
