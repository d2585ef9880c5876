"""The source files a job's result depends on: the project modules its code imports.

One rule for every job of the workflow (table cells, solver points, figure points):
the transitive closure of the imports of the job's entry modules within the
project's packages (:data:`PROJECT_PACKAGES`), read from the source text with
:mod:`ast` -- imports inside functions included, relative imports resolved, nothing
executed -- plus the ``__init__`` of every package on the way (importing ``a.b``
runs ``a/__init__.py``; its own imports are followed only where ``a`` itself is
imported, so that a package importing all its figures does not tie each figure's jobs
to every other figure). Snakemake lists these files as the job's inputs, so editing
shared code (``harness/methods/shared/lmnn_core.py``, ``harness/solvers/mvu_sdp/lowrank.py``) reruns
exactly the jobs computed with it. Plugins that the registry discovers at run time
(not imported by name) count only where a job names them as entry modules.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import inspect
from pathlib import Path

__all__ = ["PROJECT_PACKAGES", "module_file", "source_closure", "imported_names"]

#: The top-level packages whose modules count as the project's own code
PROJECT_PACKAGES = ("harness",)


@functools.cache
def _package_root(package: str) -> Path | None:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))).parent


def module_file(name: str) -> Path | None:
    """The source file of the project module ``name`` (a package's ``__init__.py``),
    or None when ``name`` is not a project module (a class or function imported
    from one, or a third-party module)."""
    top = name.split(".")[0]
    if top not in PROJECT_PACKAGES or (root := _package_root(top)) is None:
        return None
    base = root.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


@functools.cache
def imported_names(name: str, path: Path) -> frozenset[str]:
    """Every dotted name module ``name`` (at ``path``) imports, at any depth of its
    code: ``import a.b`` gives ``a.b``; ``from a import b`` gives ``a`` and ``a.b``
    (``b`` may be a submodule); relative imports are made absolute. Each file is read
    once per process (a dry run asks for hundreds of jobs' sources)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            out.add(module)
            out.update(f"{module}.{alias.name}" for alias in node.names if alias.name != "*")
    return frozenset(out)


@functools.cache
def _closure(roots: tuple[str, ...]) -> tuple[str, ...]:
    seen: dict[str, Path] = {}
    followed: set[str] = set()
    pending = list(roots)
    while pending:
        name = pending.pop()
        parts = name.split(".")
        for depth in range(1, len(parts) + 1):  # the packages on the way, then itself
            prefix = ".".join(parts[:depth])
            if prefix in followed or (path := module_file(prefix)) is None:
                continue
            seen[prefix] = path
            if depth == len(parts):  # a package on the way counts as a file; its
                followed.add(prefix)  # imports only where it is imported by name
                pending.extend(imported_names(prefix, path))
    return tuple(sorted(str(path.resolve()) for path in seen.values()))


def source_closure(*entries) -> list[str]:
    """The absolute paths of the project source files that ``entries`` import,
    directly or through each other, themselves included.

    Parameters
    ----------
    *entries : str, module or class
        Dotted module names, modules, or classes (their defining module counts). The
        file of an entry outside the project packages (a plugin registered through
        an entry point) is included too, with the project modules it imports.

    Examples
    --------
    >>> any(p.endswith("harness/records.py") for p in source_closure("harness.runner"))
    True
    """
    names, files = set(), set()
    for entry in entries:
        module = entry if isinstance(entry, str) else inspect.getmodule(entry)
        name = module if isinstance(module, str) else module.__name__
        names.add(name)
        if module_file(name) is None and not isinstance(module, str):
            path = Path(inspect.getsourcefile(module)).resolve()
            files.add(str(path))
            names.update(imported_names(name, path))
    return sorted(files.union(_closure(tuple(sorted(names)))))
