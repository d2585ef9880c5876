"""What a finished run holds, read the same way from a run directory
(``results/<profile>``, with ``records/``) and from a reference run written by
``harness export-run`` (with ``run.json``): the results' outputs by name, their
sidecars' claims, and the claims of a run whose sidecars predate them (read from
``report.md``'s claims table)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from harness.claims import KEYS, claim_ids
from harness.outputs import FOLDERS

__all__ = ["Run", "NotARunError", "open_run", "read_report_claims", "RUN_FILE",
           "RECORDS_FILE", "CLAIMS_HEADING"]

RUN_FILE = "run.json"
RECORDS_FILE = "records.csv"
CLAIMS_HEADING = "## The thesis' claims and our verdicts"


class NotARunError(FileNotFoundError):
    """A path that is neither a run directory nor a reference run."""


@dataclasses.dataclass(frozen=True)
class Run:
    """A run directory (``kind == "run"``) or a reference run (``"reference"``).

    Attributes
    ----------
    root : Path
    kind : str
    outputs : dict
        Result name -> ``{suffix: path}`` of its files in ``tables/`` or ``figures/``
        (``csv``, ``md``, ``json``, ``tex``, ``png``: those that exist).
    """

    root: Path
    kind: str
    outputs: dict[str, dict[str, Path]]

    @property
    def records_dir(self) -> Path:
        """``records/`` of a run directory (a reference run has none)."""
        return self.root / "records"

    @property
    def report(self) -> Path:
        """The run's ``report.md``."""
        return self.root / "report.md"

    def csv(self, result: str) -> Path | None:
        """The result's CSV, None if it has none."""
        return self.outputs.get(result, {}).get("csv")

    def claims(self, result: str) -> tuple[list[dict], str]:
        """The result's claims (dicts with ``id``, ``source``, ``claim``, ``verdict``,
        ``evidence``) and where they were read: ``"sidecar"``, ``"report.md"`` (a
        sidecar written before sidecars held claims) or ``""`` (neither)."""
        sidecar = self.outputs.get(result, {}).get("json")
        if sidecar is not None:
            data = json.loads(sidecar.read_text(encoding="utf-8"))
            if "claims" in data:
                return list(data["claims"]), "sidecar"
        if self.report.exists():
            found = [c for c in read_report_claims(self.report) if c["source"] == result]
            return found, "report.md"
        return [], ""


def open_run(path: str | Path) -> Run:
    """The run at ``path``: a run directory (it has ``records/``) or a reference run
    (it has ``run.json``).

    Raises
    ------
    NotARunError
        ``path`` does not exist, or has neither; the message names the path and what
        a run holds.
    """
    root = Path(path)
    if not root.is_dir():
        raise NotARunError(f"{root} is not a directory; give a run directory "
                           f"(results/<profile>, with records/, tables/, figures/) or a "
                           f"reference run written by `harness export-run`")
    if (root / "records").is_dir():
        kind = "run"
    elif (root / RUN_FILE).is_file():
        kind = "reference"
    else:
        raise NotARunError(f"{root} is not a run: it has neither records/ (a run "
                           f"directory, results/<profile>) nor {RUN_FILE} (a reference "
                           f"run written by `harness export-run`)")
    outputs: dict[str, dict[str, Path]] = {}
    for folder in FOLDERS.values():
        for file in sorted((root / folder).glob("*.*")):
            if file.name.startswith("."):
                continue
            name, _, suffix = file.name.partition(".")
            outputs.setdefault(name, {})[suffix] = file
    return Run(root=root, kind=kind, outputs=outputs)


def _cells(line: str) -> list[str]:
    """The cells of a GitHub table row; ``\\|`` is a literal bar."""
    parts = re.split(r"(?<!\\)\|", line.strip())[1:-1]
    return [p.strip().replace("\\|", "|") for p in parts]


def read_report_claims(report: Path) -> list[dict]:
    """The claims table of a report's Markdown (source, verdict, claim, evidence), each
    claim with its id (:func:`harness.claims.claim_ids`): the verdicts of a run whose
    sidecars were written before they held claims."""
    rows, inside = [], False
    for line in report.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            if inside:
                break
            inside = line.strip() == CLAIMS_HEADING
            continue
        if inside and line.startswith("|"):
            cells = _cells(line)
            if len(cells) != 4 or cells[0] == "source" or set(cells[0]) <= set("-: "):
                continue
            source, verdict, claim, evidence = cells
            rows.append(dict(zip(KEYS, (source, claim, verdict, evidence))))
    return [{"id": cid, **row} for cid, row in zip(claim_ids(rows), rows)]
