"""The claims register with this run's verdicts: ``harness claims`` and the report's
claims table (issue 51).

Every entry of the register (:mod:`harness.register`) is one row. Its verdict is the
verdict of the run's claims that name it (``register`` key, :mod:`harness.claims`; two
or more are combined by :func:`harness.claims.combined_verdict`); an entry no result
decides reads ``not yet built`` when it is decidable here, ``not comparable`` (2007
hardware) or ``not measured`` (data not reachable, not an experiment) with the
register's reason otherwise -- counted apart, never as a pass. The run's claims that
name no entry follow: ``harness`` rows (``counted`` False: checks of the harness shown
beside the thesis' claims) and ``unregistered`` rows (a result's statement with no
register entry yet, listed so that the gap is seen). ``checked`` is the statement as
the result checked it (its reading, in its words).
"""

from __future__ import annotations

import csv
import io

from harness.claims import NOT_COMPARABLE, NOT_MEASURED, NOT_YET_BUILT, VERDICTS, combined_verdict
from harness.jobs import profile_results
from harness.register import THESIS, Entry, load_register
from harness.result_claims import result_claims
from harness.result_registry import hook

__all__ = ["COLUMNS", "KINDS", "collect_claims", "claims_table", "tally", "render_csv",
           "render_markdown"]

#: the columns of ``harness claims --format csv``
COLUMNS = ("id", "kind", "thesis_line", "section", "quote", "quantifier", "reading",
           "checked", "verdict", "evidence", "result")
#: what a row is: a register entry of the thesis or of the lecture notes, a check of the
#: harness (not counted), or a result's claim with no register entry
KINDS = ("thesis", "lecture", "harness", "unregistered")


def collect_claims(config: dict) -> list[dict]:
    """``claims(config)`` of every result of the profile that has claims (withheld
    while the result's jobs have not all run, :mod:`harness.result_claims`), in the
    profile's order."""
    found = []
    for module in profile_results(config):
        if hook(module, "claims"):
            found += result_claims(config, module)
    return found


def _line(entry: Entry) -> str:
    return str(entry.line) if entry.source == THESIS else f"{entry.source}:{entry.line}"


def _entry_row(entry: Entry, linked: list[dict]) -> dict:
    row = {"id": entry.id, "kind": entry.kind, "thesis_line": _line(entry),
           "section": entry.section, "quote": entry.quote, "quantifier": entry.quantifier,
           "reading": entry.reading_text}
    checked = " | ".join(c["claim"] for c in linked)
    if linked:
        verdict = combined_verdict([c["verdict"] for c in linked])
        evidence = " | ".join(f"{c['source']}: {c['evidence']}" for c in linked)
        result = ", ".join(dict.fromkeys(c["source"] for c in linked))
    elif entry.decidable.startswith("not comparable"):
        verdict, evidence, result = NOT_COMPARABLE, entry.decidable, ""
    elif entry.decidable != "yes":
        verdict, evidence, result = NOT_MEASURED, entry.decidable, ""
    else:
        verdict, result = NOT_YET_BUILT, ""
        evidence = "no result of the harness decides it yet" + (
            f" (the results that hold its data: {', '.join(entry.results)})"
            if entry.results else "")
    return {**row, "checked": checked, "verdict": verdict, "evidence": evidence,
            "result": result}


def _claim_row(claim: dict) -> dict:
    kind = "harness" if claim.get("counted", True) is False else "unregistered"
    return {"id": f"{claim['source']}/{claim['claim'][:60]}", "kind": kind,
            "thesis_line": "", "section": "", "quote": claim["claim"], "quantifier": "",
            "reading": "", "checked": claim["claim"], "verdict": claim["verdict"],
            "evidence": claim["evidence"], "result": claim["source"]}


def claims_table(config: dict, claims: list[dict] | None = None) -> list[dict]:
    """One row (:data:`COLUMNS`) per register entry, with the verdict of the run's
    claims that name it, then one per claim of the run that names none; ``claims``
    defaults to :func:`collect_claims`."""
    claims = collect_claims(config) if claims is None else claims
    counted = [c for c in claims if c.get("counted", True) is not False]
    by_entry: dict[str, list[dict]] = {}
    for claim in counted:
        if claim.get("register"):
            by_entry.setdefault(claim["register"], []).append(claim)
    rows = [_entry_row(e, by_entry.get(e.id, [])) for e in load_register().values()]
    rows += [_claim_row(c) for c in claims
             if c.get("counted", True) is False or not c.get("register")]
    return rows


def tally(rows: list[dict], kind: str) -> str:
    """``12 holds, 3 does not hold, ...`` of the rows of ``kind``, zero counts left out."""
    verdicts = [r["verdict"] for r in rows if r["kind"] == kind]
    counts = ", ".join(f"{verdicts.count(v)} {v}" for v in VERDICTS if verdicts.count(v))
    return f"{len(verdicts)} {kind} claims" + (f": {counts}" if counts else "")


def render_csv(rows: list[dict]) -> str:
    """The rows as CSV with a header (:data:`COLUMNS`)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render_markdown(rows: list[dict]) -> str:
    """The rows as Markdown: the counts per kind, then one table per kind."""
    out = ["# The claims register and this run's verdicts", ""]
    out += [f"- {tally(rows, kind)}" for kind in KINDS if any(r["kind"] == kind for r in rows)]
    for kind in KINDS:
        part = [r for r in rows if r["kind"] == kind]
        if not part:
            continue
        out += ["", f"## {kind}", "", "| id | line | verdict | quote | evidence |",
                "|---|---|---|---|---|"]
        out += [f"| {_cell(r['id'])} | {_cell(r['thesis_line'])} | {_cell(r['verdict'])} | "
                f"{_cell(r['quote'])} | {_cell(r['evidence'])} |" for r in part]
    return "\n".join(out) + "\n"
