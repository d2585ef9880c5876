"""The points of the MVU solver table (thesis 3.1.4-3.1.6): one certified solve per
(variant, backend, n), their keys, the section's checks and each point's resolved
parameters. The solves are :mod:`harness.results.solver_table.work`.

Imported by the solver table's declaration, so at discovery: the solvers' and
problems' packages are imported only where a name is checked.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from harness import registry
from harness.errors import ConfigError, check_names
from harness.problems.mvu_variants import VARIANTS

__all__ = ["TABLE", "TITLE", "SolverPoint", "backends", "parse_key", "check_solver_table",
           "solver_points", "point_params"]

TABLE = "solver_table"
TITLE = "MVU solver comparison (thesis 3.1.4-3.1.6): certified solves per backend and n"


def _valid_names() -> tuple:
    """The MVU backends (the registry's index: no backend imported) and the SDP
    variants."""
    return tuple(registry.backends()), VARIANTS


def backends(section: dict) -> list[str]:
    """The section's backends: its list, or with ``backends: all`` every backend plugin
    in its declared order (a file dropped into ``harness/solvers/backends/`` joins
    the table)."""
    listed = section["backends"]
    return list(registry.backends()) if listed == "all" else list(listed)


KEY = re.compile(r"([a-z_]+)/([a-z0-9_]+)/n([0-9]+)")


@dataclasses.dataclass(frozen=True)
class SolverPoint:
    """One solve of the solver table: ``backend`` on ``n`` points, SDP ``variant``."""

    backend: str
    n: int
    variant: str = "equality"

    @property
    def key(self) -> str:
        """``VARIANT/BACKEND/nN``: the job's key (job id ``solver_table/KEY``)."""
        return f"{self.variant}/{self.backend}/n{self.n}"

    def __str__(self) -> str:
        return self.key


def parse_key(key: str) -> SolverPoint:
    """``equality/native/n1000`` -> :class:`SolverPoint`.

    Raises
    ------
    ConfigError
        The key does not look like ``VARIANT/BACKEND/nN``.
    """
    match = KEY.fullmatch(key.strip("/"))
    if not match:
        raise ConfigError(f"solver point {key!r} must look like VARIANT/BACKEND/nN, e.g. "
                          f"equality/native/n1000")
    return SolverPoint(match.group(2), int(match.group(3)), match.group(1))


def _check_n(values, k: int, where: str) -> None:
    small = [n for n in values if n <= k]
    if small:
        raise ConfigError(
            f"{where}: n = {small[0]} is too small for n_neighbors = {k}: the clique graph joins "
            f"each point to its k nearest neighbours, so n must exceed n_neighbors")


def check_solver_table(section: dict) -> None:
    """Check the ``solver_table:`` section beyond the schema (called by
    :func:`harness.config.validate_config`; ``backends: all`` is expanded in place into
    every backend plugin's name): backend and variant names, the keys of
    ``n_per_backend`` and ``time_limit_per_backend``, and every n against n_neighbors.

    Raises
    ------
    ConfigError
        Naming the entry and the offending value (with the valid names).
    """
    where = "results.solver_table"
    section["backends"] = backends(section)  # 'all' expanded: what the table rows are
    valid_backends, valid_variants = _valid_names()
    check_names("backend", backends(section), valid_backends, f"{where}.backends")
    check_names("variant", section["variants"], valid_variants, f"{where}.variants")
    for entry in ("n_per_backend", "time_limit_per_backend"):
        stray = [b for b in section[entry] if b not in backends(section)]
        if stray:
            raise ConfigError(
                f"{where}.{entry}: backend {stray[0]!r} is not in "
                f"{where}.backends ({', '.join(backends(section))})")
    _check_n(section["n"], section["n_neighbors"], f"{where}.n")
    for backend, sizes in section["n_per_backend"].items():
        _check_n(sizes, section["n_neighbors"], f"{where}.n_per_backend.{backend}")


def _section(config: dict) -> dict:
    return config["results"]["solver_table"]


def solver_points(config: dict) -> list[SolverPoint]:
    """Every point of a validated profile: variants x backends x their n (sorted)."""
    section = _section(config)
    return [SolverPoint(backend, n, variant)
            for variant in section["variants"]
            for backend in backends(section)
            for n in sorted(section["n_per_backend"].get(backend, section["n"]))]


def point_params(config: dict, point: SolverPoint) -> dict[str, Any]:
    """The resolved, JSON-serialisable parameters of one point (the Snakemake rerun
    trigger). Any valid point may be run, listed in the profile or not.

    Raises
    ------
    ConfigError
        Unknown backend or variant, or ``n`` not above ``n_neighbors``.
    """
    section = _section(config)
    valid_backends, valid_variants = _valid_names()
    check_names("backend", [point.backend], valid_backends, f"solver point {point.key}")
    check_names("variant", [point.variant], valid_variants, f"solver point {point.key}")
    _check_n([point.n], section["n_neighbors"], f"solver point {point.key}")
    return {
        "backend": point.backend, "n": int(point.n), "variant": point.variant,
        "n_neighbors": section["n_neighbors"], "extra_noise_dims": section["extra_noise_dims"],
        "extra_noise_std": section["extra_noise_std"], "seed": config["seed"],
        "time_limit_seconds": section["time_limit_per_backend"].get(
            point.backend, section["time_limit_seconds"]),
        "grace_seconds": section["grace_seconds"], "tol_gap": section["tol_gap"],
        "tol_violation": section["tol_violation"], "blas_threads": config["blas_threads"],
    }
