from pathlib import Path

import pytest

from harness import datasets
from harness import registry
from harness.plugin import DatasetPlugin, MethodPlugin
from tests.conftest import NOISY_METHOD

TABLE_3_2_METHODS = {"pca", "isomap", "lle", "hlle", "laplacian_eigenmaps"}


def test_datasets_package_is_ours_not_pypi(repo_root):
    # `datasets` is also a popular PyPI package; the environment must not shadow ours.
    assert Path(datasets.__file__).resolve().is_relative_to(repo_root)


def test_table_3_2_spectral_methods_are_registered():
    found = registry.methods(task="embedding")
    assert TABLE_3_2_METHODS <= set(found)
    labels = {found[m].thesis_label for m in TABLE_3_2_METHODS}
    assert labels == {"PCA", "Isomap", "LLE", "hLLE", "Lap"}
    assert all(issubclass(c, MethodPlugin) for c in found.values())


def test_datasets_registered_with_thesis_names():
    found = registry.datasets(task="embedding")
    assert {"swiss_roll", "teapot", "olivetti", "frey", "teapot_standin"} <= set(found)
    assert found["teapot_standin"].stand_in_for == "teapot"
    assert found["teapot_standin"].thesis_name == "teapot"
    assert all(issubclass(c, DatasetPlugin) for c in found.values())


def test_underscore_modules_are_not_scanned():
    # harness/methods/shared/manifold.py defines ManifoldEmbedding (no name) and is a shared core
    assert all(not c.__module__.split(".")[-1].startswith("_")
               for c in registry.methods().values())


def test_unknown_name_lists_valid_ones():
    with pytest.raises(registry.UnknownNameError, match=r"unknown method 'nope'.*isomap"):
        registry.get_method("nope")
    with pytest.raises(registry.UnknownNameError, match=r"unknown dataset 'nope'.*swiss_roll"):
        registry.get_dataset("nope")


def test_dropped_in_file_is_discovered(drop_plugin):
    assert "random_projection_test" not in registry.methods()
    drop_plugin("methods", "random_projection_test", NOISY_METHOD)
    cls = registry.get_method("random_projection_test")
    assert cls.task == "embedding"
    assert "random_projection_test" in registry.methods(task="embedding")


def test_duplicate_plugin_names_are_an_error(drop_plugin):
    drop_plugin("methods", "dup_isomap_test", '''
        from sklearn.base import BaseEstimator
        from harness.plugin import MethodPlugin

        class Again(MethodPlugin, BaseEstimator):
            name = "isomap"
            task = "embedding"
    ''')
    with pytest.raises(ValueError, match="two methods plugins are named 'isomap'"):
        registry.methods()


class _FakeEntryPoint:
    def __init__(self, name, obj):
        self.name, self._obj = name, obj

    def load(self):
        return self._obj


def test_entry_point_plugins_are_registered(monkeypatch):
    from sklearn.base import BaseEstimator

    class External(MethodPlugin, BaseEstimator):
        name = "external_test"
        task = "embedding"

    def fake_entry_points(group):
        return [_FakeEntryPoint("external_test", External)] if group == "harness.methods" else []

    monkeypatch.setattr(registry, "entry_points", fake_entry_points)
    registry.refresh()
    try:
        assert registry.get_method("external_test") is External
        monkeypatch.setattr(registry, "entry_points",
                            lambda group: [_FakeEntryPoint("bad", object)])
        registry.refresh()
        with pytest.raises(TypeError, match="not a MethodPlugin subclass"):
            registry.methods()
    finally:
        monkeypatch.undo()
        registry.refresh()


def test_validating_a_profile_imports_no_plugin_and_no_heavy_library(repo_root):
    """A job process validates the whole profile: names and declared attributes come
    from the plugin index, so no plugin module (nor scikit-learn, pandas, cvxpy,
    numba) is imported for it; the job imports what it runs."""
    import subprocess
    import sys

    code = ("import sys; from harness import registry; registry.methods(); "
            "from harness.config import load_config; load_config('config/quick.yaml'); "
            "print(sorted(m for m in sys.modules if m.startswith(('harness.methods.', 'harness.datasets.', "
            "'sklearn', 'pandas', 'cvxpy', 'numba'))))")
    for _ in range(2):  # the first may build the index (importing every plugin)
        out = subprocess.run([sys.executable, "-c", code], cwd=repo_root, check=True,
                             capture_output=True, text=True).stdout
    assert out.strip() == "[]"


def test_a_looked_up_plugin_alone_is_imported(repo_root):
    import subprocess
    import sys

    code = ("import sys; from harness import registry; cls = registry.get_method('pca'); "
            "print(cls.__name__, sorted(m for m in sys.modules if m.startswith('harness.methods.')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=repo_root, check=True,
                         capture_output=True, text=True).stdout
    name, modules = out.split(" ", 1)
    plugins = [m for m in eval(modules) if not m.startswith("harness.methods.shared")]
    assert name == "PCA" and plugins == ["harness.methods.pca"]  # shared code may come along


def test_the_index_follows_an_edited_plugin_file(drop_plugin, repo_root):
    """An edit of a plugin's declared attribute is seen by the next process (the index
    is keyed by the files' content), a stale or corrupt stored index is rebuilt, and a
    process that had imported the old module never stores what it still sees."""
    import subprocess
    import sys

    path = drop_plugin("methods", "random_projection_test", NOISY_METHOD)
    stored = registry.index_path("methods")  # this view's: the test plugin in it
    assert stored.name.startswith("harness_plugins.methods.") and stored.parent == (
        path.parent / "__pycache__") and not stored.exists()
    code = ("from harness import registry; "
            "print(registry.method_info('random_projection_test').thesis_label)")
    # a fresh process (it imports no plugin before its scan) stores the index
    out = subprocess.run([sys.executable, "-c", code], cwd=repo_root, check=True,
                         capture_output=True, text=True).stdout
    assert out.strip() == "" and stored.is_file()
    assert registry.method_info("random_projection_test").thesis_label == ""
    assert registry.method_info("random_projection_test").init_params == (
        "n_components", "random_state")
    registry.get_method("random_projection_test")  # this process now holds the module
    path.write_text(path.read_text().replace('thesis_label = ""', 'thesis_label = "RP"'))
    registry.refresh()
    before = stored.read_text()
    assert registry.method_info("random_projection_test").thesis_label == ""  # its module
    assert stored.read_text() == before  # not stored: the old key still there
    for corrupt in (False, True):
        if corrupt:
            stored.write_text("{not json")
        out = subprocess.run([sys.executable, "-c", code], cwd=repo_root, check=True,
                             capture_output=True, text=True).stdout
        assert out.strip() == "RP"
        assert stored.read_text() != before and stored.read_text().startswith('{"key"')


def test_the_index_agrees_with_importing_every_plugin():
    """What the index says of each plugin is what the class says."""
    for kind, found in (("methods", registry.methods()), ("datasets", registry.datasets())):
        info = registry.method_info if kind == "methods" else registry.dataset_info
        for name, cls in found.items():
            for attribute in registry.INDEXED[kind]:
                value = getattr(cls, attribute)
                assert getattr(info(name), attribute) == (
                    tuple(value) if isinstance(value, list) else value), (name, attribute)
