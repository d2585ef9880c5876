"""One job of Figs. 3.1 and 3.7 (thesis 3.1, 3.1.4).

* ``fig_3_1`` (line 1285): a noise-free 3-D Swiss roll; geodesic distances from its
  generating parameters -- the roll is a developable surface, so its geodesics are the
  straight lines of the unrolled sheet (arc length of the spiral, height);
  :func:`order_flips` searches random triples (A, B, C) whose Euclidean order (A closer
  to C) disagrees with the geodesic one (A closer to B), both by more than ``margin``;
  the Spearman correlation with the geodesics over random pairs of the input's
  Euclidean distances, of MVU's 2-D embedding (native solver, k nearest neighbours)
  and of the unrolled sheet itself (1 by construction: shown).
* ``fig_3_7`` (lines 1492, 1516), on each roll of ``rolls`` (the register's "n = 800
  Swiss roll, k = 6" is the noise-free 3-D roll or 3.1.5's roll with five noise
  dimensions, Fig. 3.5's n and k: both are measured and both count): MVU's start (the input's Gram matrix) against its
  optimum -- the share of the trace in the top two eigenvalues; the iterates of
  gradient ascent on Y with a distance penalty (:func:`penalty_ascent`, the non-convex
  form of 3.1.8 started at the input), each iterate's trace and top-two share; the loss
  of truncating the optimum to r dimensions on the graph's edges against r and the
  truncated eigenvalues (:func:`truncation_losses`; monotone by construction for a
  feasible kernel: shown).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize
from scipy.stats import spearmanr
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from harness import registry
from harness.plugin import ExpectedFailure
from harness.timelimit import cpu_clock_with_children

__all__ = ["arc_length", "unrolled_sheet", "order_flips", "pair_correlations",
           "top_two_share", "penalty_objective", "penalty_ascent", "feasible_ascent",
           "truncation_losses",
           "linear_training_error", "fig_3_36", "work", "sources"]


def arc_length(t: np.ndarray) -> np.ndarray:
    """Arc length of the spiral (t cos t, t sin t) from 0 to t:
    (t sqrt(1 + t^2) + asinh t) / 2."""
    t = np.asarray(t, float)
    return 0.5 * (t * np.sqrt(1 + t * t) + np.arcsinh(t))


def unrolled_sheet(X: np.ndarray, t: np.ndarray) -> np.ndarray:
    """The roll's isometric 2-D parameters (arc length, height): Euclidean distances
    here are the roll's geodesic distances (sklearn's roll: height is column 1)."""
    return np.column_stack([arc_length(t), X[:, 1]])


def _distances(Z: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.linalg.norm(Z[a] - Z[b], axis=1)


def order_flips(X: np.ndarray, sheet: np.ndarray, n_triples: int, margin: float,
                seed: int) -> dict:
    """Random triples (A, B, C) of distinct points with |A - C| (1 + margin) < |A - B|
    in the input and geo(A, B) (1 + margin) < geo(A, C): the count, the largest
    Euclidean and geodesic ratios among them and the first one found."""
    rng = np.random.default_rng(seed)
    idx = np.array([rng.choice(len(X), 3, replace=False) for _ in range(n_triples)])
    a, b, c = idx.T
    e_ab, e_ac = _distances(X, a, b), _distances(X, a, c)
    g_ab, g_ac = _distances(sheet, a, b), _distances(sheet, a, c)
    flips = (e_ac * (1 + margin) < e_ab) & (g_ab * (1 + margin) < g_ac)
    out = {"n_triples": int(n_triples), "margin": float(margin), "flips": int(flips.sum())}
    if flips.any():
        first = int(np.flatnonzero(flips)[0])
        both = np.minimum(e_ab / e_ac, g_ac / g_ab)[flips]
        out.update(strongest_flip=float(both.max()), example={
            "A": int(a[first]), "B": int(b[first]), "C": int(c[first]),
            "euclid_AB": float(e_ab[first]), "euclid_AC": float(e_ac[first]),
            "geodesic_AB": float(g_ab[first]), "geodesic_AC": float(g_ac[first])})
    return out


def pair_correlations(geodesic_space: np.ndarray, spaces: dict, n_pairs: int,
                      seed: int) -> dict:
    """Spearman correlation over random pairs between the geodesic distances (the
    sheet's) and each space's Euclidean distances."""
    rng = np.random.default_rng(seed)
    a = rng.integers(len(geodesic_space), size=n_pairs)
    b = (a + rng.integers(1, len(geodesic_space), size=n_pairs)) % len(geodesic_space)
    geo = _distances(geodesic_space, a, b)
    return {name: float(spearmanr(_distances(Z, a, b), geo).statistic)
            for name, Z in spaces.items()}


def top_two_share(Y: np.ndarray) -> float:
    """The share of the (centred) Gram matrix's trace in its two largest eigenvalues."""
    s = np.linalg.svd(Y - Y.mean(axis=0), compute_uv=False) ** 2
    return float(s[:2].sum() / s.sum())


def penalty_objective(flat: np.ndarray, shape, edges: np.ndarray, D: np.ndarray,
                      omega: float) -> tuple[float, np.ndarray]:
    """The negated ascent objective per point and its gradient:
    -(sum_i |y_i|^2 - omega sum_(ij) (|y_i - y_j|^2 - D_ij)^2) / n (3.1.8's non-convex
    form with the penalty for the constraints; centred Y stays centred: both gradients
    sum to zero over the points)."""
    Y = flat.reshape(shape)
    i, j = edges[:, 0], edges[:, 1]
    diff = Y[i] - Y[j]
    r = np.einsum("ij,ij->i", diff, diff) - D
    value = float((Y * Y).sum() - omega * (r * r).sum())
    push = (4 * omega * r)[:, None] * diff
    grad = 2 * Y
    np.subtract.at(grad, i, push)
    np.add.at(grad, j, push)
    n = shape[0]
    return -value / n, -grad.ravel() / n


def penalty_ascent(X: np.ndarray, edges: np.ndarray, D: np.ndarray, omega: float,
                   max_iterations: int) -> dict:
    """Gradient ascent (L-BFGS) on Y from the centred input, with distances scaled so
    that the median edge length is 1: every iterate's trace and top-two share."""
    scale = float(np.sqrt(np.median(D)))
    Y0 = (X - X.mean(axis=0)) / scale
    D = D / scale**2
    traces, shares = [float((Y0 * Y0).sum())], [top_two_share(Y0)]

    def record(flat):
        Y = flat.reshape(Y0.shape)
        traces.append(float((Y * Y).sum()))
        shares.append(top_two_share(Y))

    fit = minimize(penalty_objective, Y0.ravel(), args=(Y0.shape, edges, D, omega),
                   jac=True, method="L-BFGS-B", callback=record,
                   options={"maxiter": int(max_iterations)})
    Y = fit.x.reshape(Y0.shape)
    lengths = ((Y[edges[:, 0]] - Y[edges[:, 1]]) ** 2).sum(axis=1)
    constant = len(traces) < 3 or np.ptp(traces) == 0 or np.ptp(shares) == 0
    rho = float("nan") if constant else float(spearmanr(traces, shares).statistic)
    return {"iterations": len(traces) - 1, "traces": traces, "shares": shares,
            "spearman_trace_share": rho, "message": str(fit.message),
            "median_relative_edge_error": float(np.median(np.abs(lengths - D) / D))}


def truncation_losses(F: np.ndarray, edges: np.ndarray, D: np.ndarray, dims: int) -> dict:
    """For r = 1 .. dims: sum over the edges of (|y_i - y_j|^2 - D_ij)^2 of the kernel
    K = F F^T truncated to its top r eigenvectors, and the truncated eigenvalues' share
    of the trace."""
    U, s, _ = np.linalg.svd(F - F.mean(axis=0), full_matrices=False)
    eig = s**2
    Y = U * s
    losses, mass = [], []
    for r in range(1, min(dims, len(s)) + 1):
        diff = Y[edges[:, 0], :r] - Y[edges[:, 1], :r]
        losses.append(float(((np.einsum("ij,ij->i", diff, diff) - D) ** 2).sum()))
        mass.append(float(eig[r:].sum() / eig.sum()))
    r = np.arange(1, len(losses) + 1)
    return {"losses": losses, "truncated_mass": mass,
            "spearman_r": float(spearmanr(r, losses).statistic),
            "spearman_mass": float(spearmanr(mass, losses).statistic)}


def _roll(params: dict, extra_noise_dims: int = 0):
    data = registry.get_dataset("swiss_roll")().load(
        n_samples=params["n_samples"], seed=params["seed"],
        extra_noise_dims=extra_noise_dims, extra_noise_std=params.get("extra_noise_std", 0.1))
    return data.X, np.asarray(data.y, float)


def _mvu(X: np.ndarray, params: dict):
    mvu = registry.get_method("mvu")(n_neighbors=params["k"], n_components=2,
                                     time_limit=params["solver_time_limit"],
                                     random_state=params["seed"])
    cpu = cpu_clock_with_children()
    try:
        Y = mvu.fit_transform(X)
    except ValueError as exc:  # a disconnected graph, duplicates: a marked failure
        raise ExpectedFailure(f"MVU (k = {params['k']}): {exc}") from None
    info = {key: mvu.solve_info_.get(key) for key in ("status", "gap", "violation")}
    eig = np.asarray(mvu.eigenvalues_, float)
    return mvu, Y, {**info, "cpu_seconds": cpu_clock_with_children() - cpu,
                    "top_two_share": float(eig[:2].sum() / eig.sum())}


def fig_3_1(params: dict) -> dict:
    """Order flips, and the correlations of the input, MVU and the sheet."""
    X, t = _roll(params)
    sheet = unrolled_sheet(X, t)
    flips = order_flips(X, sheet, params["n_triples"], params["margin"], params["seed"])
    _, Y, solve = _mvu(X, params)
    corr = pair_correlations(sheet, {"input": X, "mvu": Y, "sheet": sheet},
                             params["n_pairs"], params["seed"])
    return {"status": "ok", "reason": "", "n_samples": len(X), "k": params["k"],
            "flips": flips, "spearman": corr, "mvu": solve}


def feasible_ascent(X: np.ndarray, edges: np.ndarray, D: np.ndarray, params: dict) -> dict:
    """:func:`penalty_ascent` at each weight of ``omegas`` in turn until the final
    median relative edge error is at most ``feasible`` (the reading asks for feasible
    iterates): every run tried, and the first feasible one (``chosen``; None when none
    is)."""
    runs, chosen = [], None
    for omega in params["omegas"]:
        run = {"omega": float(omega),
               **penalty_ascent(X, edges, D, float(omega), params["max_iterations"])}
        runs.append(run)
        if run["median_relative_edge_error"] <= params["feasible"]:
            chosen = len(runs) - 1
            break
    return {"runs": runs, "chosen": chosen}


def fig_3_7(params: dict) -> dict:
    """Per roll: MVU's start and optimum, the ascent's iterates and the truncation
    losses."""
    rolls = {}
    for name, noise_dims in params["rolls"].items():
        X, _ = _roll(params, int(noise_dims))
        mvu, _, solve = _mvu(X, params)
        edges, D = np.asarray(mvu.edges_), np.asarray(mvu.sq_lengths_, float)
        rolls[name] = {
            "n_samples": len(X), "n_features": int(X.shape[1]), "mvu": solve,
            "start_top_two_share": top_two_share(X),
            "ascent": feasible_ascent(X, edges, D, params),
            "truncation": truncation_losses(np.asarray(mvu.kernel_factor_), edges, D,
                                            params["truncation_dims"])}
    return {"status": "ok", "reason": "", "k": params["k"], "rolls": rolls}


def linear_training_error(Z: np.ndarray, labels: np.ndarray, C: float) -> float:
    """The training error of a linear SVM (scikit-learn's SVC, linear kernel, inputs
    standardised) on ``Z``."""
    Z = (Z - Z.mean(axis=0)) / Z.std(axis=0)
    svm = SVC(kernel="linear", C=C).fit(Z, labels)
    return float(np.mean(svm.predict(Z) != labels))


def fig_3_36(params: dict) -> dict:
    """3.1.5's roll labelled by the sign of its first coordinate: the linear SVM's
    training error in the input and on MVU's 2-D unfolding."""
    X, _ = _roll(params, int(params["extra_noise_dims"]))
    labels = (X[:, 0] > 0).astype(int)
    _, Y, solve = _mvu(X, params)
    return {"status": "ok", "reason": "", "n_samples": len(X), "k": params["k"],
            "n_features": int(X.shape[1]), "positive": int(labels.sum()), "mvu": solve,
            "input_error": linear_training_error(X, labels, params["C"]),
            "unfolded_error": linear_training_error(np.asarray(Y), labels, params["C"])}


JOBS = {"fig_3_1": fig_3_1, "fig_3_7": fig_3_7, "fig_3_36": fig_3_36}


def work(params: dict) -> dict:
    """The child's work for one job; returns the record body."""
    with threadpool_limits(limits=params["blas_threads"]):
        try:
            return JOBS[params["kind"]](params)
        except ExpectedFailure as exc:
            return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}


def sources(params: dict) -> list:
    """The data set and method plugins the job finds by name."""
    return [registry.get_dataset("swiss_roll"), registry.get_method("mvu")]
