"""The classification task (Table 2.1, thesis 2.1.6): seeded stratified train/test
splits, a classifier fitted on the training part, and its error rates in percent.

Protocol a classification method plugin follows (``task = "classification"``):

- ``fit(X, y)`` on the training part (labels of any hashable type);
- ``predict(X)``: labels of held-out points. For ``classifier_kind = "knn"``
  (the default) this is kNN under the learned metric with the thesis' tie rule
  (2.1.6); for ``"svm"`` the SVM's decision;
- optional ``predict_loo()``: leave-one-out labels of the training points it was fitted
  on ("all training error rates reported are leave-one-out estimates", 2.1.6);
- optional ``predict_energy(X)``: the energy rule (2.12), kNN-kind methods only;
- optional fitted ``n_active_`` (active constraints at the end, Table 2.1's
  "# active constr.").

The measures follow the thesis' row names (``results/reference/thesis_table_2_1.csv``):
``train_knn_loo_error``, ``test_knn_error``, ``test_energy_error`` for kNN-kind methods,
``train_svm_loo_error``, ``test_svm_error`` for SVMs, plus ``fit_cpu_seconds`` and
``n_active``. A prediction a method does not offer is simply not measured (a gap in
the table, not an error).
"""

from __future__ import annotations

import time

import numpy as np
from sklearn.model_selection import StratifiedShuffleSplit

from harness.plugin import Dataset, ExpectedFailure
from harness.protocol_names import K_BY_VALIDATION
from harness.timelimit import cpu_clock

__all__ = ["MEASURES", "dataset_split", "run_classification", "select_n_neighbors",
           "split_indices", "K_BY_VALIDATION", "VALIDATION_FRACTION"]

#: ``n_neighbors`` value that asks the task to choose k on a validation split.
#: Share of the training part held out to choose k (thesis 2.1.6: "the training
#: sets were further partitioned into training and validation sets"; 2.1.8 uses 30 %).
VALIDATION_FRACTION = 0.3

MEASURES = ("train_knn_loo_error", "test_knn_error", "test_energy_error",
            "train_svm_loo_error", "test_svm_error", "fit_cpu_seconds", "n_active")


class ClassificationInputError(ExpectedFailure):
    """The data or parameters of one cell are unusable; the cell is marked."""


