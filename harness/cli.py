"""The ``harness`` command: list, run (one cell), table, solve-point, solver-table,
figure-point, figure, report, fetch, doctor, asv-offline.

Examples
--------
::

    harness list
    harness run t3_2/swiss_roll/isomap            # one cell -> its JSON record
    harness table table_3_2                       # records -> csv/md/tex
    harness solve-point clarabel 40               # one certified MVU solve -> its record
    harness solver-table                          # solve records -> solver_table.csv/md/tex
    harness figure-point fig_3_28/k7              # one MVU solve of a figure -> its record
    harness figure fig_3_28                       # point records -> fig_3_28.csv/png/md
    harness report                                # tables, figures -> report.html/md
    harness fetch teapot                          # download and verify a data set
    harness doctor                                # installed packages, solvers, BLAS
    harness asv-offline .asv/html                 # the asv dashboard, opening offline
"""

from __future__ import annotations

import argparse
import os
import sys

__all__ = ["main"]

DEFAULT_CONFIG = "config/quick.yaml"


def _config(args):
    from harness.profile_validation import load_config

    return load_config(args.config)


def cmd_list(args) -> int:
    from harness import registry
    from harness.solvers import BACKENDS, backend_status
    from harness.table_specs import TABLES

    print("methods:")
    for name, cls in registry.methods().items():
        solvers = f", solvers: {', '.join(cls.solvers)}" if cls.solvers else ""
        print(f"  {name:22s} task={cls.task:14s} thesis row: {cls.thesis_label or '-'}{solvers}")
        for solver in cls.solvers:
            skip, why = cls.skip(None, solver)
            usable, reason = backend_status(solver) if solver in BACKENDS else (True, "")
            if skip or not usable:
                print(f"      skips solver {solver}: {why or reason}")
    print("datasets:")
    for name, cls in registry.datasets().items():
        ok, why = cls().available()
        state = "available" if ok else "NOT AVAILABLE"
        extra = f" (stand-in for {cls.stand_in_for})" if cls.stand_in_for else ""
        print(f"  {name:22s} {state:14s} tasks={','.join(cls.tasks)}{extra}")
        if not ok:
            print(f"      {why}")
    print("solvers:")
    for name in BACKENDS:
        ok, why = backend_status(name)
        print(f"  {name:22s} {'usable' if ok else 'not usable':14s} {why}")
    print("tables:")
    for name, spec in TABLES.items():
        print(f"  {name:22s} cells {spec.cell_prefix}/DATASET/METHOD  task={spec.task}")
    from harness.experiments import FIGURES

    print("figures:")
    for name, module in FIGURES.items():
        print(f"  {name:22s} {module.TITLE}")
    return 0


def _result_line(name: str, status: str, record: dict, path, *extras: str) -> str:
    """``NAME: STATUS (REASON) EXTRA... -> PATH``, the one-line report of a run."""
    parts = [f"{name}: {status}"]
    if record.get("reason"):
        parts.append(f"({record['reason']})")
    parts += [extra for extra in extras if extra]
    return " ".join(parts) + f" -> {path}"


def cmd_run(args) -> int:
    from harness.config import parse_cell
    from harness.records import read_record
    from harness.runner import run_cell

    config = _config(args)
    for cell_id in args.cells:
        path = run_cell(config, parse_cell(cell_id))
        record = read_record(path)
        summary = ", ".join(f"{k}={v['mean']:.3f}" for k, v in record.get("summary", {}).items())
        print(_result_line(cell_id, record["status"], record, path, summary))
    return 0


def cmd_table(args) -> int:
    from harness.table_specs import spec_for_prefix
    from harness.tables import write_table

    config = _config(args)
    names = args.tables or list(config["tables"])
    for name in names:
        spec = spec_for_prefix(name)
        if spec.name not in config["tables"]:
            raise SystemExit(f"table {spec.name} is not in the profile {args.config}")
        for path in write_table(config, spec.name):
            print(path)
    return 0


def cmd_solve_point(args) -> int:
    from harness.records import read_record
    from harness.solver_points import SolverPoint, run_point

    path = run_point(_config(args), SolverPoint(args.backend, args.n, args.variant))
    record = read_record(path)
    cert = record["certificate"]
    numbers = "" if cert is None else (
        f"objective={cert['value']:.6g} gap={cert['gap']:.2e} "
        f"violation={cert['violation']:.2e}")
    wall = (record.get("timing") or {}).get("wall_seconds")
    print(_result_line(record["point"], f"{record['status']} ({record['verdict']})", record,
                       path, numbers, "" if wall is None else f"wall={wall:.2f}s"))
    return 0


def cmd_solver_table(args) -> int:
    from harness.solver_table import write_solver_table

    for path in write_solver_table(_config(args)):
        print(path)
    return 0


def cmd_figure_point(args) -> int:
    from harness.experiments import parse_point, run_point
    from harness.records import read_record

    config = _config(args)
    for point_id in args.points:
        path = run_point(config, parse_point(point_id))
        record = read_record(path)
        solve = record.get("solve") or {}
        measures = ", ".join(f"{k}={v:.3f}" for k, v in (record.get("measures") or {}).items())
        print(_result_line(record["point"], record["status"], record, path,
                           f"solve={solve.get('status')}" if solve else "", measures))
    return 0


def cmd_figure(args) -> int:
    from harness.experiments import get_figure, write_figure

    config = _config(args)
    for name in args.figures or list(config.get("figures") or {}):
        get_figure(name)
        for path in write_figure(config, name):
            print(path)
    return 0


