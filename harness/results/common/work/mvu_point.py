"""One MVU embedding of one data set, measured: the job of Figs. 3.24 and 3.28.

A figure's job is one solve (Fig. 3.24: one data set x one SDP variant; Fig. 3.28:
one k). Its resolved parameters are plain JSON (the Snakemake rerun trigger), built by
:func:`mvu_point_params`; the engine (:func:`harness.runner.run_job`) runs the
figure's ``work`` -- by default :func:`mvu_point_work` -- in a child process with a
CPU budget (and a wall cap) and writes its record to
``results/<profile>/records/<figure>/<key>.json``.

The work (thesis 3.1.4, 3.1.9, 3.1.11): load the data set (optionally a seeded
subsample), fit :class:`harness.methods.mvu.MVU` through the embedding task
(:func:`harness.tasks.embedding.run_embedding`, so bad input is handled as in Table
3.2), measure local continuity, trust and intersection (eqs. 3.27-3.29) of the
embedding, and keep the eigenvalues of the learned kernel, the solver's certified
status, gap and violation, and the PCA spectrum of the input.

An *r sweep* (Fig. 3.22): when the parameters hold ``sweep_dimensions`` (a list of
output dimensions r), the record also holds ``measures_by_dimension``, the three
metrics of the leading-r embedding for every listed r, all from the one kernel
(:func:`measures_by_dimension`), with each r's eigenvalue and normalised eigenvalue.
Points without it (Figs. 3.24, 3.28) run and record exactly what they did before.

Expected failures (data unavailable offline, a disconnected graph, bad input, the
solver failed / skipped / timed out, the point's time limit) become records with a
status and a reason; anything else is a bug: the job fails and writes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from harness import registry
from harness.plugin import Dataset, ExpectedFailure
from harness.metrics import embedding_quality, input_neighbors
from harness.provenance import blas_info
from harness.tasks.embedding import MEASURES, BadInputError, run_embedding

__all__ = ["MEASURES", "METHOD", "N_SPECTRUM", "load_dataset", "start_point", "normalised",
           "measures_by_dimension", "mvu_point_work", "mvu_sources", "work", "sources"]

METHOD = "mvu"
N_SPECTRUM = 20  # normalised eigenvalues kept in a record






def load_dataset(params: dict) -> Dataset:
    """Load the point's data set and take its subsample, if any.

    Raises
    ------
    DataUnavailableError
        From the plugin (not available offline).
    BadInputError
        The subsample asks for more points than the data set has.
    """
    dataset = registry.get_dataset(params["dataset"])().load(**params["dataset_params"])
    m = params.get("subsample")
    if m is None or m == dataset.n_samples:
        return dataset
    if m > dataset.n_samples:
        raise BadInputError(
            f"n_samples = {m} for {params['dataset']}, but it has only "
            f"{dataset.n_samples} points; lower n_samples.{params['dataset']} in the "
            f"figure's profile section")
    rng = np.random.default_rng(params["seed"])
    rows = np.sort(rng.choice(dataset.n_samples, size=m, replace=False))
    y = None if dataset.y is None else np.asarray(dataset.y)[rows]
    meta = {**dataset.meta, "subsample": {"from": dataset.n_samples, "to": m,
                                          "seed": params["seed"]}}
    return Dataset(np.ascontiguousarray(dataset.X[rows]), y, meta)


def normalised(values) -> list[float]:
    """Eigenvalues divided by their sum, largest first (thesis' "normalized
    eigenvalues", Figs. 3.5, 3.25, 3.28)."""
    values = np.sort(np.clip(np.asarray(values, dtype=float), 0.0, None))[::-1]
    total = values.sum()
    return (values / total).tolist() if total > 0 else values.tolist()


def _input_spectrum(X: np.ndarray) -> list[float]:
    """Normalised PCA eigenvalues of the centred input (the spectrum a locked-up MVU
    reproduces, thesis 3.1.12)."""
    s = np.linalg.svd(X - X.mean(axis=0), compute_uv=False)
    return normalised(s**2)[:N_SPECTRUM]


def measures_by_dimension(X, Y, dimensions, n_neighbors: int) -> list[dict]:
    """Local continuity, trust and intersection (eqs. 3.27-3.29) of the leading r
    columns of the embedding ``Y`` for every r in ``dimensions``: one row
    ``{"n_components": r, <measure>: value, ...}`` per r, in the given order.

    ``Y``'s columns must be ordered by decreasing variance (MVU's are the kernel's
    eigenvectors scaled by the square roots of their eigenvalues, 3.21), so that
    ``Y[:, :r]`` is the r-dimensional embedding of the same kernel.

    ``X``'s neighbours and the distances to them are found once for all r
    (:func:`harness.metrics.input_neighbors`); the scores are those of
    ``embedding_quality(X, Y[:, :r], n_neighbors)``, exactly.

    Raises
    ------
    ValueError
        An r outside ``1 .. Y.shape[1]`` (naming it and the embedding's width).
    """
    Y = np.asarray(Y, dtype=float)
    bad = [r for r in dimensions if not 1 <= int(r) <= Y.shape[1]]
    if bad:
        raise ValueError(f"output dimension r = {bad[0]} is outside 1..{Y.shape[1]}, the "
                         f"columns of the embedding; fit it with n_components >= "
                         f"{max(map(int, dimensions))}")
    inputs = input_neighbors(X, n_neighbors)  # X's side once, not once per r
    return [{"n_components": int(r), **embedding_quality(X, Y[:, :int(r)], n_neighbors,
                                                          input_neighbors=inputs)}
            for r in dimensions]


def _sweep(X, Y, dimensions, n_neighbors: int, eigenvalues) -> list[dict]:
    """:func:`measures_by_dimension` of the fitted embedding ``Y``, with each r's
    eigenvalue and normalised eigenvalue (0 beyond the kernel's rank)."""
    ranked = np.sort(np.clip(eigenvalues, 0.0, None))[::-1]
    shares = normalised(eigenvalues)
    rows = measures_by_dimension(X, Y, dimensions, n_neighbors)
    for row in rows:
        i = row["n_components"] - 1
        row["eigenvalue"] = float(ranked[i]) if i < len(ranked) else 0.0
        row["normalised_eigenvalue"] = float(shares[i]) if i < len(shares) else 0.0
    return rows


def start_point(params: dict, method_cls: type, solver: str | None
                ) -> tuple[Dataset | None, dict[str, Any]]:
    """Load a point's data set and ask the method whether it runs there.

    Returns ``(dataset, body)``: the body of an ``ok`` record with the data set's size
    and meta, or, with ``dataset`` None, the finished record body of a point that
    cannot run (data unavailable, a subsample too large, the method skips it).
    """
    try:
        dataset = load_dataset(params)
    except ExpectedFailure as exc:
        return None, {"status": exc.status, "reason": str(exc),
                      "error_type": type(exc).__name__}
    body: dict[str, Any] = {
        "status": "ok", "reason": "", "n_samples": dataset.n_samples,
        "n_features": int(dataset.X.shape[1]), "dataset_meta": dataset.meta,
    }
    skip, why = method_cls.skip(dataset, solver)
    if skip:
        return None, {**body, "status": "skipped", "reason": why}
    return dataset, body


def mvu_point_work(params: dict, extra: Callable[[Dataset, dict], dict] | None = None
                   ) -> dict:
    """The child's work for one point; returns the record body (see module doc).
    ``extra(dataset, result)`` (``result`` of :func:`run_embedding`, with the
    embedding) may add figure-specific entries to the body of a measured point."""
    method_cls = registry.get_method(METHOD)
    dimensions = params.get("sweep_dimensions")
    with threadpool_limits(limits=params["blas_threads"]):
        dataset, body = start_point(params, method_cls, params["solver"])
        if dataset is None:
            return body
        try:
            result = run_embedding(method_cls, dataset, params, params["seed"],
                                   keep_embedding=bool(extra or dimensions))
        except ExpectedFailure as exc:
            return {**body, "status": exc.status, "reason": str(exc),
                    "error_type": type(exc).__name__}
        eigenvalues = np.asarray(result["info"]["eigenvalues"], dtype=float)
        body.update(
            measures=result["measures"],
            fit_seconds=result["fit_seconds"],
            solve=result["info"]["solve_info"],
            trace=float(eigenvalues.sum()),
            eigenvalues=eigenvalues[:N_SPECTRUM].tolist(),
            normalised_eigenvalues=normalised(eigenvalues)[:N_SPECTRUM],
            input_spectrum=_input_spectrum(dataset.X),
            blas_during_run=blas_info(),
        )
        if dimensions:
            start = time.perf_counter()
            body["measures_by_dimension"] = _sweep(dataset.X, result["embedding"], dimensions,
                                                   params["eval_neighbors"], eigenvalues)
            body["sweep_seconds"] = time.perf_counter() - start
        if extra is not None:
            body.update(extra(dataset, result))
    return body


def mvu_sources(params: dict) -> list:
    """The code an MVU point finds by name at run time: the data set and MVU plugins
    (the work's own module counts already; the solver backend named in the parameters
    is added by :func:`harness.jobs.job_sources`, so that a faster or more capable
    solver reruns the figure's points)."""
    return [registry.get_dataset(params["dataset"]), registry.get_method(METHOD)]


#: A result whose jobs are plain MVU points names this module as its job code
#: (``WORK = "harness.results.common.work.mvu_point"``) and reads these.
work, sources = mvu_point_work, mvu_sources
