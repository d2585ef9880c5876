"""MUL-LMNN: LMNN applied several times in a row (thesis 2.1.8, Table 2.1)."""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import train_test_split

from harness.metrics.knn_error import knn_predict
from harness.methods.shared.metric_knn import check_positive_int
from harness.methods.shared.preprocessed_lmnn import LMNN_PARAMETERS_DOC, PreprocessedLMNN
from harness.methods.pca_knn import pca_map

#: the share of the training data the number of rounds is validated on (2.1.6: "the
#: training sets were further partitioned into training and validation sets", the
#: table's 30 % validation row)
VALIDATION_FRACTION = 0.3
#: ``n_rounds`` that chooses the number of rounds on a validation split
BY_VALIDATION = "validation"


class MULLMNN(PreprocessedLMNN):
    __doc__ = f"""LMNN re-applied ``n_rounds`` times, each round choosing its target
    neighbours under the metric of the rounds before.

    Thesis 2.1.8, "Multiple applications of LMNN": "let L_{{i-1}} be the
    transformation matrix obtained with the (i-1)-th run of LMNN. For the i-th run,
    the target neighbors are assigned with the Euclidean distance metric after the
    linear transformation x -> L_{{i-1}} ... L_0 x (with L_0 = I)". Here ``L_0`` is
    the PCA map (Table 2.1: "multiple applications of LMNN after PCA"), round ``i``
    fits :class:`harness.methods.lmnn.LMNN` on ``X (L_{{i-1}} ... L_0)^T`` and the final map is
    the product of all rounds.

    The thesis chose the number of runs (and ``k``) per data set on a 30 %
    validation split of the training data and does not print them. With ``n_rounds
    = "validation"`` (the default) so does this estimator: the training data is split
    once more (stratified, :data:`VALIDATION_FRACTION` held out, seeded by
    ``random_state``), up to ``max_rounds`` rounds are fitted on the first part, the
    number of rounds whose kNN error on the held-out part is lowest (ties: fewer) is
    kept (``n_rounds_``, with ``validation_errors_``) and the rounds are refitted on
    all the training data. An integer ``n_rounds`` fixes it.

    Parameters
    ----------
    {LMNN_PARAMETERS_DOC}
    n_components : int or None, default=None
        PCA dimension of ``L_0``; None keeps every component.
    n_rounds : int or "validation", default="validation"
        Number of LMNN runs (1 is PCA-LMNN), or chosen on a validation split.
    max_rounds : int, default=3
        The most rounds validation tries.
    random_state : int or None, default=None
        Seeds the validation split.

    Attributes
    ----------
    components_ : ndarray of shape (n_components, n_features)
        ``L_n ... L_1 L_0``.
    lmnn_ : harness.methods.lmnn.LMNN
        The last round's LMNN; ``loss_``, ``n_active_``, ``converged_`` and
        ``target_neighbors_`` are its.
    n_iter_ : int
        Iterations of all rounds together.
    loss_per_round_ : list of float
        Each round's final loss (2.11) in its own target neighbourhoods.
    n_rounds_ : int
        The number of rounds fitted.
    validation_errors_ : list of float
        With ``n_rounds="validation"``: the held-out kNN error in % after 1, 2, ...
        ``max_rounds`` rounds (empty otherwise).
    """

    name = "mul_lmnn"
    thesis_label = "MUL-LMNN"
    references = ("thesis 2.1.8 (multiple applications of LMNN), Table 2.1",)
    table_note = ("LMNN applied several times after PCA, each round's target "
                  "neighbours chosen under the metric learned so far (2.1.8); the number "
                  "of rounds (1 to 3) chosen per run by the kNN error on a 30% "
                  "validation split of the training data, as the thesis did.")

    def __init__(self, *, n_neighbors=3, mu=0.5, solver="lbfgs", max_iter=1000, tol=1e-4,
                 n_components=None, n_rounds=BY_VALIDATION, max_rounds=3,
                 random_state=None):
        self.n_neighbors = n_neighbors
        self.mu = mu
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.n_components = n_components
        self.n_rounds = n_rounds
        self.max_rounds = max_rounds
        self.random_state = random_state

    def _n_rounds(self):
        if self.n_rounds == BY_VALIDATION:
            return self.n_rounds_
        return check_positive_int("n_rounds", self.n_rounds,
                                  f" (1 is PCA-LMNN) or {BY_VALIDATION!r}")

    def _fit_map(self, X, codes):
        self.validation_errors_ = []
        if self.n_rounds == BY_VALIDATION:
            self.n_rounds_ = self._validated_rounds(X, codes)
        else:
            self.n_rounds_ = self._n_rounds()
        return super()._fit_map(X, codes)

    def _validated_rounds(self, X, codes) -> int:
        """Fit up to ``max_rounds`` rounds on the inner part of a stratified split and
        return the number of rounds with the lowest held-out kNN error (ties: fewer)."""
        most = check_positive_int("max_rounds", self.max_rounds)
        try:
            inner, held = train_test_split(np.arange(len(codes)), test_size=VALIDATION_FRACTION,
                                           stratify=codes, random_state=self.random_state)
        except ValueError as exc:
            raise ValueError(f"MULLMNN(n_rounds={BY_VALIDATION!r}) needs a stratified "
                             f"{VALIDATION_FRACTION:.0%} validation split of the training "
                             f"data ({exc}); give an integer n_rounds instead") from exc
        L = np.asarray(self._preprocess(X[inner], codes[inner]), dtype=np.float64)
        for _ in range(most):
            L = self._new_lmnn().fit(X[inner] @ L.T, codes[inner]).components_ @ L
            predicted = knn_predict(X[inner] @ L.T, codes[inner], X[held] @ L.T,
                                    self.n_neighbors)
            self.validation_errors_.append(100.0 * float(np.mean(predicted != codes[held])))
        errors = self.validation_errors_
        return 1 + errors.index(min(errors))

    def _preprocess(self, X, codes):
        return pca_map(X, self.n_components)[0]
