r"""One job of Fig. 3.2 (thesis 3.1.2): random projections and the Johnson-Lindenstrauss
lemma.

The thesis' map (3.1): a unit vector ``x`` of R^d is projected onto its first k
coordinates, ``x_p``, and rescaled, ``f_k(x) = sqrt(d / k) x_p``, so that
``E ||f_k(x)||^2 = (d / k) E ||x_p||^2 = 1``. The lemma's dimension for n points and
distortion eps is ``k = ceil(4 (eps^2 / 2 - eps^3 / 3)^-1 ln n)`` (3.1.2, after [24]).

- :func:`histogram_work`: N uniform unit vectors of R^d (normalised Gaussians), their
  ``||x_p||^2`` and ``||f_k(x)||^2`` for every k: means with standard errors, the
  standard deviation with a bootstrap standard error, the fraction within
  ``near_width`` of 1 with its binomial standard error, and the histograms.
- :func:`all_pairs_work`: n points (Gaussian in R^d, or MNIST images), projected by
  ``G / sqrt(k)`` with ``G`` a d x k standard Gaussian matrix to the lemma's k for
  each eps; per draw whether every pairwise squared distance stays within
  ``[1 - eps, 1 + eps]`` times its original.
- :func:`dimension_work`: the smallest k (on a geometric grid) for which at least a
  fraction ``success`` of the draws keep every pairwise squared distance within
  ``1 +- eps``.
- :func:`tail_work`: Monte Carlo of ``P(| ||f_k(x)||^2 - 1 | > eps)`` at the lemma's k,
  with a Clopper-Pearson interval, beside the exact Beta tail.
- :func:`real_data_work`: the median relative distortion ``|d_proj / d_orig - 1|`` of
  MNIST's pairwise distances after a random projection.

**The projection, computed exactly in a smaller space.** With the thin QR factorisation
``X^T = Q R`` (``Q``: d x m orthonormal, m = min(d, n)), ``X G = R^T (Q^T G)`` and
``Q^T G`` is again an m x k standard Gaussian matrix (the Gaussian is rotation
invariant): the projected points are distributed exactly as ``R^T H / sqrt(k)`` with
``H`` m x k standard Gaussian. Each draw costs ``n m k`` instead of ``n d k``.
Nested projections (the first k columns of one ``H``) give every k of a draw at once
(:func:`_max_distortions`).
"""

from __future__ import annotations

import math

import numpy as np
import scipy.linalg
import scipy.stats

from harness import registry
from harness.results.common.work.keyed_work import keyed_work

__all__ = ["jl_dimension", "unit_vectors", "histogram_work", "all_pairs_work",
           "dimension_work", "tail_work", "real_data_work", "k_grid", "work"]


def jl_dimension(n: int, eps: float) -> int:
    """The lemma's target dimension ``ceil(4 (eps^2/2 - eps^3/3)^-1 ln n)`` (3.1.2)."""
    return int(math.ceil(4.0 * math.log(n) / (eps**2 / 2.0 - eps**3 / 3.0)))


