"""A thesis result is one folder: docs/extending.md's worked example, its files dropped as a
throwaway package into a folder of one's own (``$HARNESS_RESULT_DIRS``), is listed by
``harness list``, validated in a profile, scheduled by ``snakemake -n`` (its jobs and
its write step) and, after a run, shown in the report with its claim, with no other
edit."""

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

def readme_example(repo_root) -> dict[str, str]:
    """The files of the worked example of docs/extending.md's "Adding a thesis result" section,
    verbatim: each code block whose first line names its path (``# my_squares/...``)."""
    text = (repo_root / "docs" / "extending.md").read_text()
    section = text.split("## Adding a thesis result", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```\w+\n# (my_squares/[\w.]+)[^\n]*\n(.*?)```", section,
                        flags=re.S)
    return {path: body for path, body in blocks}


def test_a_result_module_in_its_own_folder_joins_the_workflow(tmp_path, repo_root):
    plugins = tmp_path / "my_results"
    files = readme_example(repo_root)
    assert set(files) == {"my_squares/__init__.py", "my_squares/schema.yaml",
                          "my_squares/work.py", "my_squares/write.py", "my_squares/README.md"}
    for path, body in files.items():
        (plugins / path).parent.mkdir(parents=True, exist_ok=True)
        (plugins / path).write_text(body)
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
