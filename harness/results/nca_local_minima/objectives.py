"""The two objectives recomputed from a final matrix, independently of the solvers.

- NCA (thesis 2.2.2): ``p_ij`` of (2.31) (a softmax over ``j != i`` of
  ``-||A x_i - A x_j||^2``, computed with the log-sum-exp shift), ``f(A) = sum_i p_i``
  of (2.33) and its gradient (2.34), ``2 A sum_i (p_i sum_k p_ik x_ik x_ik^T -
  sum_{j in C_i} p_ij x_ij x_ij^T)``, in the matrix form ``2 A X^T (diag(W 1 + W^T 1)
  - W - W^T) X`` with ``W_ij = p_i p_ij - [y_i = y_j] p_ij``.
- LMNN (thesis 2.1.3): eq. (2.8), ``(1 - mu) sum_{j ~> i} ||L x_ij||^2 + mu sum_{j ~> i}
  sum_l (1 - y_il) [1 + ||L x_ij||^2 - ||L x_il||^2]_+`` over every triple, with the
  given target neighbours.
- The register's side quantities: the L1 distance of ``p_i.`` to the uniform
  distribution over i's class (2.2.2), the perplexity of ``p_i.``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["sq_distances", "nca_probabilities", "nca_objective", "nca_gradient",
           "lmnn_loss", "l1_to_uniform", "mean_perplexity"]


def sq_distances(Z: np.ndarray) -> np.ndarray:
    """Squared Euclidean distances between the rows of ``Z`` (clipped at 0)."""
    sq = np.einsum("ij,ij->i", Z, Z)
    return np.maximum(sq[:, None] + sq[None, :] - 2.0 * Z @ Z.T, 0.0)


def nca_probabilities(D: np.ndarray) -> np.ndarray:
    """``p_ij`` of (2.31) from squared distances ``D`` (``p_ii = 0``)."""
    logits = -np.array(D, dtype=np.float64)
    np.fill_diagonal(logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    P = np.exp(logits)
    return P / P.sum(axis=1, keepdims=True)


def _same(y) -> np.ndarray:
    y = np.asarray(y)
    S = y[:, None] == y[None, :]
    np.fill_diagonal(S, False)
    return S


def nca_objective(A: np.ndarray, X: np.ndarray, y) -> float:
    """``f(A) = sum_i sum_{j in C_i, j != i} p_ij``, eq. (2.33)."""
    P = nca_probabilities(sq_distances(X @ np.asarray(A).T))
    return float((P * _same(y)).sum())


def nca_gradient(A: np.ndarray, X: np.ndarray, y) -> np.ndarray:
    """``df/dA``, eq. (2.34), shape of ``A``."""
    A = np.asarray(A, dtype=np.float64)
    P = nca_probabilities(sq_distances(X @ A.T))
    S = _same(y)
    p_i = (P * S).sum(axis=1)
    W = p_i[:, None] * P - S * P
    lap = np.diag(W.sum(axis=1) + W.sum(axis=0)) - W - W.T
    return 2.0 * A @ (X.T @ lap @ X)


def lmnn_loss(L: np.ndarray, X: np.ndarray, y, targets: np.ndarray, mu: float = 0.5) -> float:
    """Eq. (2.8) at ``L`` over every triple (target neighbours ``targets``, shape
    (n, k); margin 1)."""
    D = sq_distances(X @ np.asarray(L, dtype=np.float64).T)
    y = np.asarray(y)
    other = y[:, None] != y[None, :]
    rows = np.arange(len(y))
    pull = push = 0.0
    for c in range(targets.shape[1]):
        d_ij = D[rows, targets[:, c]]
        pull += float(d_ij.sum())
        push += float((np.maximum(0.0, 1.0 + d_ij[:, None] - D) * other).sum())
    return (1.0 - mu) * pull + mu * push


def l1_to_uniform(P: np.ndarray, y) -> float:
    """``sum_i ||p_i. - q_i.||_1``, ``q_i.`` uniform over the other members of i's class
    (2.2.2)."""
    S = _same(y)
    Q = S / S.sum(axis=1, keepdims=True)
    return float(np.abs(P - Q).sum())


def mean_perplexity(P: np.ndarray) -> float:
    """The mean over ``i`` of ``exp(H(p_i.))`` (natural log; ``0 log 0 = 0``)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        H = -np.where(P > 0, P * np.log(P), 0.0).sum(axis=1)
    return float(np.exp(H).mean())
