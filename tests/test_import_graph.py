"""The engine's import graph has no cycle: every import between modules of
``harness`` (module level and inside functions, read with harness.sources'
reader) points one way, so each module can be understood below the ones it uses."""

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
    assert len(graph) > 50 and "harness.solvers.mvu.native" in graph
    native = graph["harness.solvers.mvu.native"]
    assert {"harness.solvers.mvu.ipm", "harness.solvers.mvu.lowrank"} <= native
    # package __init__ files that re-export their modules are edges too
    cycle = _cycle({k: {t for t in v if not k.startswith(t + ".")} for k, v in graph.items()})
    assert cycle is None, " -> ".join(cycle)


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
