"""A job's code is its result's work module, never the code that writes it.

For every result package (``harness/results/<name>/``): the source files of every job
of the quick and the full profile (:func:`harness.jobs.job_sources`, the inputs of
``rules/jobs.smk``'s rule, whose content Snakemake's rerun trigger reads) hold its
``work.py`` (or the shared work module it names) and no writer code: no ``write.py``,
no module that imports matplotlib or tabulate, none of the table and figure writers.
So a content edit of ``write.py`` changes no job's source hash and an edit of
``work.py`` changes every one of its result's.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from harness.config import load_config
from harness.jobs import job_sources, result_jobs
from harness.result_registry import is_package, result_modules, work_module, write_module
from harness.sources import imported_names

#: third-party packages that only writing uses
WRITER_PACKAGES = ("matplotlib", "tabulate", "jinja2")
#: the project's writer modules (tables, figures, the report, the outputs)
WRITER_MODULES = ("harness.results.common.write.figure_files", "harness.results.common.write.tables",
                  "harness.results.common.write.table_section", "harness.results.common.write.table_claims",
                  "harness.results.common.write.table_result", "harness.report", "harness.outputs")
PROFILES = ("config/quick.yaml", "config/full.yaml")


def _packages() -> dict:
    return {name: m for name, m in result_modules().items() if is_package(m)}


REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def jobs_sources() -> dict[str, list[tuple[str, list[str]]]]:
    """Every result package's jobs (both profiles) with their source files."""
    out = {}
    for profile in PROFILES:
        config = load_config(REPO / profile)
        for name in _packages():
            if name in config["results"]:
                out.setdefault(name, []).extend(
                    (job.id, job_sources(config, job)) for job in result_jobs(config, name))
    return out


def _module_name(path: str) -> str:
    parts = Path(path).with_suffix("").parts
    top = max(i for i, p in enumerate(parts) if p == "harness")
    names = list(parts[top:])
    return ".".join(names[:-1] if names[-1] == "__init__" else names)


def _writer_imports(path: str) -> set[str]:
    """The writer code the project module at ``path`` imports. Plugins
    (``harness.datasets``, ``harness.methods``) are data and method code whatever they
    import: the sensor network draws its letters with matplotlib's text paths."""
    name = _module_name(path)
    if name.startswith(WRITER_MODULES):
        return {name}
    if name.startswith(("harness.datasets", "harness.methods")):
        return set()
    found = set()
    for imported in imported_names(name, Path(path)):
        if imported.split(".")[0] in WRITER_PACKAGES or imported.startswith(WRITER_MODULES):
            found.add(imported)
    return found


def test_there_are_result_packages():
    assert "fig_2_20" in _packages()


def test_no_job_imports_writer_code(jobs_sources):
    bad = {}
    for name, jobs in jobs_sources.items():
        writer = str(Path(write_module(result_modules()[name]).__file__).resolve())
        for job, files in jobs:
            assert writer not in files, f"{job} lists {writer}"
            for path in files:
                if found := _writer_imports(path):
                    bad.setdefault(path, set()).update(found)
    assert not bad, "job code imports writer code: " + "; ".join(
        f"{p} imports {', '.join(sorted(v))}" for p, v in sorted(bad.items()))


def _digest(files: list[str], edited: str | None = None) -> str:
    """A hash of the files' contents, ``edited`` read with one more line."""
    h = hashlib.sha256()
    for path in sorted(files):
        data = Path(path).read_bytes()
        if path == edited:
            data += b"\n# an edit\n"
        h.update(path.encode() + b"\0" + data + b"\0")
    return h.hexdigest()


def test_a_write_edit_reruns_no_job_and_a_work_edit_reruns_all(jobs_sources):
    for name, jobs in jobs_sources.items():
        result = result_modules()[name]
        write_file = str(Path(write_module(result).__file__).resolve())
        work_file = str(Path(work_module(result).__file__).resolve())
        for job, files in jobs:
            assert _digest(files, edited=write_file) == _digest(files), job
            assert _digest(files, edited=work_file) != _digest(files), job
