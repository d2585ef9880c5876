"""One job of Table 3.3 (thesis 3.1.9, "MVU for large margin classification"): SVMs
with the linear, polynomial, Gaussian and MVU kernels on one draw of two digits.

The thesis: "Several training and test sets for problems in binary classification
were created from the USPS data set of handwritten digits. Each training and test set
had 810 and 90 examples, respectively. For each experiment, the MVU kernel matrices
were learned (using k = 4 nearest neighbors) on the combined training and test data
sets, ignoring the target labels. The results were compared to those obtained from
linear, polynomial (p = 2), and Gaussian (sigma = 1) kernels" (eqs. 3.46-3.48);
Table 3.3 averages 10 experiments with different 90/10 splits.

A job (``table_3_3/DATASET/TASK/draw<d>``) does, in the engine's child process:

1. load the two digits of ``TASK`` (``1vs2``) and draw ``per_digit`` images of each
   among the distinct images (seeded by the profile's seed, the digits and ``d``;
   MVU refuses duplicate points);
2. compute every kernel of the section on all drawn images (labels unused):
   (3.46)-(3.48) from :mod:`harness.kernels`, MVU's ``K = F F^T`` from
   :class:`harness.methods.mvu.MVU` (its solve certified: status, gap and violation are kept;
   a failed solve leaves the other kernels' numbers and marks the MVU kernel);
3. for each of ``n_splits`` seeded stratified splits into ``n - n_test`` training and
   ``n_test`` test images, train scikit-learn's ``SVC(kernel="precomputed")`` on the
   kernel's train x train block and predict from its test x train block; C is fixed
   or chosen by stratified cross validation on the training part only. Each kernel is
   divided by the mean of its training diagonal first, so that one C grid fits every
   kernel (an SVM with kernel K / s and C is the SVM with K and C / s).

The record holds the test error in percent per split and kernel, the chosen C, the
length scales of the drawn images (pairwise and k-NN distances: how the Gaussian's
sigma compares with them) and MVU's solve.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from sklearn.model_selection import GridSearchCV, StratifiedKFold, StratifiedShuffleSplit
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from harness import registry
from harness.kernels import (gaussian_kernel, linear_kernel, neighbourhood_scale,
                             polynomial_kernel, squared_distances)
from harness.plugin import ExpectedFailure
from harness.provenance import blas_info
from harness.results.table_3_3 import NEIGHBOURHOOD
from harness.tasks.embedding import BadInputError

__all__ = ["KERNEL_TYPES", "draw_rows", "stratified_splits",
           "standard_kernel", "train_svm", "svm_test_error", "length_scales", "work", "sources"]

KERNEL_TYPES = ("linear", "polynomial", "gaussian", "mvu")


def _rng_seed(*parts: int) -> int:
    """A seed for scikit-learn (an int) from several integers."""
    return int(np.random.default_rng(list(parts)).integers(2**31 - 1))


def draw_rows(X: np.ndarray, y: np.ndarray, digits, per_digit: int, seed) -> np.ndarray:
    """Row indices: ``per_digit`` distinct images of each digit, drawn without
    replacement (``numpy.random.default_rng(seed)``), the digits in the given order.

    Raises
    ------
    BadInputError
        A digit has fewer than ``per_digit`` distinct images.
    """
    rng = np.random.default_rng(seed)
    _, first = np.unique(X, axis=0, return_index=True)
    distinct = np.zeros(len(X), bool)
    distinct[first] = True
    rows = []
    for digit in digits:
        pool = np.flatnonzero((y == digit) & distinct)
        if len(pool) < per_digit:
            raise BadInputError(f"digit {digit} has {len(pool)} distinct images, fewer than "
                                f"per_digit = {per_digit}; lower per_digit")
        rows.append(np.sort(rng.choice(pool, size=per_digit, replace=False)))
    return np.concatenate(rows)


def stratified_splits(y: np.ndarray, n_test: int, n_splits: int, seed: int) -> list:
    """``n_splits`` seeded ``(train, test)`` index pairs, ``n_test`` test points each,
    the classes in proportion (:class:`sklearn.model_selection.StratifiedShuffleSplit`)."""
    splitter = StratifiedShuffleSplit(n_splits=n_splits, test_size=n_test, random_state=seed)
    return list(splitter.split(np.zeros(len(y)), y))


def standard_kernel(spec: dict, X: np.ndarray) -> tuple[np.ndarray, dict]:
    """The Gram matrix of a linear, polynomial or Gaussian kernel spec on ``X``, and
    what was used (sigma read off the data for ``sigma: neighbourhood``)."""
    kind = spec["type"]
    if kind == "linear":
        return linear_kernel(X), {}
    if kind == "polynomial":
        return polynomial_kernel(X, p=spec["p"]), {"p": spec["p"]}
    if kind == "gaussian":
        sigma = spec["sigma"]
        source = "profile"
        if sigma == NEIGHBOURHOOD:
            sigma = neighbourhood_scale(X, spec["n_neighbors"])
            source = f"RMS distance to the {spec['n_neighbors']} nearest neighbours"
        K = gaussian_kernel(X, sigma=sigma)
        off = K[~np.eye(len(K), dtype=bool)]
        return K, {"sigma": float(sigma), "sigma_source": source,
                   "offdiagonal_mean": float(off.mean()), "offdiagonal_max": float(off.max())}
    raise ValueError(f"kernel type {kind!r} is not one of {KERNEL_TYPES[:3]}")


def mvu_kernel(spec: dict, X: np.ndarray, params: dict) -> tuple[np.ndarray, dict]:
    """MVU's learned kernel ``K = F F^T`` on all of ``X`` (labels unused) and the
    certified solve; an :class:`ExpectedFailure` when there is no kernel."""
    mvu = registry.get_method("mvu")(n_neighbors=spec["n_neighbors"], n_components=2,
                                     solver=params["solver"],
                                     time_limit=params["mvu_time_limit"],
                                     random_state=params["seed"])
    started = time.perf_counter()
    try:
        mvu.fit(X)
    except ExpectedFailure:  # a disconnected graph, a failed solve
        raise
    except ValueError as exc:  # duplicate points, k >= n
        raise BadInputError(f"MVU rejected the input: {exc}") from None
    F = mvu.kernel_factor_
    info = mvu.solve_info_
    eigenvalues = mvu.eigenvalues_
    return F @ F.T, {
        "k": spec["n_neighbors"], "fit_seconds": time.perf_counter() - started,
        "solve": {key: info.get(key) for key in ("status", "reason", "solver", "gap",
                                                 "violation", "value", "bound", "rank",
                                                 "method", "wall_seconds")},
        "normalised_eigenvalues": (eigenvalues[:10] / eigenvalues.sum()).tolist(),
    }


def train_svm(K: np.ndarray, y: np.ndarray, train: np.ndarray, *, C, C_grid=(),
              cv_folds: int = 5, seed: int = 0) -> tuple[SVC, float]:
    """``SVC(kernel="precomputed")`` trained on ``K[train][:, train] / scale``, with
    ``scale`` the mean of that block's diagonal (one C grid for every kernel); returns
    the model and ``scale`` (predict with ``K[test][:, train] / scale``).

    ``C="cv"``: C from ``C_grid`` by stratified ``cv_folds``-fold cross validation on
    the training part only (ties: the smallest C); a number fixes it.
    """
    scale = float(np.mean(np.diag(K)[train]))
    if not scale > 0:
        raise BadInputError(f"the kernel's training diagonal has mean {scale:g}; a kernel "
                            f"must be positive on its diagonal")
    K_train = K[np.ix_(train, train)] / scale
    if C == "cv":
        folds = StratifiedKFold(cv_folds, shuffle=True, random_state=seed)
        search = GridSearchCV(SVC(kernel="precomputed"), {"C": sorted(C_grid)}, cv=folds)
        return search.fit(K_train, y[train]).best_estimator_, scale
    return SVC(kernel="precomputed", C=float(C)).fit(K_train, y[train]), scale


def svm_test_error(K: np.ndarray, y: np.ndarray, train: np.ndarray, test: np.ndarray,
                   **options) -> tuple[float, float]:
    """Percent test error of :func:`train_svm` (``options``: its keywords) on
    ``test``, and the C it used."""
    model, scale = train_svm(K, y, train, **options)
    wrong = model.predict(K[np.ix_(test, train)] / scale) != y[test]
    return float(100.0 * wrong.mean()), float(model.C)


def length_scales(X: np.ndarray, k: int) -> dict:
    """How far apart the drawn images are: minimum, median and maximum pairwise
    distance, the median distance to the k-th nearest neighbour and the RMS distance
    to the k nearest (:func:`harness.kernels.neighbourhood_scale`)."""
    D = np.sqrt(squared_distances(X))
    pairs = D[np.triu_indices(len(X), 1)]
    kth = np.sort(D, axis=1)[:, k]  # column 0 is the point itself
    return {"min_distance": float(pairs.min()), "median_distance": float(np.median(pairs)),
            "max_distance": float(pairs.max()), "k": k,
            "median_kth_neighbour_distance": float(np.median(kth)),
            "neighbourhood_scale": neighbourhood_scale(X, k)}


def _kernels(params: dict, X: np.ndarray) -> tuple[dict, dict]:
    """Every kernel of the job: ``{id: K}`` for the ones computed, ``{id: info}`` for
    all (status, reason, seconds, what was used)."""
    matrices, infos = {}, {}
    for name, spec in params["kernels"].items():
        started = time.perf_counter()
        try:
            if spec["type"] == "mvu":
                K, info = mvu_kernel(spec, X, params)
            else:
                K, info = standard_kernel(spec, X)
        except ExpectedFailure as exc:
            infos[name] = {"status": exc.status, "reason": str(exc),
                           "error_type": type(exc).__name__, "type": spec["type"]}
            continue
        matrices[name] = K
        infos[name] = {"status": "ok", "reason": "", "type": spec["type"],
                       "seconds": time.perf_counter() - started, **info}
    return matrices, infos


def _summary(runs: list[dict], names) -> dict:
    out = {}
    for name in names:
        values = np.array([run["errors"][name] for run in runs if name in run["errors"]])
        if len(values):
            out[name] = {"mean": float(values.mean()),
                         "std": float(values.std(ddof=1)) if len(values) > 1 else 0.0,
                         "n": int(len(values))}
    return out


def work(params: dict) -> dict:
    """The child's work for one draw; returns the record body (see the module doc)."""
    digits = params["digits"]
    with threadpool_limits(limits=params["blas_threads"]):
        try:
            data = registry.get_dataset(params["dataset"])().load(**params["dataset_params"])
            if data.y is None:
                raise BadInputError(f"{params['dataset']} has no labels; Table 3.3 needs digits")
            rows = draw_rows(data.X, np.asarray(data.y), digits, params["per_digit"],
                             [params["seed"], *digits, params["draw"]])
        except ExpectedFailure as exc:
            return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}
        X, y = np.ascontiguousarray(data.X[rows]), np.asarray(data.y)[rows]
        body: dict[str, Any] = {
            "status": "ok", "reason": "", "n_samples": len(rows),
            "n_features": int(X.shape[1]), "dataset_meta": data.meta,
            "rows": rows.tolist(), "scale": length_scales(X, params["scale_neighbors"]),
        }
        matrices, body["kernels"] = _kernels(params, X)
        runs = []
        split_seed = _rng_seed(params["seed"], *digits, params["draw"], 1)
        for i, (train, test) in enumerate(stratified_splits(y, params["n_test"],
                                                            params["n_splits"], split_seed)):
            run = {"split": i, "n_train": len(train), "n_test": len(test), "errors": {},
                   "C": {}}
            for name, K in matrices.items():
                run["errors"][name], run["C"][name] = svm_test_error(
                    K, y, train, test, C=params["C"], C_grid=params["C_grid"],
                    cv_folds=params["cv_folds"], seed=split_seed + i)
            runs.append(run)
        body.update(runs=runs, summary=_summary(runs, params["kernels"]),
                    blas_during_run=blas_info())
    return body


def sources(params: dict) -> list:
    """The code a job finds by name at run time: the data set and MVU plugins (this
    module, the work, counts already; the solver backend:
    :func:`harness.jobs.job_sources`)."""
    return [registry.get_dataset(params["dataset"]), registry.get_method("mvu")]
