"""One job of Fig. 3.23 (thesis 3.1.10): what ``harness job fig_3_23/KEY`` runs in its
child process (its import closure is the job's source files; no writer code).
"""

from __future__ import annotations

import inspect
import math
from types import ModuleType

import numpy as np
from threadpoolctl import threadpool_limits

from harness import registry
from harness.plugin import ExpectedFailure
from harness.provenance import blas_info
from harness.results.common.work.mvu_point import load_dataset, mvu_sources
from harness.results.fig_3_23 import MVU_FITS

__all__ = ["COMPUTATION", "alignment_error", "sources", "work"]

#: Packages whose modules count as a point's computation (see :func:`sources`).
COMPUTATION = ("harness.methods.", "harness.solvers.", "harness.problems.")


def alignment_error(X: np.ndarray, Y: np.ndarray, alignment: str = "linear") -> float:
    """err(X, Y) = min_Q |X - Q Y|_F of (3.34), points as rows: the residual of the
    least-squares fit of X by Y Q^T; ``affine`` also fits a translation (the thesis
    prints a linear Q)."""
    if alignment == "affine":
        Y = np.hstack([Y, np.ones((len(Y), 1))])
    Q, *_ = np.linalg.lstsq(Y, X, rcond=None)
    return float(np.linalg.norm(X - Y @ Q))


def sources(params: dict) -> list:
    """Code whose edit reruns a point: the MVU point's (:func:`mvu_sources`), the
    extension plugins and, transitively,
    the modules of :data:`COMPUTATION` they import names from (their base classes,
    the out-of-sample problem, its native solver and kernel)."""
    found: set[ModuleType] = set()
    todo = [inspect.getmodule(registry.get_method(name)) for name in params["extensions"]]
    while todo:
        module = todo.pop()
        if module in found:
            continue
        found.add(module)
        todo += [m for m in map(inspect.getmodule, vars(module).values())
                 if m is not None and m.__name__.startswith(COMPUTATION)]
    return mvu_sources(params) + sorted(found, key=lambda m: m.__name__)


# ---- the work of one point (child process) ----------------------------------------
def _split_rows(params: dict, n: int) -> dict[str, np.ndarray]:
    n_ab, n_c = params["n_ab"], params["n_c"]
    if 2 * n_ab + n_c > n:
        raise ExpectedFailure(f"|A| + |B| + |C| = {2 * n_ab + n_c} exceeds the {n} points")
    rng = np.random.default_rng([params["seed"], params["trial"]])
    perm = rng.permutation(n)
    return {"A": perm[:n_ab], "B": perm[n_ab:2 * n_ab], "C": perm[2 * n_ab:2 * n_ab + n_c]}


def _mvu(X: np.ndarray, params: dict) -> tuple[np.ndarray, dict]:
    mvu = registry.get_method("mvu")(**params["method_params"], random_state=params["seed"])
    try:
        Y = mvu.fit_transform(X)
    except ValueError as exc:  # bad input (duplicates, k >= n): a marked failure
        raise ExpectedFailure(str(exc)) from None
    info = mvu.solve_info_
    return Y, {**{k: info.get(k) for k in ("status", "gap", "violation", "wall_seconds")},
               "linked_edges": np.asarray(mvu.linked_edges_).tolist()}


def work(params: dict) -> dict:
    """The child's work for one point; returns the record body."""
    with threadpool_limits(limits=params["blas_threads"]):
        try:
            dataset = load_dataset(params)
            rows = _split_rows(params, dataset.n_samples)
        except ExpectedFailure as exc:
            return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}
        body = {"status": "ok", "reason": "", "n_samples": dataset.n_samples,
                "n_features": int(dataset.X.shape[1]), "dataset_meta": dataset.meta}
        X, n_c = dataset.X, len(rows["C"])
        fits, solves = {}, {}
        try:
            for name in MVU_FITS:
                idx = np.concatenate([rows[part] for part in name])
                fits[name], solves[name] = _mvu(X[idx], params)
        except ExpectedFailure as exc:
            return {**body, "status": exc.status, "reason": f"MVU on {name}: {exc}",
                    "error_type": type(exc).__name__, "mvu_solves": solves}
        align = params["alignment"]
        # C's rows are the last n_c of the A+C and B+C embeddings
        denominator = alignment_error(fits["AC"][-n_c:], fits["BC"][-n_c:], align)
        measures, numerators, extension_info = {}, {}, {}
        for name, ext_params in params["extensions"].items():
            cls = registry.get_method(name)
            extended, infos = {}, []
            for part in ("A", "B"):
                est = cls(**ext_params).fit(X[rows[part]], fits[part])
                extended[part], info = est.extend(X[rows["C"]])
                infos.append(info)
            numerator = alignment_error(extended["A"], extended["B"], align)
            numerators[name] = numerator
            measures[name] = numerator / denominator if denominator > 0 else math.nan
            extension_info[name] = infos
        body.update(denominator=denominator,
                    # |Y_C^AC|_F: MVU's own inconsistency relative to C's embedding size
                    denominator_scale=float(np.linalg.norm(fits["AC"][-n_c:])),
                    numerators=numerators,
                    measures=measures,  # ratio (3.34) per extension
                    mvu_solves=solves,
                    extension_info=extension_info, blas_during_run=blas_info(),
                    mvu_certified=all(s.get("status") == "optimal" for s in solves.values()))
    return body
