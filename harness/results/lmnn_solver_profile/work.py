"""The jobs of the LMNN solver profile (thesis 2.1.7, 2.1.9, 2.1.1, 2.1.2, 2.2.3):
``trace`` (the reference solver watched per iterate, :mod:`.trace`), ``scaling``
(CPU times against n, k, d) and ``classes`` (fit times against the number of
classes). See README.md for the choices.
"""

from __future__ import annotations

import contextlib

import numpy as np
from threadpoolctl import threadpool_limits

import harness.methods.shared.lmnn_solvers as solvers
import harness.methods.lmnn as lmnn_module
from harness import registry
from harness.plugin import ExpectedFailure
from harness.metrics.knn_error import knn_loo_predict, knn_loo_error, same_class_neighbors
from harness import timelimit
from harness.results.lmnn_solver_profile.trace import active_triples, cpu_clock, traced_reference
from harness.methods.shared.lmnn_core import candidate_pairs, loss_over_all_triples, target_sq_distances
from harness.methods.lmnn import LMNN

__all__ = ["load", "profiled_fit", "random_metrics", "trace_work", "scaling_work",
           "classes_work", "work"]


def load(name: str, **kw):
    """``(X, codes)`` of a data set (every point)."""
    ds = registry.get_dataset(name)().load(**kw)
    return np.asarray(ds.X, dtype=np.float64), np.unique(np.asarray(ds.y), return_inverse=True)[1]


@contextlib.contextmanager
def _timed_core(acc: dict, clock):
    """Time the L-BFGS solver's impostor search, hinge pass and gradient (into ``acc``)."""
    core = solvers.SingleMetricCore
    old_pairs, old_pass = core.candidate_pairs, core.triplet_pass
    old_final = lmnn_module.loss_over_all_triples

    def timed(fn, key):
        def inner(*a, **k):
            start = clock()
            out = fn(*a, **k)
            acc[key] += clock() - start
            return out
        return inner

    def passed(*a, **k):
        state = timed(old_pass, "pass_seconds")(*a, **k)
        state.grad_L = timed(state.grad_L, "pass_seconds")
        return state

    core.candidate_pairs = staticmethod(timed(old_pairs, "search_seconds"))
    core.triplet_pass = staticmethod(passed)
    lmnn_module.loss_over_all_triples = timed(old_final, "search_seconds")
    try:
        yield
    finally:
        core.candidate_pairs, core.triplet_pass = staticmethod(old_pairs), staticmethod(old_pass)
        lmnn_module.loss_over_all_triples = old_final


def profiled_fit(X, codes, n_neighbors, mu, clock, repeats: int = 1) -> tuple[LMNN, dict]:
    """The default LMNN fit with its CPU time split (search, hinge pass + gradient,
    total): each the median over ``repeats`` identical fits (a fit of the small sets
    takes 10-50 ms, and one fit's split moved by a factor 1.8 between two runs), the
    fits' own splits under ``repeat_seconds``."""
    splits, model = [], None
    for _ in range(max(1, int(repeats))):
        acc = {"search_seconds": 0.0, "pass_seconds": 0.0}
        with _timed_core(acc, clock):
            start = clock()
            model = LMNN(n_neighbors=n_neighbors, mu=mu).fit(X, codes)
            acc["total_seconds"] = clock() - start
        splits.append(acc)
    median = {key: float(np.median([s[key] for s in splits])) for key in splits[0]}
    return model, {**median, "n": int(len(X)), "repeats": len(splits),
                   "repeat_seconds": splits}


