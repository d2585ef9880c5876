"""One job of the section 2.2.2 checks (thesis lines 1156-1225): MMC ([92], the
problem of line 1164) and POLA ([74], eqs. 2.28-2.30 and the batch loop of line 1213).

Groups (``params["group"]``): ``split`` (one data set, random splits: k-means ARI and
kNN test error under Euclidean, MMC, POLA, LMNN), ``multimodal`` (XOR and ring
clusters), ``exact`` (MMC's problem solved to a certified optimum: square root,
bounds, input scale, diagonal variant), ``timing`` (MMC's fit against PCA, RCA, LDA),
``feasibility`` (POLA's margin over all pairs as an SDP; batch POLA's passes),
``scaling`` (one POLA pass against the number of MNIST pairs).
"""

from __future__ import annotations

import math

import numpy as np
from threadpoolctl import threadpool_limits

from harness import registry
from harness.metrics.knn_error import knn_predict
from harness.results.fig_2_20.work import angle_degrees, lda_directions, two_gaussians
from harness.results.linear_methods_2_2_1.work import (
    _median_cpu, _split, paired_summary, xor_clusters,
)
from harness.results.mmc_pola.mmc import (
    generalized_top_direction, mmc_objective, pair_differences, sample_pairs, similar_sum,
    solve_mmc,
)
from harness.results.mmc_pola.pola import batch_pola, metric_map
from harness.methods.pca_knn import pca_map
from harness.methods.rca_knn import rca_map
from harness.timelimit import cpu_clock

__all__ = ["ring_clusters", "collapse_ratio", "rank_of", "fit_metric_learn_mmc",
           "fit_maps", "work"]


# ---- data ---------------------------------------------------------------------------
def _load(name: str, **kwargs):
    """A registered data set (the plugin's defaults and the ``kwargs`` it takes); the
    labels as codes 0 .. L - 1."""
    plugin = registry.get_dataset(name)
    kwargs = {k: v for k, v in kwargs.items() if k in plugin.params}
    data = plugin().load(**{**plugin.params, **kwargs})
    return (np.asarray(data.X, dtype=np.float64),
            np.unique(np.asarray(data.y), return_inverse=True)[1].astype(np.int64))


def _dataset(name: str, params: dict):
    if name == "fig_2_20":
        return two_gaussians({**params["gaussians"], "seed": params["seed"], "trial": 0})[:2]
    return _load(name)


def ring_clusters(n: int, clusters: int, radius: float, std: float, rng):
    """``n`` points of ``clusters`` Gaussian clusters (std ``std``) centred on a circle
    of ``radius``, the classes alternating around it (cluster c has class c mod 2)."""
    angles = 2 * math.pi * np.arange(clusters) / clusters
    means = radius * np.column_stack([np.cos(angles), np.sin(angles)])
    cluster = rng.integers(0, clusters, n)
    return means[cluster] + std * rng.standard_normal((n, 2)), cluster % 2


def _multimodal_draw(config: str, n: int, params: dict, rng):
    if config == "xor":
        X, y, _ = xor_clusters(n, params["xor_separation"], params["xor_std"], rng)
        return X, y
    return ring_clusters(n, params["ring_clusters"], params["ring_radius"],
                         params["ring_std"], rng)


# ---- metrics ------------------------------------------------------------------------
def fit_metric_learn_mmc(D, same, max_iter: int, seed) -> np.ndarray:
    """metric-learn's MMC (Xing et al.'s projected gradient, full matrix) on the pair
    differences: pairs ``(x_ij, 0)`` labelled +1 (similar) / -1; returns ``M``."""
    from metric_learn import MMC

    from harness.methods.shared.peer import peer_call

    pairs = np.stack([D, np.zeros_like(D)], axis=1)
    with peer_call("metric_learn"):
        model = MMC(max_iter=max_iter, random_state=seed).fit(pairs, np.where(same == 1, 1, -1))
    return np.asarray(model.get_mahalanobis_matrix())


