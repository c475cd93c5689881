"""The background GPU logger: which command, fallback, and that no logger
outlives its capture or its training process. Fake gpureport and
nvidia-smi programs stand in for the real ones."""

import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest
from unittest import mock

import fake_torch

import gpureport_capture
from gpureport_capture import _gpulog

PKG_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: How long the tests wait for a process to start or end, seconds: a bound
#: on a loaded machine, not a timing being tested.
WAIT = 20.0

# A logger that writes its pid next to its output and a line every 50 ms
# until terminated, like nvidia-smi -f FILE -l.
FAKE_SMI = """\
import os, sys, time
path = sys.argv[sys.argv.index("-f") + 1]
with open(path + ".pid", "w") as f:
    f.write(str(os.getpid()))
with open(path, "w") as f:
    f.write("timestamp, index, uuid, name, memory.used [MiB], memory.total [MiB], utilization.gpu [%]\\n")
    while True:
        f.write("2024/05/01 12:00:00.000, 0, GPU-5eed0000-0000-4000-8000-000000000000, Fake GPU, 1000 MiB, 81559 MiB, 0 %\\n")
        f.flush()
        time.sleep(0.05)
"""

# gpureport without NVML: exits 5 at once, as `gpureport record` does.
FAKE_GPUREPORT_NO_NVML = """\
import sys
print("gpureport record: NVML unavailable", file=sys.stderr)
sys.exit(5)
"""


def write_tool(bindir, name, body):
    path = os.path.join(bindir, name)
    with open(path, "w") as f:
        f.write("#!%s\n%s" % (sys.executable, body))
    os.chmod(path, 0o755)
    return path


