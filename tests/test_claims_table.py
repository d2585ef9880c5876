"""``harness claims``: the register with a run's verdicts (harness.claims_table, issue 51)."""

import csv
import io

import pytest

from harness.claims import make_claim, readings_claim, Reading
from harness.claims_table import COLUMNS, claims_table, render_csv, render_markdown, tally
from harness.register import load_register


def _rows(claims):
    return {r["id"]: r for r in claims_table({}, claims)}


def test_every_register_entry_is_a_row_and_an_unbuilt_one_is_never_a_pass():
    rows = claims_table({}, [])
    assert len(rows) == len(load_register())
    by = {r["id"]: r for r in rows}
    assert by["s2-1-9-never-outperform-rec"]["verdict"] == "not yet built"
    entries = load_register().values()
    timing = next(e for e in entries if e.decidable.startswith("not comparable"))
    assert by[timing.id]["verdict"] == "not comparable"
    assert by[timing.id]["evidence"] == timing.decidable
    unreachable = next(e for e in entries if e.decidable.startswith("data not reachable"))
    assert by[unreachable.id]["verdict"] == "not measured"
    assert {r["verdict"] for r in rows} <= {"not yet built", "not comparable", "not measured"}


def test_a_claim_naming_an_entry_gives_it_its_verdict_and_evidence():
    claim = make_claim("fig_2_17", "never outperform", [True, False], "PCA r=15 below",
                       register="s2-1-9-never-outperform-rec")
    row = _rows([claim])["s2-1-9-never-outperform-rec"]
    assert row["verdict"] == "does not hold" and row["result"] == "fig_2_17"
    assert row["evidence"] == "fig_2_17: PCA r=15 below"
    assert row["thesis_line"] == "1049" and row["quantifier"] == "every"
    assert row["quote"] == "never outperform LMNN with a rectangular matrix"


def test_two_claims_on_one_entry_that_disagree_partly_hold():
    a = make_claim("table_2_1", "x", [True], "a", register="s2-1-8-mul-lmnn-improve-or-identical-all")
    b = make_claim("fig_2_9_12", "y", [False], "b", register="s2-1-8-mul-lmnn-improve-or-identical-all")
    row = _rows([a, b])["s2-1-8-mul-lmnn-improve-or-identical-all"]
    assert row["verdict"] == "partly holds" and row["result"] == "table_2_1, fig_2_9_12"


def test_the_quantifier_comes_from_the_register():
    # 'in some cases Isomap's negative eigenvalues are appreciable': existential
    claim = make_claim("fig_3_37", "some", [False, True], "e",
                       register="s3-2-2-negative-appreciable")
    assert claim["verdict"] == "holds"
    with pytest.raises(ValueError, match="not in the claims register"):
        make_claim("fig_x", "c", [True], "e", register="no-such-entry")
    claim = readings_claim("fig", "c", [Reading("a", [True, False], "x"),
                                        Reading("b", [True], "y")],
                           register="s3-2-2-negative-appreciable")
    assert claim["verdict"] == "holds"  # both readings existential


def test_harness_checks_and_unregistered_claims_are_rows_apart():
    harness = {**make_claim("fig_2_16", "both searches exact", [True], "4 of 4"),
               "counted": False}
    unregistered = make_claim("table_2_1", "energy cuts MNIST by a third", [True], "1.3")
    registered_but_not_counted = {**make_claim("fig_2_13", "exact", [True], "e",
                                               register="s2-1-9-ball-trees-exact"),
                                  "counted": False}
    rows = claims_table({}, [harness, unregistered, registered_but_not_counted])
    kinds = [r["kind"] for r in rows[len(load_register()):]]
    assert kinds == ["harness", "unregistered", "harness"]
    # a check that is not counted never decides its entry
    assert {r["id"]: r for r in rows}["s2-1-9-ball-trees-exact"]["verdict"] == "not yet built"
    assert tally(rows, "harness") == "2 harness claims: 2 holds"


def test_csv_and_markdown():
    claim = make_claim("fig_2_17", "never", [True], "ok", register="s2-1-9-never-outperform-rec")
    rows = claims_table({}, [claim])
    parsed = list(csv.DictReader(io.StringIO(render_csv(rows))))
    assert tuple(parsed[0]) == COLUMNS and len(parsed) == len(rows)
    md = render_markdown(rows)
    assert md.startswith("# The claims register and this run's verdicts")
    assert "thesis claims: 1 holds" in md and "| s2-1-9-never-outperform-rec | 1049 | holds |" in md
