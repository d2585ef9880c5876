"""MMC, the Mahalanobis metric for clustering of Xing et al. (2002) [92], as thesis
2.2.2 states it (lines 1160-1172)::

    maximise   sum_{i,j: y_ij = 0} sqrt(x_ij^T M x_ij)
    subject to (1) sum_{i,j: y_ij = 1} x_ij^T M x_ij <= bound  (the thesis: 1)
               (2) M >= 0 (PSD)

solved to a certified optimum (L-BFGS over a factor of the whitened matrix, the
Frank-Wolfe duality gap as certificate: :func:`solve_mmc`), with the variants the
text discusses: without the square root (a linear objective: the LDA-like problem),
with ``M`` diagonal (``M = diag(m)``, ``m >= 0``). Pairs are unordered (i < j); the
ordered sums of the text double both sides, which changes ``M`` only by a positive
factor (the bound's role, line 1170).

The split experiments use scikit-learn-contrib's metric-learn ``MMC`` (Xing et al.'s
own projected-gradient algorithm, a well-kept implementation) on the same pairs; this
module is the reference for the statements about the optimisation problem itself.
"""

from __future__ import annotations

import numpy as np

__all__ = ["all_pairs", "sample_pairs", "pair_differences", "mmc_objective",
           "similar_sum", "solve_mmc", "generalized_top_direction"]


def all_pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every unordered pair ``i < j`` of ``n`` points: two index arrays."""
    return np.triu_indices(n, k=1)


def sample_pairs(y, max_pairs: int | None, rng) -> tuple[np.ndarray, np.ndarray]:
    """Every unordered pair of the labelled points ``y``, or ``max_pairs`` of them drawn
    uniformly without replacement (seeded ``rng``) when there are more."""
    i, j = all_pairs(len(y))
    if max_pairs is not None and len(i) > max_pairs:
        pick = np.sort(rng.choice(len(i), size=max_pairs, replace=False))
        i, j = i[pick], j[pick]
    return i, j


def pair_differences(X, y, i, j) -> tuple[np.ndarray, np.ndarray]:
    """``x_ij = x_i - x_j`` per pair and the similarity indicator ``y_ij`` (1 same label,
    0 else)."""
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y)
    return X[i] - X[j], (y[i] == y[j]).astype(np.int64)


def _quad(D, M) -> np.ndarray:
    """``x^T M x`` for every row ``x`` of ``D`` (``M`` a matrix, or a vector: its
    diagonal)."""
    M = np.asarray(M, dtype=np.float64)
    if M.ndim == 1:
        return (D * D) @ M
    return np.einsum("ij,jk,ik->i", D, M, D)


def mmc_objective(D, same, M, sqrt: bool = True) -> float:
    """MMC's objective at ``M``: the sum over dissimilar pairs of ``sqrt(x^T M x)`` (or
    of ``x^T M x`` when ``sqrt`` is False); ``M`` a matrix or a diagonal vector."""
    q = np.maximum(_quad(D[same == 0], M), 0.0)
    return float(np.sum(np.sqrt(q)) if sqrt else np.sum(q))


def similar_sum(D, same, M) -> float:
    """Constraint (1)'s left side: the sum over similar pairs of ``x^T M x``."""
    return float(np.sum(_quad(D[same == 1], M)))


def _whitener(S: np.ndarray) -> np.ndarray:
    """``S^{-1/2}`` of the similar pairs' scatter ``S`` (symmetric positive definite)."""
    w, V = np.linalg.eigh(S)
    if w[0] <= 1e-12 * w[-1]:
        raise ValueError("MMC: the similar pairs' scatter sum_S x x^T is singular; "
                         "constraint (1) does not bound M")
    return (V / np.sqrt(w)) @ V.T


def _value_and_gradient(L, P, sqrt: bool, scale: float):
    """``-scale * g(N)`` and its gradient in ``L`` for ``N = L L^T / ||L||_F^2`` (the
    spectraplex tr N = 1, N >= 0, Burer-Monteiro), ``g = sum_k sqrt(p_k^T N p_k)`` (or
    ``sum_k p_k^T N p_k``) over the whitened dissimilar differences ``P``."""
    F = P @ L                                   # rows p_k^T L
    r = np.einsum("ij,ij->i", F, F)
    t = float(np.sum(L * L))
    if sqrt:
        norms = np.sqrt(np.maximum(r, 1e-300))
        num = float(norms.sum())
        g_num = P.T @ (F / norms[:, None])      # d/dL sum ||L^T p||
        value = num / np.sqrt(t)
        grad = g_num / np.sqrt(t) - num * L / t ** 1.5
    else:
        num = float(r.sum())
        value = num / t
        grad = 2.0 * (P.T @ F) / t - 2.0 * num * L / t ** 2
    return -scale * value, -scale * grad.ravel()


def _certificate(P, N, sqrt: bool) -> tuple[float, float]:
    """The objective ``g(N)`` and the Frank-Wolfe duality gap ``lambda_max(G) - <G, N>``
    with ``G`` the gradient of ``g`` at ``N``: by concavity, the optimum over the
    spectraplex exceeds ``g(N)`` by at most the gap (a certificate of optimality)."""
    q = np.maximum(np.einsum("ij,jk,ik->i", P, N, P), 0.0)
    if sqrt:
        value = float(np.sum(np.sqrt(q)))
        weights = 0.5 / np.sqrt(np.maximum(q, 1e-300))
    else:
        value = float(q.sum())
        weights = np.ones(len(q))
    G = (P * weights[:, None]).T @ P
    gap = float(np.linalg.eigvalsh(G)[-1] - np.sum(G * N))
    return value, max(gap, 0.0)


