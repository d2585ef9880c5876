"""The clustering task (statwiki STAT 841 F14, lectures 7-8; not a thesis result): a
clusterer partitions the whole data set without seeing its labels, and the partition
is scored against the labels.

Protocol a clustering method plugin follows (``task = "clustering"``):

- a scikit-learn clusterer: ``fit(X)`` sets ``labels_`` (one integer per row) and
  ``fit_predict(X)`` returns them;
- ``n_clusters``: the number of clusters to find. Unless the cell's method parameters
  set it, the task passes the number of distinct labels of the data set
  (:data:`N_CLUSTERS_FROM_LABELS`), as is usual when a partition is scored against
  known classes;
- ``random_state`` (k-means starts, eigensolver start vectors) gets the run's seed.

Measures, both from :mod:`sklearn.metrics` and both 1 for a partition equal to the
labels up to renaming the clusters:

``adjusted_rand_index``
    :func:`sklearn.metrics.adjusted_rand_score` (Hubert and Arabie 1985): the Rand
    index corrected for chance, 0 in expectation for a random partition.
``normalized_mutual_info``
    :func:`sklearn.metrics.normalized_mutual_info_score` with its default arithmetic
    mean of the two entropies in the denominator (Strehl and Ghosh 2002 use the
    geometric mean; the lectures name neither).

There is no train/test split: a clusterer has no out-of-sample rule to test.
"""

from __future__ import annotations

import time

import numpy as np
from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score

from harness.plugin import Dataset, ExpectedFailure
from harness.timelimit import cpu_clock

__all__ = ["MEASURES", "N_CLUSTERS_FROM_LABELS", "ClusteringInputError",
           "partition_scores", "run_clustering"]

MEASURES = ("adjusted_rand_index", "normalized_mutual_info")
#: ``n_clusters`` value (and the default) that asks the task for the number of
#: distinct labels of the data set.
N_CLUSTERS_FROM_LABELS = "labels"


class ClusteringInputError(ExpectedFailure):
    """The data or parameters of one cell are unusable; the cell is marked."""


def partition_scores(labels_true, labels_pred) -> dict[str, float]:
    """Adjusted Rand index and normalised mutual information of a partition against
    the true labels (see the module docstring).

    Raises
    ------
    ValueError
        When the two label vectors differ in length.
    """
    labels_true, labels_pred = np.asarray(labels_true), np.asarray(labels_pred)
    if labels_true.shape != labels_pred.shape or labels_true.ndim != 1:
        raise ValueError(f"labels_true and labels_pred must be 1-d of the same length, "
                         f"got shapes {labels_true.shape} and {labels_pred.shape}")
    return {"adjusted_rand_index": float(adjusted_rand_score(labels_true, labels_pred)),
            "normalized_mutual_info": float(normalized_mutual_info_score(labels_true,
                                                                         labels_pred))}


def run_clustering(method_cls: type, dataset: Dataset, params: dict, seed: int) -> dict:
    """One run: construct the clusterer with the cell's parameters, partition the data
    set, score the partition against its labels.

    ``params["method_params"]`` holds the constructor arguments; an absent
    ``n_clusters`` (or ``"labels"``) becomes the number of distinct labels. The
    method gets ``random_state=seed`` when it takes one, and NumPy's legacy global RNG
    is seeded too. Returns ``{"measures", "fit_seconds", "fit_cpu_seconds", "info"}``;
    ``info`` holds ``n_clusters`` (asked), its source, and ``n_clusters_found``.

    Raises
    ------
    ClusteringInputError
        When the data set has no labels, or the method rejects the input
        (a ``ValueError`` of its own, e.g. more clusters than points).
    """
    if dataset.y is None:
        raise ClusteringInputError(f"data set {dataset.meta.get('thesis_name')} has no "
                                   f"labels; the clustering task scores a partition "
                                   f"against them")
    y = np.asarray(dataset.y)
    method_params = dict(params["method_params"])
    estimator = method_cls(**{k: v for k, v in method_params.items() if k != "n_clusters"})
    info: dict = {}
    if "n_clusters" in estimator.get_params():
        asked = method_params.get("n_clusters", N_CLUSTERS_FROM_LABELS)
        if asked == N_CLUSTERS_FROM_LABELS:
            asked, source = int(len(np.unique(y))), "number of distinct labels"
        else:
            source = "profile"
        estimator.set_params(n_clusters=asked)
        info.update(n_clusters=asked, n_clusters_source=source)
    if "random_state" in estimator.get_params():
        estimator.set_params(random_state=seed)
    np.random.seed(seed)
    wall, cpu = time.perf_counter(), cpu_clock()
    try:
        labels = estimator.fit_predict(dataset.X)
    except ExpectedFailure:
        raise
    except (ValueError, np.linalg.LinAlgError) as exc:
        raise ClusteringInputError(f"{method_cls.name} rejected the input: {exc}") from exc
    fit_seconds, fit_cpu = time.perf_counter() - wall, cpu_clock() - cpu
    measures = partition_scores(y, labels)
    info["n_clusters_found"] = int(len(np.unique(labels)))
    return {"measures": measures, "fit_seconds": fit_seconds, "fit_cpu_seconds": fit_cpu,
            "info": info}
