"""One job of Table 2.1's statistics (thesis 2.1.6): a data set as our loader gives it
(raw inputs, no PCA), its counts, class sizes and the split the harness uses for Table
2.1; for MNIST and isolet the number of principal components holding 95 % of the
variance (2.1.6, lines 775 and 840).

A data set not on this machine is a gap record (status ``unavailable``) whose reason
is the loader's, naming ``harness fetch <name>``; never a crash.
"""

from __future__ import annotations

import numpy as np
from threadpoolctl import threadpool_limits

from harness import registry
from harness.plugin import ExpectedFailure

__all__ = ["components_holding", "class_sizes", "per_subject_split", "loaded_split", "work"]

#: Yale B's per-subject rule (2.1.6, line 764): training and test images per subject
YALE_RULE = (45, 19)


def components_holding(X: np.ndarray, fraction: float) -> tuple[int, np.ndarray]:
    """The smallest number of principal components of ``X`` (rows are inputs, centred
    here) whose variances reach ``fraction`` of the total, and the cumulative shares
    (component 1, 2, ...), from the eigenvalues of the covariance."""
    X = np.asarray(X, dtype=np.float64)
    centred = X - X.mean(axis=0)
    values = np.clip(np.linalg.eigvalsh(centred.T @ centred / len(X))[::-1], 0.0, None)
    shares = np.cumsum(values) / values.sum()
    return int(np.searchsorted(shares, fraction - 1e-12) + 1), shares


def class_sizes(y) -> dict[str, int]:
    """Examples per class, by the label's text."""
    labels, counts = np.unique(np.asarray(y), return_counts=True)
    return {str(label): int(count) for label, count in zip(labels, counts)}


def per_subject_split(sizes, rule=YALE_RULE) -> tuple[int, int]:
    """Training and test images a per-subject rule keeps: ``min(train, c)`` for
    training and at most ``test`` of the rest, ``c`` a subject's images."""
    train = sum(min(rule[0], c) for c in sizes)
    test = sum(min(rule[1], c - min(rule[0], c)) for c in sizes)
    return int(train), int(test)


def loaded_split(meta: dict, n_samples: int, thesis_fraction: float | None) -> tuple[int, int]:
    """The training / test sizes the harness uses for the loaded data set: the
    loader's ``split_protocol`` (pre-defined, or the thesis' fraction of the loaded
    size), else ``thesis_fraction`` of it, rounded."""
    split = meta.get("split_protocol") or {}
    if "n_train" in split and "n_test" in split:
        return int(split["n_train"]), int(split["n_test"])
    if thesis_fraction is None:
        return -1, -1
    train = int(round(thesis_fraction * n_samples))
    return train, n_samples - train


def _load(name: str, dataset_params: dict, **override):
    plugin = registry.get_dataset(name)
    kwargs = {**plugin.params, **dataset_params}
    kwargs.update({k: v for k, v in override.items() if k in plugin.params})
    if "n_components" in plugin.params:
        kwargs["n_components"] = None  # the raw inputs
    return plugin().load(**kwargs), kwargs


def _components(params: dict, data, loader_params: dict) -> dict:
    """The principal-component counts of MNIST (deskewed and raw training images) or
    isolet (the training part and the whole set)."""
    fraction = params["variance_fraction"]
    n_train = int(data.meta["split_protocol"]["n_train"])
    out = {}

    def count(tag, X, target):
        pcs, shares = components_holding(X, fraction)
        out[f"pcs_{tag}"] = pcs
        out[f"share_at_target_{tag}"] = float(shares[min(target, len(shares)) - 1])

    if params["dataset"] == "mnist":
        count("deskewed", data.X[:n_train], 164)
        raw, _ = _load("mnist", params["dataset_params"], deskew=False)
        count("raw", raw.X[:n_train], 164)
    elif params["dataset"] == "isolet":
        count("training", data.X[:n_train], 172)
        count("whole", data.X, 172)
    return out


def work(params: dict) -> dict:
    """The child's work for one data set; returns the record body."""
    name = params["dataset"]
    override = {"deskew_order": params["mnist_deskew_order"]} if name == "mnist" else {}
    with threadpool_limits(limits=params["blas_threads"]):
        try:
            data, loader_params = _load(name, params["dataset_params"], **override)
        except ExpectedFailure as exc:
            return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}
        sizes = class_sizes(data.y)
        n_train, n_test = loaded_split(data.meta, data.n_samples, params["thesis_fraction"])
        body = {"status": "ok", "reason": "", "thesis_name": data.meta.get("thesis_name", ""),
                "loader_params": loader_params, "n_samples": data.n_samples,
                "n_features": int(data.X.shape[1]), "n_classes": len(sizes),
                "class_sizes": sizes, "n_train": n_train, "n_test": n_test,
                "rule_split": per_subject_split(sizes.values()),
                "variance_fraction": params["variance_fraction"]}
        if params["count_components"]:
            body.update(_components(params, data, loader_params))
        return body