def fit_maps(X, y, params: dict, seed) -> tuple[dict, dict]:
    """The linear maps ``L`` (distances under ``M = L^T L``) learned on ``(X, y)``:
    Euclidean, MMC (the profile's ``mmc_solver``; the other solver as ``mmc_other``),
    POLA and LMNN; and each fit's CPU seconds."""
    rng = np.random.default_rng(seed)
    i, j = sample_pairs(y, params["max_pairs"], rng)
    D, same = pair_differences(X, y, i, j)
    maps, seconds = {"euclidean": np.eye(X.shape[1])}, {}
    start = cpu_clock()
    ml = metric_map(fit_metric_learn_mmc(D, same, params["mmc_max_iter"], 0))
    seconds["mmc_metric_learn"] = cpu_clock() - start
    start = cpu_clock()
    exact = metric_map(solve_mmc(D, same, seed=0)["M"])
    seconds["mmc_exact"] = cpu_clock() - start
    maps["mmc"], maps["mmc_other"] = ((ml, exact) if params["mmc_solver"] == "metric_learn"
                                      else (exact, ml))
    start = cpu_clock()
    pola = batch_pola(D, 2.0 * same - 1.0, beta=params["pola_beta"],
                      max_passes=params["pola_max_passes"], seed=[*np.atleast_1d(seed), 1],
                      b_floor=params["pola_b_floor"])
    seconds["pola"] = cpu_clock() - start
    maps["pola"] = metric_map(pola["M"])
    start = cpu_clock()
    lmnn = registry.get_method("lmnn")(n_neighbors=params["n_neighbors"]).fit(X, y)
    seconds["lmnn"] = cpu_clock() - start
    maps["lmnn"] = np.asarray(lmnn.components_) if hasattr(lmnn, "components_") else None
    return maps, {"seconds": seconds, "pola_passes": pola["passes"],
                  "pola_converged": pola["converged"], "lmnn": lmnn}


def _standardise(X, Xt, on: bool):
    if not on:
        return X, Xt
    mean, std = X.mean(axis=0), X.std(axis=0)
    std[std == 0] = 1.0
    return (X - mean) / std, (Xt - mean) / std


def _knn_errors(maps, extra, X, y, Xt, yt, k) -> dict:
    out = {}
    for m, L in maps.items():
        if m == "lmnn" and L is None:
            pred = extra["lmnn"].predict(Xt)
        else:
            pred = knn_predict(X @ L.T, y, Xt @ L.T, k)
        out[m] = 100.0 * float(np.mean(pred != yt))
    return out


def collapse_ratio(Z, y) -> float:
    """Mean squared distance of the same-class pairs over that of the different-class
    pairs of the points ``Z``."""
    sq = np.sum((Z[:, None, :] - Z[None, :, :]) ** 2, axis=-1)
    same = y[:, None] == y[None, :]
    off = ~np.eye(len(y), dtype=bool)
    return float(sq[same & off].mean() / sq[~same].mean())


# ---- groups -------------------------------------------------------------------------
def _split_group(params) -> dict:
    from sklearn.cluster import KMeans
    from sklearn.metrics import adjusted_rand_score

    name = params["split_dataset"]
    X_all, y_all = _dataset(name, params)
    n_classes = len(np.unique(y_all))
    rows = []
    for s in range(params["n_splits"]):
        rng = np.random.default_rng([params["seed"], 2220, s])
        train, test = _split(len(y_all), y_all, rng, params["train_share"])
        X, Xt = _standardise(X_all[train], X_all[test], params["standardize"])
        y, yt = y_all[train], y_all[test]
        maps, extra = fit_maps(X, y, params, [params["seed"], 2221, s])
        if maps["lmnn"] is None:
            raise RuntimeError("the lmnn plugin exposes no components_")
        ari = {}
        for m, L in maps.items():
            km = KMeans(n_clusters=n_classes, n_init=params["kmeans_n_init"],
                        random_state=int(np.random.SeedSequence([params["seed"], 2222, s])
                                         .generate_state(1)[0]))
            ari[m] = float(adjusted_rand_score(yt, km.fit_predict(Xt @ L.T)))
        rows.append({"split": s, "ari": ari,
                     "knn": _knn_errors(maps, extra, X, y, Xt, yt, params["n_neighbors"]),
                     "fit_seconds": extra["seconds"], "pola_passes": extra["pola_passes"],
                     "pola_converged": extra["pola_converged"]})

    def pair(what, a, b):
        return paired_summary([r[what][a] for r in rows], [r[what][b] for r in rows])
    return {"dataset": name, "n_classes": n_classes, "splits": rows,
            "comparisons": {"ari_mmc_euclidean": pair("ari", "mmc", "euclidean"),
                            "ari_pola_euclidean": pair("ari", "pola", "euclidean"),
                            "ari_mmc_other_euclidean": pair("ari", "mmc_other", "euclidean"),
                            "knn_lmnn_mmc": pair("knn", "lmnn", "mmc"),
                            "knn_mmc_euclidean": pair("knn", "mmc", "euclidean")}}


