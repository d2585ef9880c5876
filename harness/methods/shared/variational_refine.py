"""The gradient-based improvement of variational MVU (thesis 3.1.8): the objective,
its gradient, the reconstruction loss (3.26), and two conjugate-gradient drivers.

The objective (3.1.8, "Gradient-based improvement"), maximised over the outputs
y_i::

    (1 - omega) sum_i |y_i - mean y|^2 - omega sum_ij eta_ij (|y_i - y_j|^2 - D_ij)^2

The thesis' first sum runs over all pairs (= 2n tr K); we use tr K, as in the SDP,
so that omega has one meaning in both steps. The second runs over ordered pairs
(each edge twice, :data:`PAIR_COUNT`). With omega = 1 it is the reconstruction loss
(3.26) ("the relaxed MVU optimization ... reduces to minimizing (3.26) if omega = 1").

Drivers:

* :func:`scipy_cg`: scipy's nonlinear CG (Polak-Ribiere, Wolfe line search), the one
  Table 3.2's plugins use (``cg_method="scipy"``).
* :func:`pcg`: nonlinear CG (Polak-Ribiere+, restart on a non-descent direction)
  with an exact line search -- along a line the objective is a quartic polynomial
  in the step, whose minimiser is a root of a cubic -- and an optional
  preconditioner (the graph Laplacian's factor, which the Laplacian basis has
  computed already): ``cg_method="pcg"``. One iteration is one line search, as in
  the thesis' "100 line searches". Measured on the n = 20000 sensor network (m = 10,
  SDP omega = 0.9, CG on the loss (3.26), 10% noise; ``benchmarks/bench_sensor_network.py``):
  from the SDP's solution preconditioned CG converges in 44 line searches (0.8 s, mean
  positional error 1.1% of the radius); scipy's CG after 2 x 100 line searches (4.3 s)
  is still at 119% of the radius. Without the preconditioner, CG with exact line
  searches reached 0.076 r after 2 x 100 (omega = 0.99).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.sparse as sp
from scipy.optimize import minimize

__all__ = ["PAIR_COUNT", "incidence_transpose", "incidence", "refine_objective",
           "reconstruction_loss", "scipy_cg", "edge_objective", "pcg", "top_components"]

PAIR_COUNT = 2  # sum over ordered pairs (i, j) with eta_ij = 1


def incidence_transpose(n: int, edges: np.ndarray) -> sp.csr_matrix:
    """``B^T`` (n x m): column e has +1 at node i and -1 at node j of edge e."""
    m = len(edges)
    return sp.csr_matrix((np.tile([1.0, -1.0], m), (edges.ravel(), np.repeat(np.arange(m), 2))),
                         shape=(n, m))


def incidence(n: int, edges: np.ndarray) -> sp.csr_matrix:
    """``B`` (edges x n): row e is e_i - e_j, so ``B @ Y`` are the edge differences
    (a sparse product: ~10 times faster than ``Y[i] - Y[j]`` at n = 20000)."""
    return incidence_transpose(n, edges).T.tocsr()


def refine_objective(flat, n, dim, edges, b, omega, BT=None):
    """-(objective) of the CG step and its gradient, for ``scipy.optimize``.

    ``BT`` (:func:`incidence_transpose`) scatters the edge terms onto the nodes as one
    sparse product (``np.add.at`` was 2/3 of the run time at n = 10000).
    """
    Y = flat.reshape(n, dim)
    Yc = Y - Y.mean(axis=0)
    diff = Y[edges[:, 0]] - Y[edges[:, 1]]
    r = np.einsum("ij,ij->i", diff, diff) - b
    value = (1 - omega) * np.einsum("ij,ij->", Yc, Yc) - omega * PAIR_COUNT * (r @ r)
    coef = (omega * PAIR_COUNT * 4 * r)[:, None] * diff
    if BT is None:
        BT = incidence_transpose(n, edges)
    grad = -2 * (1 - omega) * Yc + BT @ coef
    return -value, grad.ravel()


def reconstruction_loss(Y: np.ndarray, edges: np.ndarray, D: np.ndarray) -> float:
    """The reconstruction loss (3.26), sum_ij eta_ij (|y_i - y_j|^2 - D_ij)^2 over
    ordered pairs (each edge twice), D the measured squared distances."""
    diff = Y[edges[:, 0]] - Y[edges[:, 1]]
    r = np.einsum("ij,ij->i", diff, diff) - D
    return float(PAIR_COUNT * (r @ r))


def scipy_cg(Y, edges, b, omega, maxiter):
    """scipy's nonlinear CG on :func:`refine_objective`; returns (Y, iterations)."""
    n, dim = Y.shape
    BT = incidence_transpose(n, edges)
    result = minimize(refine_objective, Y.ravel(), args=(n, dim, edges, b, omega, BT),
                      jac=True, method="CG", options={"maxiter": maxiter, "gtol": 1e-10})
    return result.x.reshape(n, dim), int(result.nit)


