"""One job of the section 3.1.2-3.1.3 checks: a group of numerical checks of
multidimensional scaling (thesis eqs. 3.2-3.6) and of Fig. 3.4's geodesics.

Every check compares two independently computed numbers:

- ``classical``: classical MDS (the top-r eigenvectors of ``G = -1/2 H D H`` scaled by
  ``sqrt(lambda)``, eq. 3.5) against PCA's scores (:func:`harness.methods.pca_knn.pca_map`,
  an SVD of the centred inputs), the non-zero eigenvalues of ``G`` against those of
  ``C = 1/n sum x x^T`` (a separate eigen-decomposition), and the eigen solution's
  ``S'`` (3.4) against scipy's L-BFGS-B on ``S'`` from random starts. The residual
  ``||G - Y Y^T||_F^2`` is recorded beside ``sum_{i>r} lambda_i^2`` (an identity of the
  decomposition: shown, not counted).
- ``subspace``: PCA's eigenvalues above a share of the trace for noisy inputs in a random
  d-dimensional subspace.
- ``metric``: metric MDS' loss (3.2) *as printed*, with ``D_ij`` the **squared**
  distances (the "S-stress" of Takane et al.), minimised by L-BFGS-B with its analytic
  gradient from random starts; final losses of converged runs compared.
- ``nonmetric``: non-metric MDS by scikit-learn's SMACOF with isotonic regression
  (``MDS(metric_mds=False)``) from random starts and from classical MDS; every embedding is
  scored by the thesis' stress-1 (3.6) *as printed* -- ``min_f sum (f(||y_i - y_j||) -
  sqrt(D_ij))^2 / sum D_ij`` with ``f`` weakly increasing, fitted here by isotonic
  regression of the input distances on the output distances -- and by the Spearman
  correlation of input and output distances.
- ``order``: for random symmetric dissimilarity matrices, classical MDS in ``n - 1``
  dimensions of ``D + c (e e^T - I)`` with ``c`` the smallest shift making ``G``
  positive semidefinite (times :data:`SHIFT_FACTOR`): the strict order of its pairwise
  distances against that of ``D`` (Agarwal et al.'s existence claim, exhibited).
- ``us_cities``: Fig. 3.3, classical MDS of the great-circle ("flight") distances of the
  ``us_cities`` gazetteer's cities in two dimensions against their equal-area map
  (:func:`harness.datasets.us_cities.albers_conus`), by the residual of a similarity
  Procrustes fit (rotation or reflection, scale, shift) relative to the map's variance.
- ``geodesic``: on a noise-free Swiss roll, geodesic distances from the generating
  parameters -- the roll is developable, so the geodesic between two points is the
  Euclidean distance of ``(s(t), h)`` with ``s`` the spiral's arc length
  (:func:`harness.datasets.swiss_roll.spiral_arc_length`) -- against Euclidean ones.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.optimize
import scipy.spatial.distance
import scipy.stats
from sklearn.isotonic import IsotonicRegression
from sklearn.manifold import MDS
from threadpoolctl import threadpool_limits

from harness import registry
from harness.datasets.swiss_roll import spiral_arc_length
from harness.methods.pca_knn import pca_map
from harness.metrics.alignment import procrustes_residual
from harness.plugin import ExpectedFailure
from harness.timelimit import cpu_clock

__all__ = ["classical_mds", "gram_from_squared", "sstress", "stress_one", "spearman",
           "order_preserving_embedding", "swiss_roll_geodesics", "lbfgs_classical",
           "lbfgs_sstress", "work", "sources"]


# ---- the formulas ---------------------------------------------------------------------
def gram_from_squared(D2: np.ndarray) -> np.ndarray:
    """``G = -1/2 H D H`` with ``H = I - e e^T / n`` (line 1340), from squared
    distances ``D2``."""
    D2 = np.asarray(D2, dtype=np.float64)
    row = D2.mean(axis=0)
    return -0.5 * (D2 - row[None, :] - row[:, None] + row.mean())


def classical_mds(G: np.ndarray, r: int) -> tuple[np.ndarray, np.ndarray]:
    """``(Y, eigenvalues)``: ``Y = [sqrt(l_1) u_1, ..., sqrt(l_r) u_r]`` (eq. 3.5's
    minimiser) and every eigenvalue of ``G``, in decreasing order."""
    values, vectors = np.linalg.eigh(G)
    values, vectors = values[::-1], vectors[:, ::-1]
    return vectors[:, :r] * np.sqrt(np.clip(values[:r], 0.0, None)), values


def sstress(Y: np.ndarray, D2: np.ndarray) -> tuple[float, np.ndarray]:
    """Eq. (3.2), ``sum_ij [D_ij - ||y_i - y_j||^2]^2`` over ordered pairs, and its
    gradient with respect to ``Y`` (``-8 sum_j R_ij (y_i - y_j)``, ``R = D - ||.||^2``)."""
    sq = np.sum(Y * Y, axis=1)
    R = D2 - (sq[:, None] + sq[None, :] - 2.0 * Y @ Y.T)
    grad = -8.0 * (R.sum(axis=1)[:, None] * Y - R @ Y)
    return float(np.sum(R * R)), grad


def lbfgs_sstress(D2: np.ndarray, r: int, starts: int, gtol: float, max_iter: int,
                  rng) -> list[dict]:
    """L-BFGS-B on (3.2) normalised by ``sum D_ij^2`` from ``starts`` random starts
    (Gaussian, scaled to the data's spread): each run's final normalised loss, largest
    gradient entry and whether it converged (that entry below ``gtol``)."""
    norm = float(np.sum(D2 * D2))
    n = len(D2)
    spread = np.sqrt(D2.mean() / (2.0 * r))

    def f(y):
        value, grad = sstress(y.reshape(n, r), D2)
        return value / norm, grad.ravel() / norm

    runs = []
    for _ in range(starts):
        res = scipy.optimize.minimize(f, spread * rng.standard_normal(n * r), jac=True,
                                      method="L-BFGS-B",
                                      options={"maxiter": max_iter, "ftol": 0.0, "gtol": gtol,
                                               "maxfun": 2 * max_iter})
        g = float(np.max(np.abs(f(res.x)[1])))
        runs.append({"loss": float(res.fun), "max_gradient": g, "converged": bool(g < gtol),
                     "iterations": int(res.nit)})
    return runs


def lbfgs_classical(G: np.ndarray, r: int, starts: int, rng) -> list[float]:
    """``S'(Y) = ||G - Y Y^T||_F^2`` (3.4) reached by L-BFGS-B (analytic gradient
    ``4 (Y Y^T - G) Y``) from ``starts`` random Gaussian starts."""
    n = len(G)
    scale = np.sqrt(max(np.trace(G), 1e-300) / (n * r))

    def f(y):
        Y = y.reshape(n, r)
        E = Y @ Y.T - G
        return float(np.sum(E * E)), (4.0 * E @ Y).ravel()

    out = []
    for _ in range(starts):
        res = scipy.optimize.minimize(f, scale * rng.standard_normal(n * r), jac=True,
                                      method="L-BFGS-B",
                                      options={"maxiter": 20000, "ftol": 1e-15, "gtol": 1e-12,
                                               "maxfun": 40000})
        out.append(float(res.fun))
    return out


def stress_one(Y: np.ndarray, D2_condensed: np.ndarray) -> float:
    """Kruskal's stress-1 as eq. (3.6) prints it: ``min_f sum (f(||y_i - y_j||) -
    sqrt(D_ij))^2 / sum D_ij`` over weakly increasing ``f`` (isotonic regression of the
    input distances on the output distances), pairs ``i < j`` (condensed ``D2``)."""
    d_out = scipy.spatial.distance.pdist(Y)
    d_in = np.sqrt(np.asarray(D2_condensed, dtype=np.float64))
    fitted = IsotonicRegression(increasing=True).fit_transform(d_out, d_in)
    return float(np.sum((fitted - d_in) ** 2) / np.sum(D2_condensed))


def spearman(Y: np.ndarray, D2_condensed: np.ndarray) -> float:
    """Spearman correlation of the input dissimilarities with the output distances."""
    return float(scipy.stats.spearmanr(D2_condensed, scipy.spatial.distance.pdist(Y))[0])


#: the shift of :func:`order_preserving_embedding`, a factor above the smallest PSD one
SHIFT_FACTOR = 1.01


def order_preserving_embedding(D: np.ndarray, factor: float = SHIFT_FACTOR
                               ) -> tuple[np.ndarray, float]:
    """``(Y, c)``: classical MDS in ``n - 1`` dimensions of ``D + c (e e^T - I)`` (``D``
    read as squared dissimilarities), ``c`` ``factor`` times the smallest shift that
    makes ``G`` positive semidefinite (``-1/2 H (e e^T - I) H = H / 2``, so ``c = -2
    lambda_min(G(D))``)."""
    n = len(D)
    low = float(np.linalg.eigvalsh(gram_from_squared(D))[0])
    c = factor * max(-2.0 * low, 0.0) + 1e-12
    shifted = D + c * (np.ones((n, n)) - np.eye(n))
    Y, _ = classical_mds(gram_from_squared(shifted), n - 1)
    return Y, c


def swiss_roll_geodesics(t: np.ndarray, h: np.ndarray) -> np.ndarray:
    """Condensed geodesic distances on the roll ``(t cos t, h, t sin t)``: Euclidean in
    the unrolled coordinates ``(s(t), h)``."""
    return scipy.spatial.distance.pdist(np.column_stack([spiral_arc_length(t), h]))


# ---- data -----------------------------------------------------------------------------
def _dataset(name: str, n: int, params: dict, seed_offset: int):
    """``(X, extra)`` of a group's data set: the noise-free Swiss roll (``extra`` its
    ``(t, h)``), random Gaussian data, a seeded MNIST training subsample (deskewed
    pixels) or the 400 Olivetti faces. Raises ExpectedFailure when the data cannot be
    had."""
    seed = int(np.random.SeedSequence([params["seed"], 312, seed_offset]).generate_state(1)[0])
    if name == "gaussian":
        return np.random.default_rng(seed).standard_normal((n, params["gaussian_dimension"])), None
    if name == "swiss_roll":
        data = registry.get_dataset("swiss_roll")().load(n_samples=n, noise=0.0, seed=seed)
        return data.X, (np.asarray(data.y), data.X[:, 1])
    plugin = registry.get_dataset(name)
    if name == "mnist":
        data = plugin().load(**{**plugin.params, "n_components": None, "n_train": 10000,
                                "n_test": 1})
        pick = np.random.default_rng(seed).choice(len(data.X), size=n, replace=False)
        return np.asarray(data.X, dtype=np.float64)[pick], None
    data = plugin().load(**plugin.params)
    return np.asarray(data.X, dtype=np.float64), None


def _each_dataset(names, n: int, params: dict, fn) -> dict:
    """``{"cases": {name: fn(X, extra)}, "unavailable": {name: reason}}``."""
    cases, unavailable = {}, {}
    for i, name in enumerate(names):
        try:
            X, extra = _dataset(name, n, params, i)
        except ExpectedFailure as exc:
            unavailable[name] = str(exc)
            continue
        cases[name] = {"n": int(len(X)), "p": int(X.shape[1]), **fn(name, X, extra)}
    return {"cases": cases, "unavailable": unavailable}


def _squared(X: np.ndarray) -> np.ndarray:
    return scipy.spatial.distance.squareform(scipy.spatial.distance.pdist(X, "sqeuclidean"))


# ---- the groups -------------------------------------------------------------------------
def _coordinate_deviation(Y_mds, Z_pca, values, r: int, tie_gap: float) -> tuple[float, int]:
    """Largest ``|Y - Z|`` over the untied dimensions, each aligned in sign, relative to
    the largest |coordinate|; and how many dimensions were compared."""
    worst, compared = 0.0, 0
    scale = max(float(np.max(np.abs(Z_pca))), 1e-300)
    for j in range(r):
        gaps = [abs(values[j] - values[i]) / max(abs(values[j]), 1e-300)
                for i in (j - 1, j + 1) if 0 <= i < len(values)]
        if min(gaps) < tie_gap:
            continue
        a, b = Y_mds[:, j], Z_pca[:, j]
        sign = 1.0 if a @ b >= 0 else -1.0
        worst = max(worst, float(np.max(np.abs(a - sign * b))) / scale)
        compared += 1
    return worst, compared


def _classical(params) -> dict:
    rng = np.random.default_rng(np.random.SeedSequence([params["seed"], 3120]))

    def one(name, X, extra):
        Xc = X - X.mean(axis=0)
        n = len(X)
        r_pca = min(params["pca_dimension"], *X.shape)  # the Swiss roll has p = 3
        G = gram_from_squared(_squared(X))
        r_max = max([r_pca, *params["classical_dimensions"], *params["residual_dimensions"]])
        Y, values = classical_mds(G, min(r_max, n))
        # PCA by SVD of the centred inputs: scores and C's eigenvalues, independently
        components, _ = pca_map(X, r_pca)
        Z = Xc @ components.T
        c_values = np.linalg.eigvalsh(Xc.T @ Xc / n)[::-1]
        threshold = 1e-10 * max(values[0], 1e-300)
        rank_g = int(np.sum(values > threshold))
        rank_c = int(np.sum(c_values > 1e-10 * max(c_values[0], 1e-300)))
        common = min(rank_g, rank_c)
        ratios = values[:common] / c_values[:common]
        # against n C's eigenvalues: per eigenvalue, and relative to G's largest (the
        # scale of the 1e-10 rank threshold; an eigenvalue at 1e-10 of the largest
        # carries ~1e-6 relative rounding in double precision)
        scaled_gap = np.abs(values[:common] - n * c_values[:common]) / values[0]
        deviation, compared = _coordinate_deviation(Y, Z, values, r_pca, params["tie_gap"])
        residuals = []
        for r in params["residual_dimensions"]:
            E = G - Y[:, :r] @ Y[:, :r].T
            residuals.append({"r": r, "residual": float(np.sum(E * E)),
                              "discarded_squared": float(np.sum(values[r:] ** 2))})
        optima = []
        for r in params["classical_dimensions"]:
            Yr = Y[:, :r]
            E = G - Yr @ Yr.T
            eigen = float(np.sum(E * E))
            found = lbfgs_classical(G, r, params["classical_starts"], rng)
            best = min(found)
            # relative to S' itself, floored at 1e-12 ||G||_F^2 (S' is 0 at r >= rank G)
            floor = max(abs(eigen), 1e-12 * float(np.sum(G * G)))
            optima.append({"r": r, "eigen": eigen, "best_optimiser": best,
                           "median_optimiser": float(np.median(found)),
                           "advantage": (best - eigen) / floor, "starts": len(found)})
        return {"rank_gram": rank_g, "rank_covariance": rank_c,
                "ratio_min": float(ratios.min()), "ratio_max": float(ratios.max()),
                "ratio_expected": float(n),
                "ratio_deviation": float(np.max(np.abs(ratios / n - 1.0))),
                "scaled_deviation": float(np.max(scaled_gap)),
                "pca_dimension": r_pca, "pca_dimensions_compared": compared,
                "pca_max_deviation": deviation, "residuals": residuals, "optima": optima}

    return _each_dataset(params["classical_datasets"], params["classical_n_samples"], params, one)


def _subspace(params) -> dict:
    rng = np.random.default_rng(np.random.SeedSequence([params["seed"], 3121]))
    p, n = params["subspace_ambient"], params["subspace_n_samples"]
    rows = []
    for d in params["subspace_dimensions"]:
        counts = []
        for _ in range(params["subspace_draws"]):
            basis = np.linalg.qr(rng.standard_normal((p, d)))[0]
            X = rng.standard_normal((n, d)) @ basis.T
            X += params["subspace_noise_ratio"] * rng.standard_normal((n, p))
            Xc = X - X.mean(axis=0)
            values = np.linalg.eigvalsh(Xc.T @ Xc / n)[::-1]
            counts.append(int(np.sum(values > params["subspace_share"] * values.sum())))
        rows.append({"d": d, "counts": counts, "correct": int(sum(c == d for c in counts)),
                     "draws": len(counts)})
    return {"dimensions": rows, "ambient": p, "n": n,
            "noise_ratio": params["subspace_noise_ratio"], "share": params["subspace_share"]}


def _metric(params) -> dict:
    rng = np.random.default_rng(np.random.SeedSequence([params["seed"], 3122]))

    def one(name, X, extra):
        D2 = _squared(X)
        D2 = D2 / D2.mean()  # scale-free; (3.2)'s minimisers scale with sqrt(D)
        runs = lbfgs_sstress(D2, 2, params["metric_starts"], params["metric_gtol"],
                             params["metric_max_iter"], rng)
        losses = [r["loss"] for r in runs if r["converged"]]
        spread = (max(losses) / min(losses) - 1.0) if len(losses) >= 2 else float("nan")
        return {"runs": runs, "converged": len(losses), "starts": len(runs),
                "best_loss": min(losses) if losses else float("nan"),
                "worst_loss": max(losses) if losses else float("nan"),
                "relative_spread": spread,
                "distinct_values": _distinct(losses, 0.01)}

    return _each_dataset(params["metric_datasets"], params["metric_n_samples"], params, one)


def _distinct(values, rel: float) -> int:
    """How many values remain after merging those within ``rel`` (relative) of the
    last kept one, in increasing order."""
    kept = []
    for v in sorted(values):
        if not kept or v > kept[-1] * (1.0 + rel):
            kept.append(v)
    return len(kept)


def _nonmetric(params) -> dict:
    rng = np.random.default_rng(np.random.SeedSequence([params["seed"], 3123]))

    def smacof(D, init):
        model = MDS(n_components=2, metric_mds=False, n_init=1, init="random",
                    max_iter=params["nonmetric_max_iter"], eps=params["nonmetric_eps"],
                    metric="precomputed", normalized_stress="auto")
        return model.fit_transform(D, init=init)

    def one(name, X, extra):
        D2 = _squared(X)
        D2 = D2 / D2.mean()
        D = np.sqrt(D2)
        condensed = scipy.spatial.distance.squareform(D2, checks=False)
        Y_classical, _ = classical_mds(gram_from_squared(D2), 2)
        scale = float(np.std(Y_classical))
        random = []
        for _ in range(params["nonmetric_starts"]):
            Y = smacof(D, scale * rng.standard_normal((len(X), 2)))
            random.append({"stress_one": stress_one(Y, condensed), "spearman": spearman(Y, condensed)})
        Y = smacof(D, Y_classical)
        stresses = np.array([r["stress_one"] for r in random])
        order = np.argsort(stresses)
        median_run = random[int(order[(len(order) - 1) // 2])]
        return {"random": random,
                "random_best": float(stresses.min()), "random_median": float(np.median(stresses)),
                "random_worst": float(stresses.max()),
                "random_spread": float(stresses.max() / stresses.min() - 1.0),
                "median_run": median_run,
                "from_classical": {"stress_one": stress_one(Y, condensed),
                                   "spearman": spearman(Y, condensed)},
                "classical": {"stress_one": stress_one(Y_classical, condensed),
                              "spearman": spearman(Y_classical, condensed)}}

    return _each_dataset(params["nonmetric_datasets"], params["nonmetric_n_samples"], params, one)


def _order(params) -> dict:
    rng = np.random.default_rng(np.random.SeedSequence([params["seed"], 3124]))
    rows = []
    for n in params["order_sizes"]:
        violations, shifts = [], []
        for _ in range(params["order_matrices"]):
            A = rng.uniform(0.0, 1.0, (n, n))
            D = np.triu(A, 1)
            D = D + D.T
            Y, c = order_preserving_embedding(D)
            d_in = scipy.spatial.distance.squareform(D, checks=False)
            d_out = scipy.spatial.distance.pdist(Y)
            i, j = np.triu_indices(len(d_in), 1)
            strict = np.abs(d_in[i] - d_in[j]) > params["order_tie"]
            agree = np.sign(d_in[i] - d_in[j]) == np.sign(d_out[i] - d_out[j])
            violations.append(int(np.sum(strict & ~agree)))
            shifts.append(c)
        rows.append({"n": n, "matrices": len(violations),
                     "matrices_with_violation": int(sum(v > 0 for v in violations)),
                     "violated_pairs": int(sum(violations)),
                     "compared_pairs_per_matrix": int(len(d_in) * (len(d_in) - 1) // 2),
                     "median_shift": float(np.median(shifts))})
    return {"sizes": rows, "tie": params["order_tie"], "shift_factor": SHIFT_FACTOR}


def _geodesic(params) -> dict:
    rng = np.random.default_rng(np.random.SeedSequence([params["seed"], 3125]))
    X, (t, h) = _dataset("swiss_roll", params["geodesic_n_samples"], params, 99)
    euclid = scipy.spatial.distance.pdist(X)
    geo = swiss_roll_geodesics(t, h)
    ratio = geo / euclid
    n, k = len(X), params["geodesic_k"]
    square = scipy.spatial.distance.squareform(euclid)
    np.fill_diagonal(square, np.inf)
    neighbours = np.argsort(square, axis=1)[:, :k]
    geo_square = scipy.spatial.distance.squareform(geo)
    local = geo_square[np.arange(n)[:, None], neighbours] / square[np.arange(n)[:, None], neighbours]
    far = euclid >= np.quantile(euclid, 1.0 - params["geodesic_global_fraction"])
    edges = np.quantile(geo, np.linspace(0.0, 1.0, params["geodesic_bins"] + 1))
    which = np.clip(np.searchsorted(edges, geo, side="right") - 1, 0, params["geodesic_bins"] - 1)
    bins = []
    for b in range(params["geodesic_bins"]):
        inside = ratio[which == b]
        boots = [np.median(rng.choice(inside, size=len(inside)))
                 for _ in range(params["geodesic_bootstrap"])]
        bins.append({"low": float(edges[b]), "high": float(edges[b + 1]), "pairs": int(len(inside)),
                     "median_ratio": float(np.median(inside)), "se": float(np.std(boots, ddof=1))})
    return {"n": n, "k": k, "max_ratio": float(ratio.max()),
            "local_median_ratio": float(np.median(local)),
            "global_median_ratio": float(np.median(ratio[far])),
            "global_fraction": params["geodesic_global_fraction"], "bins": bins,
            "bootstrap": params["geodesic_bootstrap"]}


def _us_cities(params) -> dict:
    from harness.datasets.us_cities import albers_conus, great_circle_km

    data = registry.get_dataset("us_cities")().load(n_samples=params["us_cities_n_samples"])
    D = great_circle_km(data.X)
    Y, values = classical_mds(gram_from_squared(D * D), 2)
    residual, scale = procrustes_residual(Y, albers_conus(data.X))
    positive = values[values > 0].sum()
    return {"n": int(len(D)), "relative_residual": residual, "procrustes_scale": scale,
            "eigenvalue_shares": [float(v / positive) for v in values[:5]],
            "most_negative_share": float(values.min() / positive),
            "smallest_population": int(data.meta["smallest_population"])}


#: the data set plugins each group finds by name
DATASETS = {"classical": "classical_datasets", "metric": "metric_datasets",
            "nonmetric": "nonmetric_datasets"}


def sources(params: dict) -> list:
    """The data set plugins the job finds by name (an edit of one reruns it)."""
    names = {"swiss_roll"} | set(params.get(DATASETS.get(params["group"], ""), ()))
    if params["group"] == "us_cities":
        names.add("us_cities")
    return [registry.get_dataset(n) for n in sorted(names - {"gaussian"})]


GROUPS = {"classical": _classical, "subspace": _subspace, "metric": _metric,
          "nonmetric": _nonmetric, "order": _order, "geodesic": _geodesic,
          "us_cities": _us_cities}


def work(params: dict) -> dict:
    """The child's work for one group; returns the record body."""
    with threadpool_limits(limits=params["blas_threads"]):
        start = cpu_clock()
        body = GROUPS[params["group"]](params)
    return {"status": "ok", "reason": "", **body, "group_cpu_seconds": cpu_clock() - start}
