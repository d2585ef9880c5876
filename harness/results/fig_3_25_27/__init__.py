"""Figs. 3.25-3.27 (thesis 3.1.11): minimum- vs maximum-trace MVU embeddings and their
normalised spectra (MNIST fives, the teapot, Frey faces, and the noise-free Swiss roll
of the text), read from Fig. 3.24's records (no solve of its own).

The declaration: no jobs (``keys`` is empty); ``reads`` names Fig. 3.24, whose points
(one max-trace and one min-trace MVU solve per data set,
:mod:`harness.results.fig_3_24.work`) keep the kernel's whole normalised spectrum, the
leading two coordinates and the scores of the leading one and two dimensions. The
profile section's schema is ``schema.yaml``; :mod:`.write` writes the outputs and the
verdicts (:mod:`.register_claims` on :mod:`.spectra`'s frame); ``README.md`` says what
it shows and the choices where the thesis is ambiguous.
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "SOURCE", "check", "keys",
           "params", "reads", "inputs"]

NAME = "fig_3_25_27"
TITLE = ("Figs. 3.25-3.27: minimum- vs maximum-trace MVU embeddings and their normalised "
         "spectra (thesis 3.1.11)")
THESIS_SECTION = "3.1.11"
KIND = "figure"
SIDECAR = True
SOURCE = "fig_3_24"  # the result whose records the figures read


def check(config: dict) -> None:
    """Fig. 3.24 must be in the profile: its records are these figures' data."""
    if SOURCE not in config["results"]:
        raise ConfigError(f"results.{NAME} is built from Fig. 3.24's records: add a "
                          f"results.{SOURCE} section to the profile")


def keys(config: dict) -> list[str]:
    """None: the figures solve nothing (they read Fig. 3.24's records)."""
    return []


def params(config: dict, key: str) -> dict:
    """There are no jobs; a job id of this figure is an error naming Fig. 3.24's."""
    raise ConfigError(f"{NAME} has no jobs ({NAME}/{key}): it reads Fig. 3.24's records; "
                      f"run the jobs of {SOURCE} (e.g. {SOURCE}/mnist_fives/min_trace) and "
                      f"`harness write {NAME}`")


def reads(config: dict) -> list[str]:
    """Fig. 3.24: a new record of it rewrites these figures."""
    return [SOURCE]


def inputs(config: dict) -> list[str]:
    """No input file beyond Fig. 3.24's records."""
    return []
