"""``pip install`` of the project adds one top-level package, ``harness``: the method
and data set plugins are installed under its namespace (``harness.methods``,
``harness.datasets``), so they never shadow, nor are shadowed by, PyPI's ``datasets``
or another package's ``methods``."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile

import pytest

pytestmark = pytest.mark.slow


def test_the_wheel_has_one_top_level_package(tmp_path, repo_root):
    # built from a copy: setuptools writes build/ and *.egg-info beside the sources
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(repo_root / name, source / name)
    shutil.copytree(repo_root / "harness", source / "harness",
                    ignore=shutil.ignore_patterns("__pycache__"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                            "--no-build-isolation", "-q", "-w", str(tmp_path), str(source)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = tmp_path.glob("weinberger_harness-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    tops = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(
        (".dist-info", ".data"))}
    assert tops == {"harness"}, tops
    for plugin in ("harness/methods/mvu.py", "harness/datasets/swiss_roll.py",
                   "harness/solvers/backends/clarabel.py",
                   "harness/claims_register/chapter_2.yaml",
                   "harness/results/solver_table/schema.yaml",
                   "harness/results/common/declare/balltree_schema.yaml",
                   "harness/report/templates/report.html.j2"):
        assert plugin in names, plugin
