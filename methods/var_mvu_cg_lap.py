"""Variational MVU, with CG refinement, on the Laplacian-eigenmaps basis (thesis 3.1.8), the "var.MVU(CG)(Lap)" row of Table 3.2."""

from __future__ import annotations

from methods._variational_mvu import VariationalMVUBase


class VariationalMVUCGLaplacian(VariationalMVUBase):
    """Variational MVU, with CG refinement, on the Laplacian-eigenmaps basis.

    K = Q Z Q^T with Q the m bottom eigenvectors of the k-NN graph Laplacian, Z from the small
    SDP of thesis 3.1.8, then conjugate-gradient refinement of the
    coordinates (first in the m basis dimensions, then in the r output dimensions).
    See :mod:`methods._variational_mvu` for the choices where the thesis is ambiguous.

    Parameters
    ----------
    n_neighbors : int, default=15
        k of the graph. Table 3.2 uses 15: the text runs only MVU itself at k = 5,
        "because of its higher computational complexity".
    n_components : int, default=2
    n_basis : int, default=10
        m, the number of basis eigenvectors (the thesis' "sweet spot").
    omega : float, default=0.9
        Weight of the distance penalty against the variance, in (0, 1).
    penalty : {"squared", "norm"}, default="squared"
    normalize : bool, default=True
        Divide the squared distances by their mean before solving.
    cg_maxiter : int, default=100
        Iterations of each conjugate-gradient stage (refined variants only).
    cg_in_basis : bool, default=True
        Run the first CG stage in the m basis dimensions (refined variants only).
    random_state : int or None, default=None
    """

    name = "var_mvu_cg_lap"
    thesis_label = "var.MVU(CG)(Lap)"
    references = ("thesis 3.1.8", "Weinberger, Sha, Zhu, Saul, NIPS 2006")
    table_note = ("k = 15, m = 10 basis vectors, omega = 0.9, squared penalty on "
                  "normalised distances (the norm reading of (3.23) is unbounded for "
                  "omega < 0.999).")
    _basis = "laplacian"
    _refine = True
