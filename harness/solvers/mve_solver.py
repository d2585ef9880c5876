r"""Minimum volume embedding (Shaw and Jebara, AISTATS 2007): the iterated SDP.

Source: ``../shared/seeds/lecture_jebara_manifold_learning_mve.txt``, "Minimum Volume
Embedding", "MVE Optimization: Spectral SDP" and "MVE Pseudocode". MVE keeps MVU's
feasible set (K PSD, centred, the local distances of the affinity kernel A
preserved on the edges of the connectivity C) and replaces MVU's trace by the
linear-spectral objective

.. math::

   g(K) = \sum_{i \le d} \lambda_i(K) - \sum_{i > d} \lambda_i(K)

(stretch in the top d dimensions, squash the rest). ``g`` is convex (sum of the d
largest eigenvalues, Fan 1949), so its maximum is not an SDP; its variational form
``g(K) = max_U -tr(K (I - 2 U U^T))`` over orthonormal n x d ``U`` is maximised by
alternation, the lecture's "Iterated Monotonic SDP": with ``V_d`` the top-d eigenvectors of the
current K and ``B = I - 2 V_d V_d^T`` (= ``-sum_{i<=d} v_i v_i^T + sum_{i>d} v_i
v_i^T`` on the centred subspace, Step 5), solve ``K^ = argmin_{K in kappa} tr(K B)``
(Step 6, :func:`harness.solvers.mvu_sdp.solve_mvu` with ``cost=``); stop when
``|K - K^| < eps`` (Step 7); kernel PCA of the final K (Step 8).

Monotonicity: ``g(K^) >= -tr(K^ B) >= -tr(K B) = g(K)`` for feasible K, the first
inequality by Ky Fan's variational characterisation, the second by optimality of
K^. It holds from the first SDP iterate on (K = A need not be feasible), up to the
certified gap of each SDP; :func:`iterate_mve` records g, ``tr(K^ B)``, its
certified bound and gap at every iteration, and a failed SDP too (its status and
reason, no kernel): :attr:`MVEResult.certified` is True only when every SDP attempted,
the last included, was certified optimal.

Time: ``time_limit`` bounds the iteration's *CPU* seconds of this process
(``cpu_clock()``), not wall seconds: on a shared machine the wall time of the
same work varies with the load, its CPU time far less (the job's own hard limit, in
its parent, still bounds the wall). Each SDP is handed the CPU seconds left as its
limit.

Choices where the lecture is silent (parameters of :func:`iterate_mve` and the
plugin): ``|K - K^|`` is the relative Frobenius norm ``|K - K^|_F / |K^|_F``; the
first B comes from the initial kernel (``K = A`` centred, Step 3; or the MVU
solution, or a random one, the lecture's "same convergence under random
initialization or K = A"); a kernel of rank below d gets seeded random directions
(:func:`harness.problems.linear_cost.mve_cost`).
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from harness.problems.linear_cost import mve_cost, spectral_objective
from harness.problems.mvu_problem import CONNECTIVITIES, MVUProblem
from harness.solvers.mvu_sdp import solve_mvu
from harness.timelimit import Deadline, cpu_clock

__all__ = ["AFFINITY_KERNELS", "INITS", "MVEResult", "affinity_factor", "fidelity",
           "kernel_eigenvalues", "iterate_mve", "relative_change", "top_embedding",
           "initial_factor", "points_problem", "graph_problem", "commute_time_factor"]

#: The affinity kernels A of Step 1. Both are monotone in the Euclidean distance, so
#: the k nearest neighbours in A's feature space are the Euclidean ones.
AFFINITY_KERNELS = ("linear", "rbf")
#: Where the iteration starts: K = A (Step 3), the MVU kernel, or a random one.
INITS = ("affinity", "mvu", "random")


def affinity_factor(X: np.ndarray, kernel: str = "linear", gamma: float | None = None,
                    rel_tol: float = 1e-12) -> np.ndarray:
    """F with ``F F^T = J A J`` (A the affinity kernel, J the centring matrix).

    ``linear``: ``A = X X^T`` (F = centred X: kernel PCA is PCA). ``rbf``: ``A_ij =
    exp(-gamma |x_i - x_j|^2)``, ``gamma`` by default ``1 / median`` of the squared
    distances; F from the eigenvectors of J A J with eigenvalues above ``rel_tol``
    of the largest.
    """
    if kernel not in AFFINITY_KERNELS:
        raise ValueError(f"kernel must be one of {AFFINITY_KERNELS}, got {kernel!r}")
    X = np.asarray(X, dtype=np.float64)
    Xc = X - X.mean(axis=0)
    if kernel == "linear":
        return Xc
    sq = np.einsum("ij,ij->i", Xc, Xc)
    D = np.maximum(sq[:, None] + sq[None, :] - 2.0 * Xc @ Xc.T, 0.0)
    if gamma is None:
        gamma = 1.0 / float(np.median(D[np.triu_indices(len(X), 1)]))
    elif not gamma > 0:
        raise ValueError(f"gamma must be positive, got {gamma}")
    A = np.exp(-gamma * D)
    A -= A.mean(axis=0)
    A -= A.mean(axis=1, keepdims=True)
    lam, V = np.linalg.eigh((A + A.T) / 2)
    keep = lam > rel_tol * lam[-1]
    return (V[:, keep] * np.sqrt(lam[keep]))[:, ::-1]


def points_problem(X: np.ndarray, F: np.ndarray, n_neighbors: int,
                   connectivity: str = "clique") -> MVUProblem:
    """MVE's feasible set for inputs ``X`` and affinity factor ``F`` (Steps 1-2): the
    edges of the ``connectivity`` graph of ``X`` (:data:`harness.problems.mvu_problem.
    CONNECTIVITIES`; the kernels of :data:`AFFINITY_KERNELS` have the Euclidean
    neighbours) with the squared distances of A's feature space, ``A_ii + A_jj -
    2 A_ij = |f_i - f_j|^2`` (the lecture's ``K in kappa``; for the linear kernel
    the input distances, as MVU)."""
    if connectivity not in CONNECTIVITIES:
        raise ValueError(f"connectivity must be one of {CONNECTIVITIES}, got {connectivity!r}")
    problem = MVUProblem.from_points(X, n_neighbors, connectivity=connectivity)
    return dataclasses.replace(problem, sq_lengths=problem.embedded_sq_lengths(F))


def graph_problem(n: int, edges: np.ndarray) -> MVUProblem:
    """The feasible set of a graph embedded from its edges alone: unit length on every
    edge (``K_ii + K_jj - 2 K_ij = 1``); edges are sorted and deduplicated."""
    edges = np.sort(np.asarray(edges, dtype=np.int64), axis=1)
    if len(edges) == 0 or (edges[:, 0] == edges[:, 1]).any() or edges.max() >= n:
        raise ValueError(f"edges must be pairs of distinct nodes below n = {n}")
    edges = np.unique(edges, axis=0)
    return MVUProblem(n=n, edges=edges, sq_lengths=np.ones(len(edges)))


def commute_time_factor(n: int, edges: np.ndarray, rel_tol: float = 1e-10) -> np.ndarray:
    """F with ``F F^T = L^+``, the pseudo-inverse of the graph Laplacian (the
    commute-time kernel; Saerens, Fouss, Yen, Dupont, ECML 2004, "The principal
    components analysis of a graph"): a graph's affinity kernel A for kernel PCA
    and MVE's start, from its edges alone."""
    L = np.zeros((n, n))
    i, j = np.asarray(edges).T
    np.add.at(L, (i, j), -1.0)
    np.add.at(L, (j, i), -1.0)
    L[np.diag_indices(n)] = -L.sum(axis=1)
    lam, V = np.linalg.eigh(L)
    keep = lam > rel_tol * lam[-1]
    return V[:, keep] / np.sqrt(lam[keep])  # largest kernel eigenvalue first


def kernel_eigenvalues(F: np.ndarray) -> np.ndarray:
    """Eigenvalues of ``K = Fc Fc^T`` (Fc centred), largest first."""
    F = np.asarray(F, dtype=np.float64)
    s = np.linalg.svd(F - F.mean(axis=0), compute_uv=False)
    return s**2


def fidelity(eigenvalues: np.ndarray, d: int = 2) -> float:
    """``(lambda_1 + ... + lambda_d) / sum_i lambda_i``: the lecture's "% energy in
    top dims" (eigenvalues clipped at 0; NaN for a zero kernel)."""
    lam = np.sort(np.clip(np.asarray(eigenvalues, dtype=np.float64), 0.0, None))[::-1]
    total = lam.sum()
    return float(lam[:d].sum() / total) if total > 0 else float("nan")


def relative_change(F: np.ndarray, G: np.ndarray) -> float:
    """``|F F^T - G G^T|_F / |G G^T|_F`` from the factors (no n x n matrix)."""
    a, b, c = (np.linalg.norm(F.T @ F) ** 2, np.linalg.norm(G.T @ G) ** 2,
               np.linalg.norm(F.T @ G) ** 2)
    return float(np.sqrt(max(a + b - 2.0 * c, 0.0) / b)) if b > 0 else float("inf")


def top_embedding(F: np.ndarray, d: int) -> np.ndarray:
    """Kernel PCA of ``K = F F^T`` (Step 8): the top-d eigenvectors scaled by the
    square roots of their eigenvalues; zero columns beyond the rank."""
    U, s, _ = np.linalg.svd(F - F.mean(axis=0), full_matrices=False)
    Y = np.zeros((F.shape[0], d))
    kept = min(d, len(s))
    Y[:, :kept] = U[:, :kept] * s[:kept]
    return Y


@dataclasses.dataclass
class MVEResult:
    """The outcome of :func:`iterate_mve`.

    Attributes
    ----------
    F : ndarray of shape (n, p)
        The final kernel factor (the last accepted SDP solution, certified or not:
        see ``history``), or the initial one if the first SDP failed.
    history : list of dict
        Entry 0: the initial kernel's objective ``g`` and fidelity. Entry t >= 1: the
        t-th SDP attempted: ``sdp_status``, ``accepted`` (whether it returned a kernel,
        which then replaced K), ``seconds`` (wall), ``cpu_seconds``; an accepted one
        also ``sdp_value`` = tr(K^ B), ``sdp_bound`` (its certified lower bound),
        ``gap``, ``violation``, the new ``objective`` g(K^), ``variational`` =
        -tr(K^ B) (<= g(K^)), ``fidelity``, ``change`` |K - K^| relative; a failed one
        (no kernel: the last entry) its ``reason`` and whatever certificate it had.
    status : {"converged", "max_iter", "failed", "timeout", "skipped", "infeasible"}
    reason : str
    solve_info : dict
        The last SDP's :meth:`harness.solvers.mvu_sdp.result.SolveResult.info`.
    """

    F: np.ndarray
    history: list
    status: str
    reason: str = ""
    solve_info: dict = dataclasses.field(default_factory=dict)

    @property
    def iterations(self) -> int:
        """SDPs whose kernel was accepted (a failed last SDP is not counted)."""
        return sum(1 for h in self.history[1:] if h.get("accepted", True))

    @property
    def attempted(self) -> int:
        """SDPs attempted, a failed one included."""
        return len(self.history) - 1

    @property
    def failed_sdps(self) -> list[dict]:
        """``{"iteration", "sdp_status", "reason"}`` of every SDP attempted that was not
        certified optimal (failed, or accepted but uncertified)."""
        return [{"iteration": h["iteration"], "sdp_status": h.get("sdp_status"),
                 "reason": h.get("reason", ""), "accepted": h.get("accepted", True)}
                for h in self.history[1:] if h.get("sdp_status") != "optimal"]

    @property
    def certified(self) -> bool:
        """Whether at least one SDP ran and every SDP attempted, the last included
        (a failed one too), was certified optimal."""
        return self.attempted > 0 and not self.failed_sdps


def initial_factor(init: str, affinity: np.ndarray, problem: MVUProblem, d: int, *,
                   solver: str, seed: int, time_limit: float, tol_gap: float,
                   tol_violation: float) -> tuple[np.ndarray, dict]:
    """The starting kernel factor and what was used: ``affinity`` (Step 3, K = A),
    ``mvu`` (MVU's maximum-trace kernel on the same problem, solved by ``solver``) or
    ``random`` (a seeded Gaussian n x d factor: a random top-d subspace).

    Returns ``(F, info)`` with ``info = {"init_requested", "init_used",
    "fallback_reason"}`` and, for ``mvu``, ``"solve"`` (the MVU solve's
    :meth:`~harness.solvers.mvu_sdp.result.SolveResult.info`). An MVU solve that returns
    no kernel falls back to the affinity kernel, and says so: ``init_used`` is then
    ``"affinity"`` and ``fallback_reason`` the solve's status and reason (``""``
    without a fallback). An MVU kernel that is returned but not certified optimal is
    used; its status is in ``solve``."""
    if init not in INITS:
        raise ValueError(f"init must be one of {INITS}, got {init!r}")
    info = {"init_requested": init, "init_used": init, "fallback_reason": ""}
    if init == "affinity":
        return affinity, info
    if init == "random":
        return np.random.default_rng(seed).standard_normal((problem.n, d)), info
    result = solve_mvu(problem, solver, time_limit=time_limit, tol_gap=tol_gap,
                       tol_violation=tol_violation, seed=seed)
    info["solve"] = result.info()
    if result.F is None:
        info.update(init_used="affinity", fallback_reason=(
            f"the MVU start's solve ({solver}) returned no kernel: {result.status}: "
            f"{result.reason}; started from K = A instead"))
        return affinity, info
    return result.F, info


def iterate_mve(problem: MVUProblem, F0: np.ndarray, d: int = 2, *, solver: str = "native",
                eps: float = 1e-3, max_iter: int = 30, tol_gap: float = 1e-6,
                tol_violation: float = 1e-6, time_limit: float = 600.0,
                seed: int = 0) -> MVEResult:
    """Steps 4-7 of the MVE pseudocode from the kernel ``F0 F0^T``.

    Parameters
    ----------
    problem : MVUProblem
        The feasible set (variant ``equality``): edges and squared lengths.
    F0 : ndarray of shape (n, p)
        The initial kernel's factor (centred here).
    d : int
        The embedding dimension (top eigenvalues counted positively).
    solver : str
        ``native`` (the interior point with a linear cost) or a cvxpy backend.
    eps : float
        Stop when the relative Frobenius change of K is below this.
    max_iter : int
        SDPs at most.
    tol_gap, tol_violation : float
        Each SDP's certificate tolerances (its status is the harness' verdict).
    time_limit : float
        CPU seconds of this process (:class:`harness.timelimit.Deadline`) for the whole
        iteration; each SDP gets what is left as its limit.
    seed : int
        For a kernel of rank below d (:func:`harness.problems.linear_cost.mve_cost`).

    Returns
    -------
    MVEResult
    """
    if problem.variant != "equality":
        raise ValueError(f"MVE keeps MVU's equality constraints; got variant "
                         f"{problem.variant!r}")
    if not 1 <= d <= problem.n - 1:
        raise ValueError(f"d must lie in [1, n - 1] = [1, {problem.n - 1}], got {d}")
    if not eps > 0 or max_iter < 1:
        raise ValueError(f"eps must be positive and max_iter at least 1, got eps={eps}, "
                         f"max_iter={max_iter}")
    F = problem.centred(F0)
    lam = kernel_eigenvalues(F)
    history = [{"iteration": 0, "objective": spectral_objective(lam, d),
                "fidelity": fidelity(lam, d), "trace": float(lam.sum())}]
    deadline = Deadline(time_limit)  # CPU seconds of this process (module doc)
    status, reason, info = "max_iter", f"no convergence to eps = {eps:g} in {max_iter} SDPs", {}
    for t in range(1, max_iter + 1):
        left = deadline.left()
        if left <= 0:
            status, reason = "timeout", (f"CPU time limit of {time_limit:g} s reached after "
                                         f"{t - 1} SDPs")
            break
        start, cpu = time.perf_counter(), cpu_clock()
        cost = mve_cost(F, d, seed=seed + t)
        result = solve_mvu(problem, solver, time_limit=left, tol_gap=tol_gap,
                           tol_violation=tol_violation, seed=seed, cost=cost)
        info = result.info()
        cert = result.certificate
        if result.F is None:
            status, reason = result.status, f"SDP {t}: {result.reason}"
            history.append({
                "iteration": t, "accepted": False, "sdp_status": result.status,
                "reason": result.reason,
                **({"sdp_value": cert.value, "sdp_bound": cert.bound, "gap": cert.gap,
                    "violation": cert.violation} if cert is not None else {}),
                "seconds": time.perf_counter() - start,
                "cpu_seconds": cpu_clock() - cpu})
            break
        G = problem.centred(result.F)
        lam = kernel_eigenvalues(G)
        change = relative_change(F, G)
        history.append({
            "iteration": t, "accepted": True, "sdp_value": cert.value,
            "sdp_bound": cert.bound, "gap": cert.gap, "violation": cert.violation,
            "sdp_status": result.status, "reason": result.reason,
            "objective": spectral_objective(lam, d), "variational": -cert.value,
            "fidelity": fidelity(lam, d), "trace": float(lam.sum()), "change": change,
            "seconds": time.perf_counter() - start,
            "cpu_seconds": cpu_clock() - cpu})
        F = G
        if change < eps:
            status, reason = "converged", ""
            break
    return MVEResult(F=F, history=history, status=status, reason=reason, solve_info=info)
