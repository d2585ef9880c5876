"""The small tier of the native MVU solver's regression suite (``make test``), and
the suite's comparison with its baseline (``make solver-regression`` runs the full
tier)."""

import pytest

from harness.solvers.mvu_sdp import regression
from harness.solvers.mvu_sdp.regression import (DEFAULT_BASELINE, Instance, compare,
                                            format_table, instances, read_rows,
                                            run_instance)


@pytest.mark.parametrize("instance", instances("small"), ids=lambda i: i.name)
def test_small_tier_instance_does_what_it_is_expected_to(instance):
    """Certified optimal (or refused, the disconnected graph) within its CPU budget;
    the certificate is the harness' own, recomputed from the problem data."""
    row = run_instance(instance)
    assert row["outcome"] == "ok", row
    assert row["cpu_seconds"] <= instance.budget
    if instance.expect == "certified":
        assert row["gap"] <= 1e-3 and row["violation"] <= 1e-4 and row["bound"] >= \
            row["value"] * (1 - 1e-4)
    else:
        assert "disconnected" in row["method"]


def test_the_full_tier_covers_every_family_of_issue_50():
    full = instances("full")
    assert set(instances("small")) <= set(full)
    names = {i.name for i in full}
    assert len(names) == len(full)
    clean = [i for i in full if i.family == "roll_clean" and i.n == 1000]
    assert {i.k for i in clean} == {4, 5, 6, 7}
    assert all(sum(i.k == k for i in clean) >= 5 for k in (4, 5, 6, 7))
    noisy = [i for i in full if i.family == "roll_3_1_5"]
    assert {(n, sum(i.n == n for i in noisy)) for n in (300, 1000, 2000)} == \
        {(300, 3), (1000, 3), (2000, 3)}
    assert {"helix", "disconnected", "nearly_disconnected"} <= {i.family for i in full}


def test_the_baseline_has_a_row_for_every_instance_of_the_full_tier():
    rows = read_rows(DEFAULT_BASELINE)
    assert {r["instance"] for r in rows} == {i.name for i in instances("full")}


def _row(name, outcome="ok", cpu=10.0, status="optimal"):
    return {"instance": name, "outcome": outcome, "cpu_seconds": cpu, "status": status,
            "gap": 1e-4, "violation": 1e-6, "expect": "certified"}


def test_compare_flags_a_lost_certificate_and_a_slowdown_but_not_a_known_failure():
    base = [_row("a"), _row("b", cpu=10.0), _row("c", "FAIL", status="inaccurate"),
            _row("d", cpu=0.5)]
    now = [_row("a", "FAIL", status="inaccurate"), _row("b", cpu=15.1),
           _row("c", "FAIL", status="inaccurate"), _row("d", cpu=1.5), _row("e", "FAIL")]
    flags, known = compare(now, base)
    text = "\n".join(flags)
    assert "a: inaccurate" in text and "lost what the baseline had" in text
    assert "b: 1.51x slower" in text
    assert "e: optimal" in text and "not in the baseline" in text
    assert not any(f.startswith(("c:", "d:")) for f in flags)  # d: below the floor
    assert len(known) == 1 and known[0].startswith("c:")
    assert compare([_row("b", cpu=14.9)], base) == ([], [])


def test_the_table_shows_the_baseline_beside_the_run():
    table = format_table([_row("b", cpu=15.1) | {"m": 10, "method": "ipm", "budget": 60.0,
                                                  "iterations": 7, "shift": 0.0,
                                                  "value": 1.0, "bound": 1.0}],
                         [_row("b")])
    assert "| b | 10 | ipm | 15.1 | 60.0 | 7 |" in table and "baseline CPU s" in table


def test_the_command_line_exits_1_on_a_flag(tmp_path, monkeypatch, capsys):
    baseline = tmp_path / "base.csv"
    regression.write_rows([_row("helix/n60/k4/s0", cpu=1e-3)], baseline)
    monkeypatch.setattr(regression, "SLOWER_FLOOR", 0.0)
    code = regression.main(["--tier", "small", "--only", "helix", "--baseline",
                            str(baseline)])
    out = capsys.readouterr().out
    assert code == 1 and "slower than the baseline" in out and "| helix/n60/k4/s0 |" in out
