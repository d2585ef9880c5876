"""The work of one cell of the ARE table: the grid's embedding cell
(:mod:`harness.results.common.work.grid`) whose runs also measure the embedding against
the data set's true positions (:func:`harness.metrics.alignment.alignment_error`).

Why not the grid's work itself: the embedding task measures the thesis' quality
metrics (3.27-3.29) only, and every table's cells import it, so a measure added there
would rerun every cell of Tables 2.1 and 3.2. Here the task runs unchanged
(:func:`harness.tasks.embedding.run_embedding` with ``keep_embedding``, the hook for
callers that measure more) and the alignment is added to its measures; the cell's
sources and loop over runs are the grid's (:func:`sources`,
:func:`harness.results.common.work.grid.work` with ``run=``), its identity the declaration's
``finish`` (:class:`harness.results.common.declare.grid_profile.GridTable`).
"""

from __future__ import annotations

from harness.metrics.alignment import alignment_error
from harness.results.common.work.grid import sources
from harness.results.common.work.grid import work as grid_work
from harness.tasks.embedding import BadInputError, run_embedding

__all__ = ["work", "sources", "aligned_run"]


def aligned_run(method_cls: type, dataset, params: dict, seed: int) -> dict:
    """One run of the embedding task plus ``alignment_error`` among its measures: the
    Procrustes disparity of the embedding against ``dataset.positions``.

    Raises
    ------
    BadInputError
        When the data set has no true positions (only such data sets can be in this
        table).
    """
    truth = getattr(dataset, "positions", None)
    if truth is None:
        raise BadInputError(f"data set {dataset.meta.get('thesis_name')!r} has no true "
                            f"positions to align an embedding with (moving_window has)")
    result = run_embedding(method_cls, dataset, params, seed, keep_embedding=True)
    embedding = result.pop("embedding")
    result["measures"]["alignment_error"] = alignment_error(truth, embedding)
    return result


def work(params: dict) -> dict:
    """A cell's work in the child process: the grid's
    (:func:`harness.results.common.work.grid.work`), each run by :func:`aligned_run`."""
    return grid_work(params, run=aligned_run)
