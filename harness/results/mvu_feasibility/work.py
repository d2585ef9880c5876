r"""One job of :mod:`harness.results.mvu_feasibility`: MVU's SDP (thesis 3.1.4, eqs.
3.7-3.10; the relaxed variants of 3.1.6) solved by cvxpy backends on instances chosen to
be unbounded, infeasible or trivially feasible, every answer checked here.

- :func:`disconnected_work`: a k-NN clique graph with two or more components (two far
  Gaussian blobs; a Swiss roll with a band of its parameter t removed). The SDP is
  feasible (the input's centred Gram matrix ``K0``) and unbounded: with ``v`` the
  centred indicator of one component, ``K0 + s v v^T`` keeps every edge (``v`` is
  constant on each component), stays centred (``sum v = 0``) and PSD, and its trace
  grows without limit in ``s``. That ray is recomputed here as a certificate; the
  solver's status is recorded, then the problem is solved with ``trace(K) <= T
  trace(K0)`` for growing ``T`` (an unbounded problem's optimum follows ``T``). A
  connected control: the same points with 3.1.12's links between components.
- :func:`strict_noisy_work`: strict (equality) MVU on a Swiss roll whose edge lengths
  are multiplied by factors uniform in ``[1 - noise, 1 + noise]``. Besides each
  backend's status, a Farkas certificate is computed here: ``y`` with ``S = sum_e y_e
  A_e + y_0 11^T`` PSD and ``b^T y < 0`` contradicts every feasible ``K`` (``<S, K> =
  b^T y``). With ``S``'s least eigenvalue ``-delta`` (round-off), a feasible ``K``
  would need ``b^T y >= -delta trace(K)``; on a connected graph ``trace(K) <= n L^2 /
  2`` with ``L`` the sum of the edge lengths (every embedded distance is at most a
  path's length), so ``b^T y + delta n L^2 / 2 < 0`` proves infeasibility.
- :func:`relaxed_work`: the inequality and slack variants (3.1.6) with random
  nonnegative squared lengths on a roll's k-NN clique graph: the status, the solution's
  recomputed violation and least eigenvalue, and whether the model as built accepts
  ``K = 0`` (slacks ``-b``) -- each cvxpy constraint's own violation there.
"""

from __future__ import annotations


import numpy as np
from scipy.sparse import coo_matrix, csgraph

from harness import registry
from harness.problems.mvu_problem import MVUProblem
from harness.results.common.work.keyed_work import keyed_work
from harness.timelimit import cpu_clock

__all__ = ["solve", "components", "unbounded_ray", "farkas_certificate",
           "disconnected_work", "strict_noisy_work", "relaxed_work", "work"]

_SOLVERS = {"clarabel": "CLARABEL", "scs": "SCS", "cvxopt": "CVXOPT", "mosek": "MOSEK"}


def solve(problem, backend: str) -> dict:
    """``problem.solve`` with ``backend``; its status, value and CPU seconds (a solver
    error is the status ``solver_error`` with its message)."""
    import cvxpy as cp

    start = cpu_clock()
    try:
        value = problem.solve(solver=_SOLVERS[backend])
        status = problem.status
    except cp.error.SolverError as exc:
        value, status = None, f"solver_error: {str(exc)[:200]}"
    finite = value is not None and np.isfinite(value)
    return {"status": status, "value": float(value) if finite else None,
            "cpu_seconds": cpu_clock() - start}


