"""The work of one cell of Table 3.2 at l = 5: Table 3.2's cell, its embedding scored at
every neighbourhood size of the l grid (thesis 3.1.9, eqs. 3.27-3.29).

Why not Table 3.2's records: they keep the three scores at l = 15 only, no embedding.
Why not Table 3.2's work itself: a measure added to the embedding task would rerun every
cell of Tables 2.1 and 3.2. Here the task runs unchanged
(:func:`harness.tasks.embedding.run_embedding` with ``keep_embedding``) and the scores
at each l are added to the run's measures; the loop over runs and the sources are the
grid's (:func:`harness.results.common.work.grid.work` with ``run=``).
"""

from __future__ import annotations

from harness.metrics import embedding_quality
from harness.results.common.work.grid import sources
from harness.results.common.work.grid import work as grid_work
from harness.results.table_3_2_l5.lgrid import l_tag, resolve_l
from harness.tasks.embedding import run_embedding

__all__ = ["work", "sources", "scores_by_l", "l_sweep_run"]


def scores_by_l(X, Y, l_grid) -> dict[str, float]:
    """``{"<metric>_l<tag>": score}`` of eqs. (3.27)-(3.29) for every l of ``l_grid``
    (``"n/2"``, ``"n-1"`` resolved for ``len(X)`` points; :func:`resolve_l`)."""
    out = {}
    for l in l_grid:
        scores = embedding_quality(X, Y, n_neighbors=resolve_l(l, len(X)))
        out.update({f"{m}_{l_tag(l)}": v for m, v in scores.items()})
    return out


def l_sweep_run(method_cls: type, dataset, params: dict, seed: int) -> dict:
    """One run of Table 3.2's embedding task, its embedding also scored at every l of
    ``params["l_grid"]`` (measures ``local_trust_l5``, ``neighborhood_intersection_lnm1``, ...)."""
    result = run_embedding(method_cls, dataset, params, seed, keep_embedding=True)
    embedding = result.pop("embedding")
    result["measures"].update(scores_by_l(dataset.X, embedding, params["l_grid"]))
    result["info"]["l_values"] = {l_tag(l): resolve_l(l, len(dataset.X))
                                  for l in params["l_grid"]}
    return result


def work(params: dict) -> dict:
    """A cell's work in the child process: the grid's
    (:func:`harness.results.common.work.grid.work`), each run by :func:`l_sweep_run`."""
    return grid_work(params, run=l_sweep_run)
