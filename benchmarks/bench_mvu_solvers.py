"""asv benchmarks of the MVU SDP solvers (thesis 3.1.4-3.1.6), by backend and n.

The problem is the solver table's (:mod:`harness.results.solver_table.work`): ``n`` points of the
seeded Swiss roll with 5 extra dimensions of N(0, 0.1^2) noise (thesis Fig. 3.5), the
clique graph of k = 5 nearest neighbours (3.1.4), the ``equality`` variant, tolerances
1e-3 (certified gap) and 1e-4 (violation). These settings are fixed here, not read
from a profile, so that the recorded history does not move when a profile does.
Sizes: :data:`benchmarks.common.MVU_SIZES` (``HARNESS_BENCH_MVU_SIZES``, default
40,100); backends: every MVU solver (``HARNESS_BENCH_MVU_BACKENDS`` restricts them).

* ``time_solve``: wall time of ``solve_mvu(problem, backend)``; the problem (data and
  clique graph) is built in ``setup``, untimed. The solve runs in the benchmark
  process (:func:`harness.timelimit.in_this_process`), so neither a child process'
  start nor its imports are timed.
* ``peakmem_solve``: peak resident memory of the benchmark process around one solve
  (asv's peakmem includes the interpreter, the imports and the problem, ~0.2 GiB).
* ``track_gap``, ``track_violation``: the certified relative gap and the relative
  constraint violation, recomputed by the harness from the returned factor and
  multipliers (:func:`harness.problems.mvu_certificate.certify`), and
  ``track_objective_ratio``: the objective over the native solver's at the same n
  (1 for native). They read one certified solve per (backend, n) made in
  ``setup_cache`` by :func:`harness.runner.job_record` (the job
  ``solver_table/equality/BACKEND/nN``: a child process with a hard time limit, as in
  the workflow, and the certificate recomputed in the parent), so they never re-solve.

Every benchmark runs under ``threadpool_limits(BLAS_THREADS)`` (``HARNESS_BENCH_THREADS``,
default 1). One solve is one sample (``number = repeat = rounds = 1``, no warm-up):
the solves take seconds to a minute.

Skipped combinations (``setup`` raises ``NotImplementedError``): unusable backends
(not installed; MOSEK without a licence), the dense cvxpy backends beyond
:data:`DENSE_MAX_N` points, and a combination whose cached solve did not complete
(failed, timed out), whose time would not be that of a solve. Measured by hand on
the 2-core reference machine (1 thread, shared with other jobs), seconds per solve
(``native`` is the interior-point method at these sizes since it exists; the
low-rank method, alone before, is ``native_lowrank``); at n = 100, seeds 0 and 1,
in one run: native 0.33 / 0.57 s, Clarabel 27.5 / 41.4 s (72-83x)::

    backend         n=40            n=60            n=100
    native          0.05            -               0.3-0.6 (interior point, gap ~1e-8)
    native_lowrank  2-3             11-23           4-19    (gap ~1e-3)
    clarabel   1.2             7               ~50
    sdpa       2 (inaccurate)  6 (failed)      64
    scs        29              63              > 60 (stopped)
    cvxopt     2 (failed)      24 (failed)     335 (failed)
    csdp       0.1             0.5-0.8         1.0-1.8 (CSDP 6.2, reference BLAS, gap ~1e-8;
                                                CPU 0.06, 0.4, 0.9-1.5 s; seeds 0 and 1,
                                                machine at load ~7)

``csdp`` runs CSDP as a program in a child process: ``time_solve`` includes it, while
``peakmem_solve`` (this process) does not see its memory (the solve's record has it,
``solver_reported.csdp.peak_memory_mb``).
"""

from threadpoolctl import threadpool_limits

from benchmarks.common import BLAS_THREADS, MVU_BACKENDS, MVU_SIZES, MVU_TIME_LIMIT, OneSample
from harness.config import validate_config
from harness.jobs import Job, job_params
from harness.results.solver_table.work import build_problem
from harness.results.solver_table.points import SolverPoint
from harness.runner import job_record
from harness import registry
from harness.solvers.mvu_sdp import mvu_solvers, solve_mvu
from harness.timelimit import in_this_process

