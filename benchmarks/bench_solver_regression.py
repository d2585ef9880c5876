"""asv benchmarks of the native MVU solver's regression suite, one instance per family
(:mod:`harness.solvers.mvu_sdp.regression`), so the dashboard shows a regression over
commits for every kind of instance a speed change has to keep.

* ``time_solve``: CPU-bound wall time of one native solve (the problem is built in
  ``setup``, untimed), one BLAS thread (``HARNESS_BENCH_THREADS``).
* ``track_certified``: 1 if the solve was certified optimal (0 otherwise), and
  ``track_gap``: its certified gap, from one solve per instance in ``setup_cache``.

``HARNESS_BENCH_REGRESSION`` (comma-separated instance names, e.g.
``helix/n60/k4/s0``) replaces the instances, so CI's dry run stays small; the
recorded history uses the defaults, one per family of the full tier.
"""

import os

from threadpoolctl import threadpool_limits

from benchmarks.common import BLAS_THREADS, OneSample
from harness.solvers.mvu_sdp.native_solver import solve_native
from harness.solvers.mvu_sdp.regression import instances, run_instance
from harness.solvers.mvu_sdp.regression import problem_of

DEFAULT = ("roll_clean/n1000/k4/s0", "roll_clean/n1000/k5/s0", "roll_clean/n1000/k7/s0",
           "roll_3_1_5/n1000/k5/s0", "helix/n400/k4/s0",
           "nearly_disconnected/n600/k5/s0")
NAMES = tuple(n for n in os.environ.get("HARNESS_BENCH_REGRESSION", "").split(",") if n) \
    or DEFAULT
BY_NAME = {i.name: i for i in instances("full")}


class SolverRegression(OneSample):
    """One native MVU solve per family of the regression suite: time, certificate."""

    params = [list(NAMES)]
    param_names = ["instance"]
    timeout = 900

    def setup_cache(self):
        return {name: run_instance(BY_NAME[name]) for name in NAMES}

    def setup(self, cache, name):
        self.instance = BY_NAME[name]
        self.problem = problem_of(self.instance)

    def time_solve(self, cache, name):
        with threadpool_limits(BLAS_THREADS):
            solve_native(self.problem, time_limit=self.instance.budget, seed=self.instance.seed)

    def track_certified(self, cache, name):
        return 1 if cache[name]["certified"] else 0

    def track_gap(self, cache, name):
        gap = cache[name]["gap"]
        return float(gap) if gap != "" else float("nan")
