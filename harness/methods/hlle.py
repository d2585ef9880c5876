"""Hessian LLE (Donoho & Grimes 2003), the "hLLE" row of Table 3.2."""

from __future__ import annotations

import numpy as np
from sklearn.neighbors import NearestNeighbors

from harness.methods.shared.hessian_core import ESTIMATORS, bottom_eigenvectors, hessian_form, orphans
from harness.methods.shared.manifold import ManifoldEmbedding

#: above this many points "auto" uses ARPACK instead of the dense eigensolver
DENSE_LIMIT = 3000


class HessianLLE(ManifoldEmbedding):
    """Hessian eigenmaps (hLLE).

    The thesis (3.1.9) runs hLLE [Donoho & Grimes, PNAS 2003] without describing it.
    The quadratic form and its eigenvectors are :mod:`harness.methods.shared.hessian_core`: local
    tangent coordinates by PCA, the local Hessian estimator from an orthonormalisation
    of the quadratic monomials, the bottom eigenvectors of the form orthogonal to the
    constants. Two choices, each a parameter:

    - ``estimator``: ``"scikit_learn"`` (default; what
      ``sklearn.manifold.LocallyLinearEmbedding(method="hessian")`` computes, and what
      this plugin was before: it keeps all k - d - 1 columns of the orthogonal
      complement as the Hessian estimator) or ``"donoho_grimes"`` (the paper's and its
      ``hlle.m``'s d(d+1)/2 quadratic columns). On curved test data the two
      embeddings' subspaces differ by 0.2-5 degrees (``tests/methods``). On the Swiss
      roll of Table 3.2 the default matches the thesis' hLLE row within 0.005.
    - *Orphans*, points in no other point's neighbourhood, on which the form says
      nothing (zero rows: each is an exact null vector). Solving with them gives an
      embedding of orphan indicators (Frey's faces at k = 15: 6 orphans, continuity
      0.003); here they are left out of the eigenproblem and placed at the mean of
      their k neighbours' coordinates (``orphans_`` lists them, ``fit_note_`` says so).
      Without orphans the embedding is the paper's.

    The embedding is centred and orthonormal. It needs ``n_neighbors > n_components *
    (n_components + 3) / 2``. No out-of-sample ``transform``: the paper defines none.

    Parameters
    ----------
    n_neighbors : int, default=15
    n_components : int, default=2
    hessian_tol : float, default=1e-4
        A Hessian estimator column is divided by its sum when the sum is at least this.
    estimator : {"scikit_learn", "donoho_grimes"}, default="scikit_learn"
    eigen_solver : {"auto", "arpack", "dense"}, default="auto"
        ``"auto"``: dense up to 3000 points (:data:`DENSE_LIMIT`), else ARPACK
        (shift-invert about a small negative shift); an ARPACK failure refits densely
        and says so in ``fit_note_``.
    random_state : int or None, default=None
        ARPACK's start vector.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    reconstruction_error_ : float
        The sum of the form's eigenvalues of the embedding's directions.
    eigenvalues_ : list of float
        The form's n_components + 2 bottom eigenvalues (without orphans), ascending: a
        second one near 0 means a degenerate null space.
    orphans_ : list of int
        The points no neighbourhood contains.
    eigen_solver_used_ : str
    fit_note_ : str or None
        What the fit did beyond the paper's algorithm (orphans, an ARPACK failure).
    """

    name = "hlle"
    thesis_label = "hLLE"
    references = ("thesis 3.1.9", "Donoho & Grimes, PNAS 100:5591, 2003")
    table_note = ("Hessian LLE with scikit-learn's local Hessian estimator (all k-d-1 "
                  "complement columns where Donoho & Grimes keep d(d+1)/2); points in no "
                  "neighbourhood are placed at their neighbours' mean.")

    def __init__(self, *, n_neighbors=15, n_components=2, hessian_tol=1e-4,
                 estimator="scikit_learn", eigen_solver="auto", random_state=None):
        self.n_neighbors = n_neighbors
        self.n_components = n_components
        self.hessian_tol = hessian_tol
        self.estimator = estimator
        self.eigen_solver = eigen_solver
        self.random_state = random_state

    def fit(self, X, y=None):
        """Compute the Hessian eigenmap of ``X``; ``y`` is ignored."""
        needed = self.n_components * (self.n_components + 3) // 2
        if self.n_neighbors <= needed:
            raise ValueError(
                f"hLLE needs n_neighbors > n_components * (n_components + 3) / 2 = "
                f"{needed}; got n_neighbors={self.n_neighbors}"
            )
        if self.estimator not in ESTIMATORS:
            raise ValueError(f"estimator must be one of {ESTIMATORS}; got "
                             f"{self.estimator!r}")
        if self.eigen_solver not in ("auto", "arpack", "dense"):
            raise ValueError(f"eigen_solver must be 'auto', 'arpack' or 'dense'; got "
                             f"{self.eigen_solver!r}")
        return super().fit(X, y)

    def _embed(self, X):
        k, r = self.n_neighbors, self.n_components
        neighbors = NearestNeighbors(n_neighbors=k + 1).fit(X).kneighbors(
            X, return_distance=False)[:, 1:]
        M = hessian_form(X, neighbors, r, self.estimator, self.hessian_tol)
        lonely = orphans(neighbors, len(X))
        kept = np.flatnonzero(~lonely)
        Y_kept, values = self._solve(M[kept][:, kept])
        Y = np.empty((len(X), r))
        Y[kept] = Y_kept
        Y[lonely] = Y[neighbors[lonely]].mean(axis=1)
        self.orphans_ = np.flatnonzero(lonely).tolist()
        self.eigenvalues_ = values.tolist()
        self.reconstruction_error_ = float(values[1:r + 1].sum())
        if self.orphans_:
            note = (f"{len(self.orphans_)} point(s) in no other point's {k}-neighbourhood "
                    f"(zero rows of the Hessian form: each an exact null vector) left out "
                    f"of the eigenproblem and placed at the mean of their {k} neighbours")
            self.fit_note_ = note if self.fit_note_ is None else f"{self.fit_note_}; {note}"
        Q, R = np.linalg.qr(Y - Y.mean(axis=0))
        return Q * np.where(np.diag(R) < 0, -1.0, 1.0)

    def _solve(self, M):
        solver = self.eigen_solver
        if solver == "auto":
            solver = "dense" if M.shape[0] <= DENSE_LIMIT else "arpack"
        self.eigen_solver_used_, self.fit_note_ = solver, None
        if solver == "dense":
            return bottom_eigenvectors(M, self.n_components, "dense")
        try:
            return bottom_eigenvectors(M, self.n_components, "arpack", self.random_state)
        except RuntimeError as exc:
            self.eigen_solver_used_ = "dense"
            self.fit_note_ = (f"ARPACK failed on the null space ({exc}); refitted with the "
                              f"dense eigensolver")
            return bottom_eigenvectors(M, self.n_components, "dense")
