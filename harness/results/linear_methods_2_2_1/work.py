"""One job of the section 2.2.1 checks (thesis 2.2, 2.2.1; 2.1.5's LDA remark): a group
of numerical checks of PCA (2.21-2.22), RCA (2.23-2.24) and LDA (2.25-2.27).

The eigen / SVD solutions are the harness' own (:func:`harness.methods.pca_knn.pca_map`,
:func:`harness.methods.rca_knn.rca_map`, Fig. 2.20's :func:`lda_directions`); each is compared
with numbers computed independently of it: random unit directions or orthonormal
frames, scipy's L-BFGS-B on the objective from random starts, a grid on the unit
circle, refits on rescaled data. The groups (``params["group"]``): ``optima``,
``circle``, ``invariance``, ``singular``, ``rca_timing``, ``rca_noise``, ``multimodal``,
``half_square``.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.linalg
import scipy.optimize
import scipy.stats
from threadpoolctl import threadpool_limits

from harness import registry
from harness.metrics.knn_error import knn_predict
from harness.plugin import ExpectedFailure
from harness.results.fig_2_20.work import (
    angle_degrees, between_covariance, lda_directions, two_gaussians,
)
from harness.methods.pca_knn import pca_map
from harness.methods.rca_knn import make_chunklets, rca_map, within_chunklet_covariance
from harness.timelimit import cpu_clock

__all__ = ["rayleigh_best", "frame_best", "rca_objective_best", "circle_extrema",
           "lda_boundary", "paired_summary", "work"]

FIG = "fig_2_20"
#: iterations of each L-BFGS-B run (a run that stops early only weakens the check: it
#: cannot find a better optimum than it reached)
MAXITER = 3000


# ---- independent optimisers ----------------------------------------------------------
def _rayleigh(P, A, B):
    """``p^T A p / p^T B p`` for every row ``p`` of ``P``."""
    return np.einsum("ij,jk,ik->i", P, A, P) / np.einsum("ij,jk,ik->i", P, B, P)


def rayleigh_best(A, B, n_random: int, n_starts: int, rng) -> tuple[float, float]:
    """The largest ``p^T A p / p^T B p`` over ``n_random`` random directions and over
    L-BFGS-B runs (analytic gradient) from ``n_starts`` random starts."""
    D = len(A)
    best_random = -np.inf
    for chunk in range(0, n_random, 2000):
        P = rng.standard_normal((min(2000, n_random - chunk), D))
        best_random = max(best_random, float(_rayleigh(P, A, B).max()))

    def f(p):
        a, b = p @ A @ p, p @ B @ p
        return -a / b, -2.0 * (A @ p - (a / b) * (B @ p)) / b

    best_opt = -np.inf
    for _ in range(n_starts):
        res = scipy.optimize.minimize(f, rng.standard_normal(D), jac=True, method="L-BFGS-B",
                                      options={"maxiter": MAXITER, "ftol": 1e-15, "gtol": 1e-12})
        best_opt = max(best_opt, -float(res.fun))
    return best_random, best_opt


def _orthonormal(W):
    return np.linalg.qr(W)[0]


def reconstruction_error(Xc, Q) -> float:
    """``1/n ||Xc - Xc Q Q^T||_F^2`` from the centred data (``Q`` orthonormal)."""
    R = Xc - (Xc @ Q) @ Q.T
    return float(np.sum(R * R) / len(Xc))


def frame_best(C, Xc, d: int, n_random: int, n_starts: int, rng) -> dict:
    """The best projected variance ``tr(Q^T C Q)`` and reconstruction error of
    ``n_random`` random orthonormal d-frames and of L-BFGS-B on the frame's Rayleigh
    trace ``tr((W^T W)^-1 W^T C W)`` from ``n_starts`` starts (the error of a found
    frame recomputed from the data)."""
    D = len(C)
    trace_c = float(np.trace(C))
    best_var = -np.inf
    for chunk in range(0, n_random, 500):
        m = min(500, n_random - chunk)
        Q = np.linalg.qr(rng.standard_normal((m, D, d)))[0]
        best_var = max(best_var, float(np.sum(Q * np.matmul(C, Q), axis=(1, 2)).max()))
    best_random_error = trace_c - best_var  # Pythagoras for orthogonal projections

    def f(w):
        W = w.reshape(D, d)
        G = np.linalg.inv(W.T @ W)
        CW = C @ W
        value = np.trace(G @ W.T @ CW)
        grad = 2.0 * (CW - W @ (G @ (W.T @ CW))) @ G
        return -value, -grad.ravel()

    best_opt_var, best_opt_error = -np.inf, np.inf
    for _ in range(n_starts):
        res = scipy.optimize.minimize(f, rng.standard_normal(D * d), jac=True,
                                      method="L-BFGS-B",
                                      options={"maxiter": MAXITER, "ftol": 1e-15, "gtol": 1e-12})
        Q = _orthonormal(res.x.reshape(D, d))
        best_opt_var = max(best_opt_var, float(np.trace(Q.T @ C @ Q)))
        best_opt_error = min(best_opt_error, reconstruction_error(Xc, Q))
    return {"variance": (best_var, best_opt_var), "error": (best_random_error, best_opt_error)}


def _det_one_trace(M, Cw) -> float:
    """``tr(M C_w)`` with ``M`` rescaled to ``det M = 1``."""
    sign, logdet = np.linalg.slogdet(M)
    return float(np.trace(M @ Cw) * math.exp(-logdet / len(M)))


def rca_objective_best(Cw, n_random: int, n_starts: int, rng) -> tuple[float, float]:
    """The smallest ``tr(M C_w)`` over det-1 matrices ``M = L L^T``: ``n_random`` random
    ``L`` and L-BFGS-B over ``L`` from ``n_starts`` starts (RCA's objective, Bar-Hillel
    et al.)."""
    D = len(Cw)
    best_random = min(_det_one_trace(L @ L.T, Cw)
                      for L in rng.standard_normal((n_random, D, D)))

    def f(x):
        L = x.reshape(D, D)
        sign, logdet = np.linalg.slogdet(L @ L.T)
        scale = math.exp(-logdet / D)
        t = float(np.sum(L * (Cw @ L)))
        grad = scale * (2.0 * Cw @ L - (2.0 * t / D) * np.linalg.inv(L).T)
        return t * scale, grad.ravel()

    best_opt = np.inf
    for _ in range(n_starts):
        res = scipy.optimize.minimize(f, rng.standard_normal(D * D), jac=True, method="L-BFGS-B",
                                      options={"maxiter": MAXITER, "ftol": 1e-15, "gtol": 1e-12})
        L = res.x.reshape(D, D)
        best_opt = min(best_opt, _det_one_trace(L @ L.T, Cw))
    return best_random, best_opt


# ---- data -----------------------------------------------------------------------------
def _gaussians(params: dict, trial: int = 0):
    return two_gaussians({**params["gaussians"], "seed": params["seed"], "trial": trial})[:2]


def _load(name: str, **kwargs):
    """A registered data set with the plugin's defaults (and those of ``kwargs`` it
    takes); the labels as integer codes 0 .. L - 1."""
    plugin = registry.get_dataset(name)
    kwargs = {k: v for k, v in kwargs.items() if k in plugin.params}
    data = plugin().load(**{**plugin.params, **kwargs})
    codes = np.unique(np.asarray(data.y), return_inverse=True)[1].astype(np.int64)
    return data.X, codes, data


def _mnist_subsample(n: int, seed, pool: int = 10000):
    """``n`` deskewed MNIST training images (784 pixels in [0, 1]), drawn seeded from
    the first ``pool``."""
    X, y, _ = _load("mnist", n_components=None, n_train=max(n, pool), n_test=1)
    rng = np.random.default_rng(seed)
    pick = rng.choice(max(n, pool), size=n, replace=False)
    return X[pick], y[pick]


def _small(params):
    """The data of the optimum and invariance checks: Fig. 2.20's, iris, wine."""
    X, y = _gaussians(params)
    out = {FIG: (X, y)}
    for name in ("iris", "wine"):
        Xd, yd, _ = _load(name)
        out[name] = (Xd, yd)
    return out


