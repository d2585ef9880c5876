"""One job of ``lmnn_sdp`` (thesis 2.1.1-2.1.3, 2.1.7): ``solve_<ds>``, ``scaling_<ds>``
or ``margin0_<ds>`` (see the package docstring); every objective recomputed from the
final ``M`` as the loss (2.11) over every triplet."""

from __future__ import annotations

import statistics

import numpy as np
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from threadpoolctl import threadpool_limits

from harness import registry
from harness.plugin import ExpectedFailure
from harness.metrics.knn_error import knn_predict, same_class_neighbors
from harness.provenance import blas_info
from harness.results.lmnn_sdp.sdp import (
    fixed_step_subgradient, loss_at_margin, psd_factor, solve_sdp, triplets,
)
from harness.methods.shared.lmnn_core import loss_over_all_triples
from harness.methods.shared.lmnn_solvers import solve_lbfgs, solve_reference
from harness.timelimit import cpu_clock

__all__ = ["Problem", "draw_problem", "exact_loss", "run_special", "work", "sources"]


class Problem:
    """A training subset (standardised), its test set, target neighbours and triplets."""

    def __init__(self, X, codes, X_test, codes_test, k):
        self.X, self.codes, self.X_test, self.codes_test = X, codes, X_test, codes_test
        self.targets = same_class_neighbors(X, codes, k)
        self.triples = triplets(codes, self.targets)
        self.k = k


def draw_problem(X, y, n_per_class: int, k: int, seed, standardize: bool) -> Problem:
    """``n_per_class`` training points per class drawn with ``seed``; the rest is the
    test set; features z-scored with the training subset's statistics."""
    classes, codes = np.unique(y, return_inverse=True)
    rng = np.random.default_rng(seed)
    train = np.concatenate([rng.choice(np.flatnonzero(codes == c), n_per_class, replace=False)
                            for c in range(len(classes))])
    test = np.setdiff1d(np.arange(len(y)), train)
    X = np.asarray(X, dtype=float)
    mean, std = X[train].mean(axis=0), X[train].std(axis=0)
    if standardize:
        std = np.where(std > 0, std, 1.0)
        Xs = (X - mean) / std
    else:
        Xs = X
    return Problem(Xs[train], codes[train], Xs[test], codes[test], k)


def exact_loss(p: Problem, M, mu: float) -> float:
    """(2.11) at margin 1 over every triplet by :func:`harness.methods.shared.lmnn_core.loss_over_all_triples`."""
    L, _ = psd_factor(M)
    return float(loss_over_all_triples(p.X @ L.T, p.codes, p.targets, mu).loss)


def _knn(p: Problem, M, X_test=None) -> np.ndarray:
    L, _ = psd_factor(M)
    return knn_predict(p.X, p.codes, p.X_test if X_test is None else X_test, p.k, L)


def _error(p: Problem, M, X_test=None) -> float:
    return 100.0 * float(np.mean(_knn(p, M, X_test) != p.codes_test))


def impostor_free(p: Problem, M, hinges: np.ndarray) -> dict:
    """2.1.2's "all local neighbourhoods contain nothing but the target neighbours": the
    training points with no active triplet under ``M`` (every hinge of (2.11) with them
    as anchor is zero), and how many of them kNN leave-one-out (k = the target
    neighbours, strict majority; a tie counts as wrong) misclassifies."""
    active = np.zeros(len(p.X), bool)
    active[p.triples[hinges > 0, 0]] = True
    L, _ = psd_factor(M)
    Z = p.X @ L.T
    sq = (Z * Z).sum(axis=1)
    D = sq[:, None] + sq[None, :] - 2 * Z @ Z.T
    np.fill_diagonal(D, np.inf)
    nearest = np.argsort(D, axis=1)[:, :p.k]
    correct = 2 * (p.codes[nearest] == p.codes[:, None]).sum(axis=1) > p.k
    free = ~active
    return {"impostor_free": int(free.sum()), "impostor_free_wrong": int((free & ~correct).sum())}


def _sdp(p: Problem, params, margin: float, trace=None) -> dict:
    out = solve_sdp(p.X, p.targets, p.triples, params["mu"], margin,
                    params["generic_solver"], trace)
    if out["M"] is None:
        raise ExpectedFailure(f"generic solver {params['generic_solver']}: {out['status']}")
    return out


