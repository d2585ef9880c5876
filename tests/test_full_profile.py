"""The full profile (the thesis' sizes) as a user first meets it: a dry run that lists
every job of every thesis result of the profile (table cells, solver points, figure
points). How long the jobs take to resolve is an asv benchmark
(benchmarks/bench_workflow.py), not a bound here: a loaded machine made it flaky."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from harness.config import load_config
from harness.workflow import WorkflowConfig

pytestmark = pytest.mark.slow


def test_full_profile_dry_run_lists_every_job(repo_root, tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path / "empty-cache"))  # no data: still listed
    # --forceall: every job, whatever records a local results/full already holds
    run = subprocess.run([sys.executable, "-m", "snakemake", "-n", "--forceall", "--cores", "2",
                          "--configfile", "config/full.yaml"],
                         cwd=repo_root, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    listed = set(re.findall(r"output: (results/full/\S+?\.json)", run.stdout))
    monkeypatch.chdir(repo_root)
    harness = WorkflowConfig("config/full.yaml", load_config("config/full.yaml"))
    expected = {r for result in harness.result_names for r in harness.result_records(result)}
    assert expected == listed
    assert {r.split("/")[3] for r in listed} == {
        "fig_2_10",
        "fig_2_13",
        "fig_2_16",
        "fig_2_17",
        "fig_2_20",
        "fig_2_3_4",
        "fig_3_20",
        "fig_3_21",
        "fig_3_22",
        "fig_3_23",
        "fig_3_24",
        "fig_3_28",
        "fig_3_29",
        "fig_3_32_35",
        "fig_3_37",
        "lecture_are",
        "lecture_clustering",
        "lecture_spca",
        "mve_fidelity",
        "solver_table",
        "table_2_1",
        "table_3_2",
        "table_3_3",
        # issues 54 and 55 (fig_2_5 and fig_3_25_27 read others' records: no jobs)
        "faces_identities", "fig_2_15", "fig_3_2", "fig_3_5_14", "fig_3_8_15",
        "linear_methods_2_2_1", "lmnn_mu_sweep", "mds_3_1_2", "mvu_graph_3_1_12", "mvu_steps_3_1_4", "fig_3_13", "teapot_3_1_5", "fig_3_18", "fig_3_1_3_7", "graph_laplacian_3_1_8", "spectral_3_2_1", "nca_2_2_2", "oos_sdp_3_1_10", "lmnn_rescale", "lmnn_sdp",
        "lmnn_solver_profile", "mm_lmnn_properties", "mmc_pola", "mvu_feasibility",
        "nca_local_minima", "table_2_1_statistics", "table_3_2_l5",
        "sensor_cg_3_1_8", "hlle_noise_3_1_9"}
    # the thesis' Table 2.1 and 3.2 data sets are all there (gaps or not)
    for cell in ("table_2_1/mnist/pca_lmnn", "table_2_1/letter/mm_lmnn", "table_3_2/teapot/mvu/native",
                 "table_3_3/usps/8vs9/draw9", "fig_3_37/usps/mvu"):
        assert f"results/full/records/{cell}.json" in listed
    assert len(listed) > 150
