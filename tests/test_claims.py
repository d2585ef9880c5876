"""The verdict rules of harness.claims: two readings, stand-in data, not comparable."""

import pytest

from harness.claims import (
    NOT_COMPARABLE, STAND_IN, UNDECIDED, VERDICTS, WITHIN_NOISE, Reading, beyond_noise,
    check_claim, make_claim, not_comparable_claim, parts_claim, readings_claim,
    stand_in_claim, verdict_of,
)


def test_verdict_of_counts_checks():
    assert verdict_of([]) == "not measured"
    assert verdict_of([True, True]) == "holds"
    assert verdict_of([False]) == "does not hold"


def test_a_universal_claim_with_one_counterexample_does_not_hold():
    # issue 51 defect 2: "every ratio below 1" with 4 of 9 below was "partly holds"
    assert verdict_of([True] * 4 + [False] * 5) == "does not hold"
    assert verdict_of([True] * 8 + [False]) == "does not hold"
    assert make_claim("fig_3_24", "every ratio below 1", [True, False], "x")["verdict"] \
        == "does not hold"


def test_an_existential_claim_holds_on_one_example():
    assert verdict_of([False, False, True], "some") == "holds"
    assert verdict_of([False, False], "some") == "does not hold"
    assert verdict_of([False, WITHIN_NOISE], "some") == UNDECIDED


@pytest.mark.parametrize("checks, verdict", [
    ([True, True, False], "holds"), ([True, False], "does not hold"),
    ([True, WITHIN_NOISE, False], UNDECIDED), ([True, True, True, WITHIN_NOISE, False], "holds"),
])
def test_most_is_a_strict_majority_with_noise_undecided(checks, verdict):
    assert verdict_of(checks, "most") == verdict


def test_noise_is_neither_a_counterexample_nor_a_confirmation():
    # issue 51 defect 3: a difference inside the timing band counted as a failure
    assert verdict_of([True] * 7 + [WITHIN_NOISE]) == UNDECIDED == "undecided (within noise)"
    assert verdict_of([WITHIN_NOISE, False]) == "does not hold"
    assert [beyond_noise(d, 0.3) for d in (0.31, -0.31, 0.3, -0.2)] == \
        [True, False, WITHIN_NOISE, WITHIN_NOISE]
    assert beyond_noise(float("nan"), 0.1) is WITHIN_NOISE
    with pytest.raises(TypeError, match="neither a pass nor a failure"):
        bool(WITHIN_NOISE)
    with pytest.raises(ValueError, match="quantifier 'all'"):
        verdict_of([True], "all")


def test_parts_that_disagree_partly_hold():
    claim = parts_claim("fig", "A is faster and B is better",
                        [Reading("faster", [True], "2x"), Reading("better", [False], "-1 %")])
    assert claim["verdict"] == "partly holds"
    assert claim["evidence"] == "part faster (holds): 2x; part better (does not hold): -1 %"
    with pytest.raises(ValueError, match="two or more parts"):
        parts_claim("fig", "c", [Reading("a", [True], "x")])


def test_a_reading_inside_the_noise_disagrees_with_one_that_holds():
    claim = readings_claim("fig", "c", [Reading("a", [True], "x"),
                                        Reading("b", [WITHIN_NOISE], "y")])
    assert claim["verdict"] == "partly holds"
    assert "reading b (undecided (within noise)): y" in claim["evidence"]


def test_two_readings_that_disagree_partly_hold_and_state_both():
    claim = readings_claim("fig", "c (1.0)", [Reading("over brute force", [False], "0.98x"),
                                              Reading("over the naive search", [True], "2.3x")])
    assert claim["verdict"] == "partly holds"
    assert claim["evidence"] == ("reading over brute force (does not hold): 0.98x; "
                                 "reading over the naive search (holds): 2.3x")


@pytest.mark.parametrize("checks, verdict", [([True], "holds"), ([False], "does not hold")])
def test_two_readings_that_agree_give_their_verdict(checks, verdict):
    claim = readings_claim("fig", "c", [Reading("a", checks, "x"), Reading("b", checks, "y")])
    assert claim["verdict"] == verdict


def test_an_unmeasured_reading_does_not_decide():
    claim = readings_claim("fig", "c", [Reading("a", [True], "x"), Reading("b", [], "none")])
    assert claim["verdict"] == "holds"
    assert "reading b (not measured): none" in claim["evidence"]
    nothing = readings_claim("fig", "c", [Reading("a", [], "x"), Reading("b", [], "y")])
    assert nothing["verdict"] == "not measured"


@pytest.mark.parametrize("readings", [[Reading("a", [True], "x")],
                                      [Reading("a", [True], "x"), Reading("a", [False], "y")]])
def test_readings_need_two_distinct_names(readings):
    with pytest.raises(ValueError, match="two or more readings"):
        readings_claim("fig", "c", readings)


def test_stand_in_data_is_shown_never_counted():
    claim = stand_in_claim("fig_3_21", "c", ["us_cities_standin"], "loss 0.3 at m = 10")
    assert claim["verdict"] == STAND_IN == "not measured (stand-in)"
    assert "us_cities_standin" in claim["evidence"] and "loss 0.3 at m = 10" in claim["evidence"]


def test_not_comparable_and_every_verdict_is_valid():
    claim = not_comparable_claim("fig_3_20", "19 s", "ours 0.8 s, 24x faster")
    assert claim["verdict"] == NOT_COMPARABLE
    for verdict in VERDICTS:
        check_claim({"source": "s", "claim": "c", "verdict": verdict, "evidence": "e"})
    with pytest.raises(ValueError, match="is not one of"):
        check_claim({"source": "s", "claim": "c", "verdict": "holds mostly", "evidence": "e"})
    assert make_claim("s", "c", [], "")["evidence"] == "no measured value"
