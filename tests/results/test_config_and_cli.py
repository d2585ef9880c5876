"""The figures' sections of the profile's results: (schema and registry checks) and
the command line: bad input is refused with a message naming the bad thing and the
fix."""

from __future__ import annotations

import json
import re

import pytest

from harness.cli import main
from harness.config import ConfigError, load_config
from harness.jobs import Job, job_params, parse_job, result_jobs
from harness.workflow import WorkflowConfig


def test_defaults_are_filled(profile):
    config = profile(fig_3_24={"datasets": ["swiss_roll"]}, fig_3_28={})
    f24, f28 = config["results"]["fig_3_24"], config["results"]["fig_3_28"]
    assert f24["n_neighbors"] == 5 and f24["eval_neighbors"] == 15
    assert f24["solver"] == "native" and f24["time_limit_seconds"] == 3600
    assert f24["n_samples"] == {} and f24["equal_tolerance"] == 0.005
    assert f28["n_neighbors"] == [3, 4, 5, 6, 7, 8, 9, 10] and f28["n_samples"] == 1000
    assert f28["dataset"] == "swiss_roll" and "dataset_params" not in f28
    assert {name: r["dataset_params"] for name, r in f28["readings"].items()} == {
        "noise_free": {"noise": 0.0},
        "section_3_1_5": {"noise": 0.0, "extra_noise_dims": 5, "extra_noise_std": 0.1}}
    assert not any("n_neighbors" in r for r in f28["readings"].values())  # the section's
    assert f28["lock_threshold"] == 0.1 and f28["n_components"] == 2
    assert [job.id for job in result_jobs(config, "fig_3_24")] == [
        "fig_3_24/swiss_roll/max_trace", "fig_3_24/swiss_roll/min_trace"]
    jobs = result_jobs(config, "fig_3_28")
    assert jobs[0] == Job("fig_3_28", "noise_free/k3") and len(jobs) == 16
    assert jobs[-1] == Job("fig_3_28", "section_3_1_5/k10")


@pytest.mark.parametrize("figures, message", [
    ({"fig_3_24": {"datasets": ["swiss_roll"], "bogus": 1}},
     r"config entry results/fig_3_24: Additional properties are not allowed \('bogus'"),
    ({"fig_3_25": {}}, r"config entry results: Additional properties .*'fig_3_25'"),
    ({"fig_3_28": {"n_neighbors": [0]}}, r"config entry results/fig_3_28/n_neighbors/0: 0 is less than"),
    ({"fig_3_24": {"datasets": ["mnist"]}},
     r"results.fig_3_24.datasets: unknown dataset 'mnist'; valid datasets: .*swiss_roll"),
    ({"fig_3_24": {"datasets": ["swiss_roll"], "solver": "cplex"}},
     r"results.fig_3_24.solver: unknown solver 'cplex'; valid solvers: native, native_lowrank, clarabel"),
    ({"fig_3_24": {"datasets": ["swiss_roll"], "n_samples": {"fery": 50}}},
     r"results.fig_3_24.n_samples: key 'fery' names no dataset of results.fig_3_24.datasets "
     r"\(swiss_roll\)"),
    ({"fig_3_24": {"datasets": ["swiss_roll"], "n_samples": {"swiss_roll": 10}}},
     r"results.fig_3_24.eval_neighbors = 15 must be below n_samples.swiss_roll = 10"),
    ({"fig_3_28": {"n_samples": 8, "eval_neighbors": 5}},
     r"results.fig_3_28.n_neighbors: k = 8 must be below n_samples = 8"),
    ({"fig_3_28": {"dataset": "nope"}}, r"results.fig_3_28.dataset: unknown dataset 'nope'"),
    # the one data reading of before: now results.fig_3_28.readings
    ({"fig_3_28": {"dataset_params": {"noise": 0.0}}},
     r"config entry results/fig_3_28: Additional properties are not allowed "
     r"\('dataset_params' was unexpected\)"),
    ({"fig_3_28": {"readings": {}}}, r"config entry results/fig_3_28/readings: \{\} should "
                                     r"be non-empty"),
    ({"fig_3_28": {"readings": {"Noisy-Roll": {"dataset_params": {}, "description": "x"}}}},
     r"config entry results/fig_3_28/readings: 'Noisy-Roll' does not match"),
    ({"fig_3_28": {"readings": {"noisy": {"dataset_params": {}}}}},
     r"config entry results/fig_3_28/readings/noisy: 'description' is a required property"),
    ({"fig_3_28": {"n_samples": 40, "eval_neighbors": 5,
                   "readings": {"noisy": {"dataset_params": {}, "n_neighbors": [4, 40],
                                          "description": "x"}}}},
     r"results.fig_3_28.readings.noisy.n_neighbors: k = 40 must be below n_samples = 40 "
     r"\(reading noisy\)"),
])
def test_bad_sections_are_refused_naming_the_entry(profile, figures, message):
    with pytest.raises(ConfigError, match=message):
        profile(**figures)


