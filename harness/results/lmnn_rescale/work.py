r"""One job of ``lmnn_rescale`` (thesis 2.1.9, line 1030): LMNN trained on ``c X``.

Per split (``n_runs`` seeded stratified splits with ``test_fraction`` test points; a
data set with a predefined split, MNIST, its own split once) and per scale ``c`` of
``scales``: LMNN (eq. 2.11, :class:`harness.methods.lmnn.LMNN`, k = ``n_neighbors``,
mu = 0.5) fitted on the training part times ``c``, from ``init`` -- ``identity``, the
thesis' M = I (Algorithm 3) at every scale, or the plugin's ``pca_scaled`` start --;
recorded: the kNN test error on the test part times ``c``, the fraction of test
predictions equal to those at ``c = 1``, ``|c^2 M_c - M_1|_F / |M_1|_F`` with
``M = L^T L`` (the metric of the inputs: ``M_c`` on ``c X`` is ``M_1 / c^2`` at the
global optimum of the convex problem), whether the solver converged and its
iterations.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import train_test_split
from threadpoolctl import threadpool_limits

from harness import registry
from harness.plugin import ExpectedFailure
from harness.timelimit import cpu_clock
from harness.methods.lmnn import LMNN

__all__ = ["splits", "fit_at_scales", "work", "sources"]


def splits(dataset, params: dict) -> list[tuple[np.ndarray, np.ndarray]]:
    """``(train rows, test rows)`` per run: the data set's predefined split once, else
    ``n_runs`` stratified random splits seeded by ``(seed, run)``."""
    n = len(dataset.y)
    protocol = dataset.meta.get("split_protocol") or {}
    if protocol.get("predefined_n_train"):
        n_train = int(protocol["n_train"])
        return [(np.arange(n_train), np.arange(n_train, n))]
    rows, y = np.arange(n), np.asarray(dataset.y)
    return [tuple(train_test_split(rows, test_size=params["test_fraction"], stratify=y,
                                   random_state=int(np.random.default_rng(
                                       [params["seed"], run]).integers(2 ** 31))))
            for run in range(params["n_runs"])]


def fit_at_scales(Xtr, ytr, Xte, yte, params: dict) -> list[dict]:
    """LMNN on ``c Xtr`` for every ``c`` of ``params["scales"]`` (1 first): per scale
    the test error, the agreement of its test predictions with those at 1, the
    relative Frobenius distance of ``c^2 M_c`` to ``M_1`` and the solver's state."""
    scales = sorted(params["scales"], key=lambda c: (c != 1, c))
    d = Xtr.shape[1]
    out, reference = [], None
    for c in scales:
        init = np.eye(d) if params["init"] == "identity" else "pca"
        model = LMNN(n_neighbors=params["n_neighbors"], mu=params["mu"], init=init,
                     max_iter=params["max_iter"])
        start = cpu_clock()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(c * Xtr, ytr)
        seconds = cpu_clock() - start
        pred = model.predict(c * Xte)
        M = (c ** 2) * (model.components_.T @ model.components_)
        if reference is None:
            reference = (pred, M)
        out.append({"scale": float(c), "error": float(np.mean(pred != yte)),
                    "agreement": float(np.mean(pred == reference[0])),
                    "rel_frobenius": float(np.linalg.norm(M - reference[1])
                                           / np.linalg.norm(reference[1])),
                    "converged": bool(model.converged_), "n_iter": int(model.n_iter_),
                    "fit_cpu_seconds": float(seconds)})
    return out


def work(params: dict) -> dict:
    """Every split and scale of one data set."""
    with threadpool_limits(limits=params["blas_threads"]):
        try:
            dataset = registry.get_dataset(params["dataset"])().load(**params["dataset_params"])
        except ExpectedFailure as exc:
            return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}
        X, y = np.asarray(dataset.X, dtype=np.float64), np.asarray(dataset.y)
        runs = []
        for run, (train, test) in enumerate(splits(dataset, params)):
            for row in fit_at_scales(X[train], y[train], X[test], y[test], params):
                runs.append({"run": run, **row})
        return {"status": "ok", "reason": "", "n_runs": len({r["run"] for r in runs}),
                "n_train": int(len(train)), "n_test": int(len(test)),
                "n_features": int(X.shape[1]), "runs": runs}


def sources(params: dict) -> list:
    """The data set's plugin and LMNN's."""
    return [registry.get_dataset(params["dataset"]), LMNN]
