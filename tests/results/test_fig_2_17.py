"""Fig. 2.17 (thesis 2.1.8, 2.1.9): keys, parameters and checks; LMNN (sq)'s two
projections against naive eigen-decompositions; every kind of job on a tiny fake
MNIST, its errors recomputed by a naive 3-NN; the figure and its verdicts from
hand-made records (a passing and a failing case); MNIST missing is a marked gap."""

from __future__ import annotations

import json

import numpy as np
import pytest

from harness.datasets.mnist import MNIST
from harness.config import ConfigError
from harness.jobs import parse_job, record_path
from harness.result_registry import get_result
from harness.results.fig_2_17.work import square_reductions
from harness.results.fig_2_17 import work as fig_2_17_work
from harness.results.fig_2_17 import write as fig_2_17_write
from harness.methods.lmnn import LMNN
from tests.datasets.test_mnist import fake_idx_files, install_fake_mnist
from tests.results.conftest import write_point

fig = get_result("fig_2_17")
TINY = {"n_train": None, "n_test": None, "input_components": 12, "dimensions": [2, 4],
        "time_limit_seconds": 60}


def _naive_knn_error(X_train, y_train, X_test, y_test, k=3) -> float:
    """Percent wrong of brute-force k-NN; a tied vote is retaken among fewer
    neighbours, down to one (thesis 2.1.6)."""
    D = ((X_test[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=2)
    wrong = 0
    for row, truth in zip(D, y_test):
        order = np.argsort(row, kind="stable")
        for m in range(k, 0, -1):
            labels, counts = np.unique(y_train[order[:m]], return_counts=True)
            if (counts == counts.max()).sum() == 1:
                break
        wrong += labels[counts.argmax()] != truth
    return 100.0 * wrong / len(y_test)


def _naive_pca(X, r):
    """The r leading principal directions of X (rows), by eigh of the covariance."""
    Xc = X - X.mean(axis=0)
    w, V = np.linalg.eigh(Xc.T @ Xc)
    return V[:, ::-1][:, :r].T


def test_keys_params_and_checks(profile):
    config = profile(fig_2_17={"dimensions": [25, 15], "n_train": 1000, "n_test": 200})
    assert fig.keys(config) == ["baseline", "pca/r15", "pca/r25", "lmnn_rec/r15",
                                "lmnn_rec/r25", "lmnn_sq"]
    p = fig.params(config, "lmnn_rec/r15")
    assert p["n_components"] == 15 and p["n_neighbors"] == 3 and p["method"] == "lmnn_rec"
    assert p["dataset_params"] == {"deskew": True, "deskew_order": 0, "n_components": 350,
                                   "n_train": 1000, "n_test": 200}
    assert fig.params(config, "lmnn_sq")["dimensions"] == [15, 25]
    assert "lmnn_params" not in fig.params(config, "pca/r25")
    with pytest.raises(ConfigError, match="METHOD one of pca, lmnn_rec"):
        fig.params(config, "lmnn_rec")
    with pytest.raises(ConfigError, match="r<R> with R a positive integer"):
        fig.params(config, "pca/15")
    with pytest.raises(ConfigError, match="r = 400 exceeds input_components = 350"):
        profile(fig_2_17={"dimensions": [15, 400]})
    with pytest.raises(ConfigError, match="'n_components' is not an LMNN argument"):
        profile(fig_2_17={"lmnn_params": {"n_components": 3}})
    with pytest.raises(ConfigError, match="n_neighbors = 3 must be below n_train = 3"):
        profile(fig_2_17={"n_train": 3})
    assert fig_2_17_write.thesis_points(config) == {"rec": {15: 2.38, 25: 1.76}, "baseline": 2.33}


def test_square_reductions_against_naive_eigendecompositions():
    rng = np.random.default_rng(1)
    L = rng.normal(size=(6, 6))
    X = rng.normal(size=(40, 6)) @ rng.normal(size=(6, 6))
    maps = square_reductions(L, X, [2, 4])
    w, V = np.linalg.eigh(L.T @ L)
    for r in (2, 4):
        # metric_eigenvectors: L_r^T L_r is the best rank-r approximation of M = L^T L
        top = V[:, ::-1][:, :r] * w[::-1][:r]
        assert np.allclose(maps[r]["metric_eigenvectors"].T @ maps[r]["metric_eigenvectors"],
                           top @ V[:, ::-1][:, :r].T, atol=1e-10)
        # pca_of_Lx: the r leading principal directions of L x, composed with L
        P = _naive_pca(X @ L.T, r)
        assert np.allclose(np.abs(maps[r]["pca_of_Lx"]), np.abs(P @ L), atol=1e-8)
    # they differ in general, agree for whitened inputs (as 2.1.8's "equivalent" says)
    assert not np.allclose(np.abs(maps[2]["pca_of_Lx"]), np.abs(maps[2]["metric_eigenvectors"]))
    white = rng.normal(size=(500, 6))
    white = (white - white.mean(0)) @ np.linalg.inv(np.linalg.cholesky(np.cov(white.T, bias=True))).T
    same = square_reductions(L, white, [3])[3]
    assert np.allclose(np.abs(same["pca_of_Lx"]), np.abs(same["metric_eigenvectors"]), atol=1e-8)


def _fake_digits(n, rng):
    """n 28 x 28 byte images of 3 classes: a class template plus noise."""
    templates = rng.integers(0, 200, size=(3, 28, 28))
    y = np.arange(n) % 3
    noise = rng.integers(0, 120, size=(n, 28, 28))
    return np.clip(templates[y] + noise, 0, 255).astype(np.uint8), y.astype(np.uint8)


@pytest.fixture
def fake_mnist(tmp_path, monkeypatch):
    rng = np.random.default_rng(0)
    train_x, train_y = _fake_digits(30, rng)
    test_x, test_y = _fake_digits(15, rng)
    return install_fake_mnist(fake_idx_files(train_x, train_y, test_x, test_y),
                              tmp_path, monkeypatch)


def _split(**load):
    ds = MNIST().load(**load)
    n = ds.meta["split_protocol"]["n_train"]
    return ds.X[:n], ds.y[:n], ds.X[n:], ds.y[n:]


def test_every_job_on_a_fake_mnist_matches_a_naive_3nn(profile, fake_mnist):
    config = profile(fig_2_17=TINY)
    records = {key: fig_2_17_work.work(fig.params(config, key)) for key in fig.keys(config)}
    assert {r["status"] for r in records.values()} == {"ok"}
    base = records["baseline"]["errors"]
    for name, deskew in (("deskewed", True), ("pixels", False)):
        assert base[name] == pytest.approx(_naive_knn_error(
            *_split(deskew=deskew, n_components=None)))
    Xtr, ytr, Xte, yte = _split(deskew=True, n_components=12)
    for r in (2, 4):
        P = _naive_pca(Xtr, r)
        assert records[f"pca/r{r}"]["error_pct"] == pytest.approx(
            _naive_knn_error(Xtr @ P.T, ytr, Xte @ P.T, yte))
        L = LMNN(n_components=r).fit(Xtr, ytr).components_  # the fit is deterministic
        rec = records[f"lmnn_rec/r{r}"]
        assert rec["error_pct"] == pytest.approx(_naive_knn_error(Xtr @ L.T, ytr, Xte @ L.T, yte))
        assert rec["n_iter"] >= 1 and rec["fit_cpu_seconds"] > 0 and rec["loss"] >= 0
    L = LMNN().fit(Xtr, ytr).components_
    w, V = np.linalg.eigh(L.T @ L)
    sq = {row["n_components"]: row for row in records["lmnn_sq"]["errors_by_dimension"]}
    for r in (2, 4):
        Lr = np.sqrt(np.clip(w[::-1][:r], 0, None))[:, None] * V[:, ::-1][:, :r].T
        assert sq[r]["metric_eigenvectors"] == pytest.approx(
            _naive_knn_error(Xtr @ Lr.T, ytr, Xte @ Lr.T, yte))
        P = _naive_pca(Xtr @ L.T, r) @ L
        assert sq[r]["pca_of_Lx"] == pytest.approx(_naive_knn_error(Xtr @ P.T, ytr, Xte @ P.T, yte))
    assert records["lmnn_sq"]["full_error_pct"] == pytest.approx(
        _naive_knn_error(Xtr @ L.T, ytr, Xte @ L.T, yte))
    # the ball-tree query timed on every reduction's r-D data, the naive one in 784-D
    assert records["baseline"]["naive784"]["work"] > 0
    for r in (2, 4):
        for key in (f"pca/r{r}", f"lmnn_rec/r{r}"):
            tree = records[key]["balltree"]
            assert tree["seconds"] > 0 and tree["work"] % r == 0 and tree["work"] > 0
    trees = {row["n_components"]: row for row in records["lmnn_sq"]["balltree_by_dimension"]}
    assert sorted(trees) == [2, 4] and all(
        trees[r][p]["work"] % r == 0 for r in (2, 4) for p in fig_2_17_work.PROJECTIONS)


def _write_all(config, base, pca, rec, sq, n=(60000, 10000)):
    size = {"n_train": n[0], "n_test": n[1]}
    write_point(config, "fig_2_17/baseline", errors={"deskewed": base, "pixels": 2.83}, **size)
    fit = {"fit_cpu_seconds": 60.0, "n_iter": 80, "converged": True, "loss": 1e4, **size}
    for r, e in pca.items():
        write_point(config, f"fig_2_17/pca/r{r}", error_pct=e, fit_cpu_seconds=1.0, **size)
    for r, e in rec.items():
        write_point(config, f"fig_2_17/lmnn_rec/r{r}", error_pct=e, **fit)
    write_point(config, "fig_2_17/lmnn_sq", errors_by_dimension=[
        {"n_components": r, "metric_eigenvectors": e, "pca_of_Lx": e + 0.1}
        for r, e in sq.items()], **fit)


SECTION = {"dimensions": [15, 25, 35], "baseline_input": "deskewed"}


def test_figure_and_verdicts_that_hold(profile):
    config = profile(fig_2_17=SECTION)
    # every difference beyond 2 binomial standard errors of the 10000 test digits
    # (about 0.3-0.46 points here)
    _write_all(config, base=2.30, pca={15: 3.0, 25: 2.5, 35: 1.7},
               rec={15: 2.45, 25: 1.80, 35: 1.0}, sq={15: 3.2, 25: 2.4, 35: 1.5})
    frame = fig_2_17_write.build(config)
    sq = frame[frame["method"] == "lmnn_sq"].set_index("n_components")
    assert sq.loc[25, "error_pct"] == 2.4 and sq.loc[25, "alt_error_pct"] == pytest.approx(2.5)
    rec = frame[frame["method"] == "lmnn_rec"].set_index("n_components")
    assert rec.loc[15, "thesis_error_pct"] == 2.38 and np.isnan(rec.loc[35, "thesis_error_pct"])
    verdicts = [c["verdict"] for c in fig_2_17_write.claims(config, frame)[:8]]
    assert verdicts == ["holds"] * 8
    paths = fig_2_17_write.write(config)
    md = paths[2].read_text()
    assert "| 15  | 3.00  | 2.45         | 2.38" in md and "| baseline, 784 deskewed | 2.33" in md
    assert "fig_2_13" in md and "Choices where the thesis is ambiguous" in md
    # the baselines from the records; at the thesis' size no cited measurement
    assert ("This run (60000 / 10000 images) measured 2.30 % on the deskewed pixels and "
            "2.83 % on the published ones.") in md
    assert "cited earlier measurement" not in md and "1.99" not in md
    assert sq.loc[25, "sq_minus_rec_pp"] == pytest.approx(2.4 - 1.80)
    assert paths[1].read_bytes()[:4] == b"\x89PNG"


def test_verdicts_that_fail_and_a_reduced_size(profile):
    config = profile(fig_2_17=SECTION)
    # rec misses the thesis' numbers; PCA beats rec beyond the noise at r = 15 (0.7
    # points) and catches up first; PCA below the baseline at r = 35 (0.7 points) but
    # sq's 2.25 and 2.0 are within the noise of 2.30; rec vs sq: every difference
    # within the noise (undecided), the mean gap 0.05 points (not > 0.3); the gap grows
    _write_all(config, base=2.30, pca={15: 2.2, 25: 2.0, 35: 1.6},
               rec={15: 2.9, 25: 2.3, 35: 1.7}, sq={15: 2.8, 25: 2.25, 35: 2.0})
    claims = fig_2_17_write.claims(config)[:8]
    assert [c["verdict"] for c in claims] == [
        "does not hold", "does not hold", "holds", "partly holds", "does not hold",
        "does not hold", "partly holds", "does not hold"]
    assert [c["register"] for c in claims[:3]] == [
        "s2-1-9-lmnn-rec-15-error-2-38", "s2-1-9-rec-25-error-1-76", "s2-1-9-baseline-2-33"]
    assert "reading pca some r (holds)" in claims[3]["evidence"]
    assert "reading pca and sq (undecided (within noise))" in claims[3]["evidence"]
    # issue 51 defect 3: 1.60 vs 1.70 (0.1 points, 10 of 10000 digits) is noise
    assert "outperformed beyond the noise at: PCA r=15 (2.20% < 2.90%)." in claims[5]["evidence"]
    assert "reading clearly (undecided (within noise))" in claims[6]["evidence"]
    assert "2.30% (on the 784 pixels as published: 2.83%)" in claims[2]["evidence"]
    _write_all(config, base=2.30, pca={15: 2.2, 25: 2.0, 35: 1.6},
               rec={15: 2.4, 25: 1.7, 35: 1.6}, sq={15: 2.8, 25: 2.5, 35: 2.0}, n=(10000, 2000))
    first = fig_2_17_write.claims(config)[0]
    assert first["verdict"] == "not measured" and "n_train = 10000" in first["evidence"]
    # below the thesis' size the full-size baselines are shown as a cited measurement
    md = fig_2_17_write.write(config)[2].read_text()
    assert "This run (10000 / 2000 images) measured 2.30 % on the deskewed" in md
    assert ("At the thesis' size (cited earlier measurement: `harness job --config "
            "config/full.yaml fig_2_17/baseline") in md and "1.99 %" in md


def test_missing_mnist_is_a_marked_gap(profile, tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path / "empty"))
    config = profile(fig_2_17=TINY)
    body = fig_2_17_work.work(fig.params(config, "lmnn_rec/r2"))
    assert body["status"] == "unavailable" and "harness fetch mnist" in body["reason"]
    for key in fig.keys(config):
        write_point(config, f"fig_2_17/{key}", status=body["status"], reason=body["reason"])
    claims = fig_2_17_write.claims(config)
    assert {c["verdict"] for c in claims} == {"not measured"}
    md = fig_2_17_write.write(config)[2].read_text()
    assert "harness fetch mnist" in md and "n/a[1]" in md



def write_fig_2_13_points(config, tree_seconds, sizes, naive, brute, reduced):
    """Fabricated Fig. 2.13 records, one per r of ``tree_seconds`` ({r: ball-tree
    seconds}): 784-D naive and brute-force baselines of ``naive`` / ``brute`` seconds,
    the other r-D searches ``reduced`` seconds, every search exact, measured on
    ``sizes`` = (training, test) digits."""
    for r, seconds in tree_seconds.items():
        write_point(config, f"fig_2_13/r{r}", n_train=sizes[0], n_test=sizes[1],
                    knn_error=2.0,
                    baseline={"naive": {"seconds": naive, "exact": True},
                              "brute": {"seconds": brute, "exact": True}},
                    reduced={m: {"seconds": seconds if m == "balltree" else reduced,
                                 "exact": True, "same_indices": True}
                             for m in ("naive", "brute", "balltree")})

def test_ball_tree_speedups_on_top_come_from_fig_2_13(profile):
    config = profile(fig_2_17=SECTION, fig_2_13={"dimensions": [15, 25]})
    assert fig.reads(config) == ["fig_2_13"]
    write_fig_2_13_points(config, {15: 0.5, 25: 2.0}, (60000, 10000), 10.0, 5.0, 4.0)
    assert fig_2_17_write.ball_tree_speedups(config) == {15: 20.0, 25: 5.0}
    # every difference beyond 2 binomial standard errors of the 10000 test digits
    # (about 0.3-0.46 points here)
    _write_all(config, base=2.30, pca={15: 3.0, 25: 2.5, 35: 1.7},
               rec={15: 2.45, 25: 1.80, 35: 1.0}, sq={15: 3.2, 25: 2.4, 35: 1.5})
    md = fig_2_17_write.write(config)[2].read_text()
    assert ("20.0x at r = 15, 5.0x at r = 25, measured at 60000 training / 10000 test "
            "digits") in md
    assert fig_2_17_write.ball_tree_sizes(config) == [(60000, 10000)]
    for r in (15, 25):  # the quick profile's Fig. 2.13 runs fewer digits: the note says so
        write_point(config, f"fig_2_13/r{r}", n_train=10000, n_test=1000, knn_error=2.0,
                    baseline={"naive": {"seconds": 10.0, "exact": True},
                              "brute": {"seconds": 5.0, "exact": True}},
                    reduced={m: {"seconds": 1.0, "exact": True, "same_indices": True}
                             for m in ("naive", "brute", "balltree")})
    md = fig_2_17_write.write(config)[2].read_text()
    assert "10.0x at r = 15, 10.0x at r = 25, measured at 10000 training / 1000 test" in md


def test_no_speedups_without_fig_2_13(profile):
    config = profile(fig_2_17=SECTION)
    assert fig.reads(config) == [] and fig_2_17_write.ball_tree_speedups(config) == {}


def _naive_early_abandon_work(train, test, k=3):
    """Coordinates the thesis' naive search sums (pure Python): per test point, each
    training point's squared distance summed dimension by dimension, abandoned once
    above the current k-th smallest."""
    total = 0
    for q in test:
        best = [np.inf] * k
        for x in train:
            s, used = 0.0, len(q)
            for c in range(len(q)):
                s += (x[c] - q[c]) ** 2
                if s > best[-1]:
                    used = c + 1
                    break
            total += used
            if s < best[-1]:
                best = sorted(best[:-1] + [s])
    return total


def test_tree_and_naive_searches_on_a_tiny_input():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 6)) * np.array([5.0, 3.0, 2.0, 1.0, 0.5, 0.1])
    train, test = X[:50], X[50:]
    tree = fig_2_17_work.tree_search(train[:, :4], test[:, :4], 3, rounds=2)
    assert tree["seconds"] > 0 and tree["spread"] >= 0 and tree["build_seconds"] >= 0
    # a 3-NN query evaluates at least the three neighbours' distances, each of r = 4 coords
    assert tree["work"] % 4 == 0 and tree["work"] >= 10 * 3 * 4
    naive = fig_2_17_work.naive_search(train, test, 3, rounds=1)
    mean = train.mean(axis=0)
    _, V = np.linalg.eigh(np.cov(train - mean, rowvar=False, bias=True))
    V = V[:, ::-1]
    assert naive["work"] == _naive_early_abandon_work((train - mean) @ V, (test - mean) @ V)
    assert naive["seconds"] > 0 and naive["clock"] and naive["work_unit"]