def run_special(p: Problem, params, solver: str, L0) -> dict:
    """One fit of ``harness.methods.lmnn``'s ``solver`` from ``L0``: final ``M``, CPU seconds,
    iterations, converged, the loss curve's relative change over its last 50 steps."""
    start = cpu_clock()
    common = dict(mu=params["mu"], tol=params["special_tol"])
    if solver == "lbfgs":
        res = solve_lbfgs(p.X, p.codes, p.targets, L0, max_iter=params["lbfgs_max_iter"],
                          slack=0.25, **common)
    else:
        res = solve_reference(p.X, p.codes, p.targets, L0,
                              max_iter=params["reference_max_iter"], refresh=10, **common)
    seconds = cpu_clock() - start
    curve = np.asarray(res.loss_curve, dtype=float)
    before = curve[max(0, len(curve) - 51)]
    tail = float((before - curve[-1]) / max(abs(before), np.finfo(float).tiny))
    return {"M": res.L.T @ res.L, "cpu_seconds": seconds, "n_iter": int(res.n_iter),
            "converged": bool(res.converged), "tail_change": tail}


def lda_start(X: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """L0 of an LDA start: the d discriminant directions of scikit-learn's eigen-solver
    LDA (Ledoit-Wolf shrinkage), as rows, scaled to the identity's Frobenius norm."""
    lda = LinearDiscriminantAnalysis(solver="eigen", shrinkage="auto").fit(X, codes)
    L0 = np.asarray(lda.scalings_, float).T
    return L0 * np.sqrt(X.shape[1]) / np.linalg.norm(L0)


def _starts(p: Problem, count: int, seed) -> list[tuple[str, np.ndarray]]:
    """M = I, ``count`` random PSD starts, and LDA's directions (the starts chapter 4's
    "reliable" entry names)."""
    d = p.X.shape[1]
    rng = np.random.default_rng([*np.atleast_1d(seed), 7])
    return [("identity", np.eye(d))] + [
        (f"random{s}", rng.standard_normal((d, d)) / np.sqrt(d)) for s in range(count)
    ] + [("lda", lda_start(p.X, p.codes))]


def _solve_job(p: Problem, params) -> dict:
    mu = params["mu"]
    sdps = {}
    for c in params["margins"]:
        out = _sdp(p, params, float(c))
        dense = loss_at_margin(out["M"], p.X, p.targets, p.triples, mu, float(c))
        _, min_eig = psd_factor(out["M"])
        sdps[float(c)] = {**out, "objective": dense["loss"], "min_eig_rel": min_eig,
                          "max_slack_gap": float(np.max(np.abs(out["xi"] - dense["hinges"]))),
                          "predictions": _knn(p, out["M"])}
    M1 = sdps[1.0]["M"]
    rows = []
    for c, s in sdps.items():
        rows.append({
            "what": "sdp", "margin": c, "solver_status": s["status"],
            "objective": s["objective"], "cvxpy_value": s["value"],
            "objective_core": exact_loss(p, s["M"], mu) if c == 1.0 else float("nan"),
            "cpu_seconds": s["cpu_seconds"], "min_eig_rel": s["min_eig_rel"],
            "max_slack_gap": s["max_slack_gap"],
            "rel_err_literal": float(np.linalg.norm(s["M"] - M1 / c ** 4)
                                     / np.linalg.norm(M1 / c ** 4)),
            "rel_err_dimensional": float(np.linalg.norm(s["M"] - c * M1)
                                         / np.linalg.norm(c * M1)),
            "test_diff_predictions": int(np.sum(s["predictions"] != sdps[1.0]["predictions"])),
            "n_test": len(p.codes_test),
            "knn_test_error": 100.0 * float(np.mean(s["predictions"] != p.codes_test)),
            "M": s["M"].tolist()})
    for solver in ("lbfgs", "reference"):
        for name, L0 in _starts(p, params["n_random_starts"], params["seed"]):
            fit = run_special(p, params, solver, L0)
            _, min_eig = psd_factor(fit["M"])
            dense = loss_at_margin(fit["M"], p.X, p.targets, p.triples, mu)
            rows.append({"what": "special", "solver": solver, "start": name,
                         "objective": dense["loss"],
                         **impostor_free(p, fit["M"], dense["hinges"]),
                         "objective_core": exact_loss(p, fit["M"], mu),
                         "min_eig_rel": min_eig, "knn_test_error": _error(p, fit["M"]),
                         **{k: v for k, v in fit.items() if k != "M"}})
    d = p.X.shape[1]
    top = max(params["step_sizes"])
    for step in params["step_sizes"]:
        iterations = int(round(params["step_iterations"] * top / step))
        start = cpu_clock()
        run = fixed_step_subgradient(p.X, p.codes, p.targets, mu, np.eye(d), step, iterations)
        rows.append({"what": "step", "step": float(step), "iterations": iterations,
                     "objective": loss_at_margin(run["M"], p.X, p.targets, p.triples,
                                                 mu)["loss"],
                     "cpu_seconds": cpu_clock() - start})
    return {"rows": rows}


def _median_time(fn, repeats: int) -> tuple[float, dict]:
    times, out = [], None
    for _ in range(repeats):
        out = fn()
        times.append(out["cpu_seconds"])
    return statistics.median(times), out


def _scaling_job(X, y, params) -> dict:
    rows, mu = [], params["mu"]
    for size in params["scaling_per_class"]:
        p = draw_problem(X, y, size, params["n_neighbors"], [params["seed"], size],
                         params["standardize"])
        d = p.X.shape[1]
        row = {"what": "scaling", "n_per_class": size, "n_triplets": len(p.triples)}
        g_time, g = _median_time(lambda: _sdp(p, params, 1.0), params["timing_repeats"])
        row.update(generic_cpu=g_time, generic_status=g["status"],
                   generic_objective=loss_at_margin(g["M"], p.X, p.targets, p.triples, mu)["loss"])
        for solver in ("reference", "lbfgs"):
            t, fit = _median_time(lambda: run_special(p, params, solver, np.eye(d)),
                                  params["timing_repeats"])
            row[f"{solver}_cpu"] = t
            row[f"{solver}_objective"] = loss_at_margin(fit["M"], p.X, p.targets, p.triples,
                                                        mu)["loss"]
        rows.append(row)
    return {"rows": rows}


def _margin0_job(X, y, params) -> dict:
    rows, d = [], X.shape[1]
    for run in range(params["margin0_runs"]):
        p = draw_problem(X, y, params["n_per_class"], params["n_neighbors"],
                         [params["seed"], run], params["standardize"])
        rng = np.random.default_rng([params["seed"], run, 11])
        noisy = p.X_test + params["noise_fraction"] * rng.standard_normal(p.X_test.shape)
        m1 = _sdp(p, params, 1.0)
        m0 = _sdp(p, params, 0.0, trace=float(d))
        rows.append({"what": "margin0", "run": run, "n_test": len(p.codes_test),
                     "status_m1": m1["status"], "status_m0": m0["status"],
                     "err_m1": _error(p, m1["M"]), "err_m0": _error(p, m0["M"]),
                     "noisy_err_m1": _error(p, m1["M"], noisy),
                     "noisy_err_m0": _error(p, m0["M"], noisy),
                     "trace_m0": float(np.trace(m0["M"]))})
    return {"rows": rows}


def work(params: dict) -> dict:
    """The child's work for one job; returns the record body (``rows``: one dict per
    measured case)."""
    with threadpool_limits(limits=params["blas_threads"]):
        try:
            data = registry.get_dataset(params["dataset"])().load()
        except ExpectedFailure as exc:
            return {"status": exc.status, "reason": str(exc), "rows": [],
                    "error_type": type(exc).__name__}
        X, y = np.asarray(data.X, dtype=float), np.asarray(data.y)
        start = cpu_clock()
        try:
            if params["kind"] == "solve":
                p = draw_problem(X, y, params["n_per_class"], params["n_neighbors"],
                                 params["seed"], params["standardize"])
                body = {**_solve_job(p, params), "n_train": len(p.codes),
                        "n_triplets": len(p.triples)}
            elif params["kind"] == "scaling":
                body = _scaling_job(X, y, params)
            else:
                body = _margin0_job(X, y, params)
        except ExpectedFailure as exc:
            return {"status": "failed", "reason": str(exc), "rows": [],
                    "error_type": type(exc).__name__}
        return {"status": "ok", "reason": "", **body,
                "job_cpu_seconds": cpu_clock() - start,
                "blas_during_run": blas_info()}


def sources(params: dict) -> list:
    """The data set plugin the job loads by name."""
    return [registry.get_dataset(params["dataset"])]