def split_indices(y: np.ndarray, train_fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A stratified random split (thesis 2.1.6: "randomly generated 70/30 splits").

    Stratified so that every class keeps its share on both sides (the thesis does not
    say; with 3 classes and ~40 test points an unstratified split can starve a class).

    Raises
    ------
    ClassificationInputError
        When ``train_fraction`` is not in (0, 1) or a class is too small to appear
        on both sides.
    """
    if not 0 < train_fraction < 1:
        raise ClassificationInputError(
            f"train_fraction={train_fraction} must lie strictly between 0 and 1")
    n = len(y)
    n_train = int(round(train_fraction * n))
    splitter = StratifiedShuffleSplit(n_splits=1, train_size=n_train,
                                      test_size=n - n_train, random_state=seed)
    try:
        train, test = next(splitter.split(np.zeros((n, 1)), y))
    except ValueError as exc:
        raise ClassificationInputError(f"cannot split {n} labelled points "
                                       f"{train_fraction:.2f}/{1 - train_fraction:.2f}: "
                                       f"{exc}") from exc
    return np.sort(train), np.sort(test)


def dataset_split(dataset: Dataset, train_fraction: float,
                  seed: int) -> tuple[np.ndarray, np.ndarray, str]:
    """The training and test indices of one run, and how they were chosen.

    A data set with a pre-defined split (thesis 2.1.6: "Isolet and MNIST have
    pre-defined training/test splits") says so with
    ``meta["split_protocol"]["predefined_n_train"]``: its first ``n_train`` rows are
    the training set and the rest the test set, in every run (the runs then differ
    only in the method's seed). Any other data set gets :func:`split_indices`.
    """
    n_train = (dataset.meta.get("split_protocol") or {}).get("predefined_n_train")
    if n_train is None:
        return (*split_indices(np.asarray(dataset.y), train_fraction, seed), "random")
    n = dataset.n_samples
    if not 0 < int(n_train) < n:
        raise ClassificationInputError(
            f"pre-defined split of {n} points with {n_train} training points is empty "
            f"on one side")
    return np.arange(int(n_train)), np.arange(int(n_train), n), "predefined"


def select_n_neighbors(method_cls: type, method_params: dict, X: np.ndarray, y: np.ndarray,
                       candidates, seed: int) -> tuple[int, dict]:
    """Choose k as the thesis did: "The number of target neighbors (k) was set by cross
    validation. (For the purpose of cross-validation, the training sets were further
    partitioned into training and validation sets.)" (2.1.6).

    The training part ``(X, y)`` is split once more, stratified and seeded,
    ``1 - VALIDATION_FRACTION`` / ``VALIDATION_FRACTION``; the method is fitted with
    each candidate k on the first part and the k with the lowest kNN error on the
    second is returned (ties: the smallest k). A candidate the method rejects (a class
    with no more than k members in the inner training part) is skipped. The thesis
    does not say which candidates it tried, nor whether it used one split or
    several; we use one split per run and the profile's candidates.

    Returns ``(k, {k: validation error in %})``.
    """
    inner, valid = split_indices(y, 1 - VALIDATION_FRACTION, seed)
    errors, rejected = {}, {}
    for k in sorted(int(c) for c in candidates):
        est = method_cls(**{**method_params, "n_neighbors": k})
        if "random_state" in est.get_params():
            est.set_params(random_state=seed)
        try:
            est.fit(X[inner], y[inner])
        except ValueError as err:
            rejected.setdefault(str(err), []).append(k)
            continue
        errors[k] = _percent_wrong(est.predict(X[valid]), y[valid])
    if not errors:
        why = "; ".join(f"k = {', '.join(map(str, ks))}: {message}"
                        for message, ks in rejected.items())
        raise ClassificationInputError(
            f"no candidate k in {sorted(candidates)} fits the validation split of "
            f"{len(inner)} points ({why})")
    best = min(errors.values())
    return min(k for k, e in errors.items() if e == best), errors


def _percent_wrong(predicted, truth) -> float:
    return 100.0 * float(np.mean(np.asarray(predicted) != np.asarray(truth)))


def run_classification(method_cls: type, dataset: Dataset, params: dict, seed: int) -> dict:
    """One run: split (seeded by ``seed``; :func:`dataset_split`), fit on the
    training part, measure.

    ``params`` holds ``method_params`` (constructor arguments) and ``train_fraction``.
    The method gets ``random_state=seed`` when it takes one. ``n_neighbors =
    "validation"`` in ``method_params`` chooses k per run with
    :func:`select_n_neighbors` among ``params["n_neighbors_candidates"]`` (the chosen
    k is in ``info``; the selection is not part of the fit's CPU time, which is that
    of the final fit as in the thesis' Table 2.1). Errors are percentages, as in
    Table 2.1. Returns ``{"measures", "fit_seconds", "fit_cpu_seconds",
    "info"}``.
    """
    if dataset.y is None:
        raise ClassificationInputError(f"data set {dataset.meta.get('thesis_name')} has "
                                       f"no labels; the classification task needs them")
    X, y = dataset.X, np.asarray(dataset.y)
    train, test, split = dataset_split(dataset, float(params["train_fraction"]), seed)
    method_params = dict(params["method_params"])
    info = {"n_train": int(len(train)), "n_test": int(len(test)), "split": split}
    if method_params.get("n_neighbors") == K_BY_VALIDATION:
        wall, cpu = time.perf_counter(), cpu_clock()
        k, errors = select_n_neighbors(method_cls, method_params, X[train], y[train],
                                       params["n_neighbors_candidates"], seed)
        method_params["n_neighbors"] = k
        info.update(n_neighbors=k, validation_errors={str(c): e for c, e in errors.items()},
                    selection_cpu_seconds=cpu_clock() - cpu,
                    selection_seconds=time.perf_counter() - wall)
    estimator = method_cls(**method_params)
    if "random_state" in estimator.get_params():
        estimator.set_params(random_state=seed)
    np.random.seed(seed)
    wall, cpu = time.perf_counter(), cpu_clock()
    try:
        estimator.fit(X[train], y[train])
    except ExpectedFailure:
        raise
    except (ValueError, np.linalg.LinAlgError) as exc:
        raise ClassificationInputError(f"{method_cls.name} rejected the input: {exc}") from exc
    fit_seconds, fit_cpu = time.perf_counter() - wall, cpu_clock() - cpu
    kind = getattr(method_cls, "classifier_kind", "knn")
    measures = {f"test_{kind}_error": _percent_wrong(estimator.predict(X[test]), y[test]),
                "fit_cpu_seconds": fit_cpu}
    if hasattr(estimator, "predict_loo"):
        loo = estimator.predict_loo()
        if loo is not None:
            measures[f"train_{kind}_loo_error"] = _percent_wrong(loo, y[train])
    if kind == "knn" and hasattr(estimator, "predict_energy"):
        measures["test_energy_error"] = _percent_wrong(estimator.predict_energy(X[test]),
                                                       y[test])
    if hasattr(estimator, "n_active_"):
        measures["n_active"] = float(estimator.n_active_)
    for attr in ("n_iter_", "loss_", "n_components_", "n_rounds_", "validation_errors_"):
        if hasattr(estimator, attr):
            info[attr.rstrip("_")] = np.asarray(getattr(estimator, attr)).tolist()
    return {"measures": measures, "fit_seconds": fit_seconds, "fit_cpu_seconds": fit_cpu,
            "info": info}
