"""What the thesis figures share: one MVU embedding per job, measured, and the files.

A figure's job is one solve (Fig. 3.24: one data set x one SDP variant; Fig. 3.28:
one k). Its resolved parameters are plain JSON (the Snakemake rerun trigger), built by
:func:`mvu_point_params`; the engine (:func:`harness.runner.run_job`) runs the
figure's ``work`` -- by default :func:`mvu_point_work` -- in a child process with a
hard time limit and writes its record to ``results/<profile>/records/<figure>/<key>.json``.

The work (thesis 3.1.4, 3.1.9, 3.1.11): load the data set (optionally a seeded
subsample), fit :class:`methods.mvu.MVU` through the embedding task
(:func:`harness.tasks.embedding.run_embedding`, so bad input is handled as in Table
3.2), measure local continuity, trust and intersection (eqs. 3.27-3.29) of the
embedding, and keep the eigenvalues of the learned kernel, the solver's certified
status, gap and violation, and the PCA spectrum of the input.

Expected failures (data unavailable offline, a disconnected graph, bad input, the
solver failed / skipped / timed out, the point's time limit) become records with a
status and a reason; anything else is a bug: the job fails and writes nothing.
"""

from __future__ import annotations

import inspect
import io
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from harness import registry
from harness.errors import ConfigError
from harness.jobs import Job, read_job_record
from harness.outputs import output_paths, write_sidecar
from harness.plugin import Dataset, ExpectedFailure
from harness.provenance import blas_info
from harness.records import write_bytes_atomic, write_text_atomic
from harness.results._solver_code import solver_module
from harness.results._tables import GAP_MARKS
from harness.tasks.embedding import MEASURES, BadInputError, run_embedding

__all__ = [
    "MEASURES", "METHOD", "SOLVER_BUDGET", "KIND", "figure_paths", "section_of",
    "dataset_choice", "mvu_point_params", "load_dataset", "mvu_point_work", "mvu_sources",
    "read_point", "gap_mark", "save_png", "point_line", "harmonic_mean",
    "normalised", "check_registered_dataset", "thesis_column", "write_figure_files",
]

METHOD = "mvu"
KIND = "figure"
# the SDP solver gets this share of the point's hard time limit, so that a solver
# with its own limit (native) stops first and reports a timeout with its reason
SOLVER_BUDGET = 0.9
N_SPECTRUM = 20  # normalised eigenvalues kept in a record


def figure_paths(config: dict, figure: str) -> dict[str, Path]:
    """``results/<profile>/figures/<figure>.{csv,png,md,json}`` by suffix."""
    return output_paths(config, figure, KIND, sidecar=True)


def section_of(config: dict, figure: str) -> dict:
    """The figure's validated profile section ``results.<figure>``."""
    return config["results"][figure]


def dataset_choice(config: dict, name: str, n_samples: int | None,
                   extra_params: dict | None = None) -> dict[str, Any]:
    """How one data set is loaded: ``load()`` keyword arguments and subsampling.

    The keyword arguments are the plugin's defaults, overridden by the profile's
    top-level ``datasets:`` entry, overridden by ``extra_params`` (the figure's
    ``dataset_params``). ``n_samples``, when given, is the number of points: passed
    to ``load()`` when the plugin takes an ``n_samples`` argument (a generator draws
    exactly that many), otherwise a seeded subsample without replacement is taken
    after loading (the seed is the profile's ``seed``), so that data sets whose
    plugins have no size parameter (teapot, frey) can be shrunk without editing them.
    """
    cls = registry.get_dataset(name)
    params = {**cls.params, **config["datasets"].get(name, {}), **(extra_params or {})}
    subsample, source = None, "the data set's own size"
    if n_samples is not None:
        if "n_samples" in inspect.signature(cls.load).parameters:
            params["n_samples"] = int(n_samples)
            source = "generated (load(n_samples=...))"
        else:
            subsample = int(n_samples)
            source = f"seeded subsample (seed {config['seed']}) without replacement"
    return {"dataset": name, "dataset_params": params, "subsample": subsample,
            "n_samples_source": source}


def mvu_point_params(config: dict, figure_conf: dict, *, figure: str, key: str,
                     dataset: dict, variant: str, n_neighbors: int, n_components: int,
                     **extra: Any) -> dict[str, Any]:
    """The resolved, JSON-serialisable parameters of one MVU figure point.

    ``dataset`` comes from :func:`dataset_choice`; ``figure_conf`` is the figure's
    validated profile section (``solver``, ``eval_neighbors``,
    ``time_limit_seconds``); ``extra`` is kept as is (figure-specific values).
    """
    limit = float(figure_conf["time_limit_seconds"])
    return {
        "figure": figure, "point": f"{figure}/{key}", **dataset,
        "seed": config["seed"], "blas_threads": config["blas_threads"],
        "time_limit_seconds": limit, "solver": figure_conf["solver"],
        "eval_neighbors": figure_conf["eval_neighbors"],
        "method_params": {"n_neighbors": int(n_neighbors), "n_components": int(n_components),
                          "solver": figure_conf["solver"], "variant": variant,
                          "time_limit": SOLVER_BUDGET * limit},
        **extra,
    }


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


def mvu_point_work(params: dict) -> dict:
    """The child's work for one point; returns the record body (see module doc)."""
    method_cls = registry.get_method(METHOD)
    with threadpool_limits(limits=params["blas_threads"]):
        try:
            dataset = load_dataset(params)
        except ExpectedFailure as exc:
            return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}
        body: dict[str, Any] = {
            "status": "ok", "reason": "", "n_samples": dataset.n_samples,
            "n_features": int(dataset.X.shape[1]), "dataset_meta": dataset.meta,
        }
        skip, why = method_cls.skip(dataset, params["solver"])
        if skip:
            return {**body, "status": "skipped", "reason": why}
        try:
            result = run_embedding(method_cls, dataset, params, params["seed"])
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
    return body