def test_quick_and_full_profiles_list_both_figures(repo_root, monkeypatch):
    monkeypatch.chdir(repo_root)
    profile = load_config("config/quick.yaml")
    quick, full = profile["results"], load_config("config/full.yaml")["results"]
    # the quick profile runs both figures at the thesis' sizes (issue 17)
    assert quick["fig_3_24"]["solver"] == "native"
    assert quick["fig_3_24"]["n_samples"] == {"swiss_roll": 1000, "mnist_fives": 500}
    assert quick["fig_3_28"]["n_samples"] == 1000
    assert quick["fig_3_28"]["solver"] == "native"
    assert full["fig_3_28"]["n_samples"] == 1000
    assert full["fig_3_28"]["solver"] == "native"
    assert full["fig_3_24"]["solver"] == "native"
    # both readings of the roll's data; quick sweeps the noisy one at the claims' k only
    for section, noisy_k in ((quick["fig_3_28"], [5, 6, 7]),
                             (full["fig_3_28"], [3, 4, 5, 6, 7, 8, 9, 10])):
        readings = section["readings"]
        assert list(readings)[:2] == ["noise_free", "section_3_1_5"]
        assert readings["noise_free"]["dataset_params"] == {"noise": 0.0}
        assert "n_neighbors" not in readings["noise_free"] and section["n_neighbors"] == list(range(3, 11))
        assert readings["section_3_1_5"]["dataset_params"] == {
            "noise": 0.0, "extra_noise_dims": 5, "extra_noise_std": 0.1}
        assert readings["section_3_1_5"]["n_neighbors"] == noisy_k
    # the full profile adds the thesis' procedure (sde.m: CSDP stopped at 50 iterations)
    sde = full["fig_3_28"]["readings"]["sde_csdp50"]
    assert "sde_csdp50" not in quick["fig_3_28"]["readings"]
    assert sde["solver"] == "csdp" and sde["dataset_params"] == {"noise": 0.0}
    assert sde["method_params"] == {"csdp_params": {"maxiter": 50}}
    outputs = WorkflowConfig("config/quick.yaml", profile).all_outputs()
    assert "results/quick/figures/fig_3_24.png" in outputs
    assert "results/quick/figures/fig_3_28.md" in outputs


def test_point_ids_are_checked():
    assert parse_job("fig_3_28/noise_free/k7") == Job("fig_3_28", "noise_free/k7")
    assert parse_job("fig_3_24/swiss_roll/max_trace") == Job("fig_3_24", "swiss_roll/max_trace")
    with pytest.raises(KeyError, match="unknown thesis result 'fig_9_9'; valid results: "
                                       ".*fig_3_23, fig_3_24, .*fig_3_28"):
        parse_job("fig_9_9/k7")
    with pytest.raises(ConfigError, match="must look like RESULT/KEY"):
        parse_job("fig_3_28")


