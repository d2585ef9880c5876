"""Table 3.2's Swiss-roll cells under the choices the thesis leaves open, measured on
either reading of its roll column: the roll of Section 3.1.5 (``swiss_roll_3_1_5``:
the 3-D roll plus five extra dimensions of N(0, 0.1^2) noise, p = 8) or the 3-D roll
(``swiss_roll``). Written for issue 52 to test whether the 3-D roll's measured
explanations (config/known_deviations.yaml, dataset swiss_roll) hold on the 3.1.5
roll.

Usage::

    OPENBLAS_NUM_THREADS=1 python scripts/roll_3_1_5_readings.py PART [READING]

PART is one of ``baseline``, ``pca``, ``pca_generators``, ``lap``, ``lle``, ``varmvu``; READING is
``swiss_roll_3_1_5`` (default) or ``swiss_roll``. n = 2000, l = 15, r = 2 and k = 15
as the full profile's table (config/full.yaml, ``table_3_2``). "Seed s" is the roll
generator's seed s (``SwissRoll().load(seed=s)``) together with the method's
``random_state = s``, as a table run with profile seed s; the reference run is seed 0.
Every method is called through :func:`harness.tasks.embedding.run_embedding`, as the
table job calls it, so seed 0 with the table's parameters reproduces the cell.

The grids, fixed before any result was seen (they are those the 3-D roll's entries
name, where those name one):

``baseline``
    The seven methods with the table's parameters, seed 0 (must equal the full run).
``pca``
    Seeds 0-199 (200 rolls, as the 3-D roll's entry): the covariance eigenvalues, the
    mean and standard deviation of C / T / N, the correlation of T and N, and how
    many rolls have T and N both within the table's tolerance (0.05) of the thesis'.
``pca_generators``
    ``pca`` on the plugin's two other roll generators (``drtoolbox``: height 30;
    ``arc_length``: uniform on the surface), seeds 0-199 each.
``lap``
    Seeds 0-9. Weightings: binary (ours), the heat kernel W = exp(-d^2 / t) for
    t in {0.5, 1, 2, 5, 10, 20, 50, 100} (the plugin's ``sigma = sqrt(t)``), each with
    the normalised (3.45, ours) and the unnormalised Laplacian, and scikit-learn's
    ``SpectralEmbedding`` (one-sided edges weighted 0.5).
``lle``
    Seeds 0-9. Local regulariser relative to the local Gram's trace (scikit-learn's,
    ours 1e-3) in {1e-3, 1e-4, 3e-5, 1e-5}, and absolute ``1e-3 I`` (Roweis' code
    when the trace is not used).
``varmvu``
    The four variational MVU rows, seed 0: k in {5, 15}, omega in {0.5, 0.9, 0.99,
    0.999}, penalty in {squared, norm}; then seeds 0-9 with the table's parameters.

Output: one line per setting, ``C / T / N`` (means over seeds and their standard
deviations where several seeds are run), and the thesis' values for comparison.
"""

from __future__ import annotations

import sys
import time
import warnings

import numpy as np
import scipy.sparse as sp

from harness.registry import get_dataset, get_method
from harness.tasks.embedding import run_embedding

N, L, R, K = 2000, 15, 2, 15
MEASURES = ("local_continuity", "local_trust", "neighborhood_intersection")
#: Table 3.2's Swiss-roll column (thesis), C / T / N
THESIS = {"pca": (0.836, 0.389, 0.397), "laplacian_eigenmaps": (0.659, 0.282, 0.274),
          "lle": (0.844, 0.173, 0.417), "var_mvu_lap": (0.784, 0.29, 0.665),
          "var_mvu_lle": (0.958, 0.672, 0.828), "var_mvu_cg_lap": (0.989, 0.208, 0.607),
          "var_mvu_cg_lle": (0.956, 0.6, 0.824)}
READINGS = {"swiss_roll_3_1_5": {"extra_noise_dims": 5, "extra_noise_std": 0.1},
            "swiss_roll": {}}
TOL = 0.05
SEEDS10 = range(10)