BACKENDS = list(MVU_BACKENDS or mvu_solvers())
SIZES = list(MVU_SIZES)
# largest n per dense backend in this suite (else the plugin's max_n); beyond it, one
# solve takes minutes and gigabytes
DENSE_MAX_N = {"clarabel": 100, "sdpa": 100, "mosek": 100, "scs": 60, "cvxopt": 60}
TIME_LIMIT = MVU_TIME_LIMIT
# validated: the schema's defaults fill every key this dict leaves out (a key added to
# the solver table's section later needs no change here)
CONFIG = validate_config({
    "profile": "asv", "seed": 0, "blas_threads": BLAS_THREADS, "results_dir": "",
    "results": {"solver_table": {
        "backends": BACKENDS, "n": SIZES, "n_per_backend": {}, "variants": ["equality"],
        "n_neighbors": 5, "extra_noise_dims": 5, "extra_noise_std": 0.1,
        "time_limit_seconds": TIME_LIMIT, "grace_seconds": 60.0,
        "tol_gap": 1e-3, "tol_violation": 1e-4,
    }},
})


def skip_reason(backend, n):
    """Why ``(backend, n)`` is not benchmarked, or None."""
    cap = DENSE_MAX_N.get(backend, registry.backend_info(backend).max_n)
    if cap is not None and n > cap:
        return (f"skipped: {backend} solves a dense {n} x {n} SDP; this suite runs it up "
                f"to n = {cap} (see the module docstring for the measured times)")
    usable, why = registry.backend_status(backend)
    if not usable:
        return f"skipped: {why}"
    return None


def _key(backend, n):
    return f"{backend}:{n}"


def _job(backend, n):
    """The solver table's job of one solve: ``solver_table/equality/BACKEND/nN``."""
    return Job("solver_table", SolverPoint(backend, n).key)


class MVUSolvers(OneSample):
    """One certified MVU solve per backend and size: time, memory, gap, violation."""

    params = [BACKENDS, SIZES]
    param_names = ["backend", "n"]
    timeout = TIME_LIMIT + 120

    def setup_cache(self):
        cache = {}
        for backend in BACKENDS:
            for n in SIZES:
                if skip_reason(backend, n) is None:
                    record = job_record(CONFIG, _job(backend, n))
                    cert = record["certificate"] or {}
                    cache[_key(backend, n)] = {
                        "status": record["status"], "verdict": record["verdict"],
                        "reason": record["reason"], "gap": cert.get("gap"),
                        "violation": cert.get("violation"), "objective": cert.get("value")}
        return cache

    setup_cache.timeout = max(3600.0, 3 * TIME_LIMIT)

    def setup(self, cache, backend, n):
        reason = skip_reason(backend, n)
        if reason is not None:
            raise NotImplementedError(reason)
        solved = cache[_key(backend, n)]
        if solved["status"] != "ok":
            raise NotImplementedError(
                f"skipped: the certified solve was {solved['verdict']}: {solved['reason']}")
        self._limits = threadpool_limits(BLAS_THREADS)
        self.params_ = job_params(CONFIG, _job(backend, n))
        _, self.problem = build_problem(self.params_)

    def teardown(self, cache, backend, n):
        # asv calls teardown even when setup raised NotImplementedError (a skip).
        limits = self.__dict__.pop("_limits", None)
        if limits is not None:
            limits.restore_original_limits()

    def _solve(self, backend):
        with in_this_process():
            solve_mvu(self.problem, backend, time_limit=TIME_LIMIT, seed=0,
                      tol_gap=self.params_["tol_gap"],
                      tol_violation=self.params_["tol_violation"])

    def time_solve(self, cache, backend, n):
        self._solve(backend)

    def peakmem_solve(self, cache, backend, n):
        self._solve(backend)

    def track_gap(self, cache, backend, n):
        return cache[_key(backend, n)]["gap"]

    track_gap.unit = "relative gap"

    def track_violation(self, cache, backend, n):
        return cache[_key(backend, n)]["violation"]

    track_violation.unit = "relative violation"

    def track_objective_ratio(self, cache, backend, n):
        native = cache.get(_key("native", n)) or {}
        if native.get("status") != "ok":
            return float("nan")
        return cache[_key(backend, n)]["objective"] / native["objective"]

    track_objective_ratio.unit = "objective / native objective"
