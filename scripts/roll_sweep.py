"""Swiss-roll MVU sweep for issue 32: at which k does MVU lock, by roll, noise,
constraint graph and solver (a research tool, not part of the harness package).

What it measures
----------------
One MVU solve (variant ``equality``, thesis 3.1.4) per *cell*; a cell is

* ``n``, ``k``, ``seed`` -- points, neighbours, data seed;
* ``generator`` -- the Swiss-roll generator of :class:`harness.datasets.swiss_roll.SwissRoll`:
  ``roweis`` (scikit-learn's, height 21), ``drtoolbox`` (height 30),
  ``arc_length`` (uniform in the spiral's arc length, height 21);
* ``noise`` -- ``none``; ``gauss3d`` (N(0, 0.05^2) added to the three coordinates,
  drtoolbox's default); ``extra5`` (five further coordinates of N(0, 0.1^2) noise,
  the thesis' Fig. 3.5 "five extra dimensions filled with low variance Gaussian
  noise");
* ``formulation`` -- ``cliques`` (thesis 3.1.4: each point and its k neighbours
  pairwise, the project's default, ``MVUProblem.from_points(connectivity="clique")``)
  or ``knn`` (only the symmetrised k-nearest-neighbour pairs,
  ``connectivity="knn"``);
* ``solver`` -- ``native`` (``solve_mvu(problem, "native")``: facial reduction, the
  interior point, the low-rank method; certified), ``csdp`` (CSDP 6.2 at its default
  parameters, ``solve_csdp(problem)``) or ``csdp50`` (CSDP stopped at ``maxiter =
  50``, the value Weinberger's ``sde.m`` hard-codes: ``solve_csdp(problem,
  params={"maxiter": 50})``; the backend certifies the iterate CSDP writes when it
  reports "maximum iterations reached", return code 4). CSDP loads Debian's OpenBLAS
  where installed (the backend's default since 2026-11-27; earlier rows ran on the
  reference BLAS, column ``csdp_blas`` empty; newer rows name the library).

Per cell one CSV row: the harness' verdict (``status``; ``optimal`` needs the
recomputed certificate's gap <= 1e-3 and violation <= 1e-4), the certificate's
relative ``gap`` and ``violation`` (:func:`harness.problems.mvu_certificate.certify`),
the solver's own status, CPU seconds of this process plus its children (CSDP), the
top four normalised eigenvalues of the kernel, ``locked`` (Fig. 3.28's test: the third
normalised eigenvalue above ``lock_threshold`` = 0.1, the schema default used by
``config/quick.yaml``), the facial-reduction face (dimension, ambient n - 1, single
feasible point) where the native solver ran it or, for noise-free clique cells of the
other solvers, from :func:`harness.problems.facial_reduction.reduce`, and local
continuity / trust / intersection (thesis 3.27-3.29, l = 15 as Table 3.2) of the
2-D embedding (top two eigenvectors of K scaled by the square roots of their
eigenvalues, 3.21).

Stages
------
``A`` (n = 1000, k = 3..10, seed 0): every generator x noise x formulation with
``native`` (noises ``none``, ``gauss3d``, ``extra5``). ``Astd``: the roweis roll with
five extra dimensions of std 0.01, 0.05 and 0.2 (noises ``extra5_s<std>``) at k = 5
and 7, native, cliques: how much the unstated "low variance" moves the lock.
``Acsdp``: ``csdp`` and ``csdp50`` at k = 4, 5, 7 for the roweis and
drtoolbox rolls, cliques, noise ``none`` and the noise setting(s) where native's
lock k (from the CSV's stage-A rows, roweis and drtoolbox) is farthest from the
thesis' k = 7. ``B`` (n = 2000, k = 5): ``native`` on every generator x noise,
cliques; ``csdp50`` on the noise-free roweis roll, then (``Bextra``) on the extra5
roweis roll. ``P`` (probe): n = 300 and 500, k = 5, noise-free roweis roll, cliques,
with ``native``, ``csdp50`` and ``csdp`` (a CSDP solve at n = 1000 took ~35 CPU-s
per iteration here, beyond the budget of a loaded 2-core machine). ``Piter``: n = 300,
k = 5, CSDP stopped at 10, 20, 30, 40 iterations (solver ``csdp<N>``).

How to run
----------
From the repository root (the harness on ``PYTHONPATH``), one process at a time::

    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 PYTHONPATH=. nice -n 19 \\
        python scripts/roll_sweep.py --stages A Acsdp B Bextra \\
        --csv scripts/roll_sweep_results.csv --budget-minutes 120

Cells already in the CSV (same n, k, seed, generator, noise, formulation, solver)
are skipped, so a rerun resumes. Each row is appended atomically (the file is
rewritten to a temporary file and renamed over the CSV). ``--budget-minutes``: no
new cell starts after that much wall time (``--stop-at``: after that unix time, to
share one budget between several runs). ``--only`` (e.g. ``n=1000,k=5,
solver=csdp50``) restricts to matching cells (``k=4|7``: either value).
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import resource
import sys
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from harness.datasets.swiss_roll import SwissRoll
from harness.metrics import embedding_quality
from harness.problems.facial_reduction import reduce as facial_reduce
from harness.problems.mvu_problem import MVUProblem
from harness.solvers.mvu_sdp import solve_mvu
from harness.solvers.backends.csdp import solve_csdp
from harness.solvers.mvu_sdp.native_solver import face_details

GENERATORS = ("roweis", "drtoolbox", "arc_length")
NOISES = {"none": {}, "gauss3d": {"noise": 0.05},
          "extra5": {"extra_noise_dims": 5, "extra_noise_std": 0.1},
          # the std of the five extra dimensions ("low variance", unstated): stage Astd
          **{f"extra5_s{std:g}": {"extra_noise_dims": 5, "extra_noise_std": std}
             for std in (0.01, 0.05, 0.2)}}
#: the noises of stage A (the std variants run in stage Astd only)
A_NOISES = ("none", "gauss3d", "extra5")
FORMULATIONS = {"cliques": "clique", "knn": "knn"}
SOLVERS = ("native", "csdp", "csdp50")
LOCK_THRESHOLD = 0.1  # fig_3_28 schema default (config/quick.yaml does not override it)
EVAL_NEIGHBORS = 15   # table_3_2.eval_neighbors / fig_3_28.eval_neighbors in quick.yaml
THESIS_LOCK_K = 7
KEY = ("n", "k", "seed", "generator", "noise", "formulation", "solver")
COLUMNS = (*KEY, "stage", "status", "reason", "solver_status", "csdp_iterations",
           "m_edges", "gap", "violation", "value", "bound", "cpu_seconds", "wall_seconds",
           "time_limit", "ev1", "ev2", "ev3", "ev4", "locked", "lock_threshold",
           "face_dim", "face_ambient", "face_single_point", "face_kept_edges",
           "continuity", "trust", "intersection", "method", "csdp_primal_infeas",
           "csdp_dual_infeas", "csdp_rel_gap", "csdp_pobj", "csdp_dobj", "csdp_blas")


def _cell(stage, n, k, generator, noise, formulation, solver, seed=0):
    return {"stage": stage, "n": n, "k": k, "seed": seed, "generator": generator,
            "noise": noise, "formulation": formulation, "solver": solver}


def _key(row) -> tuple:
    return tuple(str(row[c]) for c in KEY)


def read_rows(path: Path) -> list[dict]:
    if not path.is_file():
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def append_row(path: Path, row: dict) -> None:
    """Append ``row`` atomically: old content + row to a temporary file, renamed."""
    old = path.read_text() if path.is_file() else ""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=COLUMNS, extrasaction="ignore")
    if old and old.splitlines()[0] != ",".join(COLUMNS):  # columns were added: rewrite
        writer.writeheader()
        for earlier in read_rows(path):
            writer.writerow({c: earlier.get(c, "") for c in COLUMNS})
        old = ""
    elif not old:
        writer.writeheader()
    writer.writerow({c: row.get(c, "") for c in COLUMNS})
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", newline="") as f:
        f.write(old + buf.getvalue())
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def lock_k(rows, **match) -> float:
    """Smallest k of the matching measured rows that is locked (inf: none locked)."""
    ks = [int(r["k"]) for r in rows if all(str(r[a]) == str(v) for a, v in match.items())
          and r["locked"] == "True"]
    return min(ks) if ks else float("inf")


def stage_cells(stage: str, rows: list[dict]) -> list[dict]:
    if stage == "A":
        # noise-free first (fast: facial reduction), then the noisy rolls
        return [_cell("A", 1000, k, g, z, f, "native")
                for z in A_NOISES for f in FORMULATIONS for g in GENERATORS
                for k in range(3, 11)]
    if stage == "Astd":  # how the extra dimensions' std moves the lock, roweis, cliques
        return [_cell("Astd", 1000, k, "roweis", z, "cliques", "native")
                for z in NOISES if z.startswith("extra5_s") for k in (5, 7)]
    if stage == "Acsdp":
        noises = ["none"]
        dist = {}
        for z in A_NOISES:
            if z == "none":
                continue
            ks = [lock_k(rows, n=1000, generator=g, noise=z, formulation="cliques",
                         solver="native") for g in ("roweis", "drtoolbox")]
            dist[z] = max(abs(min(kk, 11) - THESIS_LOCK_K) for kk in ks)
        if dist:
            far = max(dist.values())
            noises += [z for z, d in dist.items() if d == far]
        return [_cell("Acsdp", 1000, k, g, z, "cliques", s)
                for s in ("csdp50", "csdp") for z in noises
                for g in ("roweis", "drtoolbox") for k in (5, 4, 7)]
    if stage == "B":
        return ([_cell("B", 2000, 5, g, z, "cliques", "native")
                 for z in A_NOISES for g in GENERATORS]
                + [_cell("B", 2000, 5, "roweis", "none", "cliques", "csdp50")])
    if stage == "P":  # smaller rolls, where a CSDP solve is affordable on a loaded machine
        return [_cell("P", n, 5, "roweis", "none", "cliques", s)
                for n in (300, 500) for s in ("native", "csdp50", "csdp")]
    if stage == "Piter":  # how the CSDP iterate moves with the iteration limit, n = 300
        return [_cell("P", 300, 5, "roweis", "none", "cliques", f"csdp{i}")
                for i in (10, 20, 30, 40)]
    if stage == "Bextra":
        return [_cell("B", 2000, 5, "roweis", "extra5", "cliques", "csdp50")]
    raise ValueError(f"unknown stage {stage!r}; valid: A, Astd, Acsdp, B, Bextra, P, Piter")


def _cpu() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def time_limit_for(cell) -> float:
    if cell["solver"] == "native":
        return 600.0 if cell["n"] <= 1000 else 1800.0
    return 3600.0


def run_cell(cell: dict) -> dict:
    n, k = cell["n"], cell["k"]
    data = SwissRoll().load(n_samples=n, seed=cell["seed"], generator=cell["generator"],
                            **NOISES[cell["noise"]])
    X = data.X
    problem = MVUProblem.from_points(X, k, connectivity=FORMULATIONS[cell["formulation"]])
    limit = time_limit_for(cell)
    row = {**cell, "m_edges": problem.m, "time_limit": limit,
           "lock_threshold": LOCK_THRESHOLD}
    graph = sp.coo_matrix((np.ones(problem.m), problem.edges.T), shape=(n, n))
    parts = connected_components(graph, directed=False)[0]
    if parts > 1:
        # the SDP is unbounded (sde.m would raise k until the graph is connected)
        row.update(status="disconnected", cpu_seconds=0.0, wall_seconds=0.0,
                   reason=f"the graph has {parts} connected components: MVU unbounded")
        return row
    cpu0, wall0 = _cpu(), time.perf_counter()
    if cell["solver"] == "native":
        result = solve_mvu(problem, "native", time_limit=limit)
    else:  # "csdp" (defaults) or "csdp<N>" (maxiter = N)
        iters = cell["solver"][len("csdp"):]
        params = {"maxiter": int(iters)} if iters else None
        result = solve_csdp(problem, time_limit=limit, params=params)
    row["cpu_seconds"] = round(_cpu() - cpu0, 2)
    row["wall_seconds"] = round(time.perf_counter() - wall0, 2)
    info = result.info()
    row.update(status=result.status, reason=result.reason[:300],
               solver_status=result.solver_status, method=info.get("method", ""))
    if "csdp" in info:  # CSDP's own report (not used to judge)
        facts = info["csdp"]
        row.update(csdp_iterations=facts.get("iterations"),
                   csdp_primal_infeas=facts.get("relative_primal_infeasibility"),
                   csdp_dual_infeas=facts.get("relative_dual_infeasibility"),
                   csdp_rel_gap=facts.get("relative_gap"),
                   csdp_pobj=facts.get("primal_objective"),
                   csdp_dobj=facts.get("dual_objective"),
                   csdp_blas=facts.get("blas_library"))
    if result.certificate is not None:
        c = result.certificate
        row.update(gap=c.gap, violation=c.violation, value=c.value, bound=c.bound)
    face = info.get("face")
    if face is None and cell["noise"] == "none" and cell["formulation"] == "cliques":
        face = face_details(problem, facial_reduce(problem))
    if face:
        row.update(face_dim=face["dimension"], face_ambient=face["ambient"],
                   face_single_point=face["single_point"], face_kept_edges=face["kept_edges"])
    if result.F is not None:
        U, s, _ = np.linalg.svd(problem.centred(result.F), full_matrices=False)
        lam = s ** 2
        ev = lam / lam.sum()
        for i in range(4):
            row[f"ev{i + 1}"] = float(ev[i]) if i < len(ev) else 0.0
        row["locked"] = bool(row["ev3"] > LOCK_THRESHOLD)
        Y = np.zeros((n, 2))
        q = min(2, len(s))
        Y[:, :q] = U[:, :q] * s[:q]
        try:
            m = embedding_quality(X, Y, EVAL_NEIGHBORS)
            row.update(continuity=m["local_continuity"], trust=m["local_trust"],
                       intersection=m["neighborhood_intersection"])
        except ValueError as exc:
            row["reason"] = (row["reason"] + f" | metrics: {exc}")[:300]
    return row


def _matches(cell, only: dict) -> bool:
    return all(str(cell[a]) in v.split("|") for a, v in only.items())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stages", nargs="+", default=["A", "Acsdp", "B", "Bextra"])
    ap.add_argument("--csv", default="scripts/roll_sweep_results.csv")
    ap.add_argument("--budget-minutes", type=float, default=120.0)
    ap.add_argument("--only", default="", help="a=v,b=w: run only matching cells")
    ap.add_argument("--stop-at", type=float, default=None,
                    help="unix time after which no new cell starts (several runs, one "
                         "budget)")
    args = ap.parse_args(argv)
    path = Path(args.csv)
    only = dict(kv.split("=", 1) for kv in args.only.split(",") if kv)
    start = time.perf_counter()
    for stage in args.stages:
        rows = read_rows(path)
        cells = [c for c in stage_cells(stage, rows) if _matches(c, only)]
        done = {_key(r) for r in rows}
        for cell in cells:
            if _key(cell) in done:
                continue
            elapsed = (time.perf_counter() - start) / 60
            if elapsed > args.budget_minutes or (args.stop_at and time.time() > args.stop_at):
                print(f"budget of {args.budget_minutes:g} min reached after "
                      f"{elapsed:.1f} min: no new cell", flush=True)
                return 0
            print(f"[{time.strftime('%H:%M:%S')}] {stage} {cell}", flush=True)
            try:
                row = run_cell(cell)
            except Exception as exc:  # a cell that breaks is recorded, not fatal
                row = {**cell, "status": "error", "cpu_seconds": "",
                       "reason": f"{type(exc).__name__}: {exc}"[:300]}
            append_row(path, row)
            done.add(_key(row))
            print(f"    -> {row['status']} ({row.get('solver_status')}) gap {row.get('gap')} "
                  f"viol {row.get('violation')} cpu {row['cpu_seconds']} s, ev3 "
                  f"{row.get('ev3')}, locked {row.get('locked')}, face "
                  f"{row.get('face_dim')}, C/T/N {row.get('continuity')} "
                  f"{row.get('trust')} {row.get('intersection')}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
