"""The verdict rules of harness.claims: two readings, stand-in data, not comparable."""

import pytest

from harness.claims import (
    NOT_COMPARABLE, STAND_IN, VERDICTS, Reading, check_claim, make_claim,
    not_comparable_claim, readings_claim, stand_in_claim, verdict_of,
)


def test_verdict_of_counts_checks():
    assert verdict_of([]) == "not measured"
    assert verdict_of([True, True]) == "holds"
    assert verdict_of([True, False]) == "partly holds"
    assert verdict_of([False]) == "does not hold"


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
