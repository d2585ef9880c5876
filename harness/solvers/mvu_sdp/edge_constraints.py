r"""The constraints the interior-point method of :mod:`harness.solvers.mvu_sdp.ipm` takes:
signed combinations of edge rank-ones, equalities or inequalities row by row.

With ``T`` distinct *atoms* ``a_t = e_i - e_j`` and a sparse m x T coefficient matrix
``C``, constraint ``r`` is

.. math::

   \Big\langle \sum_t C_{rt}\, a_t a_t^T,\ K \Big\rangle = b_r
   \quad (\le b_r \text{ for the rows in } I),

so that ``A(K) = C (a_t^T K a_t)_t`` and ``A^T(y) = \sum_t (C^T y)_t a_t a_t^T`` (a
weighted Laplacian on the atoms). MVU (thesis 3.1.4, 3.1.6) is the case ``C = I``:
one atom per edge, every row an equality (``I`` empty) or every row an inequality;
it is stored with ``combination=None`` so that the iteration does no extra work. The
action respecting embedding (Bowling, Ghodsi & Wilkinson 2005;
:mod:`harness.problems.are_problem`) adds rows ``<A_{i'j'} - A_{ij}, K> = 0``: two atoms with
coefficients +1 and -1, equalities beside the inequality distance rows.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import scipy.sparse as sp

from harness.problems.mvu_problem import NATIVE_VARIANTS, MVUProblem

__all__ = ["EdgeConstraints"]


@dataclasses.dataclass(frozen=True, eq=False)
class EdgeConstraints:
    """Linear constraints on ``K`` made of signed edge rank-ones (module docstring).

    Parameters
    ----------
    n : int
        Number of points (``K`` is n x n).
    atoms : ndarray of shape (T, 2)
        The atoms ``(i, j)``, ``a_t = e_i - e_j``, distinct.
    b : ndarray of shape (m,)
        Right-hand sides, in the problem's units.
    combination : scipy.sparse.csr_matrix of shape (m, T) or None
        ``C``; ``None``: the identity (row r is atom r, m = T).
    inequality : ndarray of int or None
        The rows that are inequalities (``<=``; each gets a slack in the iteration);
        ``None``: every row is an equality.
    maximize : bool
        Maximise the trace (MVU, ARE) rather than minimise it.
    scale : float
        The unit of ``b`` the iteration works in (``b / scale``; MVU: the mean squared
        edge length).
    """

    n: int
    atoms: np.ndarray
    b: np.ndarray
    combination: sp.csr_matrix | None = None
    inequality: np.ndarray | None = None
    maximize: bool = True
    scale: float = 1.0

    def __post_init__(self):
        T = len(self.atoms)
        shape = (len(self.b), T)
        if self.combination is None and len(self.b) != T:
            raise ValueError(f"without a combination every atom is one row: {T} atoms, "
                             f"{len(self.b)} right-hand sides")
        if self.combination is not None and self.combination.shape != shape:
            raise ValueError(f"combination must have shape {shape}, got "
                             f"{self.combination.shape}")

    @property
    def m(self) -> int:
        """Number of constraints (rows)."""
        return len(self.b)

    @property
    def n_inequalities(self) -> int:
        return 0 if self.inequality is None else len(self.inequality)

    @classmethod
    def of_mvu(cls, problem: MVUProblem) -> "EdgeConstraints":
        """An MVU problem (variant ``equality``, ``inequality`` or ``min_trace``): one
        atom per edge, no combination."""
        if problem.variant not in NATIVE_VARIANTS:
            raise ValueError(f"the interior-point method supports the variants "
                             f"{NATIVE_VARIANTS}, got {problem.variant!r}")
        b = np.asarray(problem.sq_lengths, dtype=np.float64)
        inequality = np.arange(problem.m) if problem.variant == "inequality" else None
        return cls(n=problem.n, atoms=np.asarray(problem.edges), b=b,
                   inequality=inequality, maximize=problem.maximize,
                   scale=float(b.mean()))

    @classmethod
    def from_terms(cls, n: int, rows: np.ndarray, pairs: np.ndarray,
                   coefficients: np.ndarray, b: np.ndarray, *,
                   inequality: np.ndarray | None = None, maximize: bool = True,
                   scale: float | None = None) -> "EdgeConstraints":
        """Constraints given term by term: row ``rows[k]`` has the term
        ``coefficients[k] (e_i - e_j)(e_i - e_j)^T`` with ``(i, j) = pairs[k]``.

        Pairs are atoms up to orientation (``(i, j)`` and ``(j, i)`` are one atom);
        terms of one row on one atom add up. ``scale`` defaults to the mean of the
        nonzero ``|b|``.
        """
        pairs = np.sort(np.asarray(pairs, dtype=np.int64).reshape(-1, 2), axis=1)
        if np.any(pairs[:, 0] == pairs[:, 1]):
            raise ValueError("an atom e_i - e_j needs i != j")
        atoms, index = np.unique(pairs, axis=0, return_inverse=True)
        b = np.asarray(b, dtype=np.float64)
        C = sp.csr_matrix((np.asarray(coefficients, dtype=np.float64),
                           (np.asarray(rows), index.ravel())), shape=(len(b), len(atoms)))
        C.sum_duplicates()
        C.eliminate_zeros()
        if scale is None:
            nonzero = np.abs(b[b != 0])
            scale = float(nonzero.mean()) if nonzero.size else 1.0
        return cls(n=n, atoms=atoms, b=b, combination=C, inequality=inequality,
                   maximize=maximize, scale=scale)

    def matrix(self, r: int) -> np.ndarray:
        """The dense n x n constraint matrix ``A_r`` of row ``r`` (for tests and small
        checks)."""
        A = np.zeros((self.n, self.n))
        if self.combination is None:
            terms = [(r, 1.0)]
        else:
            row = self.combination.getrow(r)
            terms = zip(row.indices, row.data)
        for t, c in terms:
            a = np.zeros(self.n)
            a[self.atoms[t, 0]], a[self.atoms[t, 1]] = 1.0, -1.0
            A += c * np.outer(a, a)
        return A
