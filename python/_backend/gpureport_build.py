"""An in-tree PEP 517 build backend for gpureport-capture, standard library only.

``pip install ./python`` (or ``pip install "git+URL#subdirectory=python"``)
builds the package with nothing to download: pyproject.toml names this
module as the backend (``backend-path = ["_backend"]``) and requires
nothing, so pip's isolated build environment stays empty and no package
index is asked. setuptools cannot do that on a machine without ``wheel``.

It builds a pure-Python wheel (py3-none-any) of the gpureport_capture
package, an sdist of the whole folder, and an editable wheel (PEP 660, a
.pth file naming this folder). Archives are reproducible: entries sorted,
times fixed (SOURCE_DATE_EPOCH when set), owners and modes normalised.

The metadata comes from pyproject.toml's [project] table (name, version,
description, requires-python, readme); read with tomllib where Python has
it (3.11+), else with read_project's reader of the flat ``key = "string"``
lines this project's table uses.
"""

import base64
import gzip
import hashlib
import io
import os
import re
import tarfile
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "gpureport_capture"

#: Files and folders never packed: build and test leftovers.
EXCLUDE_DIRS = {"__pycache__", "build", "dist", ".git"}
EXCLUDE_SUFFIXES = (".pyc", ".pyo", ".tmp")

#: The time archive entries carry without SOURCE_DATE_EPOCH: zip's
#: earliest date, 1980-01-01 (a fixed time, so two builds are identical).
DEFAULT_EPOCH = 315532800


# --- PEP 517 hooks ---


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    meta = read_project()
    name = _dist_info(meta)
    os.makedirs(os.path.join(metadata_directory, name), exist_ok=True)
    for fname, data in _metadata_files(meta).items():
        with open(os.path.join(metadata_directory, name, fname), "wb") as f:
            f.write(data)
    return name


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    meta = read_project()
    files = {}
    for rel in _package_files():
        with open(os.path.join(ROOT, rel), "rb") as f:
            files[rel.replace(os.sep, "/")] = f.read()
    return _write_wheel(wheel_directory, meta, files)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    meta = read_project()
    pth = (ROOT + "\n").encode("utf-8")
    return _write_wheel(wheel_directory, meta, {"_%s_editable.pth" % PACKAGE: pth})


def build_sdist(sdist_directory, config_settings=None):
    meta = read_project()
    base = "%s-%s" % (_normalize(meta["name"]), meta["version"])
    path = os.path.join(sdist_directory, base + ".tar.gz")
    mtime = _epoch()
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        entries = {rel.replace(os.sep, "/"): None for rel in _tree_files()}
        entries["PKG-INFO"] = _metadata(meta)
        for rel in sorted(entries):
            data = entries[rel]
            if data is None:
                with open(os.path.join(ROOT, rel), "rb") as f:
                    data = f.read()
            info = tarfile.TarInfo(base + "/" + rel)
            info.size, info.mtime, info.mode = len(data), mtime, 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(data))
    with open(path, "wb") as out:
        with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=mtime) as gz:
            gz.write(raw.getvalue())
    return os.path.basename(path)


# --- metadata ---


def read_project(root=ROOT):
    """The [project] table of root/pyproject.toml as a dict of strings."""
    with open(os.path.join(root, "pyproject.toml"), "rb") as f:
        text = f.read()
    try:
        import tomllib
    except ImportError:
        project = parse_project_table(text.decode("utf-8"))
    else:
        project = tomllib.loads(text.decode("utf-8")).get("project", {})
    for key in ("name", "version"):
        if not isinstance(project.get(key), str):
            raise ValueError("pyproject.toml: [project] needs a string %r" % key)
    return project


def parse_project_table(text):
    """The flat ``key = "string"`` entries of the [project] table, for
    Pythons without tomllib. Other kinds of values are left out, and so are
    the [project.*] subtables."""
    out, inside = {}, False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            inside = line == "[project]"
            continue
        if not inside:
            continue
        m = re.match(r'^([A-Za-z0-9_-]+)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(#.*)?$', line)
        if m:
            out[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
    return out


def _normalize(name):
    """A distribution name as wheel and sdist file names spell it."""
    return re.sub(r"[-_.]+", "_", name).lower()


def _dist_info(meta):
    return "%s-%s.dist-info" % (_normalize(meta["name"]), meta["version"])


def _metadata(meta):
    lines = ["Metadata-Version: 2.1", "Name: %s" % meta["name"], "Version: %s" % meta["version"]]
    if meta.get("description"):
        lines.append("Summary: %s" % meta["description"])
    if meta.get("requires-python"):
        lines.append("Requires-Python: %s" % meta["requires-python"])
    body = ""
    readme = meta.get("readme")
    if isinstance(readme, str):
        with open(os.path.join(ROOT, readme), encoding="utf-8") as f:
            body = f.read()
        lines.append("Description-Content-Type: text/markdown")
    return ("\n".join(lines) + "\n\n" + body).encode("utf-8")


def _metadata_files(meta):
    wheel = "Wheel-Version: 1.0\nGenerator: gpureport_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    return {"METADATA": _metadata(meta), "WHEEL": wheel.encode("utf-8"), "top_level.txt": (PACKAGE + "\n").encode("utf-8")}


# --- files ---


def _walk(top):
    for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
        dirnames[:] = sorted(d for d in dirnames if d not in EXCLUDE_DIRS and not d.endswith(".egg-info"))
        for name in sorted(filenames):
            if name.endswith(EXCLUDE_SUFFIXES):
                continue
            yield os.path.relpath(os.path.join(dirpath, name), ROOT)


def _package_files():
    return list(_walk(PACKAGE))


def _tree_files():
    files = ["pyproject.toml", "README.md"]
    for top in (PACKAGE, "_backend", "tests"):
        files.extend(_walk(top))
    return [f for f in files if os.path.isfile(os.path.join(ROOT, f))]


def _epoch():
    v = os.environ.get("SOURCE_DATE_EPOCH")
    if v and v.isdigit():
        return max(int(v), DEFAULT_EPOCH)
    return DEFAULT_EPOCH


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return "%s,sha256=%s,%d" % (name, digest, len(data))


def _write_wheel(wheel_directory, meta, files):
    """Write a py3-none-any wheel holding files (archive name -> bytes)
    and the dist-info; returns its file name."""
    dist_info = _dist_info(meta)
    entries = dict(files)
    for fname, data in _metadata_files(meta).items():
        entries[dist_info + "/" + fname] = data
    record_name = dist_info + "/RECORD"
    record = [_record_line(n, entries[n]) for n in sorted(entries)] + [record_name + ",,"]
    entries[record_name] = ("\n".join(record) + "\n").encode("utf-8")
    name = "%s-%s-py3-none-any.whl" % (_normalize(meta["name"]), meta["version"])
    date = time.gmtime(_epoch())[:6]
    os.makedirs(wheel_directory, exist_ok=True)
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        # RECORD last, as the wheel spec recommends.
        for n in sorted(entries, key=lambda n: (n == record_name, n)):
            info = zipfile.ZipInfo(n, date_time=date)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, entries[n])
    return name