def alive(pid):
    """Whether process pid runs (a zombie does not)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_for(cond, what):
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + what)


def smi_pid(log_dir):
    for name in os.listdir(log_dir):
        if name.endswith(".pid"):
            with open(os.path.join(log_dir, name)) as f:
                text = f.read()
            if text:
                return int(text)
    return None


class CommandsTest(unittest.TestCase):
    def test_order_and_interval(self):
        both = {"gpureport": "/bin/gpureport", "nvidia-smi": "/bin/nvidia-smi"}.get
        cases = [
            # (which, prefer, interval, want programs, want loop args)
            (both, "auto", 1.0, ["/bin/gpureport", "/bin/nvidia-smi"], ["-l", "1"]),
            (both, "auto", 0.5, ["/bin/gpureport", "/bin/nvidia-smi"], ["-lms", "500"]),
            (both, "nvidia-smi", 2.0, ["/bin/nvidia-smi"], ["-l", "2"]),
            (both, "gpureport", 1.0, ["/bin/gpureport", "/bin/nvidia-smi"], ["-l", "1"]),
            ({"nvidia-smi": "/bin/nvidia-smi"}.get, "auto", 1.0, ["/bin/nvidia-smi"], ["-l", "1"]),
            ({}.get, "auto", 1.0, [], None),
        ]
        for which, prefer, interval, want, loop in cases:
            with self.subTest(prefer=prefer, interval=interval):
                cmds = _gpulog.commands("/run/gpu_logs/h", interval, prefer, which)
                self.assertEqual([c[0] for c in cmds], want)
                for c in cmds:
                    if c[0].endswith("gpureport"):
                        self.assertEqual(c[1:5], ["record", "-o", "/run/gpu_logs/h", "--interval"])
                        self.assertEqual(c[5], "%dms" % (interval * 1000))
                    else:
                        self.assertIn("--query-gpu=" + _gpulog.NVIDIA_SMI_QUERY, c)
                        self.assertIn("--format=csv", c)
                        i = c.index("-f")
                        self.assertEqual(c[i - 2:i], loop)
                        self.assertTrue(c[i + 1].startswith("/run/gpu_logs/h/nvidia-smi-"))

    def test_query_is_what_gpureport_reads(self):
        # The README's manual recipe logs these columns; gpureport's
        # nvidia-smi CSV reader names each of them.
        self.assertEqual(_gpulog.NVIDIA_SMI_QUERY.split(","),
                         ["timestamp", "index", "uuid", "name", "memory.used", "memory.total", "utilization.gpu"])


@unittest.skipUnless(os.name == "posix", "the fake loggers are POSIX scripts")
class LoggerTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.bin = os.path.join(self.tmp.name, "bin")
        os.makedirs(self.bin)
        self.run_dir = os.path.join(self.tmp.name, "run")
        self.path = mock.patch.dict(os.environ, {"PATH": self.bin + os.pathsep + "/usr/bin:/bin"})
        self.path.start()
        self.addCleanup(self.path.stop)

    def logger(self):
        g = _gpulog.GPULogger(self.run_dir, "node-1", 1.0, "auto")
        self.addCleanup(g.stop)
        return g

    def test_runs_until_stopped(self):
        write_tool(self.bin, "nvidia-smi", FAKE_SMI)
        g = self.logger()
        self.assertTrue(g.start())
        wait_for(lambda: smi_pid(g.dir) is not None, "the logger to start")
        pid = smi_pid(g.dir)
        self.assertTrue(alive(pid))
        g.stop()
        wait_for(lambda: not alive(pid), "the logger to end")
        csv = [n for n in os.listdir(g.dir) if n.endswith(".csv")]
        self.assertEqual(len(csv), 1)
        self.assertEqual(g.dir, os.path.join(self.run_dir, "gpu_logs", "node-1"))

    def test_falls_back_when_gpureport_cannot_record(self):
        write_tool(self.bin, "gpureport", FAKE_GPUREPORT_NO_NVML)
        write_tool(self.bin, "nvidia-smi", FAKE_SMI)
        g = self.logger()
        self.assertEqual([os.path.basename(c[0]) for c in g.commands], ["gpureport", "nvidia-smi"])
        g.start()
        wait_for(lambda: smi_pid(g.dir) is not None, "the fallback logger to start")
        g.stop()

    def test_no_logger_installed(self):
        g = self.logger()
        self.assertFalse(g.start())
        self.assertFalse(os.path.exists(g.dir))

    def test_ends_with_a_killed_training_process(self):
        # The training process dies by SIGKILL: no atexit, no stop(). The
        # supervisor sees its parent gone and ends the logger.
        write_tool(self.bin, "nvidia-smi", FAKE_SMI)
        script = textwrap.dedent("""
            import sys, time
            from gpureport_capture import _gpulog
            g = _gpulog.GPULogger(sys.argv[1], "node-1", 1.0, "auto")
            g.start()
            print(g.proc.pid, flush=True)
            time.sleep(600)
        """)
        env = dict(os.environ, PYTHONPATH=PKG_PARENT)
        trainer = subprocess.Popen([sys.executable, "-c", script, self.run_dir], stdout=subprocess.PIPE, text=True,
                                   env=env)
        self.addCleanup(trainer.stdout.close)
        self.addCleanup(trainer.kill)
        supervisor = int(trainer.stdout.readline())
        log_dir = os.path.join(self.run_dir, "gpu_logs", "node-1")
        wait_for(lambda: os.path.isdir(log_dir) and smi_pid(log_dir) is not None, "the logger to start")
        tool = smi_pid(log_dir)
        trainer.send_signal(signal.SIGKILL)
        trainer.wait()
        wait_for(lambda: not alive(tool), "the orphaned logger to end")
        wait_for(lambda: not alive(supervisor), "the supervisor to end")


@unittest.skipUnless(os.name == "posix", "the fake loggers are POSIX scripts")
class CaptureGPULogTest(unittest.TestCase):
    def test_local_rank_zero_logs(self):
        with tempfile.TemporaryDirectory() as tmp:
            bindir = os.path.join(tmp, "bin")
            os.makedirs(bindir)
            write_tool(bindir, "nvidia-smi", FAKE_SMI)
            run = os.path.join(tmp, "run")
            env = {"PATH": bindir + os.pathsep + "/usr/bin:/bin", "RANK": "0", "LOCAL_RANK": "0", "WORLD_SIZE": "2"}
            for local_rank, want in ((0, True), (1, False)):
                with self.subTest(local_rank=local_rank):
                    fake = fake_torch.make()
                    env.update(RANK=str(local_rank), LOCAL_RANK=str(local_rank))
                    with mock.patch.dict(os.environ, env), fake_torch.installed(fake):
                        cap = gpureport_capture.Capture(run, every=0).start()
                    try:
                        with open(os.path.join(run, "rank%d" % local_rank, "gpureport-capture.json")) as f:
                            m = json.load(f)
                        self.assertEqual(m["files"]["gpu_log_dir"] is not None, want)
                        if want:
                            host = _gpulog._layout.host_folder(m["host"])
                            self.assertEqual(m["files"]["gpu_log_dir"], "gpu_logs/" + host)
                            self.assertEqual(m["recording"]["gpu_log"], "on")
                            log_dir = os.path.join(run, "gpu_logs", host)
                            wait_for(lambda: smi_pid(log_dir) is not None, "the logger to start")
                            pid = smi_pid(log_dir)
                    finally:
                        cap.stop()
                    if want:
                        wait_for(lambda: not alive(pid), "the logger to end with the capture")


if __name__ == "__main__":
    unittest.main()
