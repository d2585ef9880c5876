"""Shared fixtures: the repository root, and dropping temporary plugin files into
``harness/methods/``, ``harness/datasets/`` and ``harness/solvers/backends/`` exactly as a method or
solver author would."""

from __future__ import annotations

import importlib
import os
import shutil
import sys
import textwrap
from pathlib import Path

import pytest

from harness import registry

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture
def drop_plugin(monkeypatch):
    """Write ``harness/methods/<module>.py``, ``harness/datasets/<module>.py`` or
    ``harness/solvers/backends/<module>.py`` (``module`` ending in ``_test``; kind
    ``methods``, ``datasets`` or ``backends``); removed afterwards. The plugin is in view of this test's processes
    only (``HARNESS_TEST_PLUGINS``, :mod:`harness.registry`); under pytest-xdist the
    file name carries the worker (``<stem>_gw1_test.py``), so that two tests running
    at once never write the same file. Tests name the plugin by its ``name``, never
    by its module."""
    written: list[Path] = []
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")

    def write(kind: str, module: str, source: str) -> Path:
        assert module.endswith("_test"), f"a test plugin's module ends in _test: {module}"
        if worker:
            module = f"{module[:-len('_test')]}_{worker}_test"
        package = importlib.import_module(registry.PACKAGES[kind])
        path = Path(package.__path__[0]) / f"{module}.py"
        assert not path.exists(), f"{path} exists already"
        path.write_text(textwrap.dedent(source))
        written.append(path)
        monkeypatch.setenv(registry.TEST_PLUGINS_VARIABLE,
                           ",".join(p.stem for p in written))
        registry.refresh()
        return path

    yield write
    if written:  # this view's stored plugin indexes (harness.registry.index_path)
        for kind in registry.PACKAGES:
            registry.index_path(kind).unlink(missing_ok=True)
    for path in written:
        path.unlink(missing_ok=True)
        shutil.rmtree(path.parent / "__pycache__" / f"{path.stem}", ignore_errors=True)
        for cached in (path.parent / "__pycache__").glob(f"{path.stem}.*.pyc"):
            cached.unlink()
        for kind, package in registry.PACKAGES.items():
            sys.modules.pop(f"{package}.{path.stem}", None)
    registry.refresh()


def embedding_plugin(name: str, fit_transform_body: str, imports: str = "") -> str:
    """Source of a minimal embedding plugin whose ``fit_transform`` runs the given
    one-line body (for tests of how the harness handles what a plugin does)."""
    return f'''
{imports}
from sklearn.base import BaseEstimator
from harness.plugin import MethodPlugin


class TestPlugin(MethodPlugin, BaseEstimator):
    """A test plugin.

    Parameters
    ----------
    n_components : int
    """

    name = "{name}"
    task = "embedding"

    def __init__(self, *, n_components=2):
        self.n_components = n_components

    def fit_transform(self, X, y=None):
        {fit_transform_body}
'''


# Test-only plugins, written as a method author would write them.
NOISY_METHOD = '''
    """A test plugin: a random projection (drop-in method)."""
    import numpy as np
    from sklearn.base import BaseEstimator
    from harness.plugin import MethodPlugin


    class RandomProjection(MethodPlugin, BaseEstimator):
        """Random linear projection.

        Parameters
        ----------
        n_components : int
        random_state : int or None
        """

        name = "random_projection_test"
        task = "embedding"
        thesis_label = ""

        def __init__(self, *, n_components=2, random_state=None):
            self.n_components = n_components
            self.random_state = random_state

        def fit(self, X, y=None):
            rng = np.random.default_rng(self.random_state)
            self.embedding_ = X @ rng.standard_normal((X.shape[1], self.n_components))
            return self

        def fit_transform(self, X, y=None):
            return self.fit(X).embedding_
'''

BAD_DATASETS = '''
    """Test plugins: data sets that must become marked records, not crashes."""
    import numpy as np
    from harness.plugin import Dataset, DatasetPlugin


    class WithNaN(DatasetPlugin):
        name = "with_nan_test"

        def load(self, n=60):
            X = np.random.default_rng(0).standard_normal((n, 3))
            X[5, 1] = np.nan
            return Dataset(X, None, {"source": "generated"})


    class TwoClusters(DatasetPlugin):
        name = "two_clusters_test"

        def load(self, n=80):
            X = np.random.default_rng(0).standard_normal((n, 3))
            X[n // 2:] += 1000.0
            return Dataset(X, None, {"source": "generated"})


    class OneSample(DatasetPlugin):
        name = "one_sample_test"

        def load(self):
            return Dataset(np.ones((1, 3)), None, {"source": "generated"})
'''