def _multimodal_group(params) -> dict:
    out = {}
    for config in params["configurations"]:
        rows = []
        for t in range(params["n_draws"]):
            rng = np.random.default_rng([params["seed"], 2223, t])
            X, y = _multimodal_draw(config, params["multimodal_n_train"], params, rng)
            Xt, yt = _multimodal_draw(config, params["n_test"], params, rng)
            X, Xt = _standardise(X, Xt, params["standardize"])
            maps, extra = fit_maps(X, y, params, [params["seed"], 2224, t])
            row = {"knn": _knn_errors(maps, extra, X, y, Xt, yt, params["n_neighbors"]),
                   "collapse": {m: collapse_ratio(X @ maps[m].T, y)
                                for m in ("euclidean", "mmc", "pola")}}
            rows.append(row)

        def pair(a, b):
            return paired_summary([r["knn"][a] for r in rows], [r["knn"][b] for r in rows])
        ratio_mmc = float(np.mean([r["collapse"]["mmc"] for r in rows]))
        ratio_euc = float(np.mean([r["collapse"]["euclidean"] for r in rows]))
        out[config] = {"draws": rows, "collapse_ratio_mmc": ratio_mmc,
                       "collapse_ratio_euclidean": ratio_euc,
                       "collapse_change": ratio_mmc / ratio_euc - 1.0,
                       "collapse_drop": params["collapse_drop"],
                       "comparisons": {"knn_mmc_euclidean": pair("mmc", "euclidean"),
                                       "knn_mmc_lmnn": pair("mmc", "lmnn"),
                                       "knn_pola_euclidean": pair("pola", "euclidean"),
                                       "knn_mmc_other_euclidean": pair("mmc_other", "euclidean")}}
    return {"configurations": out}


def rank_of(M, tolerance: float) -> int:
    """Eigenvalues of ``M`` above ``tolerance`` x its largest."""
    w = np.linalg.eigvalsh(M)
    return int(np.sum(w > tolerance * w[-1]))


def _leading(M) -> np.ndarray:
    return np.linalg.eigh(M)[1][:, -1]


def _exact_group(params) -> dict:
    tol = params["rank_tolerance"]
    cases = {}
    for name in params["exact_datasets"]:
        X, y = _dataset(name, params)
        D, same = pair_differences(X, y, *np.triu_indices(len(y), k=1))
        lda_pair = generalized_top_direction(D, same)
        case = {"n_pairs": int(len(D)), "lda_classic_to_pairwise_degrees":
                angle_degrees(lda_directions(X, y)[0], lda_pair)}
        solved = {}
        for key, sqrt in (("sqrt", True), ("nosqrt", False)):
            r = solve_mmc(D, same, sqrt=sqrt, seed=[params["seed"], 2225])
            solved[key] = r
            case[key] = {"value": r["value"], "constraint": r["constraint"],
                         "relative_gap": r["relative_gap"], "rank": rank_of(r["M"], tol),
                         "angle_to_lda_pairwise": angle_degrees(_leading(r["M"]), lda_pair)}
        bounds, gaps = {}, [solved["sqrt"]["relative_gap"]]
        for c in params["bounds"]:
            r = solve_mmc(D, same, bound=c, seed=[params["seed"], 2226, int(1000 * c)])
            M1 = solved["sqrt"]["M"]
            bounds[f"{c:g}"] = float(np.linalg.norm(r["M"] / c - M1) / np.linalg.norm(M1))
            gaps.append(r["relative_gap"])
        case["bounds"], case["bound_gap_max"] = bounds, float(max(gaps))
        cases[name] = case
    rng = np.random.default_rng([params["seed"], 2227])
    # the scale of M: the objective at c M over at M (by construction sqrt(c))
    Xi, yi = _dataset("iris", params)
    Di, si = pair_differences(Xi, yi, *np.triu_indices(len(yi), k=1))
    A = rng.standard_normal((Xi.shape[1], Xi.shape[1]))
    M = A @ A.T
    scale_of_M = {"c": 4.0, "ratio": mmc_objective(Di, si, 4.0 * M) / mmc_objective(Di, si, M)}
    # input rescaling: kNN predictions under the certified MMC with and without one
    # dimension multiplied by the factor
    rescale = {}
    for name in ("iris", "wine"):
        X_all, y_all = _load(name)
        shares = []
        for s in range(params["scale_splits"]):
            srng = np.random.default_rng([params["seed"], 2228, s])
            train, test = _split(len(y_all), y_all, srng, params["train_share"])
            preds = []
            for factor in (1.0, params["rescale_factor"]):
                Xs = X_all.copy()
                Xs[:, params["rescaled_dimension"]] *= factor
                X, Xt, y = Xs[train], Xs[test], y_all[train]
                D, same = pair_differences(X, y, *np.triu_indices(len(y), k=1))
                L = metric_map(solve_mmc(D, same, seed=[params["seed"], 2229, s])["M"])
                preds.append(knn_predict(X @ L.T, y, Xt @ L.T, params["n_neighbors"]))
            shares.append(float(np.mean(preds[0] != preds[1])))
        rescale[name] = {"differing_share": shares, "max_differing_share": max(shares),
                         "dimension": params["rescaled_dimension"],
                         "factor": params["rescale_factor"], "splits": params["scale_splits"]}
    # the diagonal variant
    m1, m2 = rng.uniform(0, 1, Xi.shape[1]), rng.uniform(0, 1, Xi.shape[1])
    f1, f2, fm = (mmc_objective(Di, si, m) for m in (m1, m2, (m1 + m2) / 2))
    lp = {}
    for name in ("iris", "wine"):
        X, y = _load(name)
        D, same = pair_differences(X, y, *np.triu_indices(len(y), k=1))
        convex = solve_mmc(D, same, diagonal=True, seed=[params["seed"], 2230])
        m_lp = _diagonal_lp(D, same)
        value = mmc_objective(D, same, m_lp)
        best = max(convex["value"], value)
        lp[name] = {"lp_value": value, "optimum": convex["value"],
                    "relative_shortfall": (best - value) / best,
                    "gap": convex["relative_gap"], "lp_constraint": similar_sum(D, same, m_lp)}
    diagonal = {"f_m1": f1, "f_m2": f2, "f_mid": fm,
                "affine_deviation": abs(fm - (f1 + f2) / 2) / abs(fm), "lp": lp}
    return {"cases": cases, "scale_of_M": scale_of_M, "rescale": rescale, "diagonal": diagonal}


