"""The engine's import graph has no cycle and keeps its layers: every import between
modules of ``harness`` (module level and inside functions, read with harness.sources'
reader) points one way, so each module can be understood below the ones it uses.

The layers, bottom up: the plugins' and solvers' code (``harness.solvers``,
``harness.problems``, ``harness.metrics``, ``harness.tasks``, the method and data
set plugins ``harness.methods`` and ``harness.datasets``), which knows nothing of jobs, results or the workflow; the engine
(``harness.jobs``, ``runner``, ``registry``, ``result_registry``, ``report``, ...),
which finds the results by discovery and never imports one by name; the results
(``harness.results``); the command line (``harness.cli``), which only
``harness.__main__`` and the job server (its re-entry: a job it serves runs
``harness job``) import."""

from __future__ import annotations

import pkgutil

import harness
from harness.sources import imported_names, module_file


def _graph() -> dict[str, set[str]]:
    names = ["harness"] + sorted(m.name for m in pkgutil.walk_packages(
        harness.__path__, prefix="harness."))
    graph = {}
    for name in names:
        path = module_file(name)
        if path is None:
            continue
        targets = set()
        for imported in imported_names(name, path):
            # "from harness.x import y": y is a module or a name defined in x
            while imported and module_file(imported) is None:
                imported = imported.rpartition(".")[0]
            if imported.startswith("harness") and imported != name:
                targets.add(imported)
        graph[name] = targets
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of modules, or None."""
    state, stack = {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[node] = "done"
        stack.pop()
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_harness_import_graph_has_no_cycle():
    graph = _graph()
    assert len(graph) > 50 and "harness.solvers.mvu_sdp.native_solver" in graph
    native = graph["harness.solvers.mvu_sdp.native_solver"]
    assert {"harness.solvers.mvu_sdp.ipm", "harness.solvers.mvu_sdp.lowrank"} <= native
    # package __init__ files that re-export their modules are edges too
    cycle = _cycle({k: {t for t in v if not k.startswith(t + ".")} for k, v in graph.items()})
    assert cycle is None, " -> ".join(cycle)


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def _arrows(graph, source, target):
    """``(module, imported)`` pairs from modules matching ``source`` to ``target``."""
    return sorted((k, t) for k, v in graph.items() if source(k) for t in v if target(t))


def _under(*prefixes):
    return lambda name: any(name == p or name.startswith(p + ".") for p in prefixes)


def test_no_engine_module_imports_a_result():
    """Results are found by discovery (harness.result_registry), never imported by the
    engine: the arrows that went "up" into harness/results/ (jobs, report, the number
    audit, the command line) are gone."""
    graph = _graph()
    assert _arrows(graph, lambda k: not _under("harness.results")(k),
                   _under("harness.results")) == []


def test_only_the_entry_point_and_the_job_server_import_the_command_line():
    graph = _graph()
    assert [k for k, _ in _arrows(graph, lambda k: True, _under("harness.cli"))] == [
        "harness.__main__", "harness.jobserver.server"]


def test_solvers_problems_and_plugins_know_nothing_of_jobs_results_or_the_workflow():
    low = _under("harness.solvers", "harness.problems", "harness.metrics", "harness.tasks",
                 "harness.methods", "harness.datasets")
    high = _under("harness.results", "harness.report", "harness.cli", "harness.workflow",
                  "harness.jobs", "harness.runner", "harness.jobserver", "harness.runs",
                  "harness.result_registry", "harness.number_audit")
    graph = _graph()
    assert any(k.startswith("harness.methods.") for k in graph)
    assert _arrows(graph, low, high) == []


def test_the_results_common_code_keeps_its_sides():
    """``harness.results.common``: the declarations' side imports neither the job side
    nor the writers' (every command imports it at discovery); the job side never imports
    the writers' (a job's sources would then change with how a result is written)."""
    graph = _graph()
    common = "harness.results.common"
    assert _arrows(graph, _under(f"{common}.declare"),
                   _under(f"{common}.work", f"{common}.write")) == []
    assert _arrows(graph, _under(f"{common}.work"), _under(f"{common}.write")) == []
    assert any(k.startswith(f"{common}.work.") for k in graph)


def test_no_two_modules_share_a_name_outside_the_result_plugins():
    """One name for one thing: a module or package name names one role (the result
    plugins' folders repeat ``work``/``write`` by contract; ``__init__``/``__main__``
    are Python's). The plugin ``methods/mvu.py``, the SDP ``problems/mvu_problem.py``
    and its solvers ``solvers/mvu_sdp/`` are three names."""
    from collections import defaultdict
    from pathlib import Path

    root = Path(harness.__file__).resolve().parent
    seen = defaultdict(list)
    for path in root.rglob("*"):
        rel = path.relative_to(root)
        if "results" in rel.parts or "__pycache__" in rel.parts:
            continue
        if path.is_dir() and (path / "__init__.py").exists():
            seen[path.name].append(str(rel))
        elif path.suffix == ".py" and path.stem not in ("__init__", "__main__"):
            seen[path.stem].append(str(rel))
    assert not {n: p for n, p in seen.items() if len(p) > 1}