def _write_trees(config, seconds: dict, works: dict, naive=(1.0, 1e9)):
    """Ball-tree entries on the records _write_all wrote: ``seconds`` / ``works``
    method -> r -> value (LMNN (sq): its figure projection; the other one 10x slower)."""
    def entry(s, w):
        return {"seconds": s, "spread": 0.01, "work": w, "calls": 1}

    def update(key, **body):
        path = record_path(config, parse_job(f"fig_2_17/{key}"))
        record = json.loads(path.read_text())
        record.update(body)
        path.write_text(json.dumps(record))

    update("baseline", naive784=entry(*naive))
    for m in ("pca", "lmnn_rec"):
        for r in seconds[m]:
            update(f"{m}/r{r}", balltree=entry(seconds[m][r], works[m][r]))
    update("lmnn_sq", balltree_by_dimension=[
        {"n_components": r, "metric_eigenvectors": entry(s, works["lmnn_sq"][r]),
         "pca_of_Lx": entry(10 * s, 10 * works["lmnn_sq"][r])}
        for r, s in seconds["lmnn_sq"].items()])


def test_ball_tree_speedups_of_the_three_reductions(profile):
    config = profile(fig_2_17=SECTION)
    _write_all(config, base=2.30, pca={15: 3.0, 25: 2.5, 35: 1.7},
               rec={15: 2.45, 25: 1.80, 35: 1.0}, sq={15: 3.2, 25: 2.4, 35: 1.5})
    entry = "s2-1-9-speedup-depends-only-on-dim"
    claim = {c.get("register"): c for c in fig_2_17_write.claims(config)}[entry]
    assert claim["verdict"] == "not measured"  # records without ball-tree timings
    same = {m: {15: 0.1, 25: 0.2, 35: 0.4} for m in ("pca", "lmnn_rec", "lmnn_sq")}
    works = {m: {15: 1e8, 25: 2e8, 35: 4e8} for m in same}
    _write_trees(config, same, works)
    frame = fig_2_17_write.build(config)
    sq = frame[frame["method"] == "lmnn_sq"].set_index("n_components")
    assert sq.loc[25, "speedup"] == pytest.approx(5.0) and sq.loc[25, "work_speedup"] == 5.0
    assert sq.loc[25, "alt_search_seconds"] == pytest.approx(2.0)  # shown, not counted
    claim = {c.get("register"): c for c in fig_2_17_write.claims(config, frame)}[entry]
    assert claim["verdict"] == "holds", claim["evidence"]
    assert "5x / 5x" in claim["evidence"]
    # LMNN (rec)'s tree 3x slower and 3x the work at every r: no agreement
    _write_trees(config, {**same, "lmnn_rec": {r: 3 * s for r, s in same["pca"].items()}},
                 {**works, "lmnn_rec": {r: 3 * w for r, w in works["pca"].items()}})
    claim = {c.get("register"): c for c in fig_2_17_write.claims(config)}[entry]
    assert claim["verdict"] == "does not hold", claim["evidence"]
