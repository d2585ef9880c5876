"""The asv suite's own logic, outside asv (CI's `asv run --dry-run` does not run
setup_cache, so a bug there shows only in a recorded run)."""

from benchmarks.bench_mvu_solvers import BACKENDS, CONFIG, DENSE_MAX_N, SIZES, _job, skip_reason
from harness.jobs import job_params
from harness.solvers.mvu_sdp import mvu_solvers


def test_every_mvu_backend_gets_a_skip_decision():
    """Every backend of the default parameter grid, native_lowrank included (it
    raised KeyError in setup_cache, failing the whole benchmark class)."""
    for backend in mvu_solvers():
        reason = skip_reason(backend, 40)
        assert reason is None or reason.startswith("skipped: "), (backend, reason)
    for backend in ("native", "native_lowrank"):
        assert skip_reason(backend, 10_000) is None
    for backend, cap in DENSE_MAX_N.items():
        assert f"up to n = {cap}" in skip_reason(backend, cap + 1)


def test_every_benchmarked_solve_resolves_its_job_parameters():
    """setup_cache's jobs resolve from the suite's own profile (a key added to the
    solver table's section with a default raised KeyError there, failing the class)."""
    for backend in BACKENDS:
        for n in SIZES:
            params = job_params(CONFIG, _job(backend, n))
            assert (params["backend"], params["n"], params["variant"]) == (
                backend, n, "equality")
            assert params["time_limit_seconds"] == CONFIG["results"]["solver_table"][
                "time_limit_seconds"]
