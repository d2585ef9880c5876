"""Discovery of the thesis results the harness regenerates, one folder each of
:mod:`harness.results`, found like plugins (next to :mod:`harness.registry`, which
finds the method, data set and solver backend plugins).

A *thesis result* (Table 2.1, Table 3.2, the MVU solver table, Fig. 3.24, ...) is a
package ``harness/results/NAME/`` or, for results of one's own, a single module. Every
package of this package but :mod:`harness.results.common` (the code shared by several
results) is one, as is every module whose name does not start with an underscore; so is
every ``*.py`` file and every folder with an ``__init__.py`` (no leading underscore) in
the folders listed in ``$HARNESS_RESULT_DIRS`` (``os.pathsep``-separated), and every
module or package named by an entry point of the group ``harness.results`` of an
installed package. Adding a result is one new folder (or file), plus its section under
``results:`` in the profiles that run it.

A result package has five files, each with one job: ``__init__.py`` (the declaration;
imports nothing heavy), ``schema.yaml`` (its profile section), ``work.py`` (what a job
runs; its import closure is the job's source files), ``write.py`` (its outputs) and
``README.md``. A single-module result declares everything in one file (``SCHEMA`` as a
dict). Use :func:`result_schema`, :func:`work_module`, :func:`write_module` and
:func:`hook` to read a result in either form. The full contract, every name a result
declares and what the engine does with it, is in ``docs/extending.md`` ("What a result
declares").
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import pkgutil
import sys
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType

from harness.registry import UnknownNameError

__all__ = ["RESULT_DIRS_ENV", "ENTRY_POINT_GROUP", "KINDS", "REQUIRED", "SHARED_PACKAGE",
           "result_modules", "get_result", "refresh", "load_module", "is_package",
           "result_schema", "work_module", "write_module", "hook"]

RESULT_DIRS_ENV = "HARNESS_RESULT_DIRS"
ENTRY_POINT_GROUP = "harness.results"
EXTRA_PACKAGE = "harness_result_plugins"  # the modules found in $HARNESS_RESULT_DIRS
SHARED_PACKAGE = "common"  # harness.results.common: code of several results, no result
KINDS = ("table", "figure")
#: the package whose folders are the thesis results
RESULTS_PACKAGE = "harness.results"
#: what every result declares; a single module also ``SCHEMA``, ``work`` and ``write``
REQUIRED = ("NAME", "TITLE", "THESIS_SECTION", "KIND", "keys", "params")
SINGLE_MODULE_REQUIRED = ("SCHEMA", "work", "write")
#: the hooks a result package keeps in its work and write modules
HOOK_HOMES = {"work": "work", "sources": "work",
              "write": "write", "claims": "write", "section": "write"}


def load_module(name: str, file: str | None = None) -> ModuleType:
    """Import a result module (or package) by name; one from ``$HARNESS_RESULT_DIRS``
    (named ``harness_result_plugins.STEM``) from its ``file`` (a package's
    ``__init__.py``). Used by the discovery and by a job's child process, which is not
    forked from the discovering process."""
    if name in sys.modules:
        return sys.modules[name]
    if not name.startswith(EXTRA_PACKAGE + "."):
        return importlib.import_module(name)
    folder = [str(Path(file).parent)] if Path(file).name == "__init__.py" else None
    spec = importlib.util.spec_from_file_location(name, file,
                                                  submodule_search_locations=folder)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def is_package(result: ModuleType) -> bool:
    """Whether a result is a package (a folder) rather than a single module."""
    return hasattr(result, "__path__")


def _part(result: ModuleType, home: str) -> ModuleType:
    if not is_package(result):
        return result
    if home == "work" and getattr(result, "WORK", None):
        return importlib.import_module(result.WORK)
    return importlib.import_module(f"{result.__name__}.{home}")


def work_module(result: ModuleType) -> ModuleType:
    """The module a job of ``result`` runs: a package's ``work`` (or the shared module
    its ``WORK`` names), a single module itself. Its import closure is the job's
    source files."""
    return _part(result, "work")


def write_module(result: ModuleType) -> ModuleType:
    """The module that writes ``result``'s outputs: a package's ``write``, a single
    module itself."""
    return _part(result, "write")


def hook(result: ModuleType, name: str):
    """The result's ``name`` (``work``, ``write``, ``finish``, ``claims``, ...) or None
    if it has none: from a package's work or write module (:data:`HOOK_HOMES`), else
    from the declaration."""
    home = HOOK_HOMES.get(name)
    owner = _part(result, home) if home and is_package(result) else result
    return getattr(owner, name, None)


#: a key of ``schema.yaml``: files (relative to its folder) whose entries join its
#: ``properties`` (the entries several results share, e.g. Figs. 2.13 and 2.16's)
SHARED_PROPERTIES = "x-shared-properties"


@functools.cache
def _package_schema(folder: str) -> dict:
    import yaml  # only where a profile is validated

    def load(path: Path) -> dict:
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml where built
        return yaml.load(path.read_text(encoding="utf-8"), Loader=loader)  # noqa: S506

    schema = load(Path(folder) / "schema.yaml")
    for name in schema.pop(SHARED_PROPERTIES, ()):
        schema["properties"].update(load(Path(folder) / name))
    return schema


def result_schema(result: ModuleType) -> dict:
    """The JSON schema of the result's profile section: a package's ``schema.yaml``
    (with the entries of the files its ``x-shared-properties`` lists), a single
    module's ``SCHEMA``."""
    if is_package(result) and not hasattr(result, "SCHEMA"):
        return _package_schema(next(iter(result.__path__)))
    return result.SCHEMA


