"""LMNN after a linear pre-processing map: the shared core of Table 2.1's PCA-LMNN,
LDA-LMNN and MUL-LMNN rows (thesis 2.1.6, 2.1.8).

A subclass supplies ``_preprocess(X, codes) -> P`` (shape ``(p, n_features)``);
LMNN (:class:`harness.methods.lmnn.LMNN`) then learns ``L_lmnn`` on the mapped inputs
``X P^T`` -- with its target neighbours chosen by Euclidean distance *there*, the
thesis' "Euclidean distance in the input it is given" -- and the estimator's map is
the product ``L = L_lmnn P``, so kNN, leave-one-out and the energy rule run in the
same space LMNN was trained in. ``_n_rounds()`` > 1 repeats this with ``P := L``
(MUL-LMNN, thesis 2.1.8).
"""

from __future__ import annotations

import abc

import numpy as np

from harness.methods.shared.metric_knn import MetricKNNClassifier
from harness.methods.lmnn import LMNN

__all__ = ["PreprocessedLMNN", "LMNN_PARAMETERS_DOC"]

#: numpydoc of the LMNN parameters every subclass shares (in this order).
LMNN_PARAMETERS_DOC = """n_neighbors : int, default=3
        ``k``: target neighbours of LMNN and neighbours of the kNN rule (2.1.6).
    mu : float, default=0.5
        Weight of the hinge term of (2.11) and of the energy rule (2.12).
    solver : {"lbfgs", "reference"}, default="lbfgs"
        LMNN's solver (:class:`harness.methods.lmnn.LMNN`).
    max_iter : int, default=1000
        LMNN's iteration limit (per LMNN run).
    tol : float, default=1e-4
        LMNN's stopping tolerance."""


class PreprocessedLMNN(MetricKNNClassifier):
    """LMNN on ``X P^T`` for a pre-processing map ``P`` (see the module docstring).

    Fitted attributes besides the skeleton's: ``preprocessing_`` (the map the last
    LMNN was trained on, so ``components_ = lmnn_.components_ @ preprocessing_``),
    ``lmnn_`` (the last fitted :class:`harness.methods.lmnn.LMNN`), and from it ``loss_``,
    ``n_active_``, ``converged_`` and ``target_neighbors_`` (indices into the
    training set, chosen in the pre-processed space); ``n_iter_`` (all rounds) and
    ``loss_per_round_``.
    """

    @abc.abstractmethod
    def _preprocess(self, X: np.ndarray, codes: np.ndarray) -> np.ndarray:
        """The pre-processing map ``P`` (``(p, n_features)``) learned on ``X``."""

    def _n_rounds(self) -> int:
        """How many times LMNN is applied (1; MUL-LMNN more)."""
        return 1

    def _new_lmnn(self) -> LMNN:
        return LMNN(n_neighbors=self.n_neighbors, mu=self.mu, solver=self.solver,
                    max_iter=self.max_iter, tol=self.tol)

    def _fit_map(self, X, codes):
        rounds = self._n_rounds()
        L = np.asarray(self._preprocess(X, codes), dtype=np.float64)
        self.loss_per_round_, self.n_iter_ = [], 0
        for _ in range(rounds):
            P = L
            lmnn = self._new_lmnn().fit(X @ P.T, codes)
            L = lmnn.components_ @ P
            self.n_iter_ += lmnn.n_iter_
            self.loss_per_round_.append(lmnn.loss_)
        self.preprocessing_, self.lmnn_ = P, lmnn
        self.target_neighbors_ = lmnn.target_neighbors_
        self.loss_, self.n_active_ = lmnn.loss_, lmnn.n_active_
        self.converged_ = lmnn.converged_
        return L
