"""The in-tree build backend: wheel, sdist and editable wheel, built with
nothing to download, and pip installing with no package index."""

import base64
import csv
import hashlib
import io
import os
import subprocess
import sys
import tarfile
import tempfile
import unittest
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "_backend"))

import gpureport_build  # noqa: E402

import gpureport_capture  # noqa: E402


class BackendTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def test_requires_nothing(self):
        for hook in ("get_requires_for_build_wheel", "get_requires_for_build_sdist", "get_requires_for_build_editable"):
            self.assertEqual(getattr(gpureport_build, hook)(), [], hook)

    def test_project_metadata(self):
        meta = gpureport_build.read_project()
        self.assertEqual(meta["name"], "gpureport-capture")
        self.assertEqual(meta["version"], gpureport_capture.__version__)
        self.assertEqual(meta["requires-python"], ">=3.8")

    def test_fallback_reader_agrees_with_tomllib(self):
        with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
            text = f.read()
        got = gpureport_build.parse_project_table(text)
        try:
            import tomllib
        except ImportError:
            self.assertEqual(got["name"], "gpureport-capture")
            return
        want = {k: v for k, v in tomllib.loads(text)["project"].items() if isinstance(v, str)}
        self.assertEqual(got, want)

    def test_fallback_reader(self):
        text = '[build-system]\nname = "no"\n[project]\nname = "a-b" # c\nversion="1.0"\nkeywords = ["x"]\n' \
               'description = "say \\"hi\\""\n[project.urls]\nhome = "x"\n'
        self.assertEqual(gpureport_build.parse_project_table(text),
                         {"name": "a-b", "version": "1.0", "description": 'say "hi"'})

    def test_wheel(self):
        name = gpureport_build.build_wheel(self.tmp.name)
        self.assertEqual(name, "gpureport_capture-%s-py3-none-any.whl" % gpureport_capture.__version__)
        with zipfile.ZipFile(os.path.join(self.tmp.name, name)) as z:
            names = z.namelist()
            dist = "gpureport_capture-%s.dist-info/" % gpureport_capture.__version__
            self.assertIn("gpureport_capture/__init__.py", names)
            self.assertIn("gpureport_capture/_supervise.py", names)
            self.assertFalse([n for n in names if n.startswith(("tests/", "_backend/")) or n.endswith(".pyc")])
            self.assertEqual(names[-1], dist + "RECORD")
            wheel = z.read(dist + "WHEEL").decode()
            self.assertIn("Root-Is-Purelib: true", wheel)
            self.assertIn("Tag: py3-none-any", wheel)
            meta = z.read(dist + "METADATA").decode()
            self.assertIn("Name: gpureport-capture\n", meta)
            self.assertIn("Requires-Python: >=3.8\n", meta)
            self.assertNotIn("Requires-Dist", meta)
            # Every file is in RECORD with its hash and size.
            rows = list(csv.reader(io.StringIO(z.read(dist + "RECORD").decode())))
            self.assertEqual(sorted(r[0] for r in rows), sorted(names))
            for path, digest, size in rows:
                if path == dist + "RECORD":
                    self.assertEqual((digest, size), ("", ""))
                    continue
                data = z.read(path)
                want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                self.assertEqual((digest, int(size)), (want, len(data)), path)

    def test_reproducible(self):
        a = os.path.join(self.tmp.name, "a")
        b = os.path.join(self.tmp.name, "b")
        for d in (a, b):
            gpureport_build.build_wheel(d)
            gpureport_build.build_sdist(d)
        for name in os.listdir(a):
            with open(os.path.join(a, name), "rb") as fa, open(os.path.join(b, name), "rb") as fb:
                self.assertEqual(fa.read(), fb.read(), name)

    def test_sdist_builds_again(self):
        # An sdist holds the backend too: pip can build a wheel from it.
        name = gpureport_build.build_sdist(self.tmp.name)
        base = "gpureport_capture-%s" % gpureport_capture.__version__
        self.assertEqual(name, base + ".tar.gz")
        with tarfile.open(os.path.join(self.tmp.name, name)) as t:
            names = t.getnames()
            for want in ("pyproject.toml", "README.md", "PKG-INFO", "_backend/gpureport_build.py",
                         "gpureport_capture/__init__.py", "tests/fake_torch.py"):
                self.assertIn(base + "/" + want, names)
            self.assertTrue(all(m.uid == 0 and m.mode == 0o644 for m in t.getmembers()))

    def test_editable(self):
        name = gpureport_build.build_editable(self.tmp.name)
        with zipfile.ZipFile(os.path.join(self.tmp.name, name)) as z:
            self.assertEqual(z.read("_gpureport_capture_editable.pth").decode().strip(), ROOT)

    def test_prepare_metadata(self):
        dist = gpureport_build.prepare_metadata_for_build_wheel(self.tmp.name)
        self.assertTrue(os.path.isfile(os.path.join(self.tmp.name, dist, "METADATA")))


def have_pip():
    return subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode == 0


@unittest.skipUnless(have_pip(), "pip is not installed for this Python")
class PipTest(unittest.TestCase):
    def test_pip_installs_without_an_index(self):
        # --no-index: pip may download nothing; build isolation is on, so
        # the build environment holds only what the backend requires
        # (nothing).
        with tempfile.TemporaryDirectory() as tmp:
            target = os.path.join(tmp, "site")
            env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
            env.pop("PYTHONPATH", None)
            out = subprocess.run([sys.executable, "-m", "pip", "install", "--no-index", "--no-cache-dir", "--quiet",
                                  "--target", target, ROOT], capture_output=True, text=True, env=env, cwd=tmp)
            self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
            self.assertTrue(os.path.isfile(os.path.join(target, "gpureport_capture", "__init__.py")))
            code = "import sys; sys.modules['torch'] = None; import gpureport_capture as c; print(c.__version__)"
            got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp,
                                 env=dict(env, PYTHONPATH=target))
            self.assertEqual(got.stdout.strip(), gpureport_capture.__version__, got.stderr)


if __name__ == "__main__":
    unittest.main()
