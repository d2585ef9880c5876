"""The cost model of harness plan: a power law in the jobs' sizes with one intercept
per kind of job, its exponent recovered from synthetic costs, the repetition prior,
the fixed costs of small jobs kept out of the exponent, and LPT list scheduling."""

from __future__ import annotations

import math

import numpy as np
import pytest

from harness.runs.costmodel import fit_power, kind_of, lpt_makespan, size_features


def test_size_features_and_kinds():
    params = {"n": 40, "seed": 0, "time_limit_seconds": 900, "n_runs": 10, "flag": True,
              "dataset_params": {"n_samples": 1000, "n_train": None, "noise": 0.1}}
    assert size_features(params) == {"n": 40.0, "n_runs": 10.0, "dataset_params.n_samples": 1000.0}
    assert kind_of("equality/native/n1000") == "equality/native"
    assert kind_of("seed3/m4") == "" and kind_of("usps/1vs2/draw0") == "usps/1vs2"
    assert kind_of("section_3_1_5/k7") == "section_3_1_5"


def test_the_exponent_is_recovered_across_kinds():
    rng = np.random.default_rng(0)
    kinds, features, values = [], [], []
    for kind, scale in (("a", 2e-3), ("b", 5e-2)):
        for n in (50, 100, 200, 400, 800):
            kinds.append(kind)
            features.append({"n": float(n)})
            values.append(scale * n ** 1.7 * math.exp(rng.normal(0, 0.05)))
    model = fit_power(kinds, features, values)
    assert model.exponents["n"] == pytest.approx(1.7, abs=0.05)
    assert math.exp(model.intercepts["b"] - model.intercepts["a"]) == pytest.approx(25, rel=0.1)
    # a new size: from the nearest measured job of its kind (n = 800), by n^1.7
    # a kind measured at five sizes scales by its own exponent, the same up to the noise
    assert model.kind_exponents["a"]["n"] == pytest.approx(1.7, abs=0.1)
    value, note = model.predict("a", {"n": 1600.0})
    assert value == pytest.approx(values[4] * 2 ** model.kind_exponents["a"]["n"])
    assert note == ""
    assert model.predict("c", {"n": 100.0}) == (None, "no measured job of its kind (c)")


def test_a_kind_measured_at_three_sizes_keeps_its_own_exponent():
    """One solver grows like n^3, another like n^1.5: the shared exponent sits between
    them; each kind at three sizes or more gets its own, and a kind at two sizes keeps
    the shared one."""
    kinds, features, values = [], [], []
    for kind, b, sizes in (("cubic", 3.0, (100, 200, 400)), ("mild", 1.5, (100, 200, 400)),
                           ("two", 2.0, (100, 200))):
        for n in sizes:
            kinds.append(kind)
            features.append({"n": float(n)})
            values.append(1e-4 * n ** b)
    model = fit_power(kinds, features, values)
    assert 1.5 < model.exponents["n"] < 3.0
    assert model.kind_exponents["cubic"]["n"] == pytest.approx(3.0)
    assert model.kind_exponents["mild"]["n"] == pytest.approx(1.5)
    assert "two" not in model.kind_exponents
    value, _ = model.predict("cubic", {"n": 800.0})
    assert value == pytest.approx(1e-4 * 800 ** 3)
    value, _ = model.predict("two", {"n": 400.0})
    assert value == pytest.approx(1e-4 * 200 ** 2 * 2 ** model.exponents["n"])
    assert "per kind: cubic n^3.00, mild n^1.50" in model.describe()
    # small jobs (below slope_from) do not count as sizes of their kind: 200 and 400
    # are the cubic kind's only ones above 150^3 x 1e-4 until it is measured at 800
    model = fit_power(kinds, features, values, slope_from=1e-4 * 150 ** 3)
    assert model.kind_exponents == {}
    model = fit_power(kinds + ["cubic"], features + [{"n": 800.0}],
                      values + [1e-4 * 800 ** 3], slope_from=1e-4 * 150 ** 3)
    assert list(model.kind_exponents) == ["cubic"]


def test_fixed_costs_of_small_jobs_stay_out_of_the_exponent():
    sizes = [10, 20, 40, 100, 200, 500, 1000, 2000]
    values = [0.2 + 1e-6 * n ** 2.5 for n in sizes]  # 0.2 s of fixed cost per job
    features = [{"n": float(n)} for n in sizes]
    everything = fit_power(["k"] * 8, features, values)
    large = fit_power(["k"] * 8, features, values, slope_from=1.0)
    assert everything.exponents["n"] < 1.5
    assert large.exponents["n"] == pytest.approx(2.5, abs=0.1)


def test_a_constant_repetition_count_scales_by_its_prior():
    model = fit_power(["x", "y"], [{"n_runs": 10.0}, {"n_runs": 10.0}], [4.0, 8.0],
                      priors={"n_runs": 1.0})
    assert model.exponents == {} and model.priors == {"n_runs": (1.0, 10.0)}
    assert model.predict("y", {"n_runs": 100.0}) == (pytest.approx(80.0), "")
    # a size that changed without an exponent is no estimate (not the unscaled value)
    assert model.scale(4.0, {"n_runs": 10.0, "grid_size": 500.0},
                       {"n_runs": 20.0, "grid_size": 1000.0}) == (
        None, "grid_size: 500 -> 1000 has no exponent (no measured job of this result at "
              "two of its sizes)")
    # a size the measured job did not know (null: the whole data set) stays unscaled, said
    value, note = model.scale(4.0, {"n_runs": 10.0}, {"n_runs": 20.0, "n_train": 6e4})
    assert value == pytest.approx(8.0) and note == "not in the model: n_train -> 60000"
    assert model.scale(4.0, {"n_runs": 10.0, "n_train": 1e4}, {"n_runs": 10.0}) == (
        None, "n_train: 10000 -> not in its params (size unknown)")


def test_lpt_list_scheduling():
    # by hand, longest first to the core that frees first: 5 -> A, 4 -> B, 3 -> B (7),
    # 3 -> A (8), 3 -> B (10): {5, 3} and {4, 3, 3}, 10, where the best split
    # ({5, 4}, {3, 3, 3}) takes 9: LPT is a heuristic
    assert lpt_makespan([3, 5, 3, 4, 3], 2) == 10.0
    assert lpt_makespan([3, 5, 3, 4, 3], 1) == 18.0
    assert lpt_makespan([], 4) == 0.0
    with pytest.raises(ValueError, match="at least 1"):
        lpt_makespan([1.0], 0)
