"""MUL-LMNN: LMNN applied several times in a row (thesis 2.1.8, Table 2.1)."""

from __future__ import annotations

from methods._metric_knn import check_positive_int
from methods._preprocessed_lmnn import LMNN_PARAMETERS_DOC, PreprocessedLMNN
from methods.pca_knn import pca_map


class MULLMNN(PreprocessedLMNN):
    __doc__ = f"""LMNN re-applied ``n_rounds`` times, each round choosing its target
    neighbours under the metric of the rounds before.

    Thesis 2.1.8, "Multiple applications of LMNN": "let L_{{i-1}} be the
    transformation matrix obtained with the (i-1)-th run of LMNN. For the i-th run,
    the target neighbors are assigned with the Euclidean distance metric after the
    linear transformation x -> L_{{i-1}} ... L_0 x (with L_0 = I)". Here ``L_0`` is
    the PCA map (Table 2.1: "multiple applications of LMNN after PCA"), round ``i``
    fits :class:`methods.lmnn.LMNN` on ``X (L_{{i-1}} ... L_0)^T`` and the final map is
    the product of all rounds.

    The thesis chose the number of runs (and ``k``) per data set on a 30 %
    validation split of the training data and does not print them; ``n_rounds`` is a
    fixed parameter here (default 3) and no validation split is used.

    Parameters
    ----------
    {LMNN_PARAMETERS_DOC}
    n_components : int or None, default=None
        PCA dimension of ``L_0``; None keeps every component.
    n_rounds : int, default=3
        Number of LMNN runs (1 is PCA-LMNN).

    Attributes
    ----------
    components_ : ndarray of shape (n_components, n_features)
        ``L_n ... L_1 L_0``.
    lmnn_ : methods.lmnn.LMNN
        The last round's LMNN; ``loss_``, ``n_active_``, ``converged_`` and
        ``target_neighbors_`` are its.
    n_iter_ : int
        Iterations of all rounds together.
    loss_per_round_ : list of float
        Each round's final loss (2.11) in its own target neighbourhoods.
    """

    name = "mul_lmnn"
    thesis_label = "MUL-LMNN"
    references = ("thesis 2.1.8 (multiple applications of LMNN), Table 2.1",)
    table_note = ("LMNN applied n_rounds = 3 times after PCA, each round's target "
                  "neighbours chosen under the metric learned so far (2.1.8); the "
                  "thesis chose the number of runs on a validation split and does not "
                  "print it.")

    def __init__(self, *, n_neighbors=3, mu=0.5, solver="lbfgs", max_iter=1000, tol=1e-4,
                 n_components=None, n_rounds=3):
        self.n_neighbors = n_neighbors
        self.mu = mu
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.n_components = n_components
        self.n_rounds = n_rounds

    def _n_rounds(self):
        return check_positive_int("n_rounds", self.n_rounds, " (1 is PCA-LMNN)")

    def _preprocess(self, X, codes):
        return pca_map(X, self.n_components)[0]
