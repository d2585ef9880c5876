"""The thesis figures the harness regenerates, one module each, on a shared engine.

======================  ===============================================================
``fig_3_23``            3.1.10: consistency of three out-of-sample extensions relative
                        to MVU (one point per data set x trial: four MVU solves and
                        every extension)
``fig_3_24``            3.1.11: min-trace / max-trace ratio of local continuity, trust
                        and intersection on four data sets (one point per data set x
                        SDP variant)
``fig_3_28``            3.1.12: the k-sweep of MVU on a noise-free Swiss roll (one point
                        per k): harmonic mean of the metrics and normalised eigenvalues
======================  ===============================================================

A figure module provides ``NAME``, ``check(config)`` (profile checks beyond the
schema), ``point_keys(config)``, ``point_params(config, key)`` and
``write(config) -> paths``, and optionally ``work(params) -> record body`` (the
child's work of one point; default: one MVU embedding, :func:`common.mvu_point_work`),
``sources(params) -> classes or modules`` (more code whose edit reruns a point) and
``claims(config) -> list of dict`` (the thesis' statements with verdicts, for the
report). Each point is one Snakemake job (``harness figure-point
FIGURE/KEY``, :func:`run_point`), each figure one aggregation job (``harness figure
FIGURE``, :func:`write_figure`) writing ``results/<profile>/figures/<figure>.{csv,png,md}``.
The profile's ``figures:`` section (``config/schema.yaml``) configures them.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from harness import registry
from harness.config import ConfigError
from harness.experiments import fig_3_23, fig_3_24, fig_3_28
from harness.experiments.common import (
    METHOD, FigurePoint, figure_paths, mvu_point_work, point_path, points_dir,
    run_point as _run_point,
)
from harness.registry import UnknownNameError
from harness.sources import source_closure

__all__ = [
    "FIGURES", "FigurePoint", "get_figure", "check_figures", "figure_points",
    "parse_point", "point_params", "point_path", "points_dir", "point_sources", "run_point",
    "write_figure", "figure_paths",
]

FIGURES: dict[str, ModuleType] = {m.NAME: m for m in (fig_3_23, fig_3_24, fig_3_28)}


def get_figure(name: str) -> ModuleType:
    """The figure module called ``name`` (the error lists the valid names)."""
    try:
        return FIGURES[name]
    except KeyError:
        raise UnknownNameError(f"unknown figure {name!r}; valid figures: "
                               f"{', '.join(FIGURES)}") from None


def _section(config: dict, figure: str) -> dict:
    sections = config.get("figures") or {}
    if figure not in sections:
        raise ConfigError(
            f"figure {figure} is not in the profile {config.get('profile')!r}; add a "
            f"figures.{figure} section (config/schema.yaml) or pick one of: "
            f"{', '.join(sections) or '(none)'}")
    return sections[figure]


def check_figures(config: dict) -> None:
    """Check the profile's ``figures:`` section beyond the schema (called by
    :func:`harness.profile_validation.validate_config`).

    Raises
    ------
    ConfigError
        Naming the entry, the bad value and the valid choices.
    """
    for name in config.get("figures") or {}:
        get_figure(name).check(config)


def figure_points(config: dict, figure: str) -> list[FigurePoint]:
    """Every point of one figure in a validated profile."""
    _section(config, figure)
    return [FigurePoint(figure, key) for key in get_figure(figure).point_keys(config)]


def parse_point(point_id: str) -> FigurePoint:
    """``fig_3_24/swiss_roll/min_trace`` or ``fig_3_28/k7`` -> :class:`FigurePoint`."""
    figure, _, key = point_id.strip("/").partition("/")
    get_figure(figure)
    if not key:
        raise ConfigError(f"figure point {point_id!r} must look like FIGURE/KEY, e.g. "
                          f"fig_3_24/swiss_roll/min_trace or fig_3_28/k7")
    return FigurePoint(figure, key)


def point_params(config: dict, point: FigurePoint) -> dict:
    """The resolved parameters of one point (raises :class:`ConfigError` naming a
    bad key)."""
    _section(config, point.figure)
    return get_figure(point.figure).point_params(config, point.key)


def run_point(config: dict, point: FigurePoint) -> Path:
    """Run one point of a validated profile and write its record; return its path."""
    module = get_figure(point.figure)
    return _run_point(config, point, point_params(config, point),
                      work=getattr(module, "work", mvu_point_work))


def point_sources(config: dict, point: FigurePoint) -> list[str]:
    """Source files whose edit reruns a point (:mod:`harness.sources`): the figure's
    module, the shared point work, the data set and MVU plugins, the code the
    figure's ``sources`` names, the solver backend's module, and every project
    module they import (so a faster or more capable native solver shows up at the
    next ``snakemake``)."""
    from harness.solver_points import BACKEND_MODULES, CVXPY_MODULE

    params = point_params(config, point)
    module = get_figure(point.figure)
    return source_closure(
        module, mvu_point_work, registry.get_dataset(params["dataset"]),
        registry.get_method(METHOD),
        BACKEND_MODULES.get(params["solver"], CVXPY_MODULE),
        *(module.sources(params) if hasattr(module, "sources") else ()))


def write_figure(config: dict, figure: str) -> list[Path]:
    """Aggregate one figure's records into its CSV, PNG and Markdown; return the paths."""
    _section(config, figure)
    return get_figure(figure).write(config)
