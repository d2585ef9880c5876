"""The lecture methods on the thesis' data (3 of 3): action respecting embedding (ARE,
Bowling, Ghodsi & Wilkinson 2005) against MVU on the moving window, the alignment
error of each embedding with the true window positions (statwiki STAT 841 F14,
lecture 7; not a thesis result: no thesis values; verdicts only on claims of the lecture notes).

The declaration: its grid (:class:`~harness.results.common.declare.table_spec.TableSpec` of the
embedding task, no reference file) and profile side
(:class:`~harness.results.common.declare.grid_profile.GridTable`); the profile section's
schema is ``schema.yaml``; a cell's job runs :mod:`.work` (the grid's cell plus the
alignment); :mod:`.write` writes the table; ``README.md`` says what it shows and its
sizes. ``GROUP = "lecture"``: the report's part for the lecture methods.
"""

from __future__ import annotations

from harness.results.common.declare.grid_profile import GridTable
from harness.results.common.declare.table_spec import TableSpec

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "GROUP", "SPEC",
           "check", "keys", "params", "inputs", "finish"]

SPEC = TableSpec(
    name="lecture_are",
    task="embedding",
    title=("Lecture methods: action respecting embedding (ARE) and MVU on the moving "
           "window, Procrustes alignment error with the true positions (not a thesis "
           "result)"),
    reference_file=None,
    measures=(
        ("alignment_error", "alignment_error",
         "alignment error with the true positions (Procrustes disparity, 0 = exact)"),
        ("fit_seconds", "fit_seconds", "wall seconds of one fit"),
    ),
    thesis_datasets=(),
    average=False,
    decimals=3,
    measure_decimals={"fit_seconds": 1},
    thesis_values=False,
    notes=(
        "Each embedding (two dimensions, the same k for both rows) is compared with the "
        "window's true top-left positions by Procrustes analysis after scaling "
        "(harness.metrics.alignment.alignment_error, scipy.spatial.procrustes): both "
        "centred and scaled to unit Frobenius norm, the best rotation or reflection; "
        "the disparity left is 0 for a match up to similarity, at most 1.",
        "ARE gets the data set's action sequence (up, down, left, right); MVU embeds "
        "the views alone. ARE: MVU's SDP with <= local distances plus the lecture's "
        "equal distances for every pair of steps with the same action, solved by the "
        "native interior point (MVU's, generalised to the action rows); MVU: the "
        "thesis' SDP (equality constraints), native interior point; "
        "both certified by the harness (§ marks a solve that is not).",
        "The data set is generated once from its own seed (datasets: section), so runs "
        "differ only in the methods' seeds; the solves are deterministic.",
        "Time: wall seconds of the fit, not CPU seconds as in the other tables: an "
        "ARE solve by a cvxpy backend (solvers: {are: [clarabel]}) runs in a child "
        "process (a hard CPU limit for cvxpy), whose CPU time the fit's "
        "CPU clock does not see; wall time depends on the machine's load.",
    ),
)

NAME = SPEC.name
TITLE = SPEC.title
THESIS_SECTION = "lecture (STAT 841 F14, lecture 7): ARE; thesis 3.1.4 for MVU"
KIND = "table"
SIDECAR = True
#: the report's part: the lecture methods, not thesis results (harness.report.build)
GROUP = "lecture"

check, keys, params, inputs, finish = GridTable(SPEC).functions()
