"""Fig. 2.5's pieces on hand-made data: the candidate triplets against a brute-force
count, the timing check's three outcomes, and each register claim on a frame where it
holds and one where it fails (or is not measured)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from harness.claims import WITHIN_NOISE
from harness.results.fig_2_5.active import candidates, thesis_candidates
from harness.results.fig_2_5.register_claims import (
    Extras, comparable_to_nca_rca, Collector, knn_depends_on_metric, validation_proxy, nca_expensive,
    nca_improves, ratio_check, register_claims, slacks_zero, very_few_active,
)
from harness.results.table_2_1.runs import NINE, Cell, Runs

CONF = {"active_statistic": "mean", "k_values": [1, 3, 5], "standard_errors": 2.0,
        "timing_band": 0.65, "timer_resolution_seconds": 0.004, "thesis_k": 3,
        "extra_datasets": True}
SEEDS = range(6)


def test_candidates_match_brute_force():
    y = np.array([0, 0, 0, 1, 1, 2, 2, 2, 2])
    for k in (1, 2):
        brute = sum(1 for i, l in itertools.product(range(len(y)), repeat=2)
                    if y[i] != y[l]) * k
        assert candidates(y, k) == brute
    assert thesis_candidates(106, 3, 3) == pytest.approx(3 * 106 * 106 * 2 / 3)


def test_ratio_check_outcomes():
    assert ratio_check(0.01, 1.0, 0.1, True, 0.65, 0.004) is True
    assert ratio_check(0.5, 1.0, 0.1, True, 0.65, 0.004) is False
    assert ratio_check(0.004, 0.008, 0.1, True, 0.65, 0.004) is WITHIN_NOISE  # the ticks
    assert ratio_check(5.0, 1.0, 2.0, False, 0.65, 0.0) is True
    assert ratio_check(1.0, 1.0, 2.0, False, 0.65, 0.0) is False


def _active(share, sets=NINE):
    return {d: {"status": "ok", "dataset": d, "active_mean": 10 * share * 1000,
                "candidates_mean": 10000.0, "fraction_mean": share, "fraction_max": share}
            for d in sets}


def _verdict(claim):
    return claim["verdict"]


def test_active_shares_hold_and_fail():
    col = Collector()
    assert _verdict(very_few_active(_active(0.005), CONF, col)) == "holds"
    assert _verdict(very_few_active(_active(0.05), CONF, col)) == "partly holds"  # 1 % fails
    assert _verdict(very_few_active(_active(0.2), CONF, col)) == "does not hold"
    # three of nine measured and all below: no verdict (a subset decides only by failing)
    assert _verdict(very_few_active(_active(0.005, ("iris", "wine", "bal")), CONF, col)) \
        == "not measured"
    # slacks: the optimum reading decides, the union over training is not measured
    assert _verdict(slacks_zero(_active(0.2), CONF, col)) == "holds"
    assert _verdict(slacks_zero(_active(0.6), CONF, col)) == "does not hold"
    assert any(r["check"] == "False" for r in col.rows)


def _runs(values: dict) -> Runs:
    """``{(dataset, label): {measure: [per-seed values]}}`` as Runs."""
    return Runs({key: Cell({m: dict(zip(SEEDS, v)) for m, v in measures.items()}, n_test=50)
                 for key, measures in values.items()})


def _noisy(mean, spread=0.3):
    return [mean + spread * s for s in (-1, 1, 0, 0.5, -0.5, 0)]


def _peers(lmnn, nca, rca, pca=10.0, sets=("iris", "wine", "bal")):
    cells = {}
    for d in sets:
        cells[(d, "PCA-LMNN")] = {"test_knn_error": _noisy(lmnn[d])}
        cells[(d, "NCA")] = {"test_knn_error": _noisy(nca[d], 0.2)}
        cells[(d, "RCA")] = {"test_knn_error": _noisy(rca[d], 0.4)}
        cells[(d, "PCA")] = {"test_knn_error": _noisy(pca, 0.1)}
    return _runs(cells)


def test_comparable_to_nca_rca():
    col = Collector()
    mixed = _peers({"iris": 4.0, "wine": 5.0, "bal": 9.0}, {"iris": 5.0, "wine": 4.5, "bal": 9.5},
                   {"iris": 3.5, "wine": 5.5, "bal": 8.0})
    assert _verdict(comparable_to_nca_rca(mixed, CONF, col)) == "holds"
    far = _peers({"iris": 4.0, "wine": 5.0, "bal": 9.0}, {"iris": 5.0, "wine": 28.0, "bal": 9.5},
                 {"iris": 3.5, "wine": 5.5, "bal": 8.0})
    assert _verdict(comparable_to_nca_rca(far, CONF, col)) == "does not hold"
    always_better = _peers({"iris": 4.0, "wine": 5.0, "bal": 9.0},
                           {"iris": 5.0, "wine": 6.0, "bal": 10.0},
                           {"iris": 5.0, "wine": 6.0, "bal": 10.0})
    assert _verdict(comparable_to_nca_rca(always_better, CONF, col)) == "does not hold"
    assert _verdict(comparable_to_nca_rca(None, CONF, col)) == "not measured"


def test_nca_improves():
    col = Collector()
    better = _peers(*[{"iris": 4.0, "wine": 5.0, "bal": 9.0}] * 3, pca=10.0)
    assert _verdict(nca_improves(better, CONF, col)) == "holds"
    worse = _peers(*[{"iris": 14.0, "wine": 15.0, "bal": 19.0}] * 3, pca=10.0)
    assert _verdict(nca_improves(worse, CONF, col)) == "not measured"  # 6 of 9 unmeasured
    everywhere = _peers(*[{d: 14.0 for d in NINE}] * 3, pca=10.0, sets=NINE)
    assert _verdict(nca_improves(everywhere, CONF, col)) == "does not hold"


def _validation(metric_spread: float, k_spread: float, sets=NINE) -> Extras:
    extras = Extras()
    for d in sets:
        for m, label in enumerate(("PCA", "LDA", "LDA (unshrunk)", "PCA-LMNN")):
            base = metric_spread * (m if m < 3 else 2) / 2
            extras.validation[("table_2_1", d, label)] = {
                s: {str(k): base + k_spread * i / 2 + 0.1 * ((s + i) % 2)
                    for i, k in enumerate((1, 3, 5))} for s in SEEDS}
    return extras


def test_metric_against_k():
    col = Collector()
    runs = _runs({})
    assert _verdict(validation_proxy(runs, _validation(10.0, 1.0), CONF, col)) == "holds"
    assert _verdict(validation_proxy(runs, _validation(1.0, 10.0), CONF, col)) == \
        "does not hold"
    assert _verdict(validation_proxy(runs, _validation(10.0, 1.0, ("iris",)), CONF, col)) \
        == "not measured"
    # the register reads test errors at every k, which no record holds: never counted
    claim = knn_depends_on_metric(runs, _validation(10.0, 1.0), CONF, col)
    assert _verdict(claim) == "not measured" and "validation splits (holds)" in claim["evidence"]


def _timed(nca_seconds, lmnn_seconds, nca_iter, sets=("iris", "wine", "bal", "isolet", "mnist")):
    runs = _runs({**{(d, "NCA"): {"fit_cpu_seconds": [nca_seconds] * 6} for d in sets},
                  **{(d, "LMNN"): {"fit_cpu_seconds": [lmnn_seconds] * 6} for d in sets}})
    extras = Extras()
    for d in sets:
        extras.iterations[("table_2_1_peers", d, "NCA")] = {s: nca_iter for s in SEEDS}
        extras.iterations[("table_2_1_peers", d, "LMNN")] = {s: 100.0 for s in SEEDS}
        extras.max_iter[("table_2_1_peers", d, "NCA")] = 50
    return runs, extras


def test_nca_more_expensive():
    col = Collector()
    assert _verdict(nca_expensive(*_timed(5.0, 1.0, 20.0), CONF, col)) == "holds"
    assert _verdict(nca_expensive(*_timed(0.2, 1.0, 20.0), CONF, col)) == "does not hold"
    # NCA capped at max_iter: total time not measured; per iteration 5 / 50 vs 1 / 100
    claim = nca_expensive(*_timed(5.0, 1.0, 50.0), CONF, col)
    assert "reading total time (not measured)" in claim["evidence"]
    assert claim["verdict"] == "holds"


def test_every_entry_has_a_claim():
    claims, rows = register_claims(_runs({}), None, Extras(), {}, CONF)
    assert len({c["register"] for c in claims}) == len(claims) == 13
    assert all(c["verdict"] == "not measured" for c in claims)
