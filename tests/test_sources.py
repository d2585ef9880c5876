"""One source-tracking rule for every job (harness.sources): the project modules a
job's code imports. A cell of LMNN reruns when harness/methods/shared/lmnn_core.py changes, an MVU
cell when the native solver does (they used to list only the plugin files)."""

from __future__ import annotations

import sys
import textwrap

import pytest

import harness.sources as sources
from harness.config import load_config
from harness.sources import imported_names, source_closure
from harness.workflow import WorkflowConfig


@pytest.fixture
def toy_package(tmp_path, monkeypatch):
    """pkgx: a (function-level relative import of b) -> b (absolute import of c);
    d stands alone; pkgx/sub/__init__ imports d; sub/e imports nothing."""
    files = {
        "pkgx/__init__.py": "",
        "pkgx/a.py": "def f():\n    from . import b\n    return b\n",
        "pkgx/b.py": "import numpy\nimport pkgx.c as c\n",
        "pkgx/c.py": "import os\n",
        "pkgx/d.py": "",
        "pkgx/sub/__init__.py": "from pkgx import d\n",
        "pkgx/sub/e.py": "x = 1\n",
        "plugin_elsewhere.py": "from pkgx import b\nclass Plugin:\n    pass\n",
    }
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sources, "PROJECT_PACKAGES", ("pkgx",))
    sources._package_root.cache_clear()
    sources._closure.cache_clear()
    yield tmp_path
    sources._package_root.cache_clear()
    sources._closure.cache_clear()
    for name in [m for m in sys.modules if m.split(".")[0] in ("pkgx", "plugin_elsewhere")]:
        del sys.modules[name]


def _names(paths, root):
    return sorted(str(p).removeprefix(str(root.resolve()) + "/") for p in paths)


def test_closure_follows_function_level_relative_and_aliased_imports(toy_package):
    assert _names(source_closure("pkgx.a"), toy_package) == [
        "pkgx/__init__.py", "pkgx/a.py", "pkgx/b.py", "pkgx/c.py"]  # not d; no numpy


def test_a_package_on_the_way_counts_without_its_imports(toy_package):
    assert _names(source_closure("pkgx.sub.e"), toy_package) == [
        "pkgx/__init__.py", "pkgx/sub/__init__.py", "pkgx/sub/e.py"]
    # imported by name, the package's own imports count
    assert "pkgx/d.py" in _names(source_closure("pkgx.sub"), toy_package)


def test_a_plugin_outside_the_project_counts_with_what_it_imports(toy_package):
    import plugin_elsewhere

    assert _names(source_closure(plugin_elsewhere.Plugin), toy_package) == [
        "pkgx/__init__.py", "pkgx/b.py", "pkgx/c.py", "plugin_elsewhere.py"]


def test_imported_names_resolves_relative_imports(toy_package):
    names = imported_names("pkgx.a", toy_package / "pkgx" / "a.py")
    assert names == {"pkgx", "pkgx.b"}
    assert imported_names("pkgx.sub", toy_package / "pkgx/sub/__init__.py") == {
        "pkgx", "pkgx.d"}


def _cell_sources(cell):
    harness = WorkflowConfig("config/quick.yaml", load_config("config/quick.yaml"))
    return harness.job_sources(type("W", (), {"job": cell}))


def test_table_cells_depend_on_the_shared_code_they_run(repo_root, monkeypatch):
    monkeypatch.chdir(repo_root)
    lmnn = _cell_sources("table_2_1/iris/pca_lmnn")
    for shared in ("harness/methods/pca_lmnn.py", "harness/methods/shared/lmnn_core.py", "harness/datasets/iris.py",
                   "harness/runner.py", "harness/tasks/classification.py",
                   "harness/metrics/__init__.py"):
        assert shared in lmnn, shared
    mvu = _cell_sources("table_3_2/swiss_roll/mvu")
    for shared in ("harness/methods/mvu.py", "harness/solvers/mvu_sdp/native_solver.py",
                   "harness/solvers/mvu_sdp/lowrank.py",
                   "harness/solvers/mvu_sdp/ipm.py", "harness/problems/mvu_certificate.py",
                   "harness/datasets/swiss_roll.py"):
        assert shared in mvu, shared
    # relative to the working directory, and nothing of other plugins or the report
    assert all(not p.startswith("/") for p in lmnn + mvu)
    assert "harness/methods/mvu.py" not in lmnn and "harness/datasets/swiss_roll.py" not in lmnn
    assert not any(p.startswith("harness/report") for p in lmnn + mvu)
