import json
import os

import numpy as np
import pytest

from harness.records import read_record, write_json_atomic, write_text_atomic


def test_atomic_write_round_trip_and_json_safety(tmp_path):
    path = tmp_path / "p" / "records" / "table_3_2" / "swiss_roll" / "pca.json"
    write_json_atomic(path, {"status": "ok", "x": np.float64(0.5), "bad": float("nan"),
                             "arr": np.arange(3)})
    data = json.loads(path.read_text())
    assert data["x"] == 0.5 and data["bad"] is None and data["arr"] == [0, 1, 2]
    assert data["schema"] == 1
    assert read_record(path)["x"] == 0.5  # parent folders made on the way
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


def test_status_must_be_known(tmp_path):
    with pytest.raises(ValueError, match="status 'weird'"):
        write_json_atomic(tmp_path / "r.json", {"status": "weird"})


def test_failed_write_leaves_old_file_and_no_temp(tmp_path, monkeypatch):
    path = tmp_path / "r.json"
    write_text_atomic(path, "old")

    def boom(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        write_text_atomic(path, "new")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


@pytest.mark.parametrize("umask", [0o022, 0o027, 0o077])
def test_atomic_write_respects_the_umask(tmp_path, umask):
    """Written files get the mode open() would give them, not mkstemp's 0600 (results
    on a shared file system must be readable by the group / a web server)."""
    old = os.umask(umask)
    try:
        path = write_text_atomic(tmp_path / "sub" / "table.md", "x\n")
        write_text_atomic(path, "y\n")  # replacing an existing file: same rule
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask
    assert path.read_text() == "y\n"


def test_csv_keeps_the_digits_a_markdown_prints(tmp_path):
    """A table's Markdown prints deltas with two decimals (a CPU delta of -12081.64 s);
    the CSV keeps them, so that harness.number_audit finds every printed number there."""
    import pandas as pd

    from harness.records import write_csv_atomic

    frame = pd.DataFrame({"delta": [-12081.64, 1 / 3], "n": [1000, 2]})
    text = write_csv_atomic(tmp_path / "t.csv", frame).read_text()
    assert text.splitlines() == ["delta,n", "-12081.64,1000", "0.3333333333,2"]
