"""Solver point records -> the MVU solver comparison table (thesis 3.1.4-3.1.6).

``results/<profile>/tables/solver_table.csv`` is long-form, one row per (variant,
backend, n) with every number of the record (:data:`COLUMNS`), including the time
relative to the native solver. ``.md`` and ``.tex`` show, per variant, three grids of
backends x n: (1) wall time, certified gap, violation and verdict; (2) objective and
certified bound; (3) wall time relative to the native solver at the same n. Failures,
time-outs and skips are marked cells with numbered footnotes giving the reason; the
notes state the problem, the tolerances, the time limit, the BLAS threads and the
machine (from the records' provenance). The points come from
:mod:`harness.results.solver_table.work`.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from tabulate import tabulate

from harness.jobs import Job, read_job_record, wall_cap
from harness.outputs import output_paths, write_sidecar
from harness.records import write_csv_atomic, write_text_atomic
from harness.results.solver_table.points import TABLE, TITLE, solver_points
from harness.results.common.write.tables import GAP_MARKS, Footnotes
from harness.solvers.mvu_sdp.ipm import IPM_MEMORY_BUDGET

__all__ = ["COLUMNS", "build_solver_table", "blocks", "write_solver_table"]

COLUMNS = [
    "variant", "backend", "n", "m", "status", "verdict", "reason", "wall_seconds",
    "time_ratio_to_native", "compile_seconds", "solve_seconds", "process_wall_seconds",
    "cpu_seconds", "certify_seconds", "peak_memory_mb", "objective", "bound", "gap",
    "violation", "eigenvalue", "rank", "solver_status", "tol_gap", "tol_violation",
    "time_limit_seconds", "blas_threads", "commit",
]
VARIANT_TEXT = {
    "equality": "equality (3.1.4): max tr K s.t. K ⪰ 0, sum K = 0, "
                "K_ii + K_jj - 2 K_ij = |x_i - x_j|^2 on every edge",
    "inequality": "inequality (3.1.6): as equality with <= on every edge",
    "slack": "slack (3.1.6): (1 - omega) tr K - omega sum |xi| with slack xi on every edge",
    "min_trace": "min_trace (3.1.11): min tr K under the equality constraints",
}


def _row(point, record: dict) -> dict:
    cert = record.get("certificate") or {}
    timing = record.get("timing") or {}
    params = record.get("params", {})
    git = record.get("provenance", {}).get("git", {})
    row = {"variant": point.variant, "backend": point.backend, "n": point.n,
           "m": record.get("problem", {}).get("m"), "status": record["status"],
           "verdict": record.get("verdict", record["status"]),
           "reason": record.get("reason", ""),
           "objective": cert.get("value"), "bound": cert.get("bound"), "gap": cert.get("gap"),
           "violation": cert.get("violation"), "eigenvalue": cert.get("eigenvalue"),
           "rank": record.get("rank"), "solver_status": record.get("solver_status", ""),
           "commit": (git.get("commit", "")[:10] + (" (dirty)" if git.get("dirty") else ""))}
    for key in ("wall_seconds", "compile_seconds", "solve_seconds", "process_wall_seconds",
                "cpu_seconds", "certify_seconds", "peak_memory_mb"):
        row[key] = timing.get(key)
    for key in ("tol_gap", "tol_violation", "time_limit_seconds", "blas_threads"):
        row[key] = params.get(key)
    return row


def _load(config: dict) -> tuple[pd.DataFrame, list[dict]]:
    rows, records = [], []
    for point in solver_points(config):
        record = read_job_record(config, Job(TABLE, point.key))
        if record["status"] != "missing":
            records.append(record)
        rows.append(_row(point, record))
    frame = pd.DataFrame(rows, columns=[c for c in COLUMNS if c != "time_ratio_to_native"])
    return frame.astype({"m": "Int64", "rank": "Int64"}), records


def _time_ratio(frame: pd.DataFrame) -> pd.Series:
    """wall / native wall at the same (variant, n); both must be completed solves."""
    done = frame["status"] == "ok"
    wall = pd.to_numeric(frame["wall_seconds"], errors="coerce").where(done)
    native = frame.assign(wall=wall)[frame["backend"] == "native"]
    base = native.set_index(["variant", "n"])["wall"]
    keys = pd.MultiIndex.from_frame(frame[["variant", "n"]])
    return pd.Series(wall.to_numpy() / base.reindex(keys).to_numpy(), index=frame.index)


def _table(config: dict) -> tuple[pd.DataFrame, list[dict]]:
    frame, records = _load(config)
    frame["time_ratio_to_native"] = _time_ratio(frame)
    return frame[COLUMNS], records


def build_solver_table(config: dict) -> pd.DataFrame:
    """The long table of a validated profile: one row per point, :data:`COLUMNS`.

    A point without a record has status ``missing``. ``time_ratio_to_native`` is the
    wall time over the native solver's at the same variant and n, defined when both
    solves completed (record status ``ok``: verdict optimal or inaccurate).
    """
    return _table(config)[0]


# ---- formatting ----------------------------------------------------------------
def _finite(x) -> bool:
    return x is not None and not (isinstance(x, float) and math.isnan(x)) and np.isfinite(x)


def _seconds(t) -> str:
    if not _finite(t):
        return "–"
    return f"{t:.2f} s" if t < 10 else f"{t:.1f} s" if t < 100 else f"{t:.0f} s"


def _sci(x) -> str:
    """2 significant digits, short exponent: 4.0e-4."""
    if not _finite(x):
        return "∞" if x is not None and not math.isnan(x) else "–"
    if x == 0:
        return "0"
    mantissa, exponent = f"{x:.1e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def _numbers(row) -> str:
    return (f"{_seconds(row['wall_seconds'])}, gap {_sci(row['gap'])}, "
            f"viol {_sci(row['violation'])}")


def _main_cell(row, notes: Footnotes) -> str:
    if row["status"] == "ok":
        text = f"{_numbers(row)}, {row['verdict']}"
        if row["verdict"] != "optimal":
            said = f"; the solver said {row['solver_status']!r}" if row["solver_status"] else ""
            text += notes.mark(f"{row['reason']}{said}")
        return text
    mark = row["verdict"] if row["status"] == "failed" else GAP_MARKS.get(row["status"], row["status"])
    text = f"{mark}{notes.mark(row['reason'])}"
    if _finite(row["gap"]):  # a time-out that still left a certified iterate
        text += f": {_numbers(row)}"
    elif row["status"] == "timeout" and _finite(row["wall_seconds"]):
        text += f" ({_seconds(row['wall_seconds'])})"
    return text


def _objective_cell(row) -> str:
    if not _finite(row["objective"]):
        return "–"
    sign = "≥" if row["variant"] == "min_trace" else "≤"
    bound = f"{row['bound']:.6g}" if _finite(row["bound"]) else "∞"
    return f"{row['objective']:.6g} ({sign} {bound})"


def _ratio_cell(row) -> str:
    r = row["time_ratio_to_native"]
    if not _finite(r):
        return "–"
    return f"{r:.2f}×" if r < 10 else f"{r:.0f}×"


def _grid(part: pd.DataFrame, text) -> pd.DataFrame:
    """Backends x n ('n = 40'); an n a backend does not run stays blank."""
    sizes = sorted(part["n"].unique())
    grid = {backend: {f"n = {row['n']}": text(row) for _, row in group.iterrows()}
            for backend, group in part.groupby("backend", sort=False)}
    return pd.DataFrame.from_dict(grid, orient="index")[[f"n = {n}" for n in sizes]].fillna("")


def blocks(frame: pd.DataFrame, notes: Footnotes, cell=None) -> list[tuple[str, pd.DataFrame]]:
    """Per variant, the grids of backends x n: (1) wall time, gap, violation and
    verdict, (2) objective and certified bound, (3) time relative to native.

    ``cell(row, text)``, if given, makes what a grid holds from the long table's row
    and the cell's text (the report wraps the text with the row's verdict); by
    default the grid holds the text.
    """
    wrap = cell or (lambda row, text: text)
    found = []
    for variant in dict.fromkeys(frame["variant"]):
        part = frame[frame["variant"] == variant]
        found.append((f"{variant}: wall time, certified gap, violation, verdict",
                      _grid(part, lambda row: wrap(row, _main_cell(row, notes)))))
        found.append((f"{variant}: objective (certified bound)",
                      _grid(part, lambda row: wrap(row, _objective_cell(row)))))
        others = part[part["backend"] != "native"]
        if (part["backend"] == "native").any() and len(others):
            found.append((f"{variant}: wall time relative to the native solver",
                          _grid(others, lambda row: wrap(row, _ratio_cell(row)))))
    return found


# ---- notes ---------------------------------------------------------------------
def _distinct(values) -> list:
    return list(dict.fromkeys(v for v in values if v not in (None, "")))


def _machine_lines(records: list[dict]) -> list[str]:
    prov = [r["provenance"] for r in records if "provenance" in r]
    if not prov:
        return ["Machine: no records yet."]
    machines = _distinct(
        f"{p['machine']['node']} ({p['machine']['processor']}, {p['machine']['cpu_count']} "
        f"CPUs, {p['machine']['platform']}), Python {p['python']}" for p in prov)
    keep = ("numpy", "scipy", "cvxpy", "clarabel", "scs", "cvxopt", "sdpa-python", "mosek")
    packages = _distinct(", ".join(f"{k} {p['packages'][k]}" for k in keep if k in p["packages"])
                         for p in prov)
    commits = _distinct(p["git"]["commit"][:10] + (" (dirty)" if p["git"]["dirty"] else "")
                        for p in prov)
    lines = [f"Machine{'s' if len(machines) > 1 else ''}: {'; '.join(machines)}."]
    lines.append(f"Packages: {' | '.join(packages)}.")
    lines.append(f"Commit{'s' if len(commits) > 1 else ''}: {', '.join(commits)}.")
    return lines


def _threads_line(config: dict, records: list[dict]) -> str:
    seen = sorted({lib["num_threads"] for r in records for lib in r.get("blas_during_run") or []
                   if lib.get("num_threads") is not None})
    during = ", ".join(map(str, seen)) if seen else "not measured yet"
    return (f"BLAS/OpenMP threads: blas_threads = {config['blas_threads']} "
            f"(threadpoolctl); seen during the solves: {during}. Points run one per "
            f"Snakemake job, possibly in parallel.")


def _csdp_blas_line(records: list[dict]) -> list[str]:
    """Which BLAS library the CSDP processes mapped (their records), if any ran."""
    found = sorted({(r.get("solver_reported") or {}).get("csdp", {}).get("blas_library")
                    or "not recorded" for r in records if r.get("backend") == "csdp"
                    and (r.get("solver_reported") or {}).get("csdp")})
    if not found:
        return []
    return [f"CSDP's BLAS (the library its process mapped): {', '.join(found)}; Debian's "
            f"csdp links the reference BLAS, the backend loads OpenBLAS where installed "
            f"(harness.solvers.backends.csdp, blas=)."]


def _own_limits_text(section: dict) -> str:
    """The backends with a time limit of their own (``time_limit_per_backend``)."""
    own = section.get("time_limit_per_backend") or {}
    if not own:
        return ""
    return " Backends with a limit of their own: " + ", ".join(
        f"{backend} {limit:g} CPU-s (killed at {limit + section['grace_seconds']:g})"
        for backend, limit in own.items()) + "."


def _own_sizes_text(config: dict) -> str:
    """The backends with sizes of their own (``n_per_backend``): a blank cell is a size
    the profile does not run for that backend, not a gap."""
    own = config["results"][TABLE].get("n_per_backend") or {}
    if not own:
        return ""
    return (" Backends with sizes of their own (the profile's n_per_backend; a blank cell "
            "is a size the profile does not run, its file says why): "
            + ", ".join(f"{backend} n = {', '.join(map(str, sorted(ns)))}"
                        for backend, ns in own.items()) + ".")


def _notes(config: dict, frame: pd.DataFrame, records: list[dict], gaps: list[str]) -> list[str]:
    s = config["results"][TABLE]
    budget = s["time_limit_seconds"] + s["grace_seconds"]
    cap = wall_cap({"time_limit_seconds": budget}, config)
    edges = ", ".join(f"n = {n}: {int(m)}" for n, m in
                      frame.dropna(subset=["m"]).groupby("n")["m"].first().items())
    lines = [
        "Each cell of the first grid: wall time of the solve (cvxpy backends: model "
        "compilation and solver; native: the whole solve including its own stopping "
        "certificate, by the interior-point method wherever its m x m Schur matrix fits "
        f"the memory budget ({IPM_MEMORY_BUDGET / 2**30:.0f} GiB: about n = 3900 at "
        "k = 5) and the low-rank method beyond; native_lowrank: the low-rank method at "
        "every size; csdp: the thesis' solver CSDP run as a program on an SDPA file "
        "(the centring as a penalty in the objective, CSDP's default tolerances), file "
        "and solution included; the CSV's CPU seconds include the CSDP process'), "
        "certified relative gap, relative constraint violation, "
        "and the harness' verdict. The certificate is recomputed by the harness "
        "(harness.problems.mvu_certificate.certify) from the returned factor F (K = F F^T) "
        "and edge multipliers w, never taken from the solver: gap = |bound - value| / "
        "max(|bound|, |value|) with the weak-duality bound from w; violation = max_e "
        "| |f_i - f_j|^2 - b_e | / max_e b_e.",
        f"Verdict: optimal when gap <= {s['tol_gap']:g} and violation <= "
        f"{s['tol_violation']:g}; inaccurate otherwise (the solver's own status is in the "
        f"footnote and the CSV); timeout, failed, infeasible and skipped cells give the "
        f"reason in a footnote; a blank cell is an n the profile does not run for that "
        f"backend.",
        f"Problem: Swiss roll (harness.datasets.swiss_roll, sklearn generator, seed "
        f"{config['seed']}) with {s['extra_noise_dims']} extra dimensions of "
        f"N(0, {s['extra_noise_std']:g}^2) noise (thesis Fig. 3.5); clique graph of the "
        f"k = {s['n_neighbors']} nearest neighbours (3.1.4), duplicate edges removed "
        f"(edges m: {edges or 'no records yet'}).",
        *[f"Variant {VARIANT_TEXT[v]}." for v in s["variants"]],
        f"Time limit: {s['time_limit_seconds']:g} CPU seconds per solve (the solver's "
        f"own limit, on the CPU clock of its process, all threads: the verdict does not "
        f"depend on what else the machine runs); its process is killed at "
        f"{budget:g} CPU-s, or as a runaway at a wall cap of {cap:g} s."
        f"{_own_limits_text(s)} The grids show wall time; the CSV also has CPU seconds. "
        f"Dense cvxpy backends are skipped beyond their size cap "
        f"(max_n of harness/solvers/backends/NAME.py).{_own_sizes_text(config)}",
        "Time relative to native: wall time / the native solver's wall time at the same "
        "variant and n, where both solves completed (optimal or inaccurate).",
        _threads_line(config, records),
        *_csdp_blas_line(records),
        *_machine_lines(records),
    ]
    return lines + [f"[{i + 1}] {text}" for i, text in enumerate(gaps)]


def _or_dash(value) -> str:
    return "-" if pd.isna(value) else str(value)


def _point_lines(frame: pd.DataFrame) -> list[str]:
    lines = []
    for _, r in frame[frame["status"] != "missing"].iterrows():
        extra = "" if not _finite(r["peak_memory_mb"]) else (
            f", process {_seconds(r['process_wall_seconds'])}, CPU "
            f"{_seconds(r['cpu_seconds'])}, peak {r['peak_memory_mb']:.0f} MB")
        state = (r["status"] if r["verdict"] in ("", r["status"]) or pd.isna(r["verdict"])
                 else f"{r['status']} ({r['verdict']})")  # never "timeout (timeout)"
        lines.append(f"{r['variant']}/{r['backend']}/n{r['n']}: {state}"
                     f", m={r['m']}, rank={_or_dash(r['rank'])}, wall "
                     f"{_seconds(r['wall_seconds'])}{extra}, solver said "
                     f"{r['solver_status'] or '-'!r}, commit={r['commit']}")
    return lines


def write_solver_table(config: dict) -> list[Path]:
    """Write ``results/<profile>/tables/solver_table.{csv,md,tex}`` and its sidecar
    ``solver_table.json`` (title, notes without the gap footnotes); return the paths."""
    frame, records = _table(config)
    footnotes = Footnotes()
    grids = blocks(frame, footnotes)
    notes = _notes(config, frame, records, footnotes.texts)
    title = TITLE

    md = [f"# {title}", "", f"Profile `{config['profile']}`. {config.get('description', '')}", ""]
    for label, block in grids:
        md += [f"## {label}", "", tabulate(block, headers="keys", tablefmt="github"), ""]
    md += ["## Notes", ""] + [f"- {line}" for line in notes]
    md += ["", "## Points", ""] + [f"- `{line}`" for line in _point_lines(frame)]

    tex = [f"% {title}", f"% profile {config['profile']}"]
    for label, block in grids:
        tex += [f"% {label}", tabulate(block, headers="keys", tablefmt="latex_booktabs"), ""]
    tex += ["% " + line for line in notes]

    out = output_paths(config, TABLE, "table", sidecar=True)
    return [
        write_csv_atomic(out["csv"], frame),
        write_text_atomic(out["md"], "\n".join(md) + "\n"),
        write_text_atomic(out["tex"], "\n".join(tex) + "\n"),
        write_sidecar(out["json"], {"title": title,
                                    "notes": notes[:len(notes) - len(footnotes.texts)]}),
    ]