def mvu_sources(params: dict) -> list:
    """The code an MVU point runs beyond the figure's module: the shared work, the
    data set and MVU plugins and the solver backend's module (so that a faster or
    more capable solver reruns the figure's points)."""
    return [mvu_point_work, registry.get_dataset(params["dataset"]),
            registry.get_method(METHOD), solver_module(params["solver"])]


def read_point(config: dict, figure: str, key: str) -> dict:
    """The record of the job ``figure/key``, or a ``missing`` stand-in naming the
    command that makes it."""
    return read_job_record(config, Job(figure, key))


def gap_mark(status: str) -> str:
    """The mark a gap shows in a figure's Markdown and plot (as in the tables)."""
    return GAP_MARKS.get(status, status)


def harmonic_mean(values) -> float:
    """Harmonic mean of non-negative scores; 0 if one is 0, NaN if one is missing
    (thesis Fig. 3.28 shows the harmonic mean of the three metrics)."""
    values = np.asarray(values, dtype=float)
    if values.size == 0 or not np.isfinite(values).all():
        return float("nan")
    if (values <= 0).any():
        return 0.0
    return float(values.size / np.sum(1.0 / values))


def save_png(fig, path: Path) -> Path:
    """Render a Matplotlib figure to PNG and write it atomically."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=120, bbox_inches="tight")
    return write_bytes_atomic(path, buffer.getvalue())


def point_line(record: dict) -> str:
    """One line of provenance for a figure's notes: id, status, solver verdict, time,
    commit."""
    solve = record.get("solve") or {}
    wall = (record.get("timing") or {}).get("wall_seconds")
    git = (record.get("provenance") or {}).get("git", {})
    parts = [f"{record.get('job', '?')}: {record['status']}"]
    if solve:
        gap = solve.get("gap")
        parts.append(f"solve={solve.get('status')} gap={'-' if gap is None else f'{gap:.1e}'}")
    if record.get("n_samples") is not None:
        parts.append(f"n={record['n_samples']}")
    if wall is not None:
        parts.append(f"wall={wall:.1f}s")
    if git:
        parts.append(f"commit={git.get('commit', '')[:10]}" + (" (dirty)" if git.get("dirty") else ""))
    return ", ".join(parts)


def write_figure_files(config: dict, figure: str, keys: list[str], frame, md: list[str],
                       gap_notes: list[str], plot) -> list[Path]:
    """Finish a figure: append the numbered gaps and the provenance line of every
    point that has a record to the Markdown ``md`` (its first line the title), draw
    ``plot(frame, config, path)`` and write ``<figure>.{csv,png,md}`` and the sidecar
    ``<figure>.json`` (the title, and the Markdown body the report shows: no title,
    no image line) atomically; return the four paths."""
    paths = figure_paths(config, figure)
    md = md + ["", "## Gaps", ""] + ([f"- [{i + 1}] {t}" for i, t in enumerate(gap_notes)]
                                     or ["- none"])
    md += ["", "## Points", ""]
    for key in keys:
        record = read_point(config, figure, key)
        if record["status"] != "missing":
            md.append(f"- `{point_line(record)}`")
    plot(frame, config, paths["png"])
    write_text_atomic(paths["csv"], frame.to_csv(index=False, float_format="%.6g"))
    write_text_atomic(paths["md"], "\n".join(md) + "\n")
    body = [line for line in md[1:] if not line.startswith("![")]
    write_sidecar(paths["json"], {"title": md[0].removeprefix("# "),
                                  "markdown": "\n".join(body).strip()})
    return [paths["csv"], paths["png"], paths["md"], paths["json"]]


def check_registered_dataset(name: str, where: str) -> None:
    """Raise :class:`ConfigError` naming ``where`` if no plugin is called ``name``."""
    valid = registry.datasets("embedding")
    if name not in valid:
        raise ConfigError(f"{where}: unknown dataset {name!r}; valid datasets: "
                          f"{', '.join(valid)}")


def thesis_column(name: str) -> str:
    """The thesis' data set a plugin fills: its ``stand_in_for``, else its
    ``thesis_name``, else its registry name."""
    cls = registry.get_dataset(name)
    return cls.stand_in_for or cls.thesis_name or name


def dataset_notes(names) -> list[str]:
    """Note lines on a figure's data sets where the plugin says more than a name: a
    stand-in is no reproduction claim; a plugin's ``table_note`` states its choices
    (e.g. which MNIST fives, and their pre-processing)."""
    lines = []
    for name in dict.fromkeys(names):
        cls = registry.get_dataset(name)
        if cls.stand_in_for:
            lines.append(f"{name} is a synthetic stand-in for the thesis' {cls.stand_in_for} "
                         f"data ({cls.description}); its ratios are no reproduction claim.")
        if getattr(cls, "table_note", ""):
            lines.append(cls.table_note)
    return lines


def missing_column_reason(figure: str, column: str, label: str) -> str:
    """Why a figure has no data for the thesis' data set ``column`` (shown as ``label``):
    the plugins that provide it but are not listed, or that none does."""
    plugins = [n for n in registry.datasets("embedding") if thesis_column(n) == column]
    if plugins:
        return (f"the thesis' {label} is not in results.{figure}.datasets; plugins that "
                f"provide it: {', '.join(plugins)}")
    return (f"no dataset plugin provides the thesis' {label} (thesis_name {column!r}); "
            f"add one to datasets/ and list it under results.{figure}.datasets")
