"""The kept reference runs (results/reference_runs/*) were written with every number of
their generated text traced to their records, CSVs, profile or the thesis: each report
says so under "Numbers in the generated text" (harness.number_audit, run when the
report is written). A reference run exported from a run whose audit found an
unexplained number fails here, naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

REFERENCE_RUNS = Path(__file__).resolve().parents[2] / "results" / "reference_runs"
HEADING = "### Numbers in the generated text"


@pytest.mark.parametrize("report", sorted(REFERENCE_RUNS.glob("*/report.md")),
                         ids=lambda p: p.parent.name)
def test_every_number_of_a_reference_run_is_traced(report):
    text = report.read_text()
    assert HEADING in text, (f"{report} has no number audit: rewrite its report with "
                             f"`harness report` and export the run again")
    section = text.split(HEADING, 1)[1].split("\n#", 1)[0]
    lines = [line[2:] for line in section.splitlines() if line.startswith("- ")]
    assert len(lines) == 1 and lines[0].startswith(
        "Every number in the generated text of the"), "\n".join(lines)
