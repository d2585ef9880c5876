"""One native interior-point solve of the solver table's problem, verbose and timed.

    python scripts/ipm_solve.py N [THREADS]

The problem is the asv suite's (:mod:`benchmarks.bench_mvu_solvers`): N points of the
seeded Swiss roll with five extra dimensions of N(0, 0.1^2) noise, the clique graph
of k = 5, the equality variant, tolerances 1e-3 (certified gap) and 1e-4
(violation). Prints one line per iteration, then wall and CPU seconds, the status,
the iterations and the recomputed certificate. BLAS (and numba) threads: THREADS
(default 2). Used for the timings in :mod:`harness.solvers.mvu_sdp.ipm`'s docstring.
"""

import sys
import time
from pathlib import Path

from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.bench_mvu_solvers import CONFIG, _job  # noqa: E402
from harness.jobs import job_params  # noqa: E402
from harness.results.solver_table.work import build_problem  # noqa: E402
from harness.solvers.mvu_sdp.ipm import solve_ipm  # noqa: E402


def main(n: int, threads: int) -> None:
    params = job_params(CONFIG, _job("native", n))
    _, problem = build_problem(params)
    print(f"n {n} m {len(problem.edges)} threads {threads}", flush=True)
    with threadpool_limits(threads):
        wall, cpu = time.perf_counter(), time.process_time()
        r = solve_ipm(problem, tol_gap=params["tol_gap"],
                      tol_violation=params["tol_violation"], time_limit=3000, verbose=True)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    cert = r.certificate
    print(f"wall {wall:.1f} s, cpu {cpu:.1f} s, {r.status}, {r.iterations} iterations, "
          f"gap {cert.gap:.3g}, violation {cert.violation:.3g}, value {cert.value:.10g}")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 2)
