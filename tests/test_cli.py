import json

from harness.cli import main


def test_list_shows_methods_datasets_solvers_tables(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path))
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for word in ("methods:", "isomap", "thesis row: Lap", "datasets:", "swiss_roll",
                 "available", "NOT AVAILABLE", "harness fetch frey", "stand-in for teapot",
                 "solvers:", "mosek", "thesis results", "table_3_2", "solver_table",
                 "fig_3_28", "Fig. 3.28"):
        assert word in out, word


def test_doctor_reports_packages_threads_and_cache(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path))
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "scikit-learn" in out and "num_threads=" in out and str(tmp_path) in out


def test_job_and_write_from_the_command_line(capsys, tmp_path, repo_root):
    profile = tmp_path / "p.yaml"
    profile.write_text(json.dumps({
        "profile": "cli", "results_dir": str(tmp_path / "r"),
        "reference_dir": str(repo_root / "results" / "reference"),
        "datasets": {"swiss_roll": {"n_samples": 200}},
        "results": {"table_3_2": {"datasets": ["swiss_roll"], "methods": ["pca"]}},
    }))
    assert main(["job", "--config", str(profile), "table_3_2/swiss_roll/pca"]) == 0
    out = capsys.readouterr().out
    assert "table_3_2/swiss_roll/pca: ok local_continuity=" in out
    assert "records/table_3_2/swiss_roll/pca.json" in out
    assert main(["write", "--config", str(profile), "table_3_2"]) == 0
    out = capsys.readouterr().out
    assert out.count("table_3_2.") == 4  # csv, md, tex and the sidecar json
    assert (tmp_path / "r" / "cli" / "tables" / "table_3_2.md").exists()
    assert main(["write", "--config", str(profile), "fig_3_28"]) == 2
    assert "fig_3_28 is not in the profile 'cli'" in capsys.readouterr().err


def test_bad_names_give_a_clear_error(capsys):
    assert main(["job", "table_3_2/swiss_roll/nope"]) == 2
    assert "unknown method 'nope'; valid names:" in capsys.readouterr().err
    assert main(["job", "table_9_9/swiss_roll/pca"]) == 2
    assert "unknown thesis result 'table_9_9'; valid results:" in capsys.readouterr().err
    assert main(["write", "nope"]) == 2
    assert "unknown thesis result 'nope'" in capsys.readouterr().err
    assert main(["job", "--config", "/nonexistent.yaml", "table_3_2/swiss_roll/pca"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_fetch_offline_says_what_to_do(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path))
    import pooch

    def offline(*args, **kwargs):
        raise ConnectionError("network unreachable")

    monkeypatch.setattr(pooch, "retrieve", offline)
    assert main(["fetch", "frey"]) == 1
    err = capsys.readouterr().err
    assert "download failed" in err and "frey_rawface.mat" in err and str(tmp_path) in err
    assert main(["fetch", "swiss_roll"]) == 0
    assert "nothing to fetch" in capsys.readouterr().out


def test_a_job_the_profile_does_not_list_is_refused(capsys, tmp_path, repo_root):
    """``fig_2_20/trial99`` is a well-formed key, but the profile has trials 0-4: no
    stray record; the message names the valid keys."""
    profile = tmp_path / "p.yaml"
    profile.write_text(json.dumps({
        "profile": "cli", "results_dir": str(tmp_path / "r"),
        "reference_dir": str(repo_root / "results" / "reference"),
        "results": {"fig_2_20": {"n_samples": 100, "n_trials": 5}},
    }))
    assert main(["job", "--config", str(profile), "fig_2_20/trial99"]) == 2
    assert capsys.readouterr().err == (
        "harness: error: job fig_2_20/trial99 is not a job of fig_2_20 in the profile "
        "'cli' (its keys: trial0, trial1, trial2, trial3, trial4); to run it, change the "
        "profile's results.fig_2_20 section so that it lists it\n")
    assert not (tmp_path / "r").exists()


def test_a_job_line_shows_a_certificate_without_a_value_or_gap():
    """A solve stopped at its limit may certify no gap: the one-line report says '-'
    (it raised TypeError after the record was written, and Snakemake then deleted the
    record as the output of a failed job: 600 CPU-s of a full-profile solve lost)."""
    from harness.cli import _numbers

    record = {"certificate": {"value": None, "gap": None, "violation": 1.4e-3},
              "timing": {"wall_seconds": 612.0}}
    assert _numbers(record) == ["objective=- gap=- violation=1.40e-03", "wall=612.00s"]


def test_harness_claims_lists_the_register_as_csv(tmp_path, repo_root):
    from harness.register import load_register

    out = tmp_path / "claims.csv"
    assert main(["claims", "--config", str(repo_root / "config" / "quick.yaml"), "--format", "csv",
                 "--output", str(out)]) == 0
    import csv
    rows = list(csv.DictReader(out.open()))
    assert len(rows) >= len(load_register())
    assert {"id", "thesis_line", "section", "quote", "quantifier", "reading", "verdict",
            "evidence", "result"} <= set(rows[0])
