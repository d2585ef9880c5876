"""Pre-processing the thesis applies to some data sets before Table 2.1: projection on
the leading principal components (2.1.6: MNIST 164, isolet 172, 20 newsgroups and
Yale faces 200)."""

from __future__ import annotations

import numpy as np

__all__ = ["pca_project"]


def pca_project(X, n_components: int, fit_rows: int | None = None) -> tuple[np.ndarray, float]:
    """Project ``X`` on its leading ``n_components`` principal components.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n, d)
    n_components : int
    fit_rows : int, optional
        Fit the components on the first ``fit_rows`` rows only (a pre-defined
        training part); default: all rows.

    Returns
    -------
    Z : ndarray of shape (n, n_components)
    variance_captured : float
        Fraction of the fitted rows' variance the components keep.
    """
    from scipy import sparse
    from sklearn.decomposition import PCA

    fit = X if fit_rows is None else X[:fit_rows]
    solver = "arpack" if sparse.issparse(X) else "covariance_eigh"
    pca = PCA(n_components=int(n_components), svd_solver=solver, random_state=0).fit(fit)
    variance = float(pca.explained_variance_ratio_.sum())
    return np.asarray(pca.transform(X)), variance