def roll(reading: str, seed: int):
    return get_dataset("swiss_roll")().load(n_samples=N, seed=seed, **READINGS[reading])


def cell(method: str, ds, seed: int, **params) -> np.ndarray:
    """C / T / N of one method on one roll, as the table job computes them."""
    mp = {"n_components": R} if method == "pca" else {"n_components": R, "n_neighbors": K}
    mp.update(params)
    out = run_embedding(get_method(method), ds, {"method_params": mp, "eval_neighbors": L},
                        seed)
    return np.array([out["measures"][m] for m in MEASURES])


def fmt(v) -> str:
    return " / ".join(f"{x:.3f}" for x in v)


def summary(rows: np.ndarray, thesis=None) -> str:
    """Mean (sd; range of T) over seeds; with ``thesis``, how many seeds match it."""
    rows = np.asarray(rows)
    if len(rows) == 1:
        return fmt(rows[0])
    return (f"{fmt(rows.mean(axis=0))} (sd {fmt(rows.std(axis=0, ddof=1))}; "
            f"T {rows[:, 1].min():.3f}-{rows[:, 1].max():.3f})"
            + ("" if thesis is None else f"; {_matches(rows, thesis)}"))


def part_baseline(reading: str) -> None:
    ds = roll(reading, 0)
    for method, thesis in THESIS.items():
        print(f"{method}: ours {fmt(cell(method, ds, 0))}  thesis {fmt(thesis)}")


def part_pca(reading: str, generator: str = "roweis") -> None:
    rows, eig = [], []
    for seed in range(200):
        ds = get_dataset("swiss_roll")().load(n_samples=N, seed=seed, generator=generator,
                                              **READINGS[reading])
        Xc = ds.X - ds.X.mean(axis=0)
        eig.append(np.sort(np.linalg.eigvalsh(Xc.T @ Xc / (len(Xc) - 1)))[::-1])
        rows.append(cell("pca", ds, seed))
    rows, eig = np.array(rows), np.array(eig)
    t, n = rows[:, 1], rows[:, 2]
    th = THESIS["pca"]
    both = (np.abs(t - th[1]) <= TOL) & (np.abs(n - th[2]) <= TOL)
    allthree = both & (np.abs(rows[:, 0] - th[0]) <= TOL)
    print(f"covariance eigenvalues, seed 0: {np.round(eig[0], 3).tolist()}")
    print(f"covariance eigenvalues, mean of 200: {np.round(eig.mean(axis=0), 3).tolist()}")
    print(f"seed 0: {fmt(rows[0])}")
    print(f"200 rolls: C {rows[:, 0].mean():.3f} +- {rows[:, 0].std(ddof=1):.3f}, "
          f"T {t.mean():.3f} +- {t.std(ddof=1):.3f} (range {t.min():.3f}-{t.max():.3f}), "
          f"N {n.mean():.3f} +- {n.std(ddof=1):.3f} (range {n.min():.3f}-{n.max():.3f}); "
          f"corr(T, N) {np.corrcoef(t, n)[0, 1]:.2f}")
    print(f"rolls with T and N within {TOL} of the thesis' {th[1]} / {th[2]}: "
          f"{int(both.sum())} of 200 (and C too: {int(allthree.sum())})")
    print(f"thesis T inside mean +- 1 sd: {abs(th[1] - t.mean()) <= t.std(ddof=1)}, "
          f"N: {abs(th[2] - n.mean()) <= n.std(ddof=1)}")
    slope, icept = np.polyfit(t, n, 1)
    resid = n - (icept + slope * t)
    print(f"least-squares line N = {icept:.3f} + ({slope:.3f}) T over the 200 rolls: at the "
          f"thesis' T = {th[1]} it gives N = {icept + slope * th[1]:.3f} (thesis {th[2]}); "
          f"residual sd {resid.std(ddof=2):.3f}")


def part_pca_generators(reading: str) -> None:
    for generator in ("drtoolbox", "arc_length"):
        print(f"## generator {generator}")
        part_pca(reading, generator)