# ---- groups ---------------------------------------------------------------------------
def _case(objective, dataset, d, eigen, best, sense, params, n_random) -> dict:
    return {"objective": objective, "dataset": dataset, "d": d, "eigen": float(eigen),
            "best_random": float(best[0]), "best_optimiser": float(best[1]), "sense": sense,
            "n_random": int(n_random), "n_starts": params["n_starts"]}


def _optima(params) -> dict:
    rng = np.random.default_rng([params["seed"], 221])
    data, unavailable = _small(params), {}
    try:
        data["mnist"] = _mnist_subsample(params["mnist_n_samples"], [params["seed"], 2211])
    except ExpectedFailure as exc:
        unavailable["mnist"] = str(exc)
    cases = []
    for name, (X, y) in data.items():
        X = np.asarray(X, dtype=np.float64)
        Xc = X - X.mean(axis=0)
        C = Xc.T @ Xc / len(X)
        D = X.shape[1]
        n_random = params["mnist_n_random"] if name == "mnist" else params["n_random"]
        components, _ = pca_map(X, None)
        p = components[0]
        best = rayleigh_best(C, np.eye(D), n_random, params["n_starts"], rng)
        cases.append(_case("pca", name, 1, p @ C @ p, best, "max", params, n_random))
        if name != FIG:
            for d in range(1, min(params["max_subspace_dimension"], D - 1) + 1):
                Q = components[:d].T
                found = frame_best(C, Xc, d, n_random, params["n_starts"], rng)
                cases.append(_case("subspace_variance", name, d, np.trace(Q.T @ C @ Q),
                                   found["variance"], "max", params, n_random))
                cases.append(_case("reconstruction", name, d, reconstruction_error(Xc, Q),
                                   found["error"], "min", params, n_random))
        if name == "mnist":
            continue
        Cb, Cw = between_covariance(X, y), within_chunklet_covariance(X, y)
        w = lda_directions(X, y)[0]
        best = rayleigh_best(Cb, Cw, n_random, params["n_starts"], rng)
        cases.append(_case("lda", name, 1, (w @ Cb @ w) / (w @ Cw @ w), best, "max", params,
                           n_random))
        chunks = make_chunklets(y)
        A = rca_map(X, chunks, None)[0]
        Cw_chunks = within_chunklet_covariance(X, chunks)
        best = rca_objective_best(Cw_chunks, min(n_random, 2000), params["n_starts"], rng)
        cases.append(_case("rca", name, D, _det_one_trace(A.T @ A, Cw_chunks), best, "min",
                           params, min(n_random, 2000)))
    return {"cases": cases, "unavailable": unavailable}