def _package_modules() -> list[ModuleType]:
    package = importlib.import_module(RESULTS_PACKAGE)
    return [importlib.import_module(f"{RESULTS_PACKAGE}.{info.name}")
            for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name)
            if not info.name.startswith("_") and info.name != SHARED_PACKAGE]


def _dir_modules() -> list[ModuleType]:
    found = []
    for folder in filter(None, os.environ.get(RESULT_DIRS_ENV, "").split(os.pathsep)):
        folder = Path(folder)
        if not folder.is_dir():
            raise FileNotFoundError(f"{RESULT_DIRS_ENV} names {folder}, which is not a folder")
        entries = sorted([*folder.glob("*.py"), *folder.glob("*/__init__.py")],
                         key=lambda f: f.parent.name if f.name == "__init__.py" else f.stem)
        for file in entries:
            stem = file.parent.name if file.name == "__init__.py" else file.stem
            if not stem.startswith("_"):
                found.append(load_module(f"{EXTRA_PACKAGE}.{stem}", str(file.resolve())))
    return found


def _missing(module: ModuleType) -> list[str]:
    missing = [a for a in REQUIRED if not hasattr(module, a)]
    if not is_package(module):
        return missing + [a for a in SINGLE_MODULE_REQUIRED if not hasattr(module, a)]
    folder = Path(next(iter(module.__path__)))
    if not hasattr(module, "SCHEMA") and not (folder / "schema.yaml").is_file():
        missing.append("schema.yaml")
    if not getattr(module, "WORK", None) and not (folder / "work.py").is_file():
        missing.append("work.py")
    if not (folder / "write.py").is_file():
        missing.append("write.py")
    return missing


def _check_module(module: ModuleType) -> None:
    missing = _missing(module)
    if missing:
        raise TypeError(f"thesis result {module.__name__} ({module.__file__}) lacks "
                        f"{', '.join(missing)}; see harness.result_registry for what a result "
                        f"declares")
    if module.KIND not in KINDS:
        raise TypeError(f"{module.__name__}.KIND is {module.KIND!r}; use one of {KINDS}")


@functools.cache
def _discover() -> dict[str, ModuleType]:
    found: dict[str, ModuleType] = {}
    modules = _package_modules() + _dir_modules()
    modules += [ep.load() for ep in entry_points(group=ENTRY_POINT_GROUP)]
    for module in modules:
        _check_module(module)
        other = found.get(module.NAME)
        if other is not None and other is not module:
            raise ValueError(f"two thesis results are named {module.NAME!r}: "
                             f"{other.__name__} and {module.__name__}; rename one")
        found[module.NAME] = module
    return found


def refresh() -> None:
    """Forget what was discovered (after a result file was added or removed)."""
    _discover.cache_clear()
    importlib.invalidate_caches()


def result_modules() -> dict[str, ModuleType]:
    """Every thesis result (its declaration: a module or a package) by name: this
    package's first (by name), then ``$HARNESS_RESULT_DIRS``', then the entry points'."""
    return dict(_discover())


def get_result(name: str) -> ModuleType:
    """The result called ``name``, its declaration (the error lists the valid names)."""
    found = _discover()
    try:
        return found[name]
    except KeyError:
        raise UnknownNameError(f"unknown thesis result {name!r}; valid results: "
                               f"{', '.join(found) or '(none)'}") from None