def _spectral(ds, seed: int, weights: str, t: float | None, norm: bool) -> np.ndarray:
    from harness.methods.shared.manifold import knn_graph
    from sklearn.manifold import spectral_embedding

    from harness.metrics.embedding_quality import embedding_quality

    W = knn_graph(ds.X, K)
    W.data = np.ones_like(W.data) if weights == "binary" else np.exp(-W.data ** 2 / t)
    np.random.seed(seed)
    Y = spectral_embedding(W, n_components=R, eigen_solver="arpack", random_state=seed,
                           norm_laplacian=norm, drop_first=True)
    out = embedding_quality(ds.X, Y, L)
    return np.array([out[m] for m in MEASURES])


LAP = THESIS["laplacian_eigenmaps"]


def part_lap(reading: str) -> None:
    from sklearn.manifold import SpectralEmbedding

    from harness.metrics.embedding_quality import embedding_quality

    rolls = {s: roll(reading, s) for s in SEEDS10}
    print(f"thesis {fmt(THESIS['laplacian_eigenmaps'])}")
    rows = [cell("laplacian_eigenmaps", rolls[s], s) for s in SEEDS10]
    print(f"binary, normalised (ours, plugin): {summary(rows, LAP)}")
    for norm in (True, False):
        label = "normalised" if norm else "unnormalised"
        if not norm:
            rows = [_spectral(rolls[s], s, "binary", None, False) for s in SEEDS10]
            print(f"binary, {label}: {summary(rows, LAP)}")
        for t in (0.5, 1, 2, 5, 10, 20, 50, 100):
            if norm:
                rows = [cell("laplacian_eigenmaps", rolls[s], s, weights="heat",
                             sigma=float(np.sqrt(t))) for s in SEEDS10]
            else:
                rows = [_spectral(rolls[s], s, "heat", t, False) for s in SEEDS10]
            print(f"heat t = {t:g}, {label}: {summary(rows, LAP)}")
    rows = []
    for s in SEEDS10:
        np.random.seed(s)
        Y = SpectralEmbedding(n_components=R, n_neighbors=K, random_state=s).fit_transform(
            rolls[s].X)
        out = embedding_quality(rolls[s].X, Y, L)
        rows.append([out[m] for m in MEASURES])
    print(f"scikit-learn SpectralEmbedding (0.5 one-sided): {summary(rows, LAP)}")


def _lle_absolute(ds, seed: int, reg: float, relative: bool = False) -> np.ndarray:
    """LLE with the local Gram regularised by ``reg * I`` (not scaled by its trace;
    ``relative``: by ``reg * trace``, scikit-learn's, as a check of this code);
    otherwise scikit-learn's standard LLE (ARPACK null space, random_state = seed)."""
    from sklearn.manifold._locally_linear import null_space
    from sklearn.neighbors import NearestNeighbors

    from harness.metrics.embedding_quality import embedding_quality

    X = ds.X
    ind = NearestNeighbors(n_neighbors=K + 1).fit(X).kneighbors(X, return_distance=False)
    ind = ind[:, 1:]
    B = np.empty((N, K))
    for i in range(N):
        C = X[ind[i]] - X[i]
        G = C @ C.T
        G.flat[:: K + 1] += reg * np.trace(G) if relative else reg
        w = np.linalg.solve(G, np.ones(K))
        B[i] = w / w.sum()
    W = sp.csr_matrix((B.ravel(), ind.ravel(), np.arange(0, N * K + 1, K)), shape=(N, N))
    IW = sp.eye(N, format="csr") - W
    np.random.seed(seed)
    Y, _ = null_space((IW.T @ IW).tocsr(), R, k_skip=1, eigen_solver="arpack",
                      random_state=seed)
    out = embedding_quality(X, Y, L)
    return np.array([out[m] for m in MEASURES])


def _matches(rows: np.ndarray, thesis) -> str:
    """How many seeds have all three measures within the tolerance of the thesis'."""
    hit = np.all(np.abs(np.asarray(rows) - np.asarray(thesis)) <= TOL, axis=1)
    return f"{int(hit.sum())} of {len(hit)} seeds within {TOL} on C, T and N"