def _diagonal_lp(D, same) -> np.ndarray:
    """The LP on the diagonal variant's (linear) constraint set: maximise the objective
    without its square root, ``sum_D (x o x) . m``, s.t. ``sum_S (x o x) . m <= 1``,
    ``m >= 0`` (scipy's HiGHS)."""
    import scipy.optimize

    c = -np.sum(D[same == 0] ** 2, axis=0)
    a = np.sum(D[same == 1] ** 2, axis=0)
    res = scipy.optimize.linprog(c, A_ub=a[None, :], b_ub=[1.0], bounds=(0, None),
                                 method="highs")
    return np.asarray(res.x)


def _timing_group(params) -> dict:
    out = {}
    for name in params["timing_datasets"]:
        X, y = _load(name)
        rng = np.random.default_rng([params["seed"], 2231])
        D, same = pair_differences(X, y, *sample_pairs(y, params["max_pairs"], rng))
        if params["mmc_solver"] == "metric_learn":
            def mmc():
                fit_metric_learn_mmc(D, same, params["mmc_max_iter"], 0)
        else:
            def mmc():
                solve_mmc(D, same, seed=0)
        row = {"mmc_seconds": _median_cpu(mmc, params["timing_repeats"]),
               "pca_seconds": _median_cpu(lambda: pca_map(X), params["timing_repeats"]),
               "rca_seconds": _median_cpu(lambda: rca_map(X, y, None), params["timing_repeats"]),
               "lda_seconds": _median_cpu(lambda: lda_directions(X, y), params["timing_repeats"]),
               "n_pairs": int(len(D))}
        row["ratio"] = row["mmc_seconds"] / max(row["pca_seconds"], row["rca_seconds"],
                                                 row["lda_seconds"])
        out[name] = row
    return {"datasets": out, "repeats": params["timing_repeats"]}


def _margin_feasible(D, same) -> str:
    """The status of the SDP feasibility problem of POLA's constraints (2.28) over the
    pairs: ``y (b - x^T M x) >= 1``, ``M >= 0`` (cvxpy + Clarabel)."""
    import cvxpy as cp

    d = D.shape[1]
    M, b = cp.Variable((d, d), PSD=True), cp.Variable()
    K = np.einsum("ij,ik->ijk", D, D).reshape(len(D), d * d)
    yy = 2.0 * same - 1.0
    problem = cp.Problem(cp.Minimize(0), [cp.multiply(yy, b - K @ cp.vec(M, order="C")) >= 1])
    problem.solve(solver="CLARABEL")
    return str(problem.status)


