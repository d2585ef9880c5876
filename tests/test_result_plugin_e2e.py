"""A thesis result is one file: README's worked example, dropped as a throwaway
module into a folder of its own (``$HARNESS_RESULT_DIRS``), is listed by ``harness
list``, validated in a profile, scheduled by ``snakemake -n`` (its jobs and its write
step) and, after a run, shown in the report with its claim, with no other edit."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest
import yaml

from harness.records import read_record

pytestmark = pytest.mark.slow

def readme_example(repo_root) -> str:
    """The worked example of README's "Adding a thesis result" section, verbatim."""
    text = (repo_root / "README.md").read_text()
    section = text.split("## Adding a thesis result", 1)[1]
    return re.search(r"```python\n(.*?)```", section, flags=re.S).group(1)


def test_a_result_module_in_its_own_folder_joins_the_workflow(tmp_path, repo_root):
    plugins = tmp_path / "my_results"
    plugins.mkdir()
    (plugins / "my_squares.py").write_text(readme_example(repo_root))
    env = {**os.environ, "HARNESS_RESULT_DIRS": str(plugins),
           "HARNESS_DATA_DIR": str(tmp_path / "empty-cache")}
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(repo_root / "Snakefile", work)
    shutil.copytree(repo_root / "rules", work / "rules")
    (work / "mine.yaml").write_text(yaml.safe_dump({
        "profile": "mine", "reference_dir": str(repo_root / "results" / "reference"),
        "results": {"my_squares": {"numbers": [2, 3]}},
    }))

    def run(*args, cwd=work):
        return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True,
                              text=True, timeout=600)

    listed = run("-m", "harness", "list", cwd=repo_root)
    assert listed.returncode == 0, listed.stderr[-2000:]
    assert re.search(r"my_squares\s+table\s+My squares: x\^2 for a few x", listed.stdout)

    snakemake = ("-m", "snakemake", "--cores", "2", "--configfile")
    dry = run(*snakemake, "mine.yaml", "-n")
    assert dry.returncode == 0, dry.stderr[-3000:]
    assert set(re.findall(r"job=(\S+)", dry.stdout)) == {"my_squares/x2",
                                                        "my_squares/x3"}
    assert re.search(r"^write_my_squares\s+1$", dry.stdout, flags=re.M), dry.stdout

    done = run(*snakemake, "mine.yaml")
    assert done.returncode == 0, done.stderr[-3000:]
    record = read_record(work / "results/mine/records/my_squares/x3.json")
    assert (record["job"], record["status"], record["square"]) == ("my_squares/x3",
                                                                   "ok", 9)
    assert record["timing"]["wall_seconds"] >= 0  # the engine's child-process runner
    report = (work / "results/mine/report.md").read_text()
    assert "My squares: x^2 for a few x" in report
    assert "| 3 | 9 |" in report
    assert "a square is never negative" in report and "holds" in report
    html = (work / "results/mine/report.html").read_text()
    assert "My squares: x^2 for a few x" in html and "<td>9</td>" in html

    bad = work / "bad.yaml"  # its schema fragment is the profile's schema
    bad.write_text(yaml.safe_dump({"profile": "bad",
                                   "results": {"my_squares": {"numbers": "many"}}}))
    refused = run(*snakemake, "bad.yaml", "-n")
    assert refused.returncode != 0
    assert "results/my_squares/numbers" in refused.stdout + refused.stderr
