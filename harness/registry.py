"""Discovery of method and dataset plugins.

A plugin is any class defined in a module of the ``methods`` (or ``datasets``)
package that derives from :class:`harness.plugin.MethodPlugin` (or
:class:`harness.plugin.DatasetPlugin`) and sets a non-empty ``name``. Modules whose
file name starts with an underscore hold shared code and are not scanned. Installed
packages may add plugins through the entry-point groups ``harness.methods`` and
``harness.datasets`` (``name = "module:Class"``).

Dropping one file into ``methods/`` is therefore all it takes to add a method: the
registry, ``harness list``, the Snakemake DAG and every table of the method's task
pick it up.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
from importlib.metadata import entry_points
from types import ModuleType

from harness.plugin import DatasetPlugin, MethodPlugin

__all__ = ["methods", "datasets", "get_method", "get_dataset", "UnknownNameError"]

ENTRY_POINT_GROUPS = {"methods": "harness.methods", "datasets": "harness.datasets"}
BASES = {"methods": MethodPlugin, "datasets": DatasetPlugin}


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
    package = importlib.import_module(kind)
    found: list[type] = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{kind}.{info.name}")
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


@functools.cache
def _discover(kind: str) -> dict[str, type]:
    registry: dict[str, type] = {}
    for cls in _scan_package(kind) + _scan_entry_points(kind):
        other = registry.get(cls.name)
        if other is not None and other is not cls:
            raise ValueError(
                f"two {kind} plugins are named {cls.name!r}: "
                f"{other.__module__}.{other.__qualname__} and "
                f"{cls.__module__}.{cls.__qualname__}; rename one"
            )
        registry[cls.name] = cls
    return dict(sorted(registry.items()))


def refresh() -> None:
    """Forget what was discovered (after a plugin file was added or removed)."""
    _discover.cache_clear()
    importlib.invalidate_caches()


def methods(task: str | None = None) -> dict[str, type[MethodPlugin]]:
    """Method plugin classes by name, optionally only those of one task."""
    found = _discover("methods")
    return {k: v for k, v in found.items() if task is None or v.task == task}


def datasets(task: str | None = None) -> dict[str, type[DatasetPlugin]]:
    """Dataset plugin classes by name, optionally only those suited to one task."""
    found = _discover("datasets")
    return {k: v for k, v in found.items() if task is None or task in v.tasks}


def _get(found: dict[str, type], kind: str, name: str) -> type:
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
