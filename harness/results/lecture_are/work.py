"""The work of one cell of the ARE table: the grid's embedding cell
(:mod:`harness.results.common.grid`) whose runs also measure the embedding against
the data set's true positions (:func:`harness.metrics.alignment.alignment_error`).

Why not the grid's work itself: the embedding task measures the thesis' quality
metrics (3.27-3.29) only, and every table's cells import it, so a measure added there
would rerun every cell of Tables 2.1 and 3.2. Here the task runs unchanged
(:func:`harness.tasks.embedding.run_embedding` with ``keep_embedding``, the hook for
callers that measure more) and the alignment is added to its measures; the cell's
identity and sources are the grid's (:func:`finish`, :func:`sources`).
"""

from __future__ import annotations

from typing import Any

from threadpoolctl import threadpool_limits

from harness import registry
from harness.metrics.alignment import alignment_error
from harness.plugin import ExpectedFailure
from harness.provenance import blas_info
from harness.results.common.grid import _summarise, finish, sources
from harness.tasks.embedding import BadInputError, run_embedding

__all__ = ["work", "finish", "sources", "aligned_run"]


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
    """A cell's work in the child process, as the grid's
    (:func:`harness.results.common.grid.work`), each run by :func:`aligned_run`;
    returns the record body, expected failures and a method's skip as its status."""
    dataset_cls = registry.get_dataset(params["dataset"])
    method_cls = registry.get_method(params["method"])
    body: dict[str, Any] = {"status": "ok", "reason": "", "runs": []}
    with threadpool_limits(limits=params["blas_threads"]):
        try:
            dataset = dataset_cls().load(**params["dataset_params"])
            body.update(dataset_meta=dataset.meta, n_samples=dataset.n_samples,
                        n_features=int(dataset.X.shape[1]))
            skip, why = method_cls.skip(dataset, params.get("solver"))
            if skip:
                return {**body, "status": "skipped", "reason": why}
            for run in range(params["n_runs"]):
                seed = params["seed"] + run
                body["runs"].append({"seed": seed, **aligned_run(method_cls, dataset,
                                                                 params, seed)})
        except ExpectedFailure as exc:
            return {**body, "status": exc.status, "reason": str(exc),
                    "error_type": type(exc).__name__}
        body["summary"] = _summarise(body["runs"])
        body["blas_during_run"] = blas_info()
    return body
