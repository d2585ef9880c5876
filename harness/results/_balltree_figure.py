"""The profile side shared by Figs. 2.13 and 2.16 (thesis 2.1.9): one job per PCA
dimension ``r`` (key ``r<R>``) on MNIST, the schema entries, the parameters, and a
monotone-trend test for the claims. The jobs are :mod:`harness.results._balltree_point`."""

from __future__ import annotations

import numpy as np
import yaml
from scipy.stats import spearmanr

from harness.errors import ConfigError
from harness.results._balltree_point import DATASET
from harness.results._figure import claim_lines, parse_int_key, write_figure_files
from harness.results._mvu_point import dataset_choice

__all__ = ["COMMON_SCHEMA", "keys", "params", "check", "trend", "section_hooks", "write_md"]

#: Properties both figures' sections have (the figures add theirs).
COMMON_SCHEMA = yaml.safe_load("""
    dimensions:
      type: array
      minItems: 2
      items: {type: integer, minimum: 1, maximum: 784}
      description: PCA dimensions r, one job each (key r<R>)
    n_train:
      type: [integer, "null"]
      minimum: 10
      default: null
      description: the first n_train MNIST training digits (null = all 60000)
    n_test:
      type: [integer, "null"]
      minimum: 1
      default: null
      description: the first n_test MNIST test digits (null = all 10000)
    repeats:
      type: integer
      minimum: 1
      default: 3
      description: every timing is the best of this many runs
    time_limit_seconds: {$ref: "#/$defs/fig_time_limit"}
""")


def keys(conf: dict) -> list[str]:
    """``r<R>`` for every listed dimension, in the listed order."""
    return [f"r{r}" for r in conf["dimensions"]]


def check(conf: dict, where: str) -> None:
    """Dimensions listed once each, below the training size."""
    dims = conf["dimensions"]
    if len(set(dims)) != len(dims):
        raise ConfigError(f"{where}.dimensions = {dims} lists a dimension twice")
    n = conf["n_train"]
    if n is not None and max(dims) >= n:
        raise ConfigError(f"{where}.dimensions: r = {max(dims)} must be below n_train = {n}")


def params(config: dict, conf: dict, figure: str, key: str, **extra) -> dict:
    """A job's parameters: MNIST's 784 deskewed pixels, its split sizes, r."""
    r = parse_int_key(figure, key, "r", 15)
    if r not in conf["dimensions"]:
        raise ConfigError(f"job {figure}/{key}: r = {r} is not in results.{figure}."
                          f"dimensions = {conf['dimensions']}")
    choice = dataset_choice(config, DATASET, None, {"n_components": None,
                                                    "n_train": conf["n_train"],
                                                    "n_test": conf["n_test"]})
    return {"figure": figure, "point": f"{figure}/{key}", **choice, "r": r,
            "repeats": int(conf["repeats"]), "seed": config["seed"],
            "blas_threads": config["blas_threads"],
            "time_limit_seconds": float(conf["time_limit_seconds"]), **extra}


def trend(xs, ys) -> tuple[float, bool]:
    """Spearman's rank correlation of ``ys`` with ``xs`` and whether ``ys`` falls: the
    correlation is negative and the last value below the first."""
    xs, ys = np.asarray(xs, float), np.asarray(ys, float)
    if len(xs) < 2:
        return float("nan"), False
    rho = float(spearmanr(xs, ys).statistic) if np.ptp(ys) > 0 else 0.0
    order = np.argsort(xs)
    return rho, bool(rho < 0 and ys[order[-1]] < ys[order[0]])



def section_hooks(name: str):
    """``(conf, check, keys)`` of the result ``name``: its section, the profile check
    and the job keys, as the result contract wants them."""
    def conf(config: dict) -> dict:
        return config["results"][name]

    def check_section(config: dict) -> None:
        check(conf(config), f"results.{name}")

    def result_keys(config: dict) -> list[str]:
        return keys(conf(config))

    return conf, check_section, result_keys


def write_md(config: dict, name: str, title: str, claims: list[dict], frame, table: str,
             notes, choices: list[str], plot) -> list:
    """The figure's Markdown (claims with verdicts, table, image, choices) and files."""
    md = [f"# {title}", "", f"Profile `{config['profile']}`.", ""]
    md += claim_lines(claims)
    md += ["## Speed-ups", "", table, "", f"![{name}]({name}.png)", "",
           "## Choices where the thesis is ambiguous", ""]
    md += [f"- {line}" for line in choices]
    return write_figure_files(config, name, keys(config["results"][name]), frame, md,
                              notes.texts, plot)