def cmd_report(args) -> int:
    from harness.report import write_report

    for path in write_report(_config(args)):
        print(path)
    return 0


def cmd_fetch(args) -> int:
    from harness import registry
    from harness.plugin import DataUnavailableError

    names = args.names or list(registry.datasets())
    failed = 0
    for name in names:
        try:
            print(registry.get_dataset(name)().fetch())
        except DataUnavailableError as exc:
            failed += 1
            print(f"{name}: {exc}", file=sys.stderr)
    return 1 if failed else 0


def cmd_doctor(args) -> int:
    from harness import registry
    from harness.provenance import blas_info, git_commit, package_versions
    from harness.solvers import BACKENDS, backend_status

    print(f"python {sys.version.split()[0]} at {sys.executable}")
    print(f"commit {git_commit()['commit']}{' (dirty)' if git_commit()['dirty'] else ''}")
    print("packages:")
    for name, ver in package_versions().items():
        print(f"  {name:20s} {ver}")
    print("BLAS / OpenMP (threadpoolctl):")
    for lib in blas_info():
        print(f"  {lib['internal_api']:10s} {lib['version'] or '':10s} "
              f"num_threads={lib['num_threads']}")
    print(f"  cells run with blas_threads from the profile (quick: 1); cores: {os.cpu_count()}")
    print("solvers:")
    for name in BACKENDS:
        ok, why = backend_status(name)
        print(f"  {name:10s} {'usable' if ok else 'not usable'} {why}")
    from harness.data_cache import data_dir

    print(f"data cache: {data_dir()} (override with $HARNESS_DATA_DIR)")
    for name, cls in registry.datasets().items():
        ok, why = cls().available()
        print(f"  {name:20s} {'ok' if ok else 'missing'}" + ("" if ok else f": {why}"))
    return 0


def cmd_asv_offline(args) -> int:
    from pathlib import Path

    from harness.asv_dashboard import NpmUnavailableError, fetch_packages, make_offline

    cache = Path(args.cache) if args.cache else None
    try:
        if args.fetch_only:
            for path in fetch_packages(cache):
                print(f"verified {path}")
        else:
            for page in make_offline(args.html_dir, cache):
                print(f"{page}: scripts and styles now load from {page.parent / 'vendor'}")
    except NpmUnavailableError as exc:
        print(f"harness: error: {exc}", file=sys.stderr)
        return 1
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="harness", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    def with_config(p):
        p.add_argument("--config", default=DEFAULT_CONFIG,
                       help=f"profile file (default {DEFAULT_CONFIG})")
        return p

    sub.add_parser("list", help="methods, datasets, solvers and tables").set_defaults(func=cmd_list)
    p = with_config(sub.add_parser("run", help="run cells and write their records"))
    p.add_argument("cells", nargs="+", metavar="CELL", help="e.g. t3_2/swiss_roll/isomap")
    p.set_defaults(func=cmd_run)
    p = with_config(sub.add_parser("table", help="rebuild tables from the records"))
    p.add_argument("tables", nargs="*", metavar="TABLE", help="e.g. table_3_2 (default: all)")
    p.set_defaults(func=cmd_table)
    p = with_config(sub.add_parser(
        "solve-point", help="one certified MVU solve of the solver table -> its record"))
    p.add_argument("backend", help="native, clarabel, scs, cvxopt, sdpa or mosek")
    p.add_argument("n", type=int, help="number of Swiss roll points")
    p.add_argument("--variant", default="equality",
                   help="MVU SDP variant (default equality)")
    p.set_defaults(func=cmd_solve_point)
    p = with_config(sub.add_parser(
        "solver-table", help="rebuild the solver comparison table from its records"))
    p.set_defaults(func=cmd_solver_table)
    p = with_config(sub.add_parser(
        "figure-point", help="run MVU solves of thesis figures and write their records"))
    p.add_argument("points", nargs="+", metavar="POINT",
                   help="FIGURE/KEY, e.g. fig_3_24/swiss_roll/min_trace or fig_3_28/k7")
    p.set_defaults(func=cmd_figure_point)
    p = with_config(sub.add_parser(
        "figure", help="rebuild thesis figures (csv, png, md) from their point records"))
    p.add_argument("figures", nargs="*", metavar="FIGURE",
                   help="fig_3_24 or fig_3_28 (default: every figure of the profile)")
    p.set_defaults(func=cmd_figure)
    p = with_config(sub.add_parser(
        "report", help="write results/<profile>/report.html and report.md from the "
                       "generated tables and figures"))
    p.set_defaults(func=cmd_report)
    p = sub.add_parser("fetch", help="download and verify data sets")
    p.add_argument("names", nargs="*", metavar="NAME", help="data set names (default: all)")
    p.set_defaults(func=cmd_fetch)
    sub.add_parser("doctor", help="what is installed and usable").set_defaults(func=cmd_doctor)
    p = sub.add_parser("asv-offline", help="make the page `asv publish` wrote load its "
                                           "scripts and styles from verified npm copies")
    p.add_argument("html_dir", nargs="?", default=".asv/html",
                   help="asv's html_dir (default .asv/html)")
    p.add_argument("--cache", help="where the npm tarballs are kept (default: the data "
                                   "cache's npm/ folder)")
    p.add_argument("--fetch-only", action="store_true",
                   help="only fetch and verify the npm packages")
    p.set_defaults(func=cmd_asv_offline)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``harness`` command."""
    from harness.config import ConfigError
    from harness.registry import UnknownNameError

    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (ConfigError, UnknownNameError, FileNotFoundError) as exc:
        print(f"harness: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
