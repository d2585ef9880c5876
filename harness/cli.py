"""The ``harness`` command: list, job, write, report, verify, fetch, doctor, asv-offline,
export-run, compare, plan.

Examples
--------
::

    harness list
    harness job table_3_2/swiss_roll/isomap       # one table cell -> its JSON record
    harness job solver_table/equality/clarabel/n40  # one certified MVU solve
    harness job fig_3_28/noise_free/k7            # one MVU solve of a figure
    harness write table_3_2                       # records -> tables/table_3_2.csv/md/tex
    harness write fig_3_28                        # records -> figures/fig_3_28.csv/png/md
    harness report                                # results -> report.html/md
    harness verify results/quick/records/solver_table/equality/native/n40.json
                                                  # re-check a record's certificate
    harness fetch teapot                          # download and verify a data set
    harness fetch olivetti --file att_faces.zip   # install a copy you have (no network)
    harness doctor                                # installed packages, solvers, BLAS
    harness asv-offline .asv/html                 # the asv dashboard, opening offline
    harness export-run results/quick reference/quick-6b2ef2a
                                                  # keep a run: CSV/MD/JSON, records.csv, run.json
    harness compare results/quick reference/quick-6b2ef2a
                                                  # cell by cell and verdict by verdict
    harness plan --config config/full.yaml --records results/quick/records --cores 2
                                                  # jobs, CPU, memory, wall before a run
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

__all__ = ["main"]

DEFAULT_CONFIG = "config/quick.yaml"


def _config(args):
    from harness.config import load_config

    return load_config(args.config)


def cmd_list(args) -> int:
    from harness import registry
    print("methods:")
    for name, cls in registry.methods().items():
        solvers = f", solvers: {', '.join(cls.solvers)}" if cls.solvers else ""
        print(f"  {name:22s} task={cls.task:14s} thesis row: {cls.thesis_label or '-'}{solvers}")
        for solver in cls.solvers:
            skip, why = cls.skip(None, solver)
            usable, reason = (registry.backend_status(solver) if solver in registry.backends()
                              else (True, ""))
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
    print("solver backends (harness/solvers/backends/):")
    for name in registry.backends():
        ok, why = registry.backend_status(name)
        info = registry.backend_info(name)
        print(f"  {name:22s} {'usable' if ok else 'not usable':14s} {info.description}")
        if why:
            print(f"      {why}")
    from harness.result_registry import result_modules

    print("thesis results (harness job RESULT/KEY, harness write RESULT):")
    for name, module in result_modules().items():
        print(f"  {name:22s} {module.KIND:7s} {module.TITLE}")
    return 0


def _result_line(name: str, status: str, record: dict, path, *extras: str) -> str:
    """``NAME: STATUS (REASON) EXTRA... -> PATH``, the one-line report of a run."""
    parts = [f"{name}: {status}"]
    if record.get("reason"):
        parts.append(f"({record['reason']})")
    parts += [extra for extra in extras if extra]
    return " ".join(parts) + f" -> {path}"


def _numbers(record: dict) -> list[str]:
    """What a job's one-line report shows beside its status: a cell's means, a
    solve's certified numbers, a figure point's solve status and measures."""
    parts = []
    summary = record.get("summary") or {}
    if summary:
        parts.append(", ".join(f"{k}={v['mean']:.3f}" for k, v in summary.items()))
    cert = record.get("certificate")
    if cert:  # a solve stopped short may lack a value or a gap: shown as "-"
        from harness.formatting import fmt_number

        parts.append(f"objective={fmt_number(cert.get('value'), '.6g')} "
                     f"gap={fmt_number(cert.get('gap'), '.2e')} "
                     f"violation={fmt_number(cert.get('violation'), '.2e')}")
    solve = record.get("solve") or {}
    if solve:
        parts.append(f"solve={solve.get('status')}")
    measures = record.get("measures") or {}
    if measures:
        parts.append(", ".join(f"{k}={v:.3f}" for k, v in measures.items()))
    wall = (record.get("timing") or {}).get("wall_seconds")
    if wall is not None:
        parts.append(f"wall={wall:.2f}s")
    return parts


def _check_writable(folder) -> None:
    """Raise :class:`PermissionError` naming ``folder`` unless its nearest existing
    ancestor is a folder this process may write (issue 53: a read-only results folder
    was found only after the whole job had run). Creates nothing."""
    import os

    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir() or not os.access(probe, os.W_OK | os.X_OK):
        why = "not a folder" if not probe.is_dir() else "not writable"
        raise PermissionError(f"cannot write records in {folder} ({probe} is {why}); make "
                              f"it writable or set results_dir in the profile to a "
                              f"writable folder")


def cmd_job(args) -> int:
    from harness.jobs import parse_job, record_path
    from harness.owner_watch import watch_owner
    from harness.plugin_args import check_plugin_args
    from harness.records import read_record
    from harness.runner import run_job

    config = _config(args)
    watch_owner()
    check_plugin_args(config)  # a misspelt argument: one line, before any work
    jobs = [parse_job(job_id) for job_id in args.jobs]
    for job in jobs:  # before any work: a job that cannot write its record is refused
        _check_writable(record_path(config, job).parent)
    for job in jobs:
        path = run_job(config, job)
        record = read_record(path)
        status = record["status"] + (f" ({record['verdict']})" if "verdict" in record else "")
        print(_result_line(record["job"], status, record, path, *_numbers(record)))
    return 0


def cmd_write(args) -> int:
    from harness.jobs import section
    from harness.result_write import write_result
    from harness.result_registry import get_result

    config = _config(args)
    for name in args.results or list(config["results"]):
        module = get_result(name)
        section(config, name)
        for path in write_result(config, module):
            print(path)
    return 0


def cmd_report(args) -> int:
    from harness.report import write_report

    for path in write_report(_config(args)):
        print(path)
    return 0


def cmd_claims(args) -> int:
    from harness.claims_table import claims_table, render_csv, render_markdown

    rows = claims_table(_config(args))
    text = render_csv(rows) if args.format == "csv" else render_markdown(rows)
    if args.output:
        from harness.records import write_text_atomic

        write_text_atomic(args.output, text)
        print(args.output)
    else:
        print(text, end="")
    return 0


def cmd_audit(args) -> int:
    from harness.number_audit import audit_lines, audit_profile

    config = _config(args)
    found = audit_profile(config, args.results or None)
    if not found:
        print(f"harness: error: no result of profile {config['profile']!r} is written yet: "
              f"run `harness write` (or snakemake) first", file=sys.stderr)
        return 2
    for line in audit_lines(found):
        print(line)
    return 1 if any(found.values()) else 0


def cmd_verify(args) -> int:
    import json

    from harness.problems.verify import verify_record

    failed = 0
    for path in args.records:
        try:
            report = verify_record(path)
        except FileNotFoundError:
            raise  # no record or no certificate file: an error of the command line
        except Exception as exc:  # noqa: BLE001 (a malformed certificate is not certified)
            failed += 1
            why = f"{type(exc).__name__}: {exc}"
            if args.json:
                print(json.dumps({"record": str(path), "ok": False, "error": why}))
            else:
                print(f"{path}: NOT CERTIFIED: the certificate cannot be checked ({why})")
            continue
        failed += not report.ok
        if args.json:
            from harness.records import _jsonable

            print(json.dumps(_jsonable(report.as_dict()), sort_keys=True))
            continue
        verdict = "certified" if report.ok else "NOT CERTIFIED"
        precision = "extended precision" if report.extended_precision else "float64"
        print(f"{path}: {verdict}: value={report.value:.10g} bound={report.bound:.10g} "
              f"gap={report.gap:.2e} violation={report.violation:.2e} "
              f"mu={report.eigenvalue:.9g} ({precision})"
              + "".join(f"\n  {problem}" for problem in report.problems))
    return 1 if failed else 0


def cmd_fetch(args) -> int:
    from harness import registry
    from harness.plugin import DataUnavailableError

    if args.files:
        if len(args.names) != 1:
            print("harness: error: --file needs exactly one data set name, e.g. "
                  "`harness fetch olivetti --file att_faces.zip`", file=sys.stderr)
            return 2
        dataset = registry.get_dataset(args.names[0])()
        if not hasattr(dataset, "install"):
            print(f"harness: error: {args.names[0]} is not a downloaded data set; it takes "
                  f"no --file", file=sys.stderr)
            return 2
        folders = [path for path in args.files if Path(path).is_dir()]
        if folders:  # "does not exist" was the message for a folder (issue 53)
            print(f"harness: error: --file {folders[0]} is a folder; give the file itself "
                  f"(e.g. {Path(folders[0]) / 'att_faces.zip'})", file=sys.stderr)
            return 2
        try:
            for path in args.files:
                print(dataset.install(path))
        except DataUnavailableError as exc:
            print(str(exc), file=sys.stderr)
            return 1
        return 0
    names = args.names or list(registry.datasets())
    failed = 0
    for name in names:
        try:
            print(registry.get_dataset(name)().fetch())
        except DataUnavailableError as exc:
            failed += 1
            message = str(exc)
            print(message if message.startswith(f"{name}:") else f"{name}: {message}",
                  file=sys.stderr)
    return 1 if failed else 0


def cmd_doctor(args) -> int:
    from harness import registry
    from harness.provenance import blas_info, git_commit, package_versions

    print(f"python {sys.version.split()[0]} at {sys.executable}")
    print(f"commit {git_commit()['commit']}{' (dirty)' if git_commit()['dirty'] else ''}")
    print("packages:")
    for name, ver in package_versions().items():
        print(f"  {name:20s} {ver}")
    print("BLAS / OpenMP (threadpoolctl):")
    for lib in blas_info():
        print(f"  {lib['internal_api']:10s} {lib['version'] or '':10s} "
              f"num_threads={lib['num_threads']}")
    print(f"  jobs run with blas_threads from the profile (quick: 1); cores: {os.cpu_count()}")
    print("solvers:")
    for name in registry.backends():
        ok, why = registry.backend_status(name)
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


def cmd_export_run(args) -> int:
    from harness.runs.export import export_run

    print(export_run(args.results_dir, args.dest, force=args.force))
    return 0


def cmd_compare(args) -> int:
    from harness.runs.compare import compare_runs, render_markdown

    try:
        comparison = compare_runs(args.run_a, args.run_b, args.results)
    except ValueError as exc:
        print(f"harness: error: {exc}", file=sys.stderr)
        return 2
    text = render_markdown(comparison)
    if args.output:
        from harness.records import write_text_atomic

        write_text_atomic(args.output, text)
        print(f"{comparison.summary()} -> {args.output}")
    else:
        print(text, end="")
    return 1 if comparison.differs else 0


def cmd_plan(args) -> int:
    import json

    from harness.runs.plan import plan_profile, render_table

    plan = plan_profile(_config(args), records=args.records, cores=args.cores,
                        memory_mb=args.memory_mb)
    if args.json:
        print(json.dumps(plan.as_dict(), indent=1))
    else:
        print(render_table(plan, jobs=args.jobs), end="")
    if args.actual:
        from harness.runs.plan_actual import plan_against_run, render_actual

        print("\n" + render_actual(plan_against_run(plan, args.actual), args.actual), end="")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="harness", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    def with_config(p):
        p.add_argument("--config", default=DEFAULT_CONFIG,
                       help=f"profile file (default {DEFAULT_CONFIG})")
        return p

    sub.add_parser("list", help="methods, datasets, solvers and thesis results").set_defaults(
        func=cmd_list)
    p = with_config(sub.add_parser("job", help="run jobs of thesis results and write "
                                               "their records"))
    p.add_argument("jobs", nargs="+", metavar="JOB",
                   help="RESULT/KEY, e.g. table_3_2/swiss_roll/isomap, "
                        "solver_table/equality/native/n100 or fig_3_28/noise_free/k7")
    p.set_defaults(func=cmd_job)
    p = with_config(sub.add_parser("write", help="write thesis results (tables, figures) "
                                                 "from their records"))
    p.add_argument("results", nargs="*", metavar="RESULT",
                   help="e.g. table_3_2 or fig_3_28 (default: every result of the profile)")
    p.set_defaults(func=cmd_write)
    p = with_config(sub.add_parser(
        "report", help="write results/<profile>/report.html and report.md from the "
                       "generated tables and figures"))
    p.set_defaults(func=cmd_report)
    p = with_config(sub.add_parser(
        "claims", help="the claims register (every measurable sentence of the thesis, "
                       "and the lecture notes' apart) with this run's verdicts and "
                       "evidence"))
    p.add_argument("--format", choices=("csv", "md"), default="md",
                   help="csv (columns id, kind, thesis_line, section, quote, quantifier, "
                        "reading, verdict, evidence, result) or md (default)")
    p.add_argument("--output", help="write to this file (atomically) instead of stdout")
    p.set_defaults(func=cmd_claims)
    p = with_config(sub.add_parser(
        "audit", help="check that every number in the results' generated Markdown comes "
                      "from this run's records, their CSVs, the profile or the thesis' "
                      "reference (harness.number_audit); exit 1 naming any other"))
    p.add_argument("results", nargs="*", metavar="RESULT",
                   help="e.g. table_3_2 (default: every written result of the profile)")
    p.set_defaults(func=cmd_audit)
    p = sub.add_parser("verify", help="re-check the certificate a record keeps beside "
                                      "it (KEY.certificate.npz) from its arrays alone")
    p.add_argument("records", nargs="+", metavar="RECORD",
                   help="a record KEY.json with certificate_file, or a .npz written by "
                        "harness.problems.verify.save_certificate")
    p.add_argument("--json", action="store_true", help="one JSON report per line")
    p.set_defaults(func=cmd_verify)
    p = sub.add_parser("fetch", help="download and verify data sets")
    p.add_argument("names", nargs="*", metavar="NAME", help="data set names (default: all)")
    p.add_argument("--file", dest="files", action="append", metavar="PATH",
                   help="install a copy you already have (no network): verified like a "
                        "download, by content where the data set is pinned by content, and "
                        "written into the cache; repeat for a data set of several files")
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
    p = sub.add_parser("export-run", help="keep a finished run as a reference run: every "
                                          "result's CSV, Markdown and sidecar, report.md, "
                                          "records.csv and run.json (no PNG, arrays, HTML)")
    p.add_argument("results_dir", metavar="RESULTS_DIR", help="a run, e.g. results/quick")
    p.add_argument("dest", metavar="DEST", help="the reference run to write (written "
                                                "atomically; must not exist)")
    p.add_argument("--force", action="store_true", help="replace an existing DEST")
    p.set_defaults(func=cmd_export_run)
    p = sub.add_parser("compare", help="compare two runs (run directories or reference "
                                       "runs) cell by cell and verdict by verdict; exit 1 "
                                       "if anything differs")
    p.add_argument("run_a", metavar="RUN_A")
    p.add_argument("run_b", metavar="RUN_B")
    p.add_argument("--results", nargs="+", metavar="RESULT",
                   help="compare only these results, e.g. table_3_2 solver_table")
    p.add_argument("--output", "-o", metavar="FILE",
                   help="write the Markdown listing to FILE and print its summary line")
    p.set_defaults(func=cmd_compare)
    p = with_config(sub.add_parser(
        "plan", help="before a run: jobs, estimated CPU and memory per result, total CPU "
                     "and wall on N cores, jobs over their budget or the machine's memory"))
    p.add_argument("--records", metavar="DIR", action="append",
                   help="records/ of an earlier run (e.g. results/quick/records) or a "
                        "reference run: measured costs and the data of the cost models "
                        "(default: the profile's own); repeat it to use several runs (the "
                        "first holding a job measures it, the models fit on all)")
    p.add_argument("--cores", type=int, default=os.cpu_count() or 1,
                   help="cores the run gets (default: this machine's)")
    p.add_argument("--memory-mb", type=float, default=None,
                   help="the machine's memory in MB (default: this machine's)")
    p.add_argument("--jobs", action="store_true", help="also list every job")
    p.add_argument("--json", action="store_true", help="the whole plan as JSON")
    p.add_argument("--actual", metavar="RUN",
                   help="after the run: its records/ (or a reference run), each result's "
                        "planned CPU beside the CPU its records measured")
    p.set_defaults(func=cmd_plan)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``harness`` command. ``job``, ``write`` and ``report`` run
    in the job server when one is running for this run (:mod:`harness.jobserver`)."""
    from harness.jobserver.client import run_served

    served = run_served(sys.argv[1:] if argv is None else list(argv))
    if served is not None:
        return served
    from harness.errors import ConfigError
    from harness.registry import UnknownNameError

    from harness.record_check import CorruptRecordError

    argv = sys.argv[1:] if argv is None else list(argv)
    debug = "--debug" in argv  # anywhere on the line: show the traceback
    args = build_parser().parse_args([a for a in argv if a != "--debug"])
    try:
        return args.func(args)
    except (ConfigError, UnknownNameError, FileNotFoundError, FileExistsError,
            CorruptRecordError) as exc:
        if debug:
            raise
        print(f"harness: error: {exc}", file=sys.stderr)
        return 2
    except (PermissionError, IsADirectoryError, NotADirectoryError) as exc:
        if debug:
            raise
        print(f"harness: error: {exc}; check that the folder exists and is writable "
              f"(run with --debug for the traceback)", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
