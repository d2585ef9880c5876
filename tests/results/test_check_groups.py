"""The shared pieces of check-groups results: a record's status, the evidence of a job
not measured, flattening a record into the long CSV."""

from __future__ import annotations

from harness.results.common.write.check_groups import flatten, not_run, record_ok


def test_record_ok_needs_an_ok_record():
    assert record_ok({"status": "ok"})
    assert not record_ok({"status": "failed"}) and not record_ok(None)


def test_not_run_names_the_command_once_and_cuts_long_reasons():
    missing = not_run("r", "k", {"status": "missing", "reason": "no record yet: run `harness job r/k`"})
    assert missing.count("harness job r/k") == 1
    assert not_run("r", "k", None) == "job r/k not measured (no record; run `harness job r/k`)"
    long = not_run("r", "k", {"status": "failed", "reason": "x" * 500})
    assert "x" * 152 in long and "x" * 160 not in long and long.endswith("run `harness job r/k`)")


def test_flatten_gives_every_number_with_its_path():
    rows = dict(flatten({"a": {"b": [1, 2.5]}, "ok": True, "name": "text",
                         "c": {"se_difference": 0.5}}))
    assert rows == {"a.b[0]": 1.0, "a.b[1]": 2.5, "ok": 1.0, "c.se_difference": 0.5,
                    "c.two_se": 1.0}
