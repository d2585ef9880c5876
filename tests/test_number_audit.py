"""harness.number_audit: which tokens of a Markdown text count as numbers, and when a
shown number is explained by a recorded one."""

from __future__ import annotations

from harness.number_audit import (MAX_LIST, WHITELIST, known_numbers, numeric_tokens,
                                  unexplained, whitelisted)
from harness.result_registry import get_result


def _texts(markdown: str) -> list[str]:
    return [t.text for t in numeric_tokens(markdown)]


def test_references_names_dates_and_small_counts_are_not_numbers():
    text = ("Fig. 2.17 and Figs. 2.3 and 2.4, Table 3.2, thesis 2.1.9, loss (2.11), job "
            "`fig_2_13/r15 wall=3.5s`, key n1000, r15, λ1, commit 6579b02 on 2026-11-26, "
            "3-NN in 784-D, top-2 share, k = 3, seeds 0-9, Saerens et al. 2004, "
            "![x](fig_2_17.png)")
    assert _texts(text) == []


def test_measurements_are_numbers():
    text = ("x1.45 and 14.8x, factors 1.32-1.48 / 2.15-2.22, p = 9.5e-07, 2.3%, "
            "rho -0.87, +0.15 points, n = 1000, 37 s")
    assert _texts(text) == ["1.45", "14.8", "1.32", "1.48", "2.15", "2.22", "9.5e-07",
                            "2.3", "0.87", "0.15", "1000", "37"]


def test_a_shown_number_matches_a_recorded_one_at_its_precision():
    known = known_numbers({"h": 1.5312, "v": [2.2049], "p": 0.023, "q": 9.54e-7,
                           "n": 1000, "wall": 36.7, "gap": -0.15})
    assert unexplained("1.53 / 2.20; 2.3 % and 0.023; 9.5e-07; n = 1000; 37 s; +0.15",
                       known) == []
    bad = unexplained("1.54 / 2.21; 2.4 %; 9.6e-07; n = 999; 1.5312", known)
    assert [t.text for t in bad] == ["1.54", "2.21", "2.4", "9.6e-07", "999"]


def test_the_old_one_off_numbers_are_unexplained():
    """The defects of the issue: numbers no run of the profile measured."""
    known = known_numbers({"horizontal": 1.53, "vertical": 2.20, "errors": [2.41, 2.83]})
    old = ["k = 1 1.32-1.48 / 2.15-2.22 (thesis 1.4 / 2.2)",
           "At 60000 / 10000 we measured 1.99 % on the deskewed pixels",
           "the input's PCA spectrum, 0.408 0.305 0.288, again (not certified: gap 1.0)"]
    shown = [[t.text for t in unexplained(line, known, whitelist={"60000", "10000"})]
             for line in old]
    assert shown == [["1.32", "1.48", "2.15", "2.22", "1.4"], ["1.99"],
                     ["0.408", "0.305", "0.288", "1.0"]]


def test_long_lists_count_only_by_their_summary():
    values = [0.001 * i for i in range(MAX_LIST + 1)]
    known = known_numbers({"raw": values})
    assert [t.text for t in unexplained("0.123 and 0.200 and 0.100", known)] == ["0.123"]
    assert unexplained("0.123", known_numbers({"raw": values[:MAX_LIST]})) == []


def test_whitelist_entries_name_a_result_and_a_reason():
    for result, number, reason in WHITELIST:
        assert get_result(result).NAME == result
        float(number)
        assert len(reason) > 30
    assert "1.99" in whitelisted("fig_2_17", cited=True)
    assert "1.99" not in whitelisted("fig_2_17") | whitelisted("fig_2_3_4", cited=True)


def test_cited_numbers_pass_only_inside_their_label():
    known = known_numbers({"error": 2.41})
    labelled = ("This run measured 2.41 %. At full size (cited earlier measurement: "
                "`harness job --config config/full.yaml fig_2_17/baseline`, 60000 / 10000 "
                "images, commit 8ccc685: 1.99 % (deskewed)) it matched neither.")
    assert unexplained(labelled, known, whitelist={"60000", "10000"}, cited={"1.99"}) == []
    bare = "This run measured 2.41 %. At 60000 / 10000 we measured 1.99 %."
    assert [t.text for t in unexplained(bare, known, whitelist={"60000", "10000"},
                                        cited={"1.99"})] == ["1.99"]