def test_point_keys_are_checked(profile):
    config = profile(fig_3_24={"datasets": ["swiss_roll"]}, fig_3_28={})
    with pytest.raises(ConfigError, match=r"fig_3_28/kx: must be fig_3_28/READING/k<K>"):
        job_params(config, Job("fig_3_28", "kx"))
    with pytest.raises(ConfigError, match=r"fig_3_28/noise_free/kx: must be "
                                          r"fig_3_28/noise_free/k<K>"):
        job_params(config, Job("fig_3_28", "noise_free/kx"))
    with pytest.raises(ConfigError, match=r"unknown reading 'noisy'; valid readings "
                                          r"\(results.fig_3_28.readings\): noise_free, "
                                          r"section_3_1_5"):
        job_params(config, Job("fig_3_28", "noisy/k4"))
    with pytest.raises(ConfigError, match=r"VARIANT one of max_trace, min_trace"):
        job_params(config, Job("fig_3_24", "swiss_roll/max"))
    with pytest.raises(ConfigError, match=r"unknown dataset 'nope'"):
        job_params(config, Job("fig_3_24", "nope/max_trace"))
    # the resolved parameters are deterministic (the Snakemake rerun trigger)
    p = Job("fig_3_28", "section_3_1_5/k4")
    assert json.dumps(job_params(config, p)) == json.dumps(job_params(config, p))


def test_figure_missing_from_the_profile_names_the_fix(profile):
    config = profile(fig_3_28={})
    with pytest.raises(ConfigError, match=r"fig_3_24 is not in the profile 'unit'; "
                                          r"add a results.fig_3_24 section"):
        result_jobs(config, "fig_3_24")


def test_command_line_errors_name_the_bad_thing(capsys, tmp_path, repo_root):
    profile = tmp_path / "p.yaml"
    profile.write_text(json.dumps({
        "profile": "cli", "results_dir": str(tmp_path / "r"),
        "reference_dir": str(repo_root / "results" / "reference"),
        "results": {"table_3_2": {"datasets": ["swiss_roll"], "methods": ["pca"]},
                    "fig_3_28": {"n_samples": 40, "n_neighbors": [3], "solver": "clarabel"}},
    }))
    assert main(["job", "--config", str(profile), "fig_9_9/k3"]) == 2
    assert "unknown thesis result 'fig_9_9'" in capsys.readouterr().err
    assert main(["job", "--config", str(profile), "fig_3_28/noise_free/three"]) == 2
    assert "must be fig_3_28/noise_free/k<K>" in capsys.readouterr().err
    assert main(["job", "--config", str(profile), "fig_3_28/noisy/k3"]) == 2
    assert "unknown reading 'noisy'" in capsys.readouterr().err
    assert main(["write", "--config", str(profile), "fig_3_24"]) == 2
    assert "fig_3_24 is not in the profile 'cli'" in capsys.readouterr().err
    # a point that runs: k = 3 on 40 points is a disconnected graph, a marked record
    assert main(["job", "--config", str(profile), "fig_3_28/noise_free/k3"]) == 0
    assert ("fig_3_28/noise_free/k3: failed (the k-nearest-neighbour graph"
            in capsys.readouterr().out)
    records = tmp_path / "r" / "cli" / "records" / "fig_3_28"
    assert (records / "noise_free" / "k3.json").exists()
    # no names: every result of the profile (the table, with its cells missing, too)
    assert main(["write", "--config", str(profile)]) == 0
    out = capsys.readouterr().out
    assert out.count("fig_3_28.") == 4 and out.count("table_3_2.") == 4  # and the sidecars
    assert (tmp_path / "r" / "cli" / "figures" / "fig_3_28.png").exists()


def test_list_shows_the_figures(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "thesis results (harness job RESULT/KEY, harness write RESULT):" in out
    for name in ("fig_3_23", "fig_3_24", "fig_3_28"):
        assert re.search(rf"^  {name} +figure +Fig\. {name[4]}\.{name[6:]}:", out, re.M), name
