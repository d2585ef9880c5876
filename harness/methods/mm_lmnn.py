"""LMNN with one metric per class or per cluster, MM-LMNN (thesis sec. 2.1.8 "Multiple
Metrics")."""

from __future__ import annotations

import warnings

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.cluster import KMeans
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted, validate_data

from harness.metrics.knn_error import same_class_neighbors, vote_with_ties
from harness.plugin import MethodPlugin
from harness.methods.shared.metric_knn import KNN_MEASURES, check_labelled_input
from harness.methods.shared.lmnn_solvers import initial_L, solve_lbfgs
from harness.methods.shared.mm_lmnn_core import (
    MultiMetricCore,
    class_maps,
    mm_class_energies,
    mm_kneighbors,
    mm_loss_over_all_triples,
)
from harness.methods.lmnn import LMNN


class MMLMNN(MethodPlugin, ClassifierMixin, BaseEstimator):
    r"""LMNN with one metric per class (MM-LMNN), thesis sec. 2.1.8 "Multiple Metrics".

    Learns one map ``L_c`` (``M^c = L_c^T L_c``) per class. The distance (2.17) uses
    the metric of the second argument's class, ``D^(y_b)(a, b) = ||L_{y_b}(x_a -
    x_b)||^2``, and the loss is the SDP below (2.17) with hinges,

    ``(1 - mu) sum_{j ~> i} D^(y_j)(i, j) + mu sum_{j ~> i} sum_{l: y_l != y_i}
    [1 + D^(y_j)(i, j) - D^(y_l)(i, l)]_+``,

    which is eq. (2.11) when all ``L_c`` are equal. As in the thesis ("we initialized
    each metric with the single LMNN metric"), ``fit`` first fits single-metric
    :class:`harness.methods.lmnn.LMNN` (same ``k``, ``mu``, ``n_components``, its PCA start,
    its L-BFGS solver) and starts every ``L_c`` from its ``L``; the single fit is part
    of ``fit`` and so of its time, as in Table 2.1. The loss is then minimised by
    L-BFGS over the stacked ``L_c`` with the cached-candidate scheme of
    :func:`harness.methods.shared.lmnn_solvers.solve_lbfgs` (see :mod:`harness.methods.shared.mm_lmnn_core`).

    Predictions use the same asymmetric distance from a query ``t`` to a training point
    ``j``, ``||L_{y_j}(x_t - x_j)||^2``: ``predict`` is ``k``-NN with the thesis' tie
    rule (2.1.6); ``predict_loo`` leaves each training point out; ``predict_energy``
    is the energy rule (2.12) in which, for candidate class ``c``, the test point's
    target neighbours are its ``k`` nearest class-``c`` training points under
    ``M^c``, impostors ``l`` (``y_l != c``) are measured with ``M^{y_l}``, and the
    test point invading a training neighbourhood (``l = t``) is measured with ``M^c``.
    There is no single map, hence no ``transform``.

    Clusters instead of classes (``groups``, thesis 2.1.8: "we can cluster the data into
    several parts and transform each cluster with its own linear mapping", Fig. 2.10):
    with ``groups`` a number of clusters or an array, ``L_g`` is one map per group, and
    every ``y_b`` above that picks a metric reads ``g_b``, the group of the *reference*
    (second) point (2.17); the labels still decide target neighbours and impostors.
    kNN and leave-one-out predictions work for any groups (they use the training
    points' groups only); the energy rule is defined for classes only (the thesis gives
    none for clusters: a test point has no group).

    Parameters
    ----------
    n_neighbors : int, default=3
        ``k``: target neighbours per point and neighbours of the ``k``-NN rule. Every
        class needs more than ``k`` members.
    mu : float, default=0.5
        Weight of the hinge (push) term, in ``[0, 1]``.
    n_components : int or None, default=None
        Rows of every ``L_c`` (and of the single metric); None means ``n_features``.
    max_iter : int, default=1000
        L-BFGS iterations in total, of the single-metric fit and again of the
        multiple-metric fit.
    tol : float, default=1e-4
        Stopping tolerance of both fits (relative loss change between two candidate
        refreshes once no new active triple appears).
    candidate_slack : float, default=0.25
        Cached impostor pairs lie within ``max_j D(i, j) + 1 + candidate_slack`` of
        their anchor (both fits).
    groups : "labels", int or array-like of shape (n_samples,), default="labels"
        Which points share a metric. ``"labels"``: one metric per class (the thesis'
        choice for Table 2.1). An int ``c >= 1``: ``c`` clusters of the training inputs
        by k-means (scikit-learn ``KMeans(n_clusters=c, n_init=10,
        random_state=random_state)``). An array: the group of each training point
        (any hashable values; ``fit`` must get the same number of points).
    impostor_search : {"auto", "blocked", "tree"}, default="auto"
        How impostor pairs are searched (both fits; see
        :class:`harness.methods.lmnn.LMNN`): the same pairs either way, only the time differs.
    random_state : None or int, default=None
        Seed of k-means when ``groups`` is an int (None: unseeded, as in
        scikit-learn); otherwise unused (the fit is deterministic).
    init : "single", "identity" or ndarray of shape (n_groups, n_components, n_features), default="single"
        Start of the maps. ``"single"``: every ``L_c`` starts from the fitted
        single-metric LMNN's ``L`` (the thesis' "we initialized each metric with the
        single LMNN metric"; its fit is part of ``fit``). ``"identity"``: every
        ``L_c`` is the first ``n_components`` rows of the identity, scaled as
        :func:`harness.methods.shared.lmnn_solvers.initial_L` scales it (mean squared target
        distance 3), and no single-metric LMNN is fitted (``single_metric_`` is None).
        An array: the maps as given (one per group), no single-metric fit. In every
        case the target neighbours are the same (Euclidean in the input, 2.1.2).

    Attributes
    ----------
    components_ : ndarray of shape (n_groups, n_components, n_features)
        ``L_c`` per class, in the order of ``classes_`` (``groups="labels"``), or
        ``L_g`` per group, in the order of ``group_ids_``.
    classes_ : ndarray of shape (n_classes,)
    groups_ : ndarray of int of shape (n_samples,)
        The metric (row of ``components_``) of each training point.
    group_ids_ : ndarray of shape (n_groups,)
        The group names: ``classes_``, ``0 .. c-1`` (k-means) or the distinct values
        of a given array.
    group_centers_ : ndarray of shape (n_groups, n_features)
        The mean training input of each group (k-means: its cluster centre).
    target_neighbors_ : ndarray of int of shape (n_samples, n_neighbors)
        The ``k`` nearest same-class training points by Euclidean distance in the
        input (thesis 2.1.2), those of the single-metric fit.
    loss_ : float
        The MM-LMNN loss at the final ``L_c`` over every triple (exact).
    n_active_ : int
        Triples with a strictly positive hinge at the end, over every triple.
    n_iter_ : int
        L-BFGS iterations of the multiple-metric stage.
    loss_curve_ : ndarray
        The loss over every triple at the start (the single-metric solution) and
        after each inner L-BFGS run; non-increasing.
    converged_ : bool
    single_metric_ : LMNN or None
        The fitted single-metric LMNN the class maps started from (None unless
        ``init="single"``).
    n_features_in_ : int

    Notes
    -----
    Where the thesis is silent or differs: the thesis trained with a 30 % validation
    set against overfitting (early stopping is implied but not specified); we train
    on the whole training part until the solver's stopping rule, without
    regularisation. The classes are the clusters (the thesis' choice "according to
    the label information"). The thesis solves the SDP on ``M^c`` (``MMlmnn.m``:
    projected subgradient); we use L-BFGS on ``L_c``, which for square ``L_c`` has the
    same minima. kNN, leave-one-out and energy predictions with the asymmetric
    distance are our reading of (2.17) at test time (the thesis gives no formula).
    Equidistant neighbours are ordered by the neighbour search; the energy rule
    breaks ties by sorted label order.
    """

    name = "mm_lmnn"
    thesis_label = "MM-LMNN"
    task = "classification"
    classifier_kind = "knn"
    uses_neighbors = True
    measures = KNN_MEASURES
    references = (
        "thesis 2.1.8 'Multiple Metrics' (eq. 2.17 and the SDP below it; Table 2.1 "
        "MM-LMNN)",
        "Weinberger, Saul, Fast solvers and efficient implementations for distance "
        "metric learning, ICML 2008",
        "Weinberger, Saul, Distance metric learning for large margin nearest neighbor "
        "classification, JMLR 10, 2009",
    )
    table_note = (
        "MM-LMNN: one metric per class, distance (2.17) in the metric of the second "
        "argument's class, hinge form of the 2.1.8 SDP; every class map starts from "
        "the single-metric LMNN (its fit time included) and all are refined jointly by "
        "L-BFGS over cached impostor pairs; no 30 % validation set (trained on the "
        "whole training part, no regularisation); kNN and energy rule (2.12) with the "
        "asymmetric distance."
    )

    def __init__(self, *, n_neighbors=3, mu=0.5, n_components=None, max_iter=1000,
                 tol=1e-4, candidate_slack=0.25, groups="labels", impostor_search="auto",
                 random_state=None, init="single"):
        self.n_neighbors = n_neighbors
        self.mu = mu
        self.n_components = n_components
        self.max_iter = max_iter
        self.tol = tol
        self.candidate_slack = candidate_slack
        self.groups = groups
        self.impostor_search = impostor_search
        self.random_state = random_state
        self.init = init

    def _resolve_groups(self, X, codes):
        """``(ids, per-point group index)``; index None for ``groups="labels"``."""
        groups = self.groups
        if isinstance(groups, str):
            if groups != "labels":
                raise ValueError(f"groups={groups!r} must be 'labels', a number of k-means "
                                 f"clusters or an array with one group per training point")
            return self.classes_, None
        if isinstance(groups, numbers.Integral) and not isinstance(groups, bool):
            if not 1 <= groups <= len(X):
                raise ValueError(f"groups={groups} clusters must lie in [1, n_samples="
                                 f"{len(X)}]; lower the number of clusters")
            kmeans = KMeans(n_clusters=int(groups), n_init=10, random_state=self.random_state)
            index = kmeans.fit_predict(X)
            return np.arange(int(groups)), np.asarray(index, dtype=np.intp)
        groups = np.asarray(groups)
        if groups.ndim != 1 or len(groups) != len(X):
            raise ValueError(f"groups has shape {groups.shape}; give one group per training "
                             f"point, shape ({len(X)},), 'labels' or a number of clusters")
        ids, index = np.unique(groups, return_inverse=True)
        return ids, index.astype(np.intp)

    def fit(self, X, y):
        """Fit the maps from ``init`` (by default single-metric LMNN, fitted first)."""
        X, self.classes_, codes = check_labelled_input(X, y, self.n_neighbors, self)
        single = None
        if isinstance(self.init, str) and self.init == "single":
            single = LMNN(n_neighbors=self.n_neighbors, mu=self.mu,
                          n_components=self.n_components, solver="lbfgs", init="pca",
                          max_iter=self.max_iter, tol=self.tol,
                          candidate_slack=self.candidate_slack,
                          impostor_search=self.impostor_search)
            with warnings.catch_warnings():  # reported below for the whole fit
                warnings.simplefilter("ignore", ConvergenceWarning)
                single.fit(X, self.classes_[codes])
            targets = single.target_neighbors_
        else:
            targets = same_class_neighbors(X, codes, self.n_neighbors, self.classes_)
        self.group_ids_, groups = self._resolve_groups(X, codes)
        L0 = self._initial_maps(X, targets, single)
        res = solve_lbfgs(X, codes, targets, L0, mu=self.mu, max_iter=self.max_iter,
                          tol=self.tol, slack=self.candidate_slack,
                          core=MultiMetricCore(codes, groups), search=self.impostor_search)
        stages = [name for name, ok in (("single-metric LMNN",
                                         True if single is None else single.converged_),
                                        ("MM-LMNN", res.converged)) if not ok]
        if stages:
            warnings.warn(f"{' and '.join(stages)} stopped at max_iter={self.max_iter} "
                          f"before converging", ConvergenceWarning, stacklevel=2)
        final = mm_loss_over_all_triples(class_maps(X, res.L), codes, targets, self.mu, groups,
                                         self.impostor_search)
        self.groups_ = codes if groups is None else groups
        self.group_centers_ = np.stack([X[self.groups_ == g].mean(axis=0)
                                        for g in range(len(self.group_ids_))])
        self.components_ = res.L
        self.target_neighbors_ = targets
        self.single_metric_ = single
        self.loss_, self.n_active_ = float(final.loss), int(final.n_active)
        self.n_iter_, self.loss_curve_ = int(res.n_iter), np.asarray(res.loss_curve)
        self.converged_ = bool(res.converged)
        self._fit_X, self._fit_codes = X, codes
        return self

    def _initial_maps(self, X, targets, single) -> np.ndarray:
        """The starting stack ``(n_groups, r, d)`` of maps (see ``init``)."""
        n_groups, d = len(self.group_ids_), X.shape[1]
        r = d if self.n_components is None else int(self.n_components)
        if single is not None:
            return np.repeat(single.components_[None], n_groups, axis=0)
        if isinstance(self.init, str):
            if self.init != "identity":
                raise ValueError(f"init={self.init!r} is not 'single', 'identity' or an "
                                 f"array of shape (n_groups, n_components, n_features)")
            return np.repeat(initial_L(X, targets, r, "identity")[None], n_groups, axis=0)
        L0 = np.array(self.init, dtype=np.float64)
        if L0.shape != (n_groups, r, d):
            raise ValueError(f"init has shape {L0.shape}; expected ({n_groups}, {r}, {d}) "
                             f"= (n_groups, n_components, n_features)")
        return L0

    def _validated(self, X):
        check_is_fitted(self, "components_")
        return validate_data(self, X, reset=False, dtype=np.float64)

    def _vote(self, neighbors):
        codes = vote_with_ties(self._fit_codes[neighbors], len(self.classes_))
        return self.classes_[codes]

    def predict(self, X):
        """kNN labels under ``||L_{y_j}(x - x_j)||^2`` (2.17), thesis tie rule (2.1.6)."""
        X = self._validated(X)
        return self._vote(mm_kneighbors(self._fit_X, self.groups_, self.components_, X,
                                        self.n_neighbors))

    def predict_loo(self, n_neighbors=None):
        """Leave-one-out kNN labels of the training points (thesis 2.1.6) under (2.17),
        each point's distance to ``x_j`` in ``x_j``'s group metric; ``n_neighbors``
        (default: the fit's ``k``) the k of the rule, e.g. 1 for Fig. 2.10."""
        check_is_fitted(self, "components_")
        k = self.n_neighbors if n_neighbors is None else n_neighbors
        return self._vote(mm_kneighbors(self._fit_X, self.groups_, self.components_,
                                        self._fit_X, k, leave_one_out=True))

    def energies(self, X):
        """Energy (2.12) of each test point and class with the asymmetric distance,
        shape (n_samples, n_classes); see the class docstring for the metrics used."""
        X = self._validated(X)
        if self.group_ids_ is not self.classes_:
            raise ValueError(f"the energy rule (2.12) needs one metric per class "
                             f"(groups='labels'); this MMLMNN has groups={self.groups!r}, "
                             f"use predict (kNN) instead")
        return mm_class_energies(self._fit_X, self._fit_codes, X, self.components_,
                                 self.target_neighbors_, self.n_neighbors, float(self.mu))

    def predict_energy(self, X):
        """Energy-based labels: the class of least :meth:`energies` (first on ties)."""
        return self.classes_[self.energies(X).argmin(axis=1)]
