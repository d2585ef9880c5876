"""What the Snakefile needs from the harness: the validated profile, the jobs of its
thesis results, and the files each rule reads and writes.

Kept out of the Snakefile so that it is plain, tested Python; the Snakefile and
``rules/*.smk`` stay thin: one rule runs any job (``rules/jobs.smk``), one rule
definition writes each result (``rules/results.smk``), one writes the report.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import shlex
import sys
from pathlib import Path

from harness import claims, registry
from harness.config import ConfigError, load_config
from harness.jobs import (
    JOB_PATTERN, job_params, job_sources, parse_job, records_dir, result_input_records,
    result_record_paths,
    runtime_minutes,
)
from harness.outputs import outputs_dir, result_outputs
from harness.plugin_args import check_plugin_args
from harness.record_check import quarantine_corrupt
from harness.result_registry import get_result, write_module
from harness.sources import source_closure

__all__ = ["WorkflowConfig", "DEFAULT_CONFIGFILE", "JOB_PATTERN", "workdir_relative"]

DEFAULT_CONFIGFILE = "config/quick.yaml"
#: kept runs of the profiles (``harness export-run``): ``<profile>/records.csv``
REFERENCE_RUNS = Path("results") / "reference_runs"
DEFAULT_MEMORY_MB = 4000


def workdir_relative(paths) -> list[str]:
    """Source files as Snakemake's inputs: relative to the working directory where
    they lie under it (absolute elsewhere, e.g. an installed package), so that the
    input sets Snakemake records do not change when the checkout is moved or cloned
    elsewhere with its results (an absolute path would rerun every job)."""
    here = Path.cwd().resolve()
    out = []
    for path in paths:
        path = Path(path).resolve()
        out.append(str(path.relative_to(here)) if path.is_relative_to(here) else str(path))
    return out


@dataclasses.dataclass
class WorkflowConfig:
    """The validated profile plus the path helpers used by ``rules/*.smk``."""

    configfile: str
    config: dict
    _params: dict = dataclasses.field(default_factory=dict, repr=False)
    _data_present: dict = dataclasses.field(default_factory=dict, repr=False)
    _jobserver: tuple | None = dataclasses.field(default=None, repr=False)
    _reference_cpu: dict | None = dataclasses.field(default=None, repr=False)

    @classmethod
    def from_snakemake(cls, workflow, config: dict) -> "WorkflowConfig":
        """Build from Snakemake's ``workflow`` object.

        The jobs re-read the profile *file* (``harness job --config FILE``), so one
        profile file is required and ``--config KEY=VALUE`` overrides are refused
        (they would not reach the jobs): put changes in a profile file instead.
        """
        files = [str(f) for f in workflow.overwrite_configfiles]
        if len(files) > 1:
            raise ConfigError(
                f"give one profile file, not {len(files)} ({', '.join(files)}): the "
                f"jobs read exactly one; merge them into one file"
            )
        if workflow.config_settings.config:
            keys = ", ".join(workflow.config_settings.config)
            raise ConfigError(
                f"--config overrides ({keys}) do not reach the jobs; copy the profile "
                f"and edit it, then pass it with --configfile"
            )
        path = files[0] if files else DEFAULT_CONFIGFILE
        config = load_config(path)
        # the plugins' arguments against their signatures, before any job runs (this
        # imports the plugins, which validating a profile in every job must not)
        check_plugin_args(config)
        return cls(configfile=path, config=config)

    # ---- the job server of a local run (harness.jobserver) ---------------------------
    def start_jobserver(self, workflow) -> None:
        """Start a job server for a local run (Snakefile ``onstart``) and name its
        socket in the environment the jobs inherit. Not for a cluster executor (its
        jobs run elsewhere), nor when ``HARNESS_JOBSERVER=off``."""
        from harness.owner_watch import OWNER_ENV
        from harness.jobserver import SOCKET_ENV
        from harness.jobserver.server import socket_path_for, start_server

        if not workflow.local_exec:
            return
        # every local job, served or in its own process, stops when this run is gone
        # (harness.owner_watch: a kill -9 of Snakemake leaves its shells and jobs running)
        os.environ[OWNER_ENV] = str(os.getpid())
        if os.environ.get(SOCKET_ENV) == "off":
            return
        path = socket_path_for(os.getpid())
        self._jobserver = (path, start_server(path, watch_pid=os.getpid()))
        os.environ[SOCKET_ENV] = path

    def stop_jobserver(self) -> None:
        """Stop the job server started by :meth:`start_jobserver`, if any."""
        from harness.jobserver import SOCKET_ENV
        from harness.jobserver.server import stop_server

        if self._jobserver is not None:
            stop_server(*self._jobserver)
            self._jobserver = None
            os.environ.pop(SOCKET_ENV, None)

    @property
    def command(self) -> str:
        """How jobs call the harness: this interpreter's ``-m harness``, so that a
        job finds the same installation whether or not the venv is activated."""
        return f"{shlex.quote(sys.executable)} -m harness"

    # ---- jobs: one rule runs any of them (harness.jobs, harness.runner) ------------
    @property
    def record_pattern(self) -> str:
        """``results/<profile>/records/{job}.json``."""
        return str(records_dir(self.config) / "{job}.json")

    @property
    def log_pattern(self) -> str:
        """``logs/<profile>/{job}.log``."""
        return str(Path("logs") / self.config["profile"] / "{job}.log")

    def params_of(self, job_id: str) -> dict:
        """The job's resolved parameters, resolved once per job (Snakemake asks for
        them for its params, runtime and inputs)."""
        if job_id not in self._params:
            self._params[job_id] = job_params(self.config, parse_job(job_id))
        return self._params[job_id]

    def job_sources(self, wildcards) -> list[str]:
        """The source files of the code the job runs (:func:`harness.jobs.job_sources`):
        editing one reruns the job."""
        job = parse_job(wildcards.job)
        return workdir_relative(job_sources(self.config, job, self.params_of(job.id)))

    def job_params_json(self, wildcards) -> str:
        """The job's resolved parameters: a changed value reruns it.

        A job whose data set's files are not on disk gets one more entry,
        ``data_files_missing: true``: its record is a gap naming ``harness fetch``, and
        once the files are fetched the entry goes away, the parameters change and the
        job reruns (without it the gap would stay until the record is deleted by hand).
        Jobs whose data is present keep exactly their resolved parameters.
        """
        params = self.params_of(wildcards.job)
        if not self.dataset_files_present(params.get("dataset")):
            params = {**params, "data_files_missing": True}
        return json.dumps(params, sort_keys=True)

    def dataset_files_present(self, name) -> bool:
        """Whether the files of the registered data set ``name`` are on disk and verify
        against their hashes (True for anything that is not a registered data set's
        name), asked once per name. A corrupt file counts as missing, so that a job
        whose record is a gap of a corrupt cache reruns once ``harness fetch`` repairs
        it (issue 53: only the files' existence was compared)."""
        if not isinstance(name, str):
            return True
        if name not in self._data_present:
            try:
                plugin = registry.get_dataset(name)
            except registry.UnknownNameError:
                present = True
            else:
                data = plugin()
                present = data.files_present()
                if present and hasattr(data, "verify"):
                    present = bool(data.verify()[0])
            self._data_present[name] = present
        return self._data_present[name]

    def job_runtime_minutes(self, wildcards) -> int:
        """The scheduler's runtime: the job's wall cap, rounded up, + 1 minute."""
        return runtime_minutes(self.params_of(wildcards.job), self.config)

    def job_priority(self, wildcards) -> float:
        """The scheduler's priority: the job's CPU seconds in the profile's reference
        run (``results/reference_runs/<profile>/records.csv``, 0 for a job not in it),
        so that the longest jobs start first and a run does not end on one long job
        while the other cores idle (measured on the quick profile: the last 2.5
        minutes of 35 ran one job, Fig. 3.28's k = 7 solve, started at minute 28)."""
        if self._reference_cpu is None:
            path = REFERENCE_RUNS / self.config["profile"] / "records.csv"
            self._reference_cpu = {}
            if path.exists():
                with open(path, newline="") as fh:
                    self._reference_cpu = {row["job"]: float(row["cpu_seconds"] or 0)
                                           for row in csv.DictReader(fh)}
        return self._reference_cpu.get(wildcards.job, 0.0)

    def job_threads(self, wildcards) -> int:
        """The job's cores: 1, or every core of the machine for a result that declares
        ``EXCLUSIVE = True`` (its jobs time computations, and no other job of the run may
        compete with them; Snakemake lowers it to ``--cores``)."""
        if getattr(parse_job(wildcards.job).module, "EXCLUSIVE", False):
            return os.cpu_count() or 1
        return 1

    def job_memory_mb(self, wildcards) -> int:
        """The scheduler's memory: the result's ``MEMORY_MB`` (default 4000)."""
        return getattr(parse_job(wildcards.job).module, "MEMORY_MB", DEFAULT_MEMORY_MB)

    # ---- results: one rule definition writes each (harness.results) ----------------
    @property
    def result_names(self) -> list[str]:
        """The results of the profile, in its order."""
        return list(self.config["results"])

    def result_outputs(self, result: str) -> list[str]:
        """``results/<profile>/<tables|figures>/RESULT.*`` (and its sidecar)."""
        return [str(p) for p in result_outputs(self.config, get_result(result)).values()]

    def result_records(self, result: str) -> list[str]:
        """The records the result is built from: its jobs' and those of the results it
        ``reads`` (:func:`harness.jobs.result_input_records`), so that it is rewritten
        when one changes."""
        return [str(p) for p in result_input_records(self.config, result)]

    def result_inputs(self, result: str) -> list[str]:
        """The code that writes the result (its module and what it imports) and the
        files its ``inputs(config)`` names (the thesis' reference CSV, the known
        deviations): editing one rewrites the result."""
        module = get_result(result)
        files = source_closure(module, write_module(module))
        if hasattr(module, "inputs"):
            files += module.inputs(self.config)
        return workdir_relative(sorted(set(files)))

    # ---- the report ----------------------------------------------------------------
    def all_result_outputs(self) -> list[str]:
        """Every result output of the profile (the report's inputs)."""
        return [p for name in self.result_names for p in self.result_outputs(name)]

    def report_outputs(self) -> list[str]:
        """``results/<profile>/report.{html,md}``."""
        return [str(outputs_dir(self.config) / f"report.{s}") for s in ("html", "md")]

    def report_sources(self) -> list[str]:
        """The report's code, the claims checker and the profile's result modules
        (their ``claims`` and ``section``): editing them rewrites the report."""
        modules = [part for name in self.result_names
                   for part in (get_result(name), write_module(get_result(name)))]
        return workdir_relative(source_closure("harness.report", "harness.report.build",
                                               "harness.report.html",
                                               "harness.report.markdown", claims, *modules))

    def all_outputs(self) -> list[str]:
        """What ``reproduce_all`` builds: every result, then the report."""
        return self.all_result_outputs() + self.report_outputs()

    def quarantine_corrupt_records(self) -> list[Path]:
        """Move the profile's unreadable records aside (``<record>.corrupt``,
        :func:`harness.record_check.quarantine_corrupt`) and say so on stderr: their jobs
        then rerun, and the write steps after them, instead of every step failing on
        the file (issue 53)."""
        moved = quarantine_corrupt(self.all_records())
        for path in moved:
            print(f"harness: {path} is not a readable record; moved to {path.name}.corrupt "
                  f"beside it, its job reruns", file=sys.stderr)
        return moved

    def all_records(self) -> list[str]:
        """Every job record of the profile, the other inputs of ``reproduce_all``.

        Snakemake ignores a missing input of an up-to-date output (since 7.7): a
        deleted record would leave its result as it was. A record missing on disk is
        a missing input of the default target, a rule with no output, and that
        Snakemake does not ignore: it schedules the record's job, and after it each
        write step that reads the record (its result's and those of the results that
        ``reads`` it) and the report. Nothing is added to the write steps' own
        params or inputs, so a complete run stays as it was and the write steps'
        metadata are not touched. (A params entry naming the absent records was
        tried: Snakemake keeps the value it had when the jobs were planned, before
        the record was remade, so the next run would rewrite the result again.)
        """
        return [p for name in self.result_names
                for p in map(str, result_record_paths(self.config, name))]
