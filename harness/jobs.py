"""Jobs of the thesis results: their ids, parameters, record paths and source files.

A job is one unit of work of one thesis result (:mod:`harness.results`): a cell of
Table 3.2, one certified solve of the solver table, one MVU solve of Fig. 3.28. Its
id is ``RESULT/KEY``, where the result module makes the key (``table_3_2/
swiss_roll/isomap``, ``solver_table/equality/native/n1000``, ``fig_3_28/k7``); its
record is ``<results_dir>/<profile>/records/RESULT/KEY.json`` (written by
:func:`harness.runner.run_job`); its Snakemake inputs are the source files of the
code it runs (:func:`job_sources`, one rule for every job) and its params the
resolved parameters (:func:`job_params`), so that an edit of that code or a change of
those values reruns exactly the jobs it affects.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import json
import math
from pathlib import Path
from types import ModuleType

from harness.errors import ConfigError
from harness.records import read_record
from harness.result_registry import get_result, hook, is_package, work_module
from harness.sources import module_file, source_closure
from harness.timelimit import WALL_CAP_EXTRA_SECONDS, WALL_CAP_FACTOR, wall_cap_for

__all__ = ["Job", "parse_job", "check_job", "section", "profile_results", "result_jobs",
           "job_params",
           "params_hash", "records_dir", "record_path", "result_record_paths", "result_input_records",
           "read_job_record", "job_sources",
           "cpu_budget", "wall_cap", "runtime_minutes", "JOB_PATTERN"]

# what a job id looks like (the Snakemake wildcard constraint)
JOB_PATTERN = r"[A-Za-z0-9_]+/[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*"
# how many of a result's keys a refused job's message names (then their number)
_KEYS_SHOWN = 6


@dataclasses.dataclass(frozen=True)
class Job:
    """One job: the result it belongs to and its key within it."""

    result: str
    key: str

    @property
    def id(self) -> str:
        """``RESULT/KEY``: the job's name on the command line and in Snakemake."""
        return f"{self.result}/{self.key}"

    @property
    def module(self) -> ModuleType:
        return get_result(self.result)

    def __str__(self) -> str:
        return self.id


def parse_job(job_id: str) -> Job:
    """``fig_3_28/k7`` -> ``Job("fig_3_28", "k7")`` (the result must exist).

    Raises
    ------
    ConfigError
        The id has no key.
    harness.registry.UnknownNameError
        No result of that name (the message lists the valid ones).
    """
    result, _, key = job_id.strip("/").partition("/")
    get_result(result)
    if not key:
        raise ConfigError(f"job {job_id!r} must look like RESULT/KEY, e.g. "
                          f"table_3_2/swiss_roll/isomap or fig_3_28/k7")
    return Job(result, key)


def section(config: dict, result: str) -> dict:
    """The validated profile section ``results.RESULT``.

    Raises
    ------
    ConfigError
        The profile does not run that result (naming the ones it does).
    """
    sections = config.get("results") or {}
    if result not in sections:
        raise ConfigError(f"{result} is not in the profile {config.get('profile')!r}; add "
                          f"a results.{result} section or pick one of: "
                          f"{', '.join(sections) or '(none)'}")
    return sections[result]


def profile_results(config: dict) -> list[ModuleType]:
    """The result modules a validated profile runs, in its order."""
    return [get_result(name) for name in config.get("results") or {}]


def result_jobs(config: dict, result: str) -> list[Job]:
    """Every job of one result in a validated profile, in the module's order."""
    section(config, result)
    return [Job(result, key) for key in get_result(result).keys(config)]


def check_job(config: dict, job: Job) -> None:
    """Refuse a job that is not one of its result's jobs in the profile (a key its
    ``keys(config)`` does not list, e.g. ``fig_2_20/trial99`` when the profile has
    five trials): its record would be a stray file that no table reads.

    Raises
    ------
    ConfigError
        The profile does not run the result, or not that key; the message names the
        valid keys (the first few and their number when there are many).
    """
    keys = [j.key for j in result_jobs(config, job.result)]
    if job.key in keys:
        return
    if not keys:
        valid = "it has none"
    elif len(keys) <= _KEYS_SHOWN:
        valid = f"its keys: {', '.join(keys)}"
    else:
        valid = (f"its keys: {', '.join(keys[:_KEYS_SHOWN])}, ... ({len(keys)} in all; "
                 f"`snakemake -n` lists them)")
    raise ConfigError(f"job {job.id} is not a job of {job.result} in the profile "
                      f"{config.get('profile')!r} ({valid}); to run it, change the "
                      f"profile's results.{job.result} section so that it lists it")


def job_params(config: dict, job: Job) -> dict:
    """The job's resolved parameters (any valid key, listed in the profile or not: the
    asv suite asks for them; running a job checks the key first, :func:`check_job`)."""
    section(config, job.result)
    return job.module.params(config, job.key)


