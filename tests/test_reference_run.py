"""A slice of the quick profile, run as a user runs it, reproduces the project's kept
reference run (results/reference_runs/quick): a change that moves a reproduced number
or a verdict fails here, loudly and on purpose. When the move is intended, rerun the
quick profile and keep its new reference run (``harness export-run results/quick
results/reference_runs/quick --force``), and say so in the commit."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
import yaml

pytestmark = pytest.mark.slow

#: cheap results that cover the kinds of numbers the harness produces: linear metric
#: learning angles and kNN errors (Fig. 2.20), a certified MVU solve's metrics (Fig.
#: 3.20), action respecting embedding's SDP (lecture_are), spectral clustering's scores
#: (lecture_clustering) and Fig. 3.21's quality; ~15 CPU-s of jobs in the reference run
SLICE = ("fig_2_20", "fig_3_20", "fig_3_21", "lecture_are", "lecture_clustering")


def test_a_slice_of_the_quick_profile_reproduces_its_reference_run(tmp_path, repo_root):
    reference = repo_root / "results" / "reference_runs" / "quick"
    assert (reference / "records.csv").exists(), "the quick profile's reference run is missing"
    profile = yaml.safe_load((repo_root / "config" / "quick.yaml").read_text())
    profile["results"] = {name: profile["results"][name] for name in SLICE}
    profile["results_dir"] = str(tmp_path / "results")
    profile["reference_dir"] = str(repo_root / "results" / "reference")
    work = tmp_path / "work"  # Snakemake's lock and logs stay out of the checkout
    work.mkdir()
    shutil.copy(repo_root / "Snakefile", work)
    shutil.copytree(repo_root / "rules", work / "rules")
    (work / "quick.yaml").write_text(yaml.safe_dump(profile, sort_keys=False))
    run = subprocess.run([sys.executable, "-m", "snakemake", "--cores", "2", "--configfile",
                          "quick.yaml"], cwd=work, capture_output=True, text=True,
                         timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    compare = subprocess.run([sys.executable, "-m", "harness", "compare", str(reference),
                              str(tmp_path / "results" / "quick"), "--results", *SLICE],
                             cwd=repo_root, capture_output=True, text=True, timeout=300)
    assert compare.returncode == 0, compare.stdout[-5000:] + compare.stderr[-2000:]
    summary = compare.stdout.splitlines()
    assert any("0 differing" in line for line in summary), compare.stdout[-3000:]
