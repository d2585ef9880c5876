"""The mu sweep (thesis 2.1.3, 2.1.6): its statistics against hand computations, its
register verdicts holding and failing on hand-made frames, the random splits of a
pooled data set, the mu = 0 collapse, and the declaration's keys and checks."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from harness.claims import WITHIN_NOISE
from harness.config import ConfigError
from harness.plugin import Dataset
from harness.result_registry import get_result
from harness.results.lmnn_mu_sweep import stats as sweep_stats
from harness.results.lmnn_mu_sweep import work as sweep_work
from harness.results.lmnn_mu_sweep import write as written
from harness.results.lmnn_mu_sweep.register_claims import register_claims
from tests.results.conftest import write_point

result = get_result("lmnn_mu_sweep")
MUS = [0.1, 0.25, 0.3, 0.5, 0.7, 0.75, 0.9]
SMALL = {"datasets": ["iris"], "n_runs": 2, "collapse_datasets": ["iris"]}


# ---- statistics ----------------------------------------------------------------------
def test_spread_gap_and_tests_against_hand_computations():
    rng = np.random.default_rng(0)
    e = rng.uniform(0, 10, size=(8, len(MUS)))
    s = sweep_stats.spread(e, MUS, [0.25, 0.5, 0.75])
    means = e[:, [1, 3, 5]].mean(axis=0)
    assert s["range"] == pytest.approx(means.max() - means.min())
    hi, lo = MUS.index(s["mu_high"]), MUS.index(s["mu_low"])
    assert s["se"] == pytest.approx(np.std(e[:, hi] - e[:, lo], ddof=1) / math.sqrt(8))
    g = sweep_stats.gap_to(e, MUS, [0.1, 0.3, 0.5, 0.7, 0.9], 0.5)
    wide = e[:, [0, 2, 3, 4, 6]].mean(axis=0)
    assert g["gap"] == pytest.approx(e[:, 3].mean() - wide.min()) and g["gap"] >= 0
    stat, p = sweep_stats.friedman(e)
    assert p == pytest.approx(stats.friedmanchisquare(*e.T).pvalue)
    assert sweep_stats.paired_p(e[:, 0], e[:, 3]) == pytest.approx(
        stats.ttest_rel(e[:, 0], e[:, 3]).pvalue)
    # a constant matrix: no test
    assert math.isnan(sweep_stats.friedman(np.ones((5, 7)))[1])
    with pytest.raises(ValueError, match="not swept"):
        sweep_stats.spread(e, MUS, [0.2])


def test_at_most_pass_fail_noise():
    assert sweep_stats.at_most(0.9, 1.0, 2.0) is True
    assert sweep_stats.at_most(3.0, 1.0, 1.6) is True  # within 2 SE
    assert sweep_stats.at_most(3.0, 1.0, 0.5) is False  # beyond 1 + 2 SE
    assert sweep_stats.at_most(1.5, 1.0, 0.5) is WITHIN_NOISE
    assert sweep_stats.at_most(1.5, 1.0, math.nan) is WITHIN_NOISE


# ---- register verdicts on hand-made frames --------------------------------------------
def _frame(names=("iris", "wine", "bal", "mnist", "letters"), rng=0.5, gap=0.2, se=0.1,
           ratio=1e-9, energy=None):
    rows = []
    for name in names:
        row = {"row": "dataset", "dataset": name, "thesis_name": name, "status": "ok",
               "reason": "", "n_runs": 10, "n_train": 100, "n_test": 45,
               "knn_gap_half": gap, "knn_gap_half_se": se, "knn_gap_half_mu_best": 0.3}
        for measure, value in (("knn", rng), ("energy", rng if energy is None else energy)):
            for grid in ("middle", "wide"):
                row.update({f"{measure}_range_{grid}": value,
                            f"{measure}_range_{grid}_se": se,
                            f"{measure}_range_{grid}_mu_high": 0.9,
                            f"{measure}_range_{grid}_mu_low": 0.1})
        rows.append(row)
    rows.append({"row": "collapse", "dataset": "iris", "thesis_name": "iris", "status": "ok",
                 "reason": "", "norm_initial": 47.0, "norm_final": 47.0 * ratio,
                 "norm_ratio": ratio, "norm_final_mu_half": 30.0, "n_iter": 8})
    return pd.DataFrame(rows)


def _verdicts(frame, swept=("iris", "wine", "bal", "mnist", "letters")):
    return {c["register"]: c["verdict"] for c in register_claims(frame, list(swept))}


def test_verdicts_that_hold():
    v = _verdicts(_frame())
    assert v["s2-1-3-mu-not-sensitive"] == "holds"
    assert v["s2-1-3-mu-half-works-well"] == "holds"  # 5 of the nine pass
    assert v["s2-1-3-pull-alone-collapses"] == "holds"
    # about the nine Table 2.1 data sets: passes on five decide nothing
    assert v["s2-1-6-mu-surprisingly-insensitive"] == "not measured"


def test_verdicts_that_fail():
    v = _verdicts(_frame(rng=3.0, gap=2.0, ratio=1e-3))
    assert v["s2-1-3-mu-not-sensitive"] == "does not hold"
    assert v["s2-1-3-mu-half-works-well"] == "does not hold"  # 5 of nine fail
    assert v["s2-1-6-mu-surprisingly-insensitive"] == "does not hold"
    assert v["s2-1-3-pull-alone-collapses"] == "does not hold"
    # the energy classifier fails, the kNN one passes on five of the nine (no verdict):
    # the counterexample decides
    claim = [c for c in register_claims(_frame(energy=3.0), ["iris"])
             if c["register"] == "s2-1-6-mu-surprisingly-insensitive"][0]
    assert claim["verdict"] == "does not hold"
    assert "reading knn classifier (not measured)" in claim["evidence"]


def test_noise_and_too_few_data_sets():
    v = _verdicts(_frame(rng=1.15, se=0.1))
    assert v["s2-1-3-mu-not-sensitive"] == "undecided (within noise)"
    few = _verdicts(_frame(names=("iris", "wine")), swept=("iris", "wine"))
    assert few["s2-1-3-mu-half-works-well"] == "not measured"  # 2 of nine
    gap = _frame()
    gap.loc[0, "status"], gap.loc[0, "reason"] = "failed", "boom"
    assert _verdicts(gap)["s2-1-3-mu-not-sensitive"] == "not measured"


# ---- the jobs --------------------------------------------------------------------------
def test_random_splits_pool_and_subsample():
    y = np.repeat([0, 1, 2], 50)
    X = np.arange(len(y), dtype=float)[:, None]
    data = Dataset(X, y, {"split_protocol": {"predefined_n_train": 100}})
    pooled = sweep_work.random_splits(data, None, 0)
    assert pooled.meta["split_protocol"] is None and pooled.n_samples == 150
    small = sweep_work.random_splits(data, 30, 0)
    assert small.n_samples == 30 and (np.bincount(small.y) == 10).all()
    again = sweep_work.random_splits(data, 30, 0)
    assert (again.X == small.X).all()
    assert not (sweep_work.random_splits(data, 30, 1).X == small.X).all()


def test_declaration_keys_params_checks(profile):
    config = profile(lmnn_mu_sweep=SMALL)
    ks = result.keys(config)
    assert ks == [f"iris/mu{m:g}" for m in MUS] + ["collapse/iris"]
    p = result.params(config, "iris/mu0.25")
    assert p["mu"] == 0.25 and p["method_params"]["mu"] == 0.25
    assert p["method"] == "pca_lmnn" and p["n_runs"] == 2 and p["train_fraction"] == 0.7
    assert result.params(config, "collapse/iris")["method"] == "lmnn"
    with pytest.raises(ConfigError, match="DATASET/mu<MU>"):
        result.params(config, "iris/mu0.4")
    with pytest.raises(ConfigError, match="lacks"):
        profile(lmnn_mu_sweep={**SMALL, "mu_grid": [0.1, 0.3, 0.5, 0.7, 0.9]})


def test_jobs_and_write_from_records(profile):
    config = profile(lmnn_mu_sweep=SMALL)
    for key in result.keys(config):
        body = sweep_work.work(result.params(config, key))
        assert body["status"] == "ok", body.get("reason")
        write_point(config, f"lmnn_mu_sweep/{key}",
                    **{k: v for k, v in body.items() if k not in ("status", "reason")})
    collapse = sweep_work.work(result.params(config, "collapse/iris"))
    assert collapse["norm_final"] < 1e-6 * collapse["norm_initial"]
    assert collapse["norm_final_mu_half"] > 0.1 * collapse["norm_initial"]
    frame = written.build(config)
    cells = frame[(frame["row"] == "cell") & (frame["measure"] == "knn")]
    assert sorted(cells["mu"]) == MUS and (cells["n_runs"] == 2).all()
    # the same splits for every mu: every record's run 0 tested on the same points
    iris = frame[frame["row"] == "dataset"].iloc[0]
    assert iris["n_test"] == 45 and iris["knn_range_wide"] >= 0
    paths = written.write(config)
    assert sorted(p.suffix for p in paths) == [".csv", ".json", ".md", ".tex"]
    md = paths[[p.suffix for p in paths].index(".md")].read_text()
    assert "## Test errors against mu" in md and "| iris" in md
    verdicts = {c["register"]: c["verdict"] for c in written.claims(config)}
    assert verdicts["s2-1-3-pull-alone-collapses"] == "holds"
    assert verdicts["s2-1-3-mu-half-works-well"] == "not measured"


def test_no_records_is_not_measured(profile):
    config = profile(lmnn_mu_sweep=SMALL)
    verdicts = {c["register"]: c["verdict"] for c in written.claims(config)}
    assert set(verdicts.values()) == {"not measured"}