def params_hash(params: dict) -> str:
    """A short, stable hash of resolved parameters."""
    blob = json.dumps(params, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def records_dir(config: dict) -> Path:
    """``<results_dir>/<profile>/records``."""
    return Path(config["results_dir"]) / config["profile"] / "records"


def record_path(config: dict, job: Job) -> Path:
    """``<results_dir>/<profile>/records/RESULT/KEY.json``."""
    return records_dir(config) / f"{job.id}.json"


def result_record_paths(config: dict, result: str) -> list[Path]:
    """The record files of one result's jobs, in the module's order."""
    return [record_path(config, job) for job in result_jobs(config, result)]


def result_input_records(config: dict, result: str) -> list[Path]:
    """The records a result's outputs are built from: its own jobs' and then those of
    the results its optional ``reads(config)`` names (Figs. 2.9 and 2.12 have no jobs
    and read Table 2.1's records), each once. A result it reads must be in the profile
    (:class:`ConfigError` naming it otherwise)."""
    module = get_result(result)
    paths = result_record_paths(config, result)
    for other in (module.reads(config) if hasattr(module, "reads") else ()):
        paths += [p for p in result_record_paths(config, other) if p not in paths]
    return paths


def read_job_record(config: dict, job: Job) -> dict:
    """The job's record, or a ``missing`` stand-in naming the command that makes it."""
    path = record_path(config, job)
    if not path.exists():
        return {"status": "missing", "reason": f"no record yet: run `harness job {job.id}`"}
    return read_record(path)


def job_sources(config: dict, job: Job, params: dict | None = None) -> list[str]:
    """The source files whose edit reruns the job (:mod:`harness.sources`): the
    runner, the result's work module (:func:`harness.result_registry.work_module`: a
    package's ``work.py`` or the shared module it names; the job's code, not the
    writer's or the report's), or for a single-module result the modules that define
    its ``work`` and ``finish``, what its ``sources(params)`` names (plugins the job
    finds by name at run time) and every project module they import. A package's
    ``finish`` (its declaration's, run in the parent) adds the module that defines
    it. ``params``: the job's, if already resolved."""
    module = job.module
    if is_package(module):
        code = [work_module(module)]
        if (finish := hook(module, "finish")) is not None:
            code.append(inspect.getmodule(finish))
    else:
        code = [inspect.getmodule(getattr(module, name)) for name in ("work", "finish")
                if hasattr(module, name)]
    if params is None:
        params = job_params(config, job)
    extra = sources(params) if (sources := hook(module, "sources")) else ()
    files = source_closure("harness.runner", *code, *extra)
    return sorted(set(files).union(_backend_sources(files, params)))


#: The MVU solvers' entry point: it finds the backend plugins by name at run time.
_DISPATCH = "harness.solvers.mvu_sdp.dispatch"


def _backend_sources(files: list[str], params: dict) -> list[str]:
    """The backend plugins a job that reaches ``solve_mvu`` may run (their modules and
    what they import): every registered backend whose name is a string value of the
    job's parameters, at any depth (``solver: csdp``, ``backend: clarabel``,
    ``method_params: {solver: scs}``), and the default one. ``solve_mvu`` finds them
    through the registry, so no import names them; a job that does not reach it
    gets none, and adding a backend file reruns only the jobs that name it."""
    if str(module_file(_DISPATCH).resolve()) not in files:
        return []
    from harness import registry
    from harness.solvers.backend import DEFAULT_BACKEND

    named = {value for value in _strings(params) if value in registry.backends()}
    return source_closure(*(registry.backend_info(name).module
                            for name in sorted(named | {DEFAULT_BACKEND})))


def _strings(value):
    """Every string in a JSON-like value (dict values and list items, at any depth)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


def cpu_budget(params: dict) -> float:
    """CPU seconds of the job's process (all its threads) after which it is killed:
    ``time_limit_seconds`` plus ``grace_seconds`` (0 when the result has none). CPU,
    not wall, so that a job's outcome does not depend on what else the machine runs
    (:mod:`harness.timelimit`)."""
    return float(params["time_limit_seconds"]) + float(params.get("grace_seconds", 0))



def wall_cap(params: dict, config: dict | None = None) -> float:
    """Wall seconds after which the job's process is killed as a runaway (it waits
    instead of computing): ``max(factor x budget, budget + extra_seconds)`` of
    :func:`cpu_budget`, with the profile's ``wall_cap: {factor, extra_seconds}``
    (defaults 3 and 600: :func:`harness.timelimit.wall_cap_for`). The cap is not part
    of the job's params: it bounds runaways and changes no result that finishes."""
    settings = (config or {}).get("wall_cap") or {}
    return wall_cap_for(cpu_budget(params), float(settings.get("factor", WALL_CAP_FACTOR)),
                        float(settings.get("extra_seconds", WALL_CAP_EXTRA_SECONDS)))


def runtime_minutes(params: dict, config: dict | None = None) -> int:
    """A scheduler's runtime request: the job's :func:`wall_cap`, rounded up to
    minutes, plus one minute."""
    return math.ceil(wall_cap(params, config) / 60) + 1