def circle_extrema(values) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the strict local minima and maxima of a periodic sequence."""
    prev, nxt = np.roll(values, 1), np.roll(values, -1)
    return (np.flatnonzero((values < prev) & (values <= nxt)),
            np.flatnonzero((values > prev) & (values >= nxt)))


def _circle(params) -> dict:
    X, y = _gaussians(params)
    theta = np.linspace(0.0, 2 * math.pi, params["circle_grid"], endpoint=False)
    U = np.column_stack([np.cos(theta), np.sin(theta)])
    Xc = X - X.mean(axis=0)
    C = Xc.T @ Xc / len(X)
    values, vectors = np.linalg.eigh(C)
    minima, _ = circle_extrema(_rayleigh(U, C, np.eye(2)))
    pca_angle = max((angle_degrees(U[i], vectors[:, 0]) for i in minima), default=float("nan"))
    Cb, Cw = between_covariance(X, y), within_chunklet_covariance(X, y)
    lows, highs = circle_extrema(_rayleigh(U, Cb, Cw))
    eig = np.real(np.linalg.eig(np.linalg.solve(Cw, Cb))[1])
    extrema = np.concatenate([lows, highs])
    lda_angle = max((min(angle_degrees(U[i], eig[:, j]) for j in range(2)) for i in extrema),
                    default=float("nan"))
    return {"grid": params["circle_grid"], "pca_local_minima": len(minima),
            "pca_minima_angle_degrees": pca_angle, "c_min_eigenvalue": float(values[0]),
            "c_max_eigenvalue": float(values[-1]), "lda_extrema": len(extrema),
            "lda_max_angle_degrees": lda_angle}


def _split(n, y, rng, share=0.7):
    """A stratified random split: training and test indices."""
    train = []
    for c in np.unique(y):
        members = rng.permutation(np.flatnonzero(y == c))
        train += list(members[: int(round(share * len(members)))])
    train = np.sort(np.array(train))
    return train, np.setdiff1d(np.arange(n), train)


def _lda_projection(X, y, r):
    return lda_directions(X, y)[:r]


def _component_deviation(Z, Z2) -> float:
    """Largest deviation of ``Z2`` from ``Z`` after the best scale per component,
    relative to the component's largest value."""
    worst = 0.0
    for a, b in zip(Z.T, Z2.T):
        s = (a @ b) / (a @ a)
        worst = max(worst, float(np.max(np.abs(b - s * a)) / np.max(np.abs(b))))
    return worst