def unit_vectors(rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    """``n`` vectors drawn uniformly from the unit sphere of R^d (normalised Gaussians)."""
    X = rng.standard_normal((n, d))
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def _bootstrap_std_se(values: np.ndarray, resamples: int, rng: np.random.Generator) -> float:
    stds = [np.std(values[rng.integers(0, len(values), len(values))]) for _ in range(resamples)]
    return float(np.std(stds, ddof=1))


def histogram_work(p: dict, rng: np.random.Generator) -> dict:
    """Fig. 3.2 right: ``||x_p||^2`` and ``||f_k(x)||^2`` of ``n`` unit vectors."""
    d, n = p["dimension"], p["n"]
    X = unit_vectors(rng, n, d)
    cumulative = np.cumsum(X**2, axis=1)
    edges = np.linspace(0.0, 4.0, p["bins"] + 1)
    rows = []
    for k in p["ks"]:
        projected = cumulative[:, k - 1]
        mapped = projected * d / k
        near = float(np.mean(np.abs(mapped - 1.0) < p["near_width"]))
        counts, _ = np.histogram(mapped, bins=edges)
        rows.append({
            "k": k, "d": d, "n": n, "expected_projected": k / d,
            "mean_projected": float(projected.mean()),
            "se_projected": float(projected.std(ddof=1) / math.sqrt(n)),
            "mean_mapped": float(mapped.mean()),
            "se_mapped": float(mapped.std(ddof=1) / math.sqrt(n)),
            "std_mapped": float(mapped.std()),
            "se_std_mapped": _bootstrap_std_se(mapped, p["bootstrap"], rng),
            "near_fraction": near, "se_near_fraction": math.sqrt(near * (1 - near) / n),
            "histogram": counts.tolist(), "beyond_histogram": int((mapped >= edges[-1]).sum()),
        })
    return {"rows": rows, "bin_edges": edges.tolist()}


def _points(p: dict, rng: np.random.Generator) -> np.ndarray:
    """``n`` points: Gaussian in R^``input_dimension``, or ``n`` MNIST training images
    drawn without replacement (raises the plugin's DataUnavailableError without the
    data)."""
    if p["points"] == "gaussian":
        return rng.standard_normal((p["n"], p["input_dimension"]))
    data = registry.get_dataset(p["points"])().load(**p["dataset_params"])
    if p["n"] > data.n_samples:
        raise ValueError(f"n = {p['n']} > the {data.n_samples} points of {p['points']}")
    rows = np.sort(rng.choice(data.n_samples, size=p["n"], replace=False))
    return np.asarray(data.X[rows], dtype=float)


def _factor(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``R^T`` of the thin QR ``X^T = Q R`` (n x m) and the original squared pairwise
    distances (upper triangle, i < j)."""
    R = scipy.linalg.qr(X.T, mode="economic")[1]
    Rt = np.ascontiguousarray(R.T)
    sq = np.einsum("ij,ij->i", X, X)
    iu = np.triu_indices(len(X), 1)
    original = (sq[:, None] + sq[None, :] - 2.0 * (X @ X.T))[iu]
    return Rt, original


def _max_distortions(Rt: np.ndarray, original: np.ndarray, ks: list[int],
                     rng: np.random.Generator) -> np.ndarray:
    """One draw, nested: ``max_{i<j} | ||y_i - y_j||^2 / ||x_i - x_j||^2 - 1 |`` for the
    projection onto the first k columns of one Gaussian ``H``, for every k in ``ks``
    (ascending)."""
    n, m = Rt.shape
    iu = np.triu_indices(n, 1)
    gram = np.zeros((n, n))
    out, done = np.empty(len(ks)), 0
    for index, k in enumerate(ks):
        Y = Rt @ rng.standard_normal((m, k - done))
        gram += Y @ Y.T
        done = k
        g = np.diag(gram)
        projected = (g[:, None] + g[None, :] - 2.0 * gram)[iu] / k
        out[index] = float(np.max(np.abs(projected / original - 1.0)))
    return out


def all_pairs_work(p: dict, rng: np.random.Generator) -> dict:
    """Every pairwise distance of ``n`` points after ``draws`` random projections to
    the lemma's k for each eps."""
    X = _points(p, rng)
    Rt, original = _factor(X)
    eps = sorted(p["eps"], reverse=True)  # ascending k
    ks = [jl_dimension(p["n"], e) for e in eps]
    worst = np.array([_max_distortions(Rt, original, ks, rng) for _ in range(p["draws"])])
    rows = []
    for j, (e, k) in enumerate(zip(eps, ks)):
        kept = worst[:, j] <= e
        rows.append({"eps": e, "k": k, "n": p["n"], "d": X.shape[1], "draws": p["draws"],
                     "kept_fraction": float(kept.mean()), "required": 1.0 - 1.0 / p["n"],
                     "se_required": math.sqrt((1.0 / p["n"]) * (1 - 1.0 / p["n"]) / p["draws"]),
                     "worst_distortion_max": float(worst[:, j].max()),
                     "worst_distortion_median": float(np.median(worst[:, j]))})
    return {"rows": rows}


def k_grid(k_max: int, step: float) -> list[int]:
    """The geometric grid 1, ..., ``k_max`` with relative step ``step`` (integers,
    distinct, ``k_max`` included)."""
    grid, k = [], 1.0
    while k < k_max:
        grid.append(int(round(k)))
        k = max(k * (1.0 + step), k + 1.0)
    return sorted(set(grid) | {k_max})


def dimension_work(p: dict, rng: np.random.Generator) -> dict:
    """The smallest k on :func:`k_grid` whose draws keep every distance within
    ``1 +- eps`` in at least ``success`` of them; the grid ends at the lemma's k of the
    smallest eps (NaN when even that k is not enough)."""
    n = p["n"]
    X = rng.standard_normal((n, p["input_dimension"]))
    Rt, original = _factor(X)
    grid = k_grid(jl_dimension(n, min(p["eps"])), p["grid_step"])
    worst = np.array([_max_distortions(Rt, original, grid, rng) for _ in range(p["draws"])])
    rows = []
    for e in p["eps"]:
        fraction = (worst <= e).mean(axis=0)
        ok = np.flatnonzero(fraction >= p["success"])
        rows.append({"eps": e, "n": n, "draws": p["draws"], "lemma_k": jl_dimension(n, e),
                     "smallest_k": float(grid[ok[0]]) if len(ok) else float("nan"),
                     "grid_max": grid[-1]})
    return {"rows": rows}


def tail_work(p: dict, rng: np.random.Generator) -> dict:
    """``P(| ||f_k(x)||^2 - 1 | > eps)`` for uniform unit ``x`` of R^d at the lemma's k:
    Monte Carlo through ``||x_p||^2 = A / (A + B)``, ``A ~ chi^2_k``, ``B ~ chi^2_{d-k}``
    (exact in distribution), with its Clopper-Pearson interval; and the exact tail of
    ``||x_p||^2 ~ Beta(k/2, (d-k)/2)``."""
    d, samples, level = p["dimension"], p["samples"], p["level"]
    rows = []
    for e in p["eps"]:
        for n in p["n"]:
            k = jl_dimension(n, e)
            if k >= d:
                rows.append({"eps": e, "n": n, "k": k, "d": d, "status": "k >= d"})
                continue
            a = rng.chisquare(k, samples)
            mapped = a / (a + rng.chisquare(d - k, samples)) * d / k
            outside = int(np.sum(np.abs(mapped - 1.0) > e))
            interval = scipy.stats.binomtest(outside, samples).proportion_ci(level, "exact")
            beta = scipy.stats.beta(k / 2.0, (d - k) / 2.0)
            exact = float(beta.cdf((1 - e) * k / d) + beta.sf((1 + e) * k / d))
            rows.append({"eps": e, "n": n, "k": k, "d": d, "samples": samples,
                         "outside": outside, "bound": 1.0 / n**2,
                         "ci_low": float(interval.low), "ci_high": float(interval.high),
                         "exact_tail": exact, "decidable": samples >= 10 * n**2,
                         "status": "ok"})
    return {"rows": rows}


def real_data_work(p: dict, rng: np.random.Generator) -> dict:
    """Median relative distortion of the pairwise distances (not squared) of
    ``n_points`` images after a scaled Gaussian projection to each k."""
    X = _points({**p, "points": p["dataset"], "n": p["n_points"]}, rng)
    Rt, original = _factor(X)
    keep = original > 0
    rows = []
    for k in p["ks"]:
        medians = []
        for _ in range(p["draws"]):
            Y = Rt @ rng.standard_normal((Rt.shape[1], k)) / math.sqrt(k)
            sq = np.einsum("ij,ij->i", Y, Y)
            projected = (sq[:, None] + sq[None, :] - 2.0 * (Y @ Y.T))[np.triu_indices(len(Y), 1)]
            ratio = np.sqrt(np.clip(projected[keep], 0, None) / original[keep])
            medians.append(float(np.median(np.abs(ratio - 1.0))))
        rows.append({"k": k, "n": len(X), "d": X.shape[1], "draws": p["draws"],
                     "median_distortion": float(np.median(medians)),
                     "median_distortion_max": float(np.max(medians))})
    return {"rows": rows}


_WORK = {"histogram": histogram_work, "all_pairs": all_pairs_work,
         "dimension": dimension_work, "tail": tail_work, "real_data": real_data_work}


def work(params: dict) -> dict:
    """The child's work for one job; returns the record body."""
    return keyed_work(params, _WORK)
