"""``harness verify``: a solver-table record's certificate re-checked from the arrays
kept beside it, and a tampered one rejected."""

import json

import numpy as np
import pytest

from harness.cli import main
from harness.config import validate_config
from harness.jobs import Job
from harness.problems.verify import certificate_path, load_certificate, save_certificate
from harness.records import read_record
from harness.runner import run_job


@pytest.fixture(scope="module")
def facial_record(tmp_path_factory):
    """A real solve: the noise-free roll, n = 40, k = 4 (the facial path)."""
    tmp = tmp_path_factory.mktemp("verify")
    section = {"backends": ["native"], "n": [40], "n_per_backend": {}, "n_neighbors": 4,
               "extra_noise_dims": 0}
    config = validate_config({"profile": "unit", "results_dir": str(tmp / "results"),
                              "results": {"solver_table": section}})
    return run_job(config, Job("solver_table", "equality/native/n40"))


def test_record_keeps_its_certificate_beside_it(facial_record):
    record = read_record(facial_record)
    assert record["verdict"] == "optimal"
    assert record["certificate_file"] == "n40.certificate.npz"
    arrays = load_certificate(certificate_path(facial_record))
    assert arrays["kernel_factor"].shape[0] == 40 and arrays["variant"] == "equality"
    assert arrays["dual"].shape == (record["problem"]["m"],)
    assert arrays["dual_lift"] > 0 and arrays["face_basis"].shape[0] == 40
    assert "certificate_arrays" not in record  # the JSON stays small


def test_cli_verifies_the_record(facial_record, capsys):
    assert main(["verify", str(facial_record)]) == 0
    out = capsys.readouterr().out
    claimed = read_record(facial_record)["certificate"]
    assert ": certified: " in out and f"value={claimed['value']:.10g}" in out
    assert main(["verify", "--json", str(facial_record)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["agrees"]
    assert report["bound"] == pytest.approx(claimed["bound"], rel=1e-12)
    assert report["gap"] == pytest.approx(claimed["gap"], abs=1e-12)


def test_cli_rejects_a_tampered_certificate(facial_record, tmp_path, capsys):
    arrays = load_certificate(certificate_path(facial_record))
    record = read_record(facial_record)
    copy = tmp_path / "n40.json"
    copy.write_text(json.dumps(record))
    arrays["dual"] = arrays["dual"] * (1.0 + 1e-3 * np.random.default_rng(0).standard_normal(
        len(arrays["dual"])))
    save_certificate(certificate_path(copy), arrays)
    assert main(["verify", str(copy)]) == 1
    out = capsys.readouterr().out
    assert "NOT CERTIFIED" in out
    assert "bound" in out.splitlines()[-1] and "claimed" in out.splitlines()[-1]
    assert any(line.strip().startswith("gap") for line in out.splitlines()[1:])


def test_cli_names_a_record_without_a_certificate(tmp_path, capsys):
    path = tmp_path / "n40.json"
    path.write_text(json.dumps({"status": "skipped", "certificate": None}))
    assert main(["verify", str(path)]) == 2
    assert "keeps no certificate arrays" in capsys.readouterr().err


def _malformed(facial_record, tmp_path, how):
    """A copy of the record with its certificate changed ``how``."""
    import shutil

    record = tmp_path / facial_record.name
    shutil.copy(facial_record, record)
    source = certificate_path(facial_record)
    target = tmp_path / source.name
    if how == "truncated":
        data = source.read_bytes()
        target.write_bytes(data[: len(data) // 2])
        return record
    arrays = dict(np.load(source))
    if how == "nan multiplier":
        arrays["dual"] = arrays["dual"].copy()
        arrays["dual"][0] = np.nan
    elif how == "missing array":
        arrays.pop("kernel_factor")
    elif how == "dropped edges":
        arrays["edges"], arrays["sq_lengths"] = arrays["edges"][:-3], arrays["sq_lengths"][:-3]
    np.savez(target, **arrays)
    return record


@pytest.mark.parametrize("how", ["truncated", "nan multiplier", "missing array",
                                 "dropped edges"])
def test_a_malformed_certificate_is_not_certified_without_a_traceback(
        facial_record, tmp_path, capsys, how):
    # issue 53, defect 6: each of these gave a traceback
    record = _malformed(facial_record, tmp_path, how)
    assert main(["verify", str(record)]) == 1
    captured = capsys.readouterr()
    assert "NOT CERTIFIED" in captured.out and "Traceback" not in captured.err
    assert main(["verify", "--json", str(record)]) == 1
    assert json.loads(capsys.readouterr().out)["ok"] is False