def paired_summary(a, b) -> dict:
    """Mean of ``a - b``, its standard error and paired t-tests (``a`` greater, less,
    two-sided) over the draws."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    diff = a - b
    se = float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else float("nan")
    if np.allclose(diff, diff[0]):
        p = {"greater": float("nan"), "less": float("nan"), "two-sided": float("nan")}
    else:
        p = {alt: float(scipy.stats.ttest_rel(a, b, alternative=alt).pvalue)
             for alt in ("greater", "less", "two-sided")}
    return {"n": len(diff), "mean_a": float(a.mean()), "mean_b": float(b.mean()),
            "mean_difference": float(diff.mean()), "se_difference": se,
            "p_greater": p["greater"], "p_less": p["less"], "p_two_sided": p["two-sided"]}


def _invariance(params) -> dict:
    data = _small(params)
    rng = np.random.default_rng([params["seed"], 222])
    j, factor, k = params["rescaled_dimension"], params["rescale_factor"], params["n_neighbors"]
    whitening, lda_scale, pca_scale = {}, {}, {}
    for name, (X, y) in data.items():
        X = np.asarray(X, dtype=np.float64)
        mu = X.mean(axis=0)
        C = (X - mu).T @ (X - mu) / len(X)
        w, V = np.linalg.eigh(C)
        W = (V / np.sqrt(w)) @ V.T
        eye = np.eye(len(C))
        Z = (X - mu) @ W
        whitening[name] = {
            "centred_max_deviation": float(np.abs(Z.T @ Z / len(X) - eye).max()),
            "uncentred_max_deviation": float(np.abs(W @ X.T @ X @ W / len(X) - eye).max())}
        scale = np.ones(X.shape[1])
        scale[j % X.shape[1]] = factor
        tr, te = _split(len(X), y, rng)
        r = len(np.unique(y)) - 1
        L1 = _lda_projection(X[tr], y[tr], r)
        L2 = _lda_projection(X[tr] * scale, y[tr], r)
        pred1 = knn_predict(X[tr] @ L1.T, y[tr], X[te] @ L1.T, k)
        pred2 = knn_predict((X[tr] * scale) @ L2.T, y[tr], (X[te] * scale) @ L2.T, k)
        Cb, Cw = between_covariance(X, y), within_chunklet_covariance(X, y)
        P = rng.standard_normal((100, X.shape[1]))
        c = rng.uniform(0.01, 100.0, (100, 1))
        lda_scale[name] = {
            "n_test": int(len(te)), "n_changed_predictions": int(np.sum(pred1 != pred2)),
            "max_component_deviation": _component_deviation(X @ L1.T, (X * scale) @ L2.T),
            "p_scale_relative_deviation": float(np.max(np.abs(
                _rayleigh(c * P, Cb, Cw) / _rayleigh(P, Cb, Cw) - 1)))}
        if name in ("iris", "wine"):
            m = params["pca_scale_components"]
            V1 = pca_map(X, m)[0]
            V2 = pca_map(X * scale, m)[0] * scale  # the input-space map of PCA after scaling
            pca_scale[name] = {"largest_angle_degrees": float(np.degrees(
                scipy.linalg.subspace_angles(V1.T, V2.T).max()))}
    X, y = data["wine"]
    errors = ([], [])
    for _ in range(params["n_splits"]):
        tr, te = _split(len(X), y, rng)
        for out, Xs in zip(errors, (X, X * scale)):
            V = pca_map(Xs[tr], params["pca_scale_components"])[0]
            mean = Xs[tr].mean(axis=0)
            pred = knn_predict((Xs[tr] - mean) @ V.T, y[tr], (Xs[te] - mean) @ V.T, k)
            out.append(100.0 * float(np.mean(pred != y[te])))
    knn = paired_summary(errors[1], errors[0])
    knn.update(mean_error=knn["mean_b"], mean_error_rescaled=knn["mean_a"])
    return {"whitening": whitening, "lda_scale": lda_scale, "pca_scale": pca_scale,
            "pca_knn": knn, "rescaled_dimension": j, "rescale_factor": factor,
            "pca_scale_components": params["pca_scale_components"]}


def _cw_case(X, y) -> dict:
    Cw = within_chunklet_covariance(X, y)
    values = np.linalg.eigvalsh(Cw)
    return {"n": int(len(X)), "d": int(X.shape[1]), "n_classes": int(len(np.unique(y))),
            "rank": int(np.sum(values > 1e-10 * values[-1])),
            "min_over_max": float(values[0] / values[-1])}


def _singular(params) -> dict:
    cases, unavailable = {}, {}
    try:
        X, y, _ = _load("olivetti", n_components=None)
        rng = np.random.default_rng([params["seed"], 2231])
        train = np.concatenate([rng.permutation(np.flatnonzero(y == c))[:7] for c in np.unique(y)])
        cases["olivetti"] = _cw_case(X[train], y[train])
    except ExpectedFailure as exc:
        unavailable["olivetti"] = str(exc)
    try:
        cases["mnist"] = _cw_case(*_mnist_subsample(params["singular_mnist_n_samples"],
                                                    [params["seed"], 2232]))
    except ExpectedFailure as exc:
        unavailable["mnist"] = str(exc)
    return {"cases": cases, "unavailable": unavailable}


def _cpu_per_call(fn, min_seconds: float = 0.05, best_of: int = 3) -> float:
    """CPU seconds of one call of ``fn``: the calls of a loop of at least
    ``min_seconds`` (small problems are timed over many calls), the best of
    ``best_of`` loops."""
    best = math.inf
    for _ in range(best_of):
        calls, start = 0, cpu_clock()
        while True:
            fn()
            calls += 1
            spent = cpu_clock() - start
            if spent >= min_seconds:
                break
        best = min(best, spent / calls)
    return best


def _median_cpu(fn, repeats: int) -> float:
    """The median over ``repeats`` of :func:`_cpu_per_call` (a loop of at least 0.05 s
    each, so that a call shorter than the clock's resolution is still measured)."""
    return float(np.median([_cpu_per_call(fn, best_of=1) for _ in range(repeats)]))


def _rca_profile(X, chunks) -> dict:
    """CPU seconds of one ``rca_map(X, chunks)`` (PCA keeping every component, then the
    whitening, 2.24) and of its two decompositions alone, on the same matrices: the SVD
    of the centred data that :func:`harness.methods.pca_knn.pca_map` computes (scikit-learn's
    full solver) and the eigen-decomposition of C_w_hat."""
    total = _cpu_per_call(lambda: rca_map(X, chunks, None))
    A, A_pca, _ = rca_map(X, chunks, None)
    Xc = X - X.mean(axis=0)
    C_hat = A_pca @ within_chunklet_covariance(X, chunks) @ A_pca.T
    eig = (_cpu_per_call(lambda: scipy.linalg.svd(Xc, full_matrices=False))
           + _cpu_per_call(lambda: np.linalg.eigh(C_hat)))
    rest = max(total - eig, 1e-12)
    return {"eig_seconds": eig, "total_seconds": total, "share": min(eig / total, 1.0),
            "eig_over_rest": eig / rest}


def _rca_timing(params) -> dict:
    rng = np.random.default_rng([params["seed"], 224])
    speedup = []
    for d in params["timing_dimensions"]:
        Y = rng.standard_normal((d + 100, d))
        C = np.cov(Y, rowvar=False)

        def by_eigh():
            w, V = np.linalg.eigh(C)
            return (V / np.sqrt(w)) @ V.T

        def by_sqrtm():
            return scipy.linalg.inv(scipy.linalg.sqrtm(C))

        e, s = (_median_cpu(fn, params["timing_repeats"]) for fn in (by_eigh, by_sqrtm))
        speedup.append({"d": d, "eigh_seconds": e, "sqrtm_seconds": s,
                        "ratio": s / max(e, 1e-9),
                        "max_difference": float(np.abs(by_eigh() - np.real(by_sqrtm())).max())})
    bottleneck, unavailable = {}, {}
    for name in params["bottleneck_datasets"]:
        extra = ({"n_train": params["bottleneck_mnist_n_samples"], "n_test": 1}
                 if name == "mnist" else {})
        try:
            X, y, data = _load(name, n_components=None, **extra)
        except ExpectedFailure as exc:
            unavailable[name] = str(exc)
            continue
        split = data.meta.get("split_protocol") or {}
        if isinstance(split, dict) and split.get("predefined_n_train"):
            X, y = X[: split["predefined_n_train"]], y[: split["predefined_n_train"]]
        X = np.asarray(X.toarray() if hasattr(X, "toarray") else X, dtype=np.float64)
        try:
            bottleneck[name] = {"n": int(len(X)), "d": int(X.shape[1]),
                                **_rca_profile(X, make_chunklets(y))}
        except ValueError as exc:
            unavailable[name] = f"RCA failed: {exc}"
    return {"speedup": speedup, "repeats": params["timing_repeats"], "bottleneck": bottleneck,
            "unavailable": unavailable}


def _rca_noise(params) -> dict:
    g = params["gaussians"]
    m, var, k = params["noise_dimensions"], params["noise_variance"], params["n_neighbors"]
    draws = []
    for t in range(params["n_draws"]):
        rng = np.random.default_rng([params["seed"], 225, t])
        X, y = _gaussians(params, t)
        Xt, yt = _gaussians(params, 10000 + t)
        Xt = Xt[: params["n_test"]]
        yt = yt[: params["n_test"]]
        X = np.column_stack([X, rng.normal(0.0, math.sqrt(var), (len(X), m))])
        Xt = np.column_stack([Xt, rng.normal(0.0, math.sqrt(var), (len(Xt), m))])
        chunks = make_chunklets(y, g["rca_chunklet_fraction"], g["rca_chunklet_size"],
                                [params["seed"], t])
        A_full = rca_map(X, chunks, None)[0]
        A_trunc = rca_map(X, chunks, 2)[0]
        within = np.diag(within_chunklet_covariance(X, y))
        noise = [float(np.sum(A_full[:, 2 + i] ** 2) * within[2 + i]) for i in range(m)]
        errors = [100.0 * float(np.mean(knn_predict(X @ A.T, y, Xt @ A.T, k) != yt))
                  for A in (A_full, A_trunc)]
        draws.append({"noise_within_variance": noise, "error_untruncated": errors[0],
                      "error_truncated": errors[1]})
    values = [v for d in draws for v in d["noise_within_variance"]]
    return {"draws": draws, "noise_dimensions": m, "noise_variance": var,
            "noise_variance_min": min(values), "noise_variance_max": max(values),
            "comparison": paired_summary([d["error_untruncated"] for d in draws],
                                      [d["error_truncated"] for d in draws])}


def xor_clusters(n: int, separation: float, std, rng):
    """``n`` points of four Gaussian clusters at (+-s, +-s), class 0 at (s, s) and
    (-s, -s), class 1 at the others; the labels and the cluster ids."""
    means = separation * np.array([[1, 1], [-1, -1], [1, -1], [-1, 1]], dtype=float)
    cluster = rng.integers(0, 4, n)
    X = means[cluster] + rng.standard_normal((n, 2)) * np.asarray(std, dtype=float)
    return X, (cluster >= 2).astype(int), cluster


def _multimodal(params) -> dict:
    k = params["n_neighbors"]
    lmnn_cls = registry.get_method("lmnn")
    rows = []
    for t in range(params["n_draws"]):
        rng = np.random.default_rng([params["seed"], 226, t])
        X, y, cluster = xor_clusters(params["multimodal_n_train"],
                                     params["multimodal_separation"],
                                     params["multimodal_std"], rng)
        Xt, yt, _ = xor_clusters(params["n_test"], params["multimodal_separation"],
                                 params["multimodal_std"], rng)
        chunks = make_chunklets(cluster, params["gaussians"]["rca_chunklet_fraction"],
                                params["gaussians"]["rca_chunklet_size"], [params["seed"], t])
        maps = {"euclidean": np.eye(2), "rca": rca_map(X, chunks, None)[0],
                "lda": lda_directions(X, y)[:1]}
        row = {m: 100.0 * float(np.mean(knn_predict(X @ A.T, y, Xt @ A.T, k) != yt))
               for m, A in maps.items()}
        row["lmnn"] = 100.0 * float(np.mean(lmnn_cls(n_neighbors=k).fit(X, y).predict(Xt) != yt))
        rows.append(row)

    def pair(a, b):
        return paired_summary([r[a] for r in rows], [r[b] for r in rows])
    return {"draws": rows, "comparisons": {"rca_vs_euclidean": pair("rca", "euclidean"),
                                       "rca_vs_lda": pair("rca", "lda"),
                                       "lda_vs_euclidean": pair("lda", "euclidean"),
                                       "lmnn_vs_euclidean": pair("lmnn", "euclidean")}}


def lda_boundary(w, b, side: float = 10.0, columns: int = 2000) -> dict:
    """The line ``w . x + b = 0`` (class 1 where positive) against the half-square's
    Bayes boundary ``y = side / 2``: its angle to the horizontal (degrees), its height
    at ``x = side / 2`` and the probability that a uniform point is misclassified
    (exact per column, midpoint rule along x)."""
    w0, w1 = float(w[0]), float(w[1])
    half = side / 2.0
    angle = math.degrees(math.atan2(abs(w0), abs(w1)))
    if w1 == 0.0:
        return {"angle": 90.0, "height": math.inf, "error": 0.5}
    x = (np.arange(columns) + 0.5) * side / columns
    yb = np.clip(-(w0 * x + b) / w1, 0.0, side)
    wrong = np.abs(yb - half) if w1 > 0 else side - np.abs(yb - half)
    return {"angle": angle, "height": -(w0 * half + b) / w1,
            "error": float(np.mean(wrong) / side)}


def _half_square(params) -> dict:
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

    square = registry.get_dataset("half_square")()
    sizes = []
    for n in params["half_square_sizes"]:
        boundary_ok = error_ok = 0
        angles, heights, errors = [], [], []
        for r in range(params["half_square_runs"]):
            seed = int(np.random.SeedSequence([params["seed"], 227, n, r]).generate_state(1)[0])
            data = square.load(n_samples=n, seed=seed)
            if len(np.unique(data.y)) < 2:
                angles.append(90.0)
                heights.append(math.inf)
                errors.append(0.5)
                continue
            lda = LinearDiscriminantAnalysis(solver="svd").fit(data.X, data.y)
            line = lda_boundary(lda.coef_[0], lda.intercept_[0])
            angles.append(line["angle"])
            heights.append(line["height"])
            errors.append(line["error"])
            boundary_ok += (line["angle"] <= params["half_square_degrees"]
                            and abs(line["height"] - 5.0) <= params["half_square_offset"])
            error_ok += line["error"] < params["half_square_error"]
        runs = params["half_square_runs"]
        test = scipy.stats.binomtest
        sizes.append({"n": n, "runs": runs, "boundary_ok": int(boundary_ok),
                      "error_ok": int(error_ok),
                      "p_boundary_most": float(test(boundary_ok, runs, 0.5, "greater").pvalue),
                      "p_boundary_fewer": float(test(boundary_ok, runs, 0.5, "less").pvalue),
                      "p_error_most": float(test(error_ok, runs, 0.5, "greater").pvalue),
                      "p_error_fewer": float(test(error_ok, runs, 0.5, "less").pvalue),
                      "median_angle": float(np.median(angles)),
                      "median_offset": float(np.median(np.abs(np.array(heights) - 5.0))),
                      "median_error": float(np.median(errors))})
    return {"sizes": sizes, "degrees": params["half_square_degrees"],
            "offset": params["half_square_offset"], "error": params["half_square_error"]}


GROUPS = {"optima": _optima, "circle": _circle, "invariance": _invariance,
          "singular": _singular, "rca_timing": _rca_timing, "rca_noise": _rca_noise,
          "multimodal": _multimodal, "half_square": _half_square}


def work(params: dict) -> dict:
    """The child's work for one group; returns the record body."""
    with threadpool_limits(limits=params["blas_threads"]):
        start = cpu_clock()
        body = GROUPS[params["group"]](params)
    return {"status": "ok", "reason": "", **body,
            "group_cpu_seconds": cpu_clock() - start}
