"""What a thesis table declares: the task that fills it, its measures, where the
thesis' numbers live and how they are compared (:class:`TableSpec`)."""

from __future__ import annotations

import dataclasses

__all__ = ["TableSpec"]


@dataclasses.dataclass(frozen=True)
class TableSpec:
    """Static description of one generated table.

    Parameters
    ----------
    name : str
        File stem of the outputs, ``results/<profile>/tables/<name>.{csv,md,tex}``.
    task : str
        The evaluation protocol (a key of :data:`harness.tasks.TASKS`).
    title : str
        Caption.
    reference_file : str or None
        CSV in ``results/reference/`` with the thesis' values (and the protocol a
        cell takes from the thesis table: Table 2.1's split fractions and runs, Table
        3.2's k and output dimension); None for a table with no thesis counterpart.
    measures : tuple of (str, str, str)
        ``(measure, reference quantity template, label)``; the template may use
        ``{eval_neighbors}``.
    thesis_datasets : tuple of str
        The thesis' columns, in the thesis' order; the average column averages them.
    tolerance : float
        A cell whose |ours - thesis| is at most this counts as reproduced.
    notes : tuple of str
        Table-level choices where the thesis is ambiguous, printed under the table.
    average : bool
        Whether the thesis prints an average column (Table 3.2 does, 2.1 does not).
    compared : tuple of str or None
        Measures with a reproduction claim (|delta| <= tolerance); None: all. Others
        (CPU seconds, counts) are shown beside the thesis' number without a verdict.
    decimals : int
        Digits after the point in the Markdown and LaTeX tables.
    measure_decimals : dict
        Per-measure exceptions to ``decimals`` (counts: 0).
    ratios : dict
        Derived measures ``{name: (measure, method)}``: each cell's mean over that
        of ``method`` on the same data set (a measure of ``measures`` too, for its
        heading).
    spread_counts : bool
        Whether a cell outside the tolerance but with |delta| at most two standard
        errors of our mean is marked as inside the run-to-run noise (Table 2.1,
        averaged over random splits) rather than as unexplained.
    heading : str
        Suffix of each measure's heading, formatted with the table's profile section
        (``" (l = {eval_neighbors})"``).
    reference_aliases : dict
        ``{(measure, thesis_label): (quantity, reference method)}`` for thesis numbers
        filed under another row: Table 2.1 prints CPU time and active constraints per
        data set (empty method), for LMNN ("1 metric") and MM-LMNN ("mul. metrics").
    transpose_by : tuple of (str, str) or None
        The wide layout. None: one block per measure, rows the methods and columns the
        data sets (Tables 2.1 and 3.2). ``(block column, row column)``, two columns of
        the long table: one block per measure and value of the block column (a data
        set), rows the row column's values (its tasks) and columns the methods --
        Table 3.3's layout, ``("source_dataset", "task")``: per data set, one row per
        digit pair and one column per kernel. Not with ``average`` (its cells belong
        to no block).
    thesis_values : bool
        Whether cells show the thesis' number and the delta (thesis / ours / delta).
        False for a table that is no thesis result (the lecture methods): each cell
        is ours alone, no thesis number is read, nothing is compared, and the
        reference file, if any, only supplies the protocol.
    shape_quantities : tuple of (str, str) or None
        The reference file's per-data-set rows for the number of inputs and their
        dimension (Table 2.1: ``("n_inputs", "dimension")``, Table 3.2: ``("n",
        "input_dim")``): the notes then state each data set's shape as the cells ran
        it beside the thesis' and mark a difference. None: no shape note.
    """

    name: str
    task: str
    title: str
    reference_file: str | None
    measures: tuple[tuple[str, str, str], ...]
    thesis_datasets: tuple[str, ...]
    tolerance: float = 0.05
    notes: tuple[str, ...] = ()
    average: bool = True
    compared: tuple[str, ...] | None = None
    decimals: int = 3
    measure_decimals: dict = dataclasses.field(default_factory=dict)
    spread_counts: bool = False
    ratios: dict = dataclasses.field(default_factory=dict)
    heading: str = ""
    reference_aliases: dict = dataclasses.field(default_factory=dict)
    transpose_by: tuple[str, str] | None = None
    thesis_values: bool = True
    shape_quantities: tuple[str, str] | None = None

    def __post_init__(self):
        if self.transpose_by is not None and (len(self.transpose_by) != 2 or self.average):
            raise ValueError(
                f"TableSpec {self.name!r}: transpose_by={self.transpose_by!r} needs two "
                f"column names (block, row) and average=False (the average cells belong "
                f"to no block); got average={self.average}")
        if not self.thesis_values and (self.average or self.thesis_datasets
                                       or self.compared):
            raise ValueError(
                f"TableSpec {self.name!r}: thesis_values=False shows no thesis number, "
                f"so it takes no average column, thesis_datasets or compared measures")

    def reference_key(self, measure: str, quantity: str, thesis_label: str) -> tuple[str, str]:
        """``(quantity, method)`` under which the thesis files this measure's number."""
        return self.reference_aliases.get((measure, thesis_label), (quantity, thesis_label))