def _rowdot(a: np.ndarray, c: np.ndarray) -> np.ndarray:
    return np.einsum("ij,ij->i", a, c)


def edge_objective(Y: np.ndarray, u: np.ndarray, b: np.ndarray, omega: float,
                   B: sp.spmatrix) -> tuple[np.ndarray, float, np.ndarray]:
    """``(r, value, grad)`` of the minimised -(objective) at ``Y`` (n x dim), given
    its edge differences ``u = B @ Y`` (:func:`incidence`): the residuals r_e =
    |u_e|^2 - b_e, the value PAIR_COUNT omega |r|^2 - (1 - omega) |Y - mean Y|^2
    and its gradient (the same function as :func:`refine_objective`)."""
    r = _rowdot(u, u) - b
    Yc = Y - Y.mean(axis=0)
    w = PAIR_COUNT * omega
    value = w * (r @ r) - (1 - omega) * np.vdot(Yc, Yc)
    grad = B.T @ ((4 * w * r)[:, None] * u) - 2 * (1 - omega) * Yc
    return r, float(value), grad


def _exact_step(r, r1, r2, a1, a2, omega) -> float:
    """The step t minimising w sum_e (r + r1 t + r2 t^2)^2 - (1 - omega)(2 a1 t + a2 t^2)
    (the objective along the line, up to a constant), w = PAIR_COUNT omega."""
    w = PAIR_COUNT * omega
    c1, c2, c3, c4 = 2 * (r @ r1), r1 @ r1 + 2 * (r @ r2), 2 * (r1 @ r2), r2 @ r2
    quartic = np.array([w * c4, w * c3, w * c2 - (1 - omega) * a2,
                        w * c1 - (1 - omega) * 2 * a1, 0.0])
    roots = np.roots(np.polyder(quartic))
    real = roots[np.abs(roots.imag) <= 1e-9 * (1 + np.abs(roots))].real
    return float(real[np.argmin(np.polyval(quartic, real))])


def pcg(Y: np.ndarray, edges: np.ndarray, b: np.ndarray, omega: float, maxiter: int,
        precondition: Callable[[np.ndarray], np.ndarray] | None = None,
        ftol: float = 1e-10) -> tuple[np.ndarray, int]:
    """Minimise -(objective) by preconditioned nonlinear CG with exact line searches.

    Stops after ``maxiter`` line searches or when one lowers the objective by less
    than ``ftol`` times its size. ``precondition(G)`` approximately solves
    Hessian @ Z = G for an n x dim array G (e.g. a factor of the graph Laplacian);
    None is plain CG. Returns ``(Y, line_searches)``.
    """
    if not 0 < omega <= 1:
        raise ValueError(f"omega must be in (0, 1], got {omega}")
    n, dim = Y.shape
    B = incidence(n, edges)
    Y = np.array(Y, dtype=float)
    u = B @ Y

    def state(Y, u):
        r, value, grad = edge_objective(Y, u, b, omega, B)
        z = grad if precondition is None else precondition(grad)
        return r, value, grad, z - z.mean(axis=0)

    r, value, grad, z = state(Y, u)
    gz = np.vdot(grad, z)
    P = -z
    done = 0
    while done < maxiter and gz > 0:
        if np.vdot(grad, P) >= 0:  # not a descent direction: restart
            P = -z
        v = B @ P
        Pc, Yc = P - P.mean(axis=0), Y - Y.mean(axis=0)
        t = _exact_step(r, 2 * _rowdot(u, v), _rowdot(v, v), np.vdot(Yc, Pc),
                        np.vdot(Pc, Pc), omega)
        Y += t * P
        u += t * v
        done += 1
        r, new_value, new_grad, new_z = state(Y, u)
        new_gz = np.vdot(new_grad, new_z)
        beta = max(0.0, (new_gz - np.vdot(new_grad, z)) / gz)  # Polak-Ribiere+
        P = -new_z + beta * P
        converged = value - new_value <= ftol * max(abs(value), np.finfo(float).tiny)
        value, grad, z, gz = new_value, new_grad, new_z, new_gz
        if converged:
            break
    return Y, done


def top_components(Y: np.ndarray, r: int) -> np.ndarray:
    """The centred ``Y`` projected onto its top ``r`` principal directions."""
    Yc = Y - Y.mean(axis=0)
    U, s, _ = np.linalg.svd(Yc, full_matrices=False)
    return U[:, :r] * s[:r]