def part_lle(reading: str) -> None:
    rolls = {s: roll(reading, s) for s in SEEDS10}
    print(f"thesis {fmt(THESIS['lle'])}")
    for reg in (1e-3, 1e-4, 3e-5, 1e-5):
        rows = np.array([cell("lle", rolls[s], s, reg=reg) for s in SEEDS10])
        print(f"reg {reg:g} x trace{' (ours)' if reg == 1e-3 else ''}: {summary(rows)}; "
              f"per seed T {np.round(rows[:, 1], 3).tolist()}; "
              f"{_matches(rows, THESIS['lle'])}")
    print(f"check, this script's LLE at 1e-3 x trace, seed 0: "
          f"{fmt(_lle_absolute(rolls[0], 0, 1e-3, relative=True))}")
    rows = np.array([_lle_absolute(rolls[s], s, 1e-3) for s in SEEDS10])
    print(f"absolute 1e-3 I: {summary(rows)}; per seed T {np.round(rows[:, 1], 3).tolist()}; "
          f"{_matches(rows, THESIS['lle'])}")
    gtr = []
    for s in (0,):
        from sklearn.neighbors import NearestNeighbors
        X = rolls[s].X
        ind = NearestNeighbors(n_neighbors=K + 1).fit(X).kneighbors(X, return_distance=False)
        for i in range(0, N, 10):
            C = X[ind[i, 1:]] - X[i]
            ev = np.linalg.eigvalsh(C @ C.T)[::-1]
            gtr.append([np.trace(C @ C.T), ev[2], ev[3], ev[7], ev[8]])
    g = np.median(np.array(gtr), axis=0)
    print(f"local Gram (k = 15, seed 0, every 10th point), medians: trace {g[0]:.3g}, "
          f"eigenvalues 3rd {g[1]:.3g}, 4th {g[2]:.3g}, 8th {g[3]:.3g}, 9th {g[4]:.3g}")


def part_varmvu(reading: str) -> None:
    ds = roll(reading, 0)
    methods = ("var_mvu_lap", "var_mvu_lle", "var_mvu_cg_lap", "var_mvu_cg_lle")
    for method in methods:
        print(f"{method}: thesis {fmt(THESIS[method])}")
        for k in (5, 15):
            for omega in (0.5, 0.9, 0.99, 0.999):
                for penalty in ("squared", "norm"):
                    start = time.process_time()
                    try:
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            v = fmt(cell(method, ds, 0, n_neighbors=k, omega=omega,
                                         penalty=penalty))
                    except Exception as exc:  # noqa: BLE001 - a failed setting is reported
                        v = f"failed ({type(exc).__name__}: {str(exc)[:80]})"
                    print(f"  k {k:2d} omega {omega:<5g} {penalty:7s}: {v} "
                          f"[{time.process_time() - start:.1f} CPU-s]", flush=True)
    rolls = {s: roll(reading, s) for s in SEEDS10}
    for method in methods:
        rows = [cell(method, rolls[s], s) for s in SEEDS10]
        print(f"{method}, table's parameters, seeds 0-9: {summary(rows, THESIS[method])}",
              flush=True)


PARTS = {"baseline": part_baseline, "pca": part_pca, "pca_generators": part_pca_generators, "lap": part_lap, "lle": part_lle,
         "varmvu": part_varmvu}


def main(argv: list[str]) -> None:
    if not argv or argv[0] not in PARTS:
        raise SystemExit(__doc__)
    reading = argv[1] if len(argv) > 1 else "swiss_roll_3_1_5"
    if reading not in READINGS:
        raise SystemExit(f"READING must be one of {', '.join(READINGS)}")
    print(f"# {argv[0]} on {reading} (n = {N}, l = {L}, r = {R}, k = {K})", flush=True)
    PARTS[argv[0]](reading)


if __name__ == "__main__":
    main(sys.argv[1:])
