"""The job of section 3.1.10's out-of-sample checks.

A Swiss roll of 3.1.5's kind is drawn once and split: MVU (the ``mvu`` plugin, native
solver, status from the recomputed certificate) embeds the first ``n_train`` points in
r dimensions; every test point is then inserted by the SDP (3.31)-(3.33) *as printed*:
the embedding's own coordinates (no recentring), S's top-left block I
(:class:`harness.problems.out_of_sample.OutOfSampleProblem`).

* ``tight`` (k >= 2r + 1) and ``small`` (k = r, r + 1): the native solver
  (:func:`harness.solvers.out_of_sample_native.solve_out_of_sample`, certified by the
  recomputed duality gap): each point's ``(s - |y_t|^2) / s``.
* ``unique`` (k >= 2r + 1): the same points by a second solver (Clarabel on the SDP
  through cvxpy, certified by the same dual bound); the largest ``|y_native - y_other|
  / |y_t|`` over points both certify.
* ``cost``: CPU seconds per point of the SDP by the second solver (cvxpy's
  compilation included; the solver's own reported time beside it) against k, the
  median over ``timing_points`` test points.
"""

from __future__ import annotations

import numpy as np
from sklearn.neighbors import NearestNeighbors
from threadpoolctl import threadpool_limits

from harness import registry
from harness.methods.shared.oos_sdp_core import cvxpy_point
from harness.plugin import ExpectedFailure
from harness.problems.out_of_sample import OutOfSampleProblem
from harness.solvers.out_of_sample_native import solve_out_of_sample
from harness.timelimit import cpu_clock

__all__ = ["work", "sources"]


def _anchors(Y, Xtr, Xte, k: int):
    """The test points' k nearest training points: their embedding coordinates and
    squared input distances."""
    dist, idx = NearestNeighbors(n_neighbors=k).fit(Xtr).kneighbors(Xte)
    return Y[idx], dist ** 2


def _gaps(sol) -> np.ndarray:
    return (sol.s - np.einsum("ij,ij->i", sol.y, sol.y)) / sol.s


def _native(Y, Xtr, Xte, k: int) -> dict:
    anchors, sq = _anchors(Y, Xtr, Xte, k)
    sol = solve_out_of_sample(anchors, sq)
    ok = sol.status == "optimal"
    gaps = _gaps(sol)
    return {"k": k, "points": int(len(Xte)), "certified": int(ok.sum()),
            "gaps": gaps[ok].tolist(), "max_gap": float(gaps[ok].max()) if ok.any() else None,
            "y": sol.y, "ok": ok, "anchors": anchors, "sq": sq}


def _second(anchors, sq, solver: str):
    rows = [cvxpy_point(OutOfSampleProblem(a, d), solver) for a, d in zip(anchors, sq)]
    return np.array([y for y, _ in rows]), np.array([i["gap"] for _, i in rows], dtype=float)


def _timing(Y, Xtr, Xte, params) -> list[dict]:
    rows = []
    for k in params["timing_k"]:
        anchors, sq = _anchors(Y, Xtr, Xte[:params["timing_points"]], k)
        cpu, solver = [], []
        for a, d in zip(anchors, sq):
            problem, _ = OutOfSampleProblem(a, d).to_cvxpy()
            start = cpu_clock()
            problem.solve(solver=params["second_solver"].upper())
            cpu.append(cpu_clock() - start)
            solver.append(float(problem.solver_stats.solve_time or np.nan))
        rows.append({"k": k, "cpu_seconds": float(np.median(cpu)),
                     "solver_seconds": float(np.nanmedian(solver)), "points": len(cpu)})
    return rows


def work(params: dict) -> dict:
    """MVU on the training roll, then the test points' SDPs (module docstring)."""
    start = cpu_clock()
    with threadpool_limits(limits=params["blas_threads"]):
        n = params["n_train"] + params["n_test"]
        plugin = registry.get_dataset(params["dataset"])
        X = np.asarray(plugin().load(**{**plugin.params, **params["dataset_params"],
                                        "n_samples": n, "seed": params["seed"]}).X, float)
        Xtr, Xte = X[:params["n_train"]], X[params["n_train"]:]
        mvu = registry.get_method("mvu")(n_neighbors=params["mvu_neighbors"],
                                          n_components=params["dimension"], solver="native",
                                          time_limit=params["solver_time_limit"])
        try:
            Y = mvu.fit_transform(Xtr)
        except ExpectedFailure as exc:
            return {"status": exc.status, "reason": f"MVU on the training roll: {exc}"}
        status = mvu.solve_info_["status"]
        if status != "optimal":
            return {"status": "failed", "reason": f"MVU on the training roll is {status}, "
                    "not certified optimal: the anchors are no MVU embedding"}
        tight, unique = [], []
        for k in params["tight_k"]:
            found = _native(Y, Xtr, Xte, k)
            y2, gap2 = _second(found["anchors"], found["sq"], params["second_solver"])
            both = found["ok"] & (gap2 <= 1e-4)
            dev = (np.linalg.norm(found["y"] - y2, axis=1)
                   / np.maximum(np.linalg.norm(found["y"], axis=1), 1e-300))
            unique.append({"k": k, "both_certified": int(both.sum()),
                           "max_relative_deviation": float(dev[both].max()) if both.any() else None})
            tight.append({key: v for key, v in found.items()
                          if key not in ("y", "ok", "anchors", "sq")})
        small = [{key: v for key, v in _native(Y, Xtr, Xte, k).items()
                  if key not in ("y", "ok", "anchors", "sq")} for k in params["small_k"]]
        timing = _timing(Y, Xtr, Xte, params)
    return {"status": "ok", "reason": "", "n_train": len(Xtr), "n_test": len(Xte),
            "r": params["dimension"], "mvu_status": status,
            "second_solver": params["second_solver"], "tight": tight, "small": small,
            "unique": unique, "cost": timing, "group_cpu_seconds": cpu_clock() - start}


def sources(params: dict) -> list:
    """The data set and MVU plugins the job finds by name."""
    return [registry.get_dataset(params["dataset"]), registry.get_method("mvu")]