def _feasibility_group(params) -> dict:
    out = {}
    for name in params["feasibility_datasets"]:
        rng = np.random.default_rng([params["seed"], 2232])
        if name == "separable":
            n = params["separable_n"]
            y = np.repeat([0, 1], [n // 2, n - n // 2])
            X = 0.5 * rng.standard_normal((n, 2))
            X[:, 0] += (y - 0.5) * params["separable_distance"]
        elif name == "xor":
            X, y, _ = xor_clusters(params["multimodal_n_train"], params["xor_separation"],
                                   params["xor_std"], rng)
        else:
            X, y = _load(name)
        if params["standardize"]:
            X = _standardise(X, X, True)[0]
        D, same = pair_differences(X, y, *sample_pairs(y, params["feasibility_max_pairs"], rng))
        status = _margin_feasible(D, same)
        feasible = status in ("optimal", "optimal_inaccurate")
        passes = params["pola_bound_passes"] if feasible else params["pola_infeasible_passes"]
        start = cpu_clock()
        pola = batch_pola(D, 2.0 * same - 1.0, beta=params["pola_beta"], max_passes=passes,
                          seed=[params["seed"], 2233], b_floor=params["pola_b_floor"])
        out[name] = {"status": status, "feasible": feasible, "n_pairs": int(len(D)),
                     "passes": pola["passes"], "converged": pola["converged"],
                     "last_pass_max_loss": pola["last_pass_max_loss"],
                     "final_max_loss": pola["final_max_loss"],
                     "pola_seconds": cpu_clock() - start}
    return {"datasets": out, "beta": params["pola_beta"]}


def _pass_problem(X, y, pairs: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """``pairs`` random pairs' differences and their +-1 labels."""
    i = rng.integers(0, len(y), pairs)
    j = rng.integers(0, len(y), pairs)
    D, same = pair_differences(X, y, i, j)
    return D, 2.0 * same - 1.0


def _one_pass_seconds(problem, b_floor) -> float:
    D, labels = problem
    start = cpu_clock()
    batch_pola(D, labels, beta=0.0, max_passes=1, seed=0, b_floor=b_floor)
    return cpu_clock() - start


def _scaling_group(params) -> dict:
    batch_pola(np.ones((2, 2)), np.array([1.0, -1.0]), max_passes=1)  # compile first
    out = {"components": params["scaling_components"], "sizes": []}
    X, y = _load("mnist", n_components=params["scaling_components"],
                 n_train=params["mnist_n_train"], n_test=1)
    X, y = X[: params["mnist_n_train"]], y[: params["mnist_n_train"]]
    rng = np.random.default_rng([params["seed"], 2234])
    problems = [_pass_problem(X, y, pairs, rng) for pairs in params["scaling_sizes"]]
    # the repeats go round the sizes (not size by size), so a change of the machine's
    # load during the job reaches every size and shows in the spread the slope's noise
    # is measured from
    repeats = [[] for _ in problems]
    for _ in range(params["scaling_repeats"]):
        for times, problem in zip(repeats, problems):
            times.append(_one_pass_seconds(problem, params["pola_b_floor"]))
    for pairs, times in zip(params["scaling_sizes"], repeats):
        out["sizes"].append({"pairs": int(pairs), "seconds": float(np.median(times)),
                             "repeat_seconds": times})
    if params["large_pairs"]:
        X, y = _load("mnist", n_components=params["large_components"],
                     n_train=params["mnist_n_train"], n_test=1)
        X, y = X[: params["mnist_n_train"]], y[: params["mnist_n_train"]]
        out["large"] = {"pairs": int(params["large_pairs"]),
                        "components": params["large_components"],
                        "seconds": _one_pass_seconds(
                            _pass_problem(X, y, params["large_pairs"], rng),
                            params["pola_b_floor"])}
    return out


GROUPS = {"split": _split_group, "multimodal": _multimodal_group, "exact": _exact_group,
          "timing": _timing_group, "feasibility": _feasibility_group,
          "scaling": _scaling_group}


def work(params: dict) -> dict:
    """The child's work for one group; returns the record body."""
    with threadpool_limits(limits=params["blas_threads"]):
        start = cpu_clock()
        body = GROUPS[params["group"]](params)
    return {"status": "ok", "reason": "", **body,
            "group_cpu_seconds": cpu_clock() - start}
