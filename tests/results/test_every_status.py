"""Every writer renders every record status the engine produces.

For each result the harness lists (:func:`harness.result_registry.result_modules`), with its
section from the quick profile (scaled down where its jobs' params would build large
problems), a record of one status is written for every key of the result and of the
results it reads, as :func:`harness.runner.job_record` makes it (its ``finish`` hook
run on the body): a job-level ``timeout`` (timing only), ``failed`` (a dead process'
exit code), ``unavailable`` (data missing) and ``skipped``. ``write(config)`` must
produce its files and its Markdown must name the gap (its mark) and the reason.

For the results whose records carry an MVU solve, an ``ok`` record whose solve timed
out with an inconsistent certificate (``gap: null``, value above the dual bound) must
render that inconsistency, and one with a finite gap its number (the crash of
``harness write table_3_2`` on such a record with the real data sets).
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
import yaml

from harness.config import validate_config
from harness.jobs import job_params, record_path, result_jobs
from harness.provenance import provenance
from harness.records import read_record, write_json_atomic
from harness.result_registry import get_result, hook, result_modules
from harness.results.common.write.tables import GAP_MARKS
from harness.runner import died_reason
from harness.tasks.embedding import MEASURES
from tests.results.conftest import ok_body, write_point
from tests.results.test_fig_3_37 import SECTION as SECTION_3_37
from tests.results.test_fig_3_37 import _ok as ok_3_37
from tests.results.test_table_3_3 import _body as body_3_3

QUICK = Path(__file__).resolve().parents[2] / "config" / "quick.yaml"
#: quick-profile sections whose ``finish`` would build problems at the thesis' sizes
SMALLER = {"solver_table": {"n": [40], "n_per_backend": {}}}
#: (result, status) pairs its engine never produces, and why
NEVER = {("solver_table", "unavailable"): "its problems are generated Swiss rolls",
         ("mvu_steps_3_1_4", "unavailable"): "generated Swiss rolls; it reads the solver "
                                             "table's records, which cannot be unavailable"}

JOB_STATUSES = {
    "timeout": {"reason": "time limit of 900 s reached (time_limit_seconds)",
                "timing": {"wall_seconds": 901.5}},
    "failed": {"exit_code": -9, "reason": died_reason(-9)},
    "unavailable": {"reason": "olivetti is not available offline: run `harness fetch "
                              "olivetti`", "error_type": "DataUnavailableError"},
    "skipped": {"reason": "the dense solver is capped at n = 150", "verdict": "skipped"},
}


@functools.cache
def _provenance() -> dict:
    return provenance()


def _quick_profile(tmp_path) -> dict:
    raw = yaml.safe_load(QUICK.read_text())
    for name, section in SMALLER.items():
        raw["results"][name].update(section)
    raw.update(results_dir=str(tmp_path / "results"),
               reference_dir=str(QUICK.parents[1] / "results" / "reference"))
    return validate_config(raw)


def _write_status(config: dict, result: str, status: str) -> list:
    """A ``status`` record, as the runner writes it, for every job ``result`` reads;
    return those jobs."""
    module = get_result(result)
    names = [result, *(module.reads(config) if hasattr(module, "reads") else ())]
    jobs = [job for name in names for job in result_jobs(config, name)]
    for job in jobs:
        params = job_params(config, job)
        body = {"status": status, **JOB_STATUSES[status]}
        if finish := hook(job.module, "finish"):
            body = finish(params, body)
        write_json_atomic(record_path(config, job), {
            "job": job.id, "result": job.result, "key": job.key,
            "profile": config["profile"], "params": params,
            "provenance": _provenance(), **body})
    return jobs


def _markdown(paths: list) -> str:
    assert paths and all(Path(p).exists() for p in paths), paths
    found = [Path(p) for p in paths if str(p).endswith(".md")]
    assert found, f"no Markdown among {paths}"
    return found[0].read_text()


CASES = [pytest.param(result, status, id=f"{result}-{status}")
         for result in result_modules() for status in JOB_STATUSES
         if (result, status) not in NEVER]


def test_every_listed_result_is_in_the_quick_profile(tmp_path):
    missing = set(result_modules()) - set(_quick_profile(tmp_path)["results"])
    assert not missing, f"add a section to config/quick.yaml for {sorted(missing)}"


@pytest.mark.parametrize(("result", "status"), CASES)
def test_a_writer_renders_every_job_status(tmp_path, result, status):
    config = _quick_profile(tmp_path)
    jobs = _write_status(config, result, status)
    md = _markdown(hook(get_result(result), "write")(config))
    first = read_record(record_path(config, jobs[0]))
    assert first["status"] == status
    assert GAP_MARKS[status] in md
    assert first["reason"] in md, f"the reason {first['reason']!r} is not in the Markdown"


# ---- ok records whose MVU solve is not certified ---------------------------------------
INCONSISTENT = {"status": "timeout", "solver": "native", "gap": None, "violation": 3.1e-4,
                "value": 5300.0, "bound": 5200.0, "consistent": False,
                "wall_seconds": 150.0}
GAPPED = {"status": "inaccurate", "solver": "native", "gap": 0.0123, "violation": 2.5e-6,
          "value": 5100.0, "bound": 5163.0, "consistent": True, "wall_seconds": 40.0}
EXPECTED = {"inconsistent": "inconsistent certificate: value above bound",
            "gap": "gap 1.2e-02"}
SOLVES = {"inconsistent": INCONSISTENT, "gap": GAPPED}


def _table_3_2(profile, solve):
    config = profile(table_3_2={"datasets": ["swiss_roll", "olivetti"],
                                "methods": ["mvu", "pca"]})
    for key in get_result("table_3_2").keys(config):
        info = {"solve_info": solve} if key.startswith("swiss_roll/mvu") else {}
        write_point(config, f"table_3_2/{key}", n_runs=1,
                    summary={m: {"mean": 0.9, "std": 0.0, "n": 1} for m in MEASURES},
                    runs=[{"seed": 0, "info": info}])
    return config


def _fig_3_24(profile, solve):
    config = profile(fig_3_24={"datasets": ["swiss_roll"], "n_samples": {"swiss_roll": 40}})
    for variant in ("max_trace", "min_trace"):
        write_point(config, f"fig_3_24/swiss_roll/{variant}",
                    **{**ok_body(dict.fromkeys(MEASURES, 0.9)),
                       "solve": solve})
    return config


def _fig_3_28(profile, solve):
    config = profile(fig_3_28={"n_samples": 40, "n_neighbors": [4, 5]})
    for key in get_result("fig_3_28").keys(config):  # both readings of the data
        write_point(config, f"fig_3_28/{key}",
                    **{**ok_body(dict.fromkeys(MEASURES, 0.9)),
                       "solve": solve})
    return config


def _fig_3_37(profile, solve):
    config = profile(fig_3_37=SECTION_3_37)
    for key in get_result("fig_3_37").keys(config):
        extra = {"solve": solve} if key.endswith("/mvu") else {}
        write_point(config, f"fig_3_37/{key}", **ok_3_37(-0.01, **extra))
    return config


def _table_3_3(profile, solve):
    config = profile(table_3_3={"datasets": ["usps_standin"], "tasks": ["1vs2"],
                                "n_draws": 1, "splits_per_draw": 2})
    body = body_3_3({"linear": 2.0, "polynomial_p2": 2.0, "gaussian_sigma1": 20.0,
                     "mvu_k4": 1.0})
    body["kernels"]["mvu_k4"]["solve"] = solve
    write_point(config, "table_3_3/usps_standin/1vs2/draw0", **body)
    return config


MVU_RESULTS = {"table_3_2": _table_3_2, "table_3_3": _table_3_3, "fig_3_24": _fig_3_24,
               "fig_3_28": _fig_3_28, "fig_3_37": _fig_3_37}


@pytest.mark.parametrize("case", sorted(SOLVES))
@pytest.mark.parametrize("result", sorted(MVU_RESULTS))
def test_an_uncertified_mvu_solve_renders(profile, result, case):
    config = MVU_RESULTS[result](profile, SOLVES[case])
    md = _markdown(hook(get_result(result), "write")(config))
    assert EXPECTED[case] in md, md
    assert "gap nan" not in md and "gap None" not in md
    if case == "inconsistent":
        assert "gap -" not in md and "gap 0.0e+00" not in md


def test_a_fit_note_reaches_the_table_notes(profile):
    """hLLE's dense refit after ARPACK failed (``fit_note`` of a run) is said under
    Table 3.2."""
    config = profile(table_3_2={"datasets": ["swiss_roll"], "methods": ["hlle"]})
    note = "ARPACK failed on the null space (Factor is exactly singular); refitted dense"
    write_point(config, "table_3_2/swiss_roll/hlle", n_runs=1,
                summary={m: {"mean": 0.9, "std": 0.0, "n": 1} for m in MEASURES},
                runs=[{"seed": 0, "info": {"fit_note": note, "eigen_solver_used": "dense"}}])
    md = _markdown(hook(get_result("table_3_2"), "write")(config))
    assert f"- table_3_2/swiss_roll/hlle: {note}" in md