def components(n: int, edges: np.ndarray) -> np.ndarray:
    """The connected component of each point of the graph ``edges``."""
    graph = coo_matrix((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(n, n))
    return csgraph.connected_components(graph, directed=False)[1]


def _centred_gram(X: np.ndarray) -> np.ndarray:
    Xc = X - X.mean(axis=0)
    return Xc @ Xc.T


def _edge_residual(problem: MVUProblem, K: np.ndarray) -> np.ndarray:
    i, j = problem.edges[:, 0], problem.edges[:, 1]
    return K[i, i] + K[j, j] - 2 * K[i, j] - problem.sq_lengths


def unbounded_ray(problem: MVUProblem, X: np.ndarray, labels: np.ndarray) -> dict:
    """The certificate of unboundedness: a feasible point ``K0`` (the input's centred
    Gram matrix; its largest relative edge residual) and the direction ``v v^T``
    (``v`` the centred indicator of component 0; its largest edge change, its sum and
    trace)."""
    K0 = _centred_gram(X)
    v = (labels == 0).astype(float)
    v -= v.mean()
    D = np.outer(v, v)
    i, j = problem.edges[:, 0], problem.edges[:, 1]
    return {"k0_violation": float(np.abs(_edge_residual(problem, K0)).max()
                                  / problem.sq_lengths.max()),
            "k0_trace": float(np.trace(K0)),
            "ray_edge_change": float(np.abs(D[i, i] + D[j, j] - 2 * D[i, j]).max()),
            "ray_sum": float(D.sum()), "ray_trace": float(np.trace(D))}


def _bounded(problem: MVUProblem, bound: float):
    """The max-trace problem with ``trace(K) <= bound`` added."""
    import cvxpy as cp

    base, K, _ = problem.to_cvxpy()
    return cp.Problem(base.objective, [*base.constraints, cp.trace(K) <= bound])


def _two_pieces(p: dict, rng: np.random.Generator) -> np.ndarray:
    if p["data"] == "blobs":
        half = p["n_samples"] // 2
        X = rng.standard_normal((p["n_samples"], 2))
        X[half:, 0] += p["blob_distance"]
        return X
    roll = registry.get_dataset("swiss_roll")().load(n_samples=p["n_samples"],
                                                     seed=int(rng.integers(2**31)))
    low, high = p["roll_gap"]
    keep = (roll.y <= low) | (roll.y >= high)
    return roll.X[keep]


def _sweep(problem: MVUProblem, backend: str, k0_trace: float, bounds) -> list[dict]:
    out = []
    for T in bounds:
        solved = solve(_bounded(problem, T * k0_trace), backend)
        out.append({"bound": T, "status": solved["status"],
                    "value_over_k0": (solved["value"] / k0_trace
                                      if solved["value"] is not None else None)})
    return out


def disconnected_work(p: dict, rng: np.random.Generator) -> dict:
    """MVU on a disconnected graph: status, certificate, trace-bound sweep, and the
    linked (connected) control."""
    X = _two_pieces(p, rng)
    problem = MVUProblem.from_points(X, p["n_neighbors"])
    labels = components(len(X), problem.edges)
    ray = unbounded_ray(problem, X, labels)
    plain, _, _ = problem.to_cvxpy()
    linked = MVUProblem.from_points(X, p["n_neighbors"], link="shortest")
    control, _, _ = linked.to_cvxpy()
    control_solved = solve(control, p["backend"])
    return {"n": len(X), "m": problem.m, "n_components": int(labels.max() + 1), **ray,
            "solve": solve(plain, p["backend"]),
            "sweep": _sweep(problem, p["backend"], ray["k0_trace"], p["trace_bounds"]),
            "control": {**control_solved, "n_components": int(components(
                            len(X), linked.edges).max() + 1),
                        "value_over_k0": (control_solved["value"] / ray["k0_trace"]
                                          if control_solved["value"] is not None else None)}}


def farkas_certificate(problem: MVUProblem) -> dict:
    """Search (Clarabel) for ``y, y0`` with ``S = sum_e y_e A_e + y0 11^T`` PSD,
    ``trace(S) = 1`` and least ``b^T y``; then recompute ``S`` from ``y`` in float64,
    its least eigenvalue and the infeasibility test of the module docstring."""
    import cvxpy as cp

    n, i, j = problem.n, problem.edges[:, 0], problem.edges[:, 1]
    y, y0 = cp.Variable(problem.m), cp.Variable()
    S = cp.Variable((n, n), PSD=True)
    A = coo_matrix
    # sum_e y_e (e_i - e_j)(e_i - e_j)^T: a weighted graph Laplacian
    rows = np.concatenate([i, j, i, j])
    cols = np.concatenate([i, j, j, i])
    sign = np.concatenate([np.ones(2 * problem.m), -np.ones(2 * problem.m)])
    edge_index = np.tile(np.arange(problem.m), 4)
    lap_map = A((sign, (rows * n + cols, edge_index)), shape=(n * n, problem.m)).tocsr()
    laplacian = cp.reshape(lap_map @ y, (n, n), order="C")
    found = cp.Problem(cp.Minimize(problem.sq_lengths @ y),
                       [S == laplacian + y0 * np.ones((n, n)), cp.trace(S) == 1])
    solved = solve(found, "clarabel")
    if y.value is None:
        return {"farkas_status": solved["status"], "farkas_certified": False}
    yv, y0v = np.asarray(y.value), float(y0.value)
    L = np.zeros((n, n))
    np.add.at(L, (rows, cols), sign * yv[edge_index])
    S_num = L + y0v
    delta = max(0.0, -float(np.linalg.eigvalsh(S_num)[0]))
    length = float(np.sqrt(problem.sq_lengths).sum())
    connected = components(n, problem.edges).max() == 0
    by = float(problem.sq_lengths @ yv)
    margin = by + delta * n * length**2 / 2
    return {"farkas_status": solved["status"], "farkas_by": by, "farkas_delta": delta,
            "farkas_margin": margin, "graph_connected": bool(connected),
            "farkas_certified": bool(connected and margin < 0)}


def _triangle_violations(problem: MVUProblem) -> tuple[int, int]:
    """Triangles of the clique graph, and those whose lengths break the triangle
    inequality."""
    n = problem.n
    length = dict(zip((problem.edges[:, 0] * n + problem.edges[:, 1]).tolist(),
                      np.sqrt(problem.sq_lengths).tolist()))

    def d(a, b):
        return length.get(min(a, b) * n + max(a, b))

    seen, bad = set(), 0
    for clique in problem.cliques if problem.cliques is not None else []:
        c = sorted(int(x) for x in clique)
        for x in range(len(c)):
            for yy in range(x + 1, len(c)):
                for z in range(yy + 1, len(c)):
                    t = (c[x], c[yy], c[z])
                    if t in seen:
                        continue
                    seen.add(t)
                    a, b, e = d(t[0], t[1]), d(t[0], t[2]), d(t[1], t[2])
                    if None in (a, b, e):
                        continue
                    s = sorted((a, b, e))
                    bad += s[2] > s[0] + s[1]
    return len(seen), bad


def strict_noisy_work(p: dict, rng: np.random.Generator) -> dict:
    """Strict MVU with perturbed edge lengths: each backend's status, the Farkas
    certificate, the triangles that break the triangle inequality."""
    roll = registry.get_dataset("swiss_roll")().load(n_samples=p["n_samples"], seed=p["draw"])
    base = MVUProblem.from_points(roll.X, p["n_neighbors"])
    factor = rng.uniform(1 - p["noise"], 1 + p["noise"], base.m)
    problem = MVUProblem(n=base.n, edges=base.edges, sq_lengths=base.sq_lengths * factor**2,
                         cliques=base.cliques)
    triangles, broken = _triangle_violations(problem)
    statuses = {b: solve(problem.to_cvxpy()[0], b) for b in p["backends"]}
    return {"n": problem.n, "m": problem.m, "triangles": triangles, "broken_triangles": broken,
            "solves": statuses, **farkas_certificate(problem)}


def _zero_violation(problem: MVUProblem) -> float:
    """The largest violation of the cvxpy model's own constraints at ``K = 0`` (slacks
    ``-b``)."""
    cvx, K, _ = problem.to_cvxpy()
    for var in cvx.variables():
        var.value = np.zeros(var.shape) if var is K else -problem.sq_lengths
    return float(max(np.max(np.abs(c.violation())) for c in cvx.constraints))


def relaxed_work(p: dict, rng: np.random.Generator) -> dict:
    """The relaxed variants with random nonnegative squared lengths, one row per
    (draw, variant)."""
    rows = []
    roll = registry.get_dataset("swiss_roll")().load(n_samples=p["n_samples"], seed=p["seed"])
    base = MVUProblem.from_points(roll.X, p["n_neighbors"])
    longest = float(np.sqrt(base.sq_lengths).max())
    for draw in p["draw_indices"]:
        draw_rng = np.random.default_rng([p["seed"], draw])
        b = (draw_rng.uniform(0, 1, base.m) * longest) ** 2
        for variant in p["variants"]:
            problem = MVUProblem(n=base.n, edges=base.edges, sq_lengths=b, variant=variant)
            cvx, K, _ = problem.to_cvxpy()
            solved = solve(cvx, p["backends"][0])
            row = {"draw": draw, "variant": variant, **solved,
                   "zero_violation": _zero_violation(problem)}
            if K.value is not None:
                Kv = np.asarray(K.value)
                residual = _edge_residual(problem, Kv)
                row["violation"] = (float(np.maximum(residual, 0).max() / b.max())
                                    if variant == "inequality" else 0.0)
                row["least_eigenvalue"] = float(np.linalg.eigvalsh((Kv + Kv.T) / 2)[0])
            rows.append(row)
    return {"n": base.n, "m": base.m, "backend": p["backends"][0], "rows": rows}


_WORK = {"disconnected": disconnected_work, "strict_noisy": strict_noisy_work,
         "relaxed": relaxed_work}


def work(params: dict) -> dict:
    """The child's work for one job; returns the record body."""
    return keyed_work(params, _WORK)
