"""The thesis results the harness regenerates, one module each, discovered like plugins.

A *thesis result* (Table 2.1, Table 3.2, the MVU solver table, Fig. 3.24, ...) is one
module. Every module of this package whose name does not start with an underscore is
one; so is every ``*.py`` file (no leading underscore) in the folders listed in
``$HARNESS_RESULT_DIRS`` (``os.pathsep``-separated) and every module named by an
entry point of the group ``harness.results`` of an installed package. Adding a result
is one new file, plus its section under ``results:`` in the profiles that run it.

What a result module declares (the engine, :mod:`harness.jobs` and
:mod:`harness.runner`, does the rest):

==========================  =====================================================
``NAME``                    its name: the profile section ``results.NAME``, the
                            first part of its job ids, its output file names
``TITLE``                   one line for listings and the report
``THESIS_SECTION``          where the thesis has it (``"2.1.6"``, ``"3.1.12"``)
``KIND``                    ``"table"`` (``tables/NAME.{csv,md,tex}``) or
                            ``"figure"`` (``figures/NAME.{csv,png,md}``)
``SCHEMA``                  JSON schema of its profile section (may use the
                            ``$defs`` of ``config/schema.yaml``)
``keys(config)``            the keys of its jobs in a validated profile; job id
                            ``NAME/KEY``
``params(config, key)``     one job's resolved, JSON-serialisable parameters
                            (the Snakemake rerun trigger); must hold
                            ``time_limit_seconds`` and ``blas_threads``, and may
                            hold ``grace_seconds`` (added to the CPU budget,
                            :func:`harness.jobs.cpu_budget`)
``work(params)``            the job's work, in a child process with the CPU
                            budget and wall cap: returns the record body (``status``,
                            ``reason``, numbers)
``write(config)``           its outputs from the records; returns their paths
optional
``check(config)``           checks beyond the schema; may normalise the section
                            in place (e.g. expand ``methods: all``)
``finish(params, body)``    run in the parent on the body the child returned
                            (also a ``timeout`` or ``failed`` body): e.g. the
                            solver table recomputes the certificate here
``sources(params)``         more modules or classes whose edit reruns a job
``inputs(config)``          more files the outputs are built from (reference
                            CSVs): an edit rewrites them
``reads(config)``           the names of other results whose records the outputs
                            are built from (a result with no jobs of its own, e.g.
                            Figs. 2.9/2.12 from Table 2.1's): a new record of
                            theirs rewrites them
``claims(config)``          the thesis' statements with verdicts
                            (:mod:`harness.claims`)
``section(config)``         its report section (default: from its outputs, by
                            ``KIND``; :mod:`harness.report.sections`)
``MEMORY_MB``               memory of one job for cluster schedulers (4000)
``EXCLUSIVE``               true if its jobs time computations: the workflow runs
                            each with every core reserved, so that no other job
                            of the run competes with the timing
``SIDECAR``                 true if ``write`` also writes ``NAME.json``, what the
                            report shows (:mod:`harness.outputs`)
==========================  =====================================================

Shared code of several results lives in the underscore modules of this package:
``_grid`` (data sets x methods: Tables 2.1, 3.2), ``_mvu_point`` (an MVU embedding per
job, Figs. 3.24, 3.28), ``_figure`` (the figure files), ``_tables`` (records -> thesis
/ ours / delta tables).
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

__all__ = ["RESULT_DIRS_ENV", "ENTRY_POINT_GROUP", "KINDS", "REQUIRED", "result_modules",
           "get_result", "refresh", "load_module"]

RESULT_DIRS_ENV = "HARNESS_RESULT_DIRS"
ENTRY_POINT_GROUP = "harness.results"
EXTRA_PACKAGE = "harness_result_plugins"  # the modules found in $HARNESS_RESULT_DIRS
KINDS = ("table", "figure")
REQUIRED = ("NAME", "TITLE", "THESIS_SECTION", "KIND", "SCHEMA", "keys", "params", "work",
            "write")


def load_module(name: str, file: str | None = None) -> ModuleType:
    """Import a result module by name; one from ``$HARNESS_RESULT_DIRS`` (named
    ``harness_result_plugins.STEM``) from its ``file``. Used by the discovery and by
    a job's child process, which is not forked from the discovering process."""
    if name in sys.modules:
        return sys.modules[name]
    if not name.startswith(EXTRA_PACKAGE + "."):
        return importlib.import_module(name)
    spec = importlib.util.spec_from_file_location(name, file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _package_modules() -> list[ModuleType]:
    package = sys.modules[__name__]
    return [importlib.import_module(f"{__name__}.{info.name}")
            for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name)
            if not info.name.startswith("_")]


def _dir_modules() -> list[ModuleType]:
    found = []
    for folder in filter(None, os.environ.get(RESULT_DIRS_ENV, "").split(os.pathsep)):
        folder = Path(folder)
        if not folder.is_dir():
            raise FileNotFoundError(f"{RESULT_DIRS_ENV} names {folder}, which is not a folder")
        for file in sorted(folder.glob("*.py")):
            if not file.name.startswith("_"):
                found.append(load_module(f"{EXTRA_PACKAGE}.{file.stem}", str(file.resolve())))
    return found


def _check_module(module: ModuleType) -> None:
    missing = [a for a in REQUIRED if not hasattr(module, a)]
    if missing:
        raise TypeError(f"thesis result module {module.__name__} ({module.__file__}) lacks "
                        f"{', '.join(missing)}; see harness.results for what a result declares")
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
    """Every thesis result module by name: this package's first (by file name), then
    ``$HARNESS_RESULT_DIRS``', then the entry points'."""
    return dict(_discover())


def get_result(name: str) -> ModuleType:
    """The result module called ``name`` (the error lists the valid names)."""
    found = _discover()
    try:
        return found[name]
    except KeyError:
        raise UnknownNameError(f"unknown thesis result {name!r}; valid results: "
                               f"{', '.join(found) or '(none)'}") from None
