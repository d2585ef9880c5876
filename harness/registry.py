"""Discovery of method, dataset and solver backend plugins.

A plugin is any class defined in a module of the ``harness.methods`` (or ``harness.datasets``)
package that derives from :class:`harness.plugin.MethodPlugin` (or
:class:`harness.plugin.DatasetPlugin`) and sets a non-empty ``name``, or a class of
:mod:`harness.solvers.backends` that derives from
:class:`harness.solvers.backend.SolverBackend` (named after its file). Modules whose
file name starts with an underscore, and subpackages (``harness.methods.shared``), hold
shared code and are not scanned. Installed
packages may add plugins through the entry-point groups ``harness.methods``,
``harness.datasets`` and ``harness.backends`` (``name = "module:Class"``).

Dropping one file into ``harness/methods/`` is therefore all it takes to add a method: the
registry, ``harness list``, the Snakemake DAG and every table of the method's task
pick it up.

A module whose name ends in ``_test`` is a test's temporary plugin (the test suite's
``drop_plugin`` fixture writes one into ``harness/methods/`` or ``harness/datasets/``): it is seen
only by the processes of the test that wrote it, which name it in the environment
variable ``HARNESS_TEST_PLUGINS`` (comma-separated module names), so that tests
running at the same time (pytest-xdist) never see one another's.

Plugins are imported only when asked for. Their names and declared class attributes
(:data:`INDEXED`: task, labels, solvers, ...) come from an index built by importing
every plugin module once and kept in the package's ``__pycache__``, keyed by the
content of every ``.py`` file of the package, of :mod:`harness.plugin` and of this
module: any edit,
added or removed file rebuilds it, so the index never outlives the code it describes
(an attribute computed from another package's code at import time is the one thing
it cannot see; no plugin does that). A job therefore imports only the plugins it
runs, not all of them (measured: validating the quick profile imported all 47 plugin
modules, 1.5 CPU-s per job process).
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import inspect
import json
import os
import pkgutil
import sys
import tempfile
from collections.abc import Iterator, Mapping
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType, SimpleNamespace

from harness.plugin import DatasetPlugin, MethodPlugin
from harness.solvers.backend import SolverBackend

__all__ = ["methods", "datasets", "backends", "get_method", "get_dataset", "get_backend",
           "method_info", "dataset_info", "backend_info", "backend_status",
           "UnknownNameError", "INDEXED", "TEST_PLUGINS_VARIABLE", "index_path"]

#: The package each kind of plugin is discovered in.
PACKAGES = {"methods": "harness.methods", "datasets": "harness.datasets",
            "backends": "harness.solvers.backends"}
#: Kinds whose plugin attributes are computed from another kind's plugins at import
#: (a method's ``solvers`` lists the backends): their index is keyed by those too.
DEPENDS = {"methods": ("backends",)}
ENTRY_POINT_GROUPS = {kind: f"harness.{kind}" for kind in PACKAGES}
BASES = {"methods": MethodPlugin, "datasets": DatasetPlugin, "backends": SolverBackend}
#: The class attributes read without importing a plugin (:func:`method_info`,
#: :func:`dataset_info`; JSON values, tuples as tuples); a method's info also has
#: ``init_params``, its constructor's argument names, a data set's ``load_params``, load()'s.
INDEXED = {"methods": ("name", "task", "thesis_label", "references", "solvers",
                       "uses_neighbors", "table_note", "measures", "classifier_kind",
                       "table_params"),
           "datasets": ("name", "thesis_name", "stand_in_for", "tasks", "description",
                        "params"),
           "backends": ("name", "order", "description", "modules", "programs", "install",
                        "variants", "linear_cost", "max_n", "cvxpy_name", "options")}
INDEX_FILE = "harness_plugins.json"
#: the environment variable naming the test plugins (``*_test`` modules) in view
TEST_PLUGINS_VARIABLE = "HARNESS_TEST_PLUGINS"


def _in_view(module: str) -> bool:
    """Whether a plugin module is scanned: every one but the ``*_test`` modules that
    :data:`TEST_PLUGINS_VARIABLE` does not name (another test's temporary plugins)."""
    if not module.endswith("_test"):
        return True
    return module in os.environ.get(TEST_PLUGINS_VARIABLE, "").split(",")


class UnknownNameError(KeyError):
    """A method or dataset name that no plugin provides."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


def _plugin_classes(module: ModuleType, base: type) -> list[type]:
    return [
        obj
        for _, obj in inspect.getmembers(module, inspect.isclass)
        if issubclass(obj, base)
        and obj is not base
        and obj.__module__ == module.__name__
        and getattr(obj, "name", "")
    ]


def _scan_package(kind: str) -> list[type]:
    package = importlib.import_module(PACKAGES[kind])
    found: list[type] = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if info.ispkg or info.name.startswith("_") or not _in_view(info.name):
            continue  # shared code (harness.methods.shared, _*.py), not plugins
        module = importlib.import_module(f"{PACKAGES[kind]}.{info.name}")
        found.extend(_plugin_classes(module, BASES[kind]))
    return found


def _scan_entry_points(kind: str) -> list[type]:
    found = []
    for ep in entry_points(group=ENTRY_POINT_GROUPS[kind]):
        obj = ep.load()
        if not (inspect.isclass(obj) and issubclass(obj, BASES[kind])):
            raise TypeError(
                f"entry point {ep.name!r} in group {ENTRY_POINT_GROUPS[kind]!r} "
                f"points to {obj!r}, which is not a {BASES[kind].__name__} subclass"
            )
        found.append(obj)
    return found


#: What a plugin of each kind must define beyond its base class (checked at discovery).
REQUIRED = {"backends": ("solve",)}


def _check_unique(kind: str, classes: list[type]) -> dict[str, type]:
    registry: dict[str, type] = {}
    for cls in classes:
        missing = [a for a in REQUIRED.get(kind, ()) if not callable(getattr(cls, a, None))]
        if missing:
            raise TypeError(f"{kind} plugin {cls.__module__}.{cls.__qualname__} defines no "
                            f"{', '.join(missing)}(); see {BASES[kind].__module__}")
        other = registry.get(cls.name)
        if other is not None and other is not cls:
            raise ValueError(
                f"two {kind} plugins are named {cls.name!r}: "
                f"{other.__module__}.{other.__qualname__} and "
                f"{cls.__module__}.{cls.__qualname__}; rename one"
            )
        registry[cls.name] = cls
    return registry


def _jsonable(value):
    return list(value) if isinstance(value, tuple) else value


def _init_params(cls: type) -> list[str]:
    """The constructor's argument names (scikit-learn's ``get_params`` keys)."""
    names = getattr(cls, "_get_param_names", None)
    if names is not None:
        return list(names())
    return [p for p in inspect.signature(cls.__init__).parameters if p != "self"]


def _attributes(kind: str, cls: type) -> dict:
    """A plugin's :data:`INDEXED` attributes (and, for a method, ``init_params``, its
    constructor's argument names; for a data set, ``load_params``, ``load()``'s)."""
    out = {a: _jsonable(getattr(cls, a)) for a in INDEXED[kind]}
    out["module"] = cls.__module__
    if kind == "methods":
        out["init_params"] = _init_params(cls)
    elif kind == "datasets":
        out["load_params"] = [p for p in inspect.signature(cls.load).parameters
                              if p != "self"]
    return out


def _folder(kind: str) -> Path:
    return Path(importlib.import_module(PACKAGES[kind]).__path__[0])


def _source_key(kind: str) -> tuple[Path, str]:
    """The package's folder and a digest of every ``.py`` file in it (its subpackages of
    shared code included: a plugin's attributes may come from a shared base class) and in the
    packages of :data:`DEPENDS`, of the base classes' modules (their defaults) and of
    this module (what the index holds)."""
    folder = _folder(kind)
    digest = hashlib.sha256()
    sources = [p for k in (kind, *DEPENDS.get(kind, ())) for p in sorted(_folder(k).rglob("*.py"))
               if _in_view(p.stem) and "__pycache__" not in p.parts]
    bases = [Path(inspect.getfile(MethodPlugin)), Path(inspect.getfile(SolverBackend))]
    for path in sources + bases + [Path(__file__)]:
        digest.update(f"{path.parent.name}/{path.name}".encode() + b"\0" + path.read_bytes() + b"\0")
    return folder, digest.hexdigest()


def _build_index(kind: str) -> dict[str, dict]:
    """Import every plugin module of the package; name -> module, class, attributes."""
    found = _check_unique(kind, _scan_package(kind))
    return {name: {"module": cls.__module__, "qualname": cls.__qualname__,
                   "attributes": _attributes(kind, cls)} for name, cls in found.items()}


def _write_atomically(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError:  # a read-only checkout: the index is rebuilt in each process
        pass


def index_path(kind: str) -> Path:
    """Where the package's index is stored: ``__pycache__/harness_plugins.KIND.json``;
    a process with test plugins in view (:data:`TEST_PLUGINS_VARIABLE`) keeps its own,
    named after them, so that it never replaces the one every other process reads."""
    folder = _folder(kind)
    view = sorted(m for m in os.environ.get(TEST_PLUGINS_VARIABLE, "").split(",") if m)
    tag = "" if not view else "." + hashlib.sha256(",".join(view).encode()).hexdigest()[:12]
    return folder / "__pycache__" / INDEX_FILE.replace(".json", f".{kind}{tag}.json")


@functools.cache
def _package_index(kind: str) -> dict[str, dict]:
    """The package's plugins without importing them: the stored index when its key
    matches the sources, else a fresh one (stored for the next process)."""
    folder, key = _source_key(kind)
    path = index_path(kind)
    try:
        stored = json.loads(path.read_text())
        if stored.get("key") == key:
            return stored["plugins"]
    except (OSError, ValueError, AttributeError):
        pass
    preloaded = {name for name in sys.modules
                 if any(name.startswith(f"{PACKAGES[k]}.") for k in (kind, *DEPENDS.get(kind, ())))}
    index = _build_index(kind)
    # Stored only from a scan that imported every plugin from the files keyed: a module
    # imported before the scan may predate an edit (Python does not reimport it).
    if not preloaded and _source_key(kind)[1] == key:
        _write_atomically(path, json.dumps({"key": key, "plugins": index}, sort_keys=True))
    return index


@functools.cache
def _entry_point_classes(kind: str) -> dict[str, type]:
    return _check_unique(kind, _scan_entry_points(kind))


@functools.cache
def _load(kind: str, name: str) -> type:
    entry = _package_index(kind)[name]
    obj = importlib.import_module(entry["module"])
    for part in entry["qualname"].split("."):
        obj = getattr(obj, part)
    if getattr(obj, "name", None) != name:  # cannot happen while the key matches
        raise RuntimeError(f"the plugin index names {entry['module']}.{entry['qualname']} "
                           f"{name!r}, the class says {getattr(obj, 'name', None)!r}; "
                           f"delete {_folder(kind)}/__pycache__/ and rerun")
    return obj


class PluginMap(Mapping):
    """Plugin classes by name, each imported when it is looked up (names and the
    :data:`INDEXED` attributes come from the index)."""

    def __init__(self, kind: str, names: list[str]):
        self._kind, self._names = kind, names

    def __getitem__(self, name: str) -> type:
        if name not in self._names:
            raise KeyError(name)
        extra = _entry_point_classes(self._kind)
        return extra[name] if name in extra else _load(self._kind, name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name) -> bool:
        return name in self._names

    def __repr__(self) -> str:
        return f"PluginMap({self._kind!r}, {self._names!r})"


@functools.cache
def _infos(kind: str) -> dict[str, SimpleNamespace]:
    """Every plugin's :data:`INDEXED` attributes (package index and entry points),
    checked for duplicate names."""
    infos: dict[str, SimpleNamespace] = {}
    packaged = _package_index(kind)
    extra = _entry_point_classes(kind)
    for name in set(extra) & set(packaged):  # the same class twice is not a clash
        _check_unique(kind, [_load(kind, name), extra[name]])
    for name, entry in packaged.items():
        infos[name] = _namespace(entry["attributes"])
    for name, cls in extra.items():
        infos[name] = _namespace(_attributes(kind, cls))
    order = (lambda item: (item[1].order, item[0])) if kind == "backends" else None
    return dict(sorted(infos.items(), key=order))


def _namespace(attributes: dict) -> SimpleNamespace:
    return SimpleNamespace(**{a: tuple(v) if isinstance(v, list) else v
                              for a, v in attributes.items()})


def refresh() -> None:
    """Forget what was discovered (after a plugin file was added or removed)."""
    for cached in (_package_index, _entry_point_classes, _load, _infos):
        cached.cache_clear()
    importlib.invalidate_caches()


def methods(task: str | None = None) -> PluginMap:
    """Method plugin classes by name, optionally only those of one task (a mapping
    that imports a plugin when it is looked up)."""
    infos = _infos("methods")
    return PluginMap("methods", [k for k, v in infos.items() if task is None or v.task == task])


def datasets(task: str | None = None) -> PluginMap:
    """Dataset plugin classes by name, optionally only those suited to one task (a
    mapping that imports a plugin when it is looked up)."""
    infos = _infos("datasets")
    return PluginMap("datasets",
                     [k for k, v in infos.items() if task is None or task in v.tasks])


def method_info(name: str) -> SimpleNamespace:
    """The :data:`INDEXED` attributes of the method plugin ``name``, without importing
    it (error lists the valid names)."""
    return _get(_infos("methods"), "method", name)


def dataset_info(name: str) -> SimpleNamespace:
    """The :data:`INDEXED` attributes of the dataset plugin ``name``, without importing
    it (error lists the valid names)."""
    return _get(_infos("datasets"), "dataset", name)


def backends() -> PluginMap:
    """Solver backend plugin classes by name, in their declared ``order`` (a mapping
    that imports a backend when it is looked up)."""
    return PluginMap("backends", list(_infos("backends")))


def backend_info(name: str) -> SimpleNamespace:
    """The :data:`INDEXED` attributes of the backend ``name`` (and ``module``, its
    plugin module), without importing it (error lists the valid names)."""
    return _get(_infos("backends"), "solver backend", name)


def get_backend(name: str) -> type[SolverBackend]:
    """The backend plugin class called ``name`` (error lists the valid names)."""
    return _get(backends(), "solver backend", name)


def backend_status(name: str) -> tuple[bool, str]:
    """``(usable, reason)`` of the backend ``name``: installed, then licensed where
    needed (:meth:`~harness.solvers.backend.SolverBackend.status`)."""
    return get_backend(name).status()


def _get(found: Mapping, kind: str, name: str):
    try:
        return found[name]
    except KeyError:
        valid = ", ".join(found) or "(none)"
        raise UnknownNameError(f"unknown {kind} {name!r}; valid names: {valid}") from None


def get_method(name: str) -> type[MethodPlugin]:
    """The method plugin class called ``name`` (error lists the valid names)."""
    return _get(methods(), "method", name)


def get_dataset(name: str) -> type[DatasetPlugin]:
    """The dataset plugin class called ``name`` (error lists the valid names)."""
    return _get(datasets(), "dataset", name)