def _polish_simplex(P, n, sqrt: bool) -> np.ndarray:
    """The diagonal variant's weights on the simplex ``sum n = 1, n >= 0`` polished by
    SLSQP from ``n`` (the factored L-BFGS converges slowly at the simplex's faces)."""
    import scipy.optimize

    Q = P * P

    def fun(v):
        q = np.maximum(Q @ v, 1e-300)
        if sqrt:
            r = np.sqrt(q)
            return -r.sum() / len(Q), -(Q.T @ (0.5 / r)) / len(Q)
        return -q.sum() / len(Q), -Q.sum(axis=0) / len(Q)

    res = scipy.optimize.minimize(fun, n, jac=True, method="SLSQP",
                                  bounds=[(0.0, 1.0)] * len(n),
                                  constraints=[{"type": "eq", "fun": lambda v: v.sum() - 1.0,
                                                "jac": lambda v: np.ones_like(v)}],
                                  options={"maxiter": 1000, "ftol": 1e-15})
    v = np.maximum(res.x, 0.0)
    v = v / v.sum()
    return v if fun(v)[0] <= fun(n)[0] else n


def solve_mmc(D, same, bound: float = 1.0, sqrt: bool = True, diagonal: bool = False,
              seed=0, tol: float = 1e-12, maxiter: int = 20000) -> dict:
    """The optimum of MMC on the pair differences ``D`` with similarity ``same``.

    The objective increases with the scale of ``M``, so constraint (1) is active at the
    optimum; with ``W = S^{-1/2}`` (``S = sum_S x x^T``) and ``M = bound * W N W`` the
    problem is the maximum of ``sqrt(bound) * sum_D sqrt(p^T N p)`` (``p = W x``) over
    the spectraplex ``tr N = 1, N >= 0``, solved by L-BFGS over ``N = L L^T /
    ||L||_F^2`` from a random start (``seed``; the diagonal variant: ``L`` diagonal) and
    certified by the Frank-Wolfe gap of :func:`_certificate`. The bound enters the
    optimiser as the objective's factor ``sqrt(bound)`` (``bound`` without the square
    root), so solves at two bounds are two runs of the optimiser.

    Returns ``{"M", "value" (recomputed by :func:`mmc_objective`), "constraint"
    (constraint (1) at M), "relative_gap" (certified bound on (optimum - value) /
    value), "iterations", "converged"}``.
    """
    import scipy.optimize

    D = np.asarray(D, dtype=np.float64)
    d = D.shape[1]
    Ds, Dd = D[same == 1], D[same == 0]
    S = Ds.T @ Ds
    if diagonal:
        S = np.diag(np.diag(S))
    W = _whitener(S)
    P = Dd @ W
    scale = (np.sqrt(bound) if sqrt else bound) / max(len(P), 1)
    rng = np.random.default_rng(seed)
    if diagonal:
        def fun(u):
            f, g = _value_and_gradient(np.diag(u), P, sqrt, scale)
            return f, np.diag(g.reshape(d, d)).copy()
        x0 = rng.uniform(0.5, 1.5, d)
    else:
        def fun(u):
            return _value_and_gradient(u.reshape(d, d), P, sqrt, scale)
        x0 = rng.standard_normal(d * d)
    res = scipy.optimize.minimize(fun, x0, jac=True, method="L-BFGS-B",
                                  options={"maxiter": maxiter, "ftol": tol, "gtol": 1e-14,
                                           "maxcor": 30})
    L = np.diag(res.x) if diagonal else res.x.reshape(d, d)
    N = L @ L.T / np.sum(L * L)
    if diagonal:
        N = np.diag(_polish_simplex(P, np.diag(N), sqrt))
        # the certificate over the diagonal spectraplex: the largest coordinate
        # of the gradient's diagonal
        q = np.maximum((P * P) @ np.diag(N), 0.0)
        value = float(np.sum(np.sqrt(q))) if sqrt else float(q.sum())
        w = 0.5 / np.sqrt(np.maximum(q, 1e-300)) if sqrt else np.ones(len(q))
        g = (P * P).T @ w
        gap = max(float(g.max() - g @ np.diag(N)), 0.0)
    else:
        value, gap = _certificate(P, N, sqrt)
    M = bound * (W @ N @ W)
    M = (M + M.T) / 2.0
    return {"M": M, "value": mmc_objective(D, same, M, sqrt),
            "constraint": similar_sum(D, same, M), "relative_gap": gap / value,
            "iterations": int(res.nit), "converged": bool(res.success)}


def generalized_top_direction(D, same) -> np.ndarray:
    """The unit leading generalized eigenvector ``p`` of ``(sum_D x x^T) p = lambda
    (sum_S x x^T) p``: LDA's first direction in its pairwise form (the between-pair over
    the within-pair scatter; with equal class sizes it is LDA's of (2.25)-(2.27)), and
    the optimum ``M = p p^T`` (scaled) of MMC without the square root."""
    import scipy.linalg

    D = np.asarray(D, dtype=np.float64)
    Ss, Sd = D[same == 1].T @ D[same == 1], D[same == 0].T @ D[same == 0]
    vectors = scipy.linalg.eigh(Sd, Ss)[1]
    p = vectors[:, -1]
    return p / np.linalg.norm(p)