def random_metrics(X, codes, targets, mu, n_neighbors, n_random, n_identity, rng) -> dict:
    """Loss (2.13) over all triples and LOO kNN error (%) of random maps ``L``."""
    d = X.shape[1]
    maps = [rng.standard_normal((d, d)) for _ in range(n_random)] + [np.eye(d)] * n_identity
    out = {"loss": [], "loo_error": []}
    for L in maps:
        mean = target_sq_distances(X @ L.T, targets).mean()
        L = L * np.sqrt(10 ** rng.uniform(np.log10(0.3), np.log10(30.0)) / mean)
        Z = X @ L.T
        out["loss"].append(float(loss_over_all_triples(Z, codes, targets, mu).loss))
        out["loo_error"].append(100.0 * float(knn_loo_error(Z, codes, n_neighbors)))
    return out


def _missed_at_first_stop(res, trace, refresh, tol) -> int | None:
    """Active triples the cache missed at the first full check the stop test triggers."""
    curve = res.loss_curve
    for check in trace.checks:
        t = check["t"]
        if t >= refresh and solvers._relative_decrease(curve[t - refresh], curve[t]) <= tol:
            return check["missed"]
    return None


def trace_work(p: dict) -> dict:
    clock = cpu_clock(p["blas_threads"])
    X, codes = load(p["dataset"])
    k, mu = p["n_neighbors"], p["mu"]
    targets = same_class_neighbors(X, codes, k)
    L0 = solvers.initial_L(X, targets, X.shape[1], "pca")
    start = timelimit.cpu_clock()
    res, trace = traced_reference(X, codes, targets, L0, mu=mu, max_iter=p["max_iter"],
                                  tol=p["tol"], refresh=p["refresh"], n_neighbors=k,
                                  repeats=p["timing_repeats"], clock=clock)
    traced_seconds = timelimit.cpu_clock() - start
    final = float(loss_over_all_triples(X @ res.L.T, codes, targets, mu).loss)
    every = LMNN(n_neighbors=k, mu=mu, solver="reference", max_iter=p["max_iter"],
                 tol=p["tol"], active_set_refresh=1).fit(X, codes)
    step_runs = []
    for first in p["first_steps"]:
        r, _ = traced_reference(X, codes, targets, L0, mu=mu, max_iter=p["step_max_iter"],
                                tol=0.0, refresh=p["refresh"], n_neighbors=k,
                                first_step=first, watch=False)
        step_runs.append({"first_step": first, "n_iter": int(r.n_iter),
                          "converged": bool(r.converged),
                          "loss": float(loss_over_all_triples(X @ r.L.T, codes, targets, mu).loss)})
    opt = LMNN(n_neighbors=k, mu=mu, tol=1e-9, max_iter=20000).fit(X, codes)
    model, prof = profiled_fit(X, codes, k, mu, clock, p["timing_repeats"])
    Z = X @ model.components_.T
    state = loss_over_all_triples(Z, codes, targets, mu)
    keys = active_triples(Z, targets, state.anchors, state.imps)
    busy = np.zeros(len(X), bool)
    busy[keys // k // len(X)] = True
    wrong = knn_loo_predict(Z, codes, k) != codes
    rng = np.random.default_rng([p["seed"], len(X)])
    return {"status": "ok", "reason": "", "dataset": p["dataset"], "kind": "trace",
            "n": int(len(X)), "d": int(X.shape[1]), "n_iter": int(res.n_iter),
            "converged": bool(res.converged), "traced_seconds": traced_seconds,
            "iterates": trace.iterates, "checks": trace.checks,
            "final_check": {"loss_active_set": final,
                            "loss_every_iteration": float(every.loss_),
                            "converged_active_set": bool(res.converged),
                            "converged_every_iteration": bool(every.converged_),
                            "missed_at_first_stop": _missed_at_first_stop(
                                res, trace, p["refresh"], p["tol"])},
            "step_runs": step_runs, "optimum_lbfgs": float(opt.loss_),
            "random_metrics": random_metrics(X, codes, targets, mu, k, p["n_random_metrics"],
                                             p["n_scaled_identities"], rng),
            "empty": {"n_without": int((~busy).sum()), "violations": int((~busy & wrong).sum())},
            "time_profile": prof}


def scaling_work(p: dict) -> dict:
    clock = cpu_clock(p["blas_threads"])
    n_max = max(max(p["n_grid"]), p["n_fixed"], p["profile_n"])
    X, codes = load(p["dataset"], n_train=n_max, n_test=1)
    X, codes = X[:n_max], codes[:n_max]
    rng = np.random.default_rng(p["seed"])
    order = rng.permutation(n_max)
    X, codes = X[order], codes[order]
    mu, times = p["mu"], []

    def point(sweep, n, k, d):
        Xs, cs = X[:n, :d], codes[:n]
        targets = same_class_neighbors(Xs, cs, k)
        Z = Xs @ solvers.initial_L(Xs, targets, d, "pca").T
        for _ in range(p["timing_repeats"]):
            row = {"sweep": sweep, "n": n, "k": k, "d": d}
            start = clock()
            loss_over_all_triples(Z, cs, targets, mu, "blocked")
            row["seconds_check"] = clock() - start
            start = clock()
            candidate_pairs(Z, cs, targets, 0.0, "blocked")
            row["seconds_search"] = clock() - start
            times.append(row)

    d_all, k0 = X.shape[1], p["k_fixed"]
    for n in p["n_grid"]:
        point("n", n, k0, d_all)
    for k in p["k_grid"]:
        point("k", p["n_fixed"], k, d_all)
    for d in p["d_grid"]:
        point("d", p["n_fixed"], k0, min(d, d_all))
    for d in p["outer_d_grid"]:
        V = rng.standard_normal((p["outer_count"], d))
        for _ in range(p["timing_repeats"]):
            G = np.zeros((d, d))
            start = clock()
            for v in V:
                G += np.outer(v, v)
            times.append({"sweep": "outer", "d": d, "seconds_outer": clock() - start})
    _, prof = profiled_fit(X[:p["profile_n"]], codes[:p["profile_n"]], p["n_neighbors"], mu,
                           clock, p["timing_repeats"])
    return {"status": "ok", "reason": "", "dataset": p["dataset"], "kind": "scaling",
            "times": times, "time_profile": prof}


def classes_work(p: dict) -> dict:
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.svm import SVC

    clock = cpu_clock(p["blas_threads"])
    X, codes = load(p["dataset"])
    rng = np.random.default_rng(p["seed"])
    rows = []
    for C in p["class_grid"]:
        if C > codes.max() + 1:
            raise ExpectedFailure(f"{p['dataset']} has {codes.max() + 1} classes, C = {C}")
        per = p["n_fixed"] // C
        idx = np.concatenate([rng.choice(np.flatnonzero(codes == c), per, replace=False)
                              for c in range(C)])
        Xc, yc = X[idx], codes[idx]
        for rep in range(p["timing_repeats"]):
            start = clock()
            model = LMNN(n_neighbors=p["n_neighbors"], mu=p["mu"]).fit(Xc, yc)
            lm = clock() - start
            start = clock()
            OneVsRestClassifier(SVC()).fit(Xc, yc)
            ovr = clock() - start
            start = clock()
            SVC().fit(Xc, yc)
            ovo = clock() - start
            rows.append({"n_classes": C, "repeat": rep, "n": int(len(idx)), "lmnn_seconds": lm,
                         "lmnn_iter": int(model.n_iter_),
                         "lmnn_seconds_per_iter": lm / max(model.n_iter_, 1),
                         "ovr_seconds": ovr, "ovo_seconds": ovo})
    return {"status": "ok", "reason": "", "dataset": p["dataset"], "kind": "classes",
            "rows": rows}


def work(params: dict) -> dict:
    """Run one job; a data set that is not here gives a gap record."""
    fn = {"trace": trace_work, "scaling": scaling_work, "classes": classes_work}[params["job"]]
    try:
        with threadpool_limits(params["blas_threads"]):
            return fn(params)
    except ExpectedFailure as exc:
        return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__,
                "kind": params["job"], "dataset": params.get("dataset", "")}
