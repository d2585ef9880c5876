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

__all__ = ["COMMON_SCHEMA", "THESIS_N_TRAIN", "keys", "params", "check", "size_gate",
           "clearly_below", "trend",
           "section_hooks", "write_md"]

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
      description: >-
        interleaved timing rounds: each search's time is its best round's per-call CPU
        time (a round runs a search for at least 0.2 CPU seconds)
    timing_band:
      type: number
      minimum: 0
      default: 0.65
      description: >-
        two speed-ups in CPU time count as different only when one exceeds the other by
        more than this fraction (aggregation only): a claim that one is larger or
        smaller, or that a speed-up falls, needs a difference beyond it. The default is
        the reproducibility of a CPU-time speed-up across independent processes under
        load: the quick jobs fig_2_16/r5, r15 and fig_2_13/r5, r25 run 5 times each in
        separate processes at load 5-9 on 2 cores gave speed-ups whose largest / smallest
        was at most 1.65 (median 1.17; scripts/timing_spread.py, 2026-11-26). The
        readings in coordinate operations are exact and use no band
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


#: MNIST's training size, on which the thesis measured its speed-ups (2.1.9)
THESIS_N_TRAIN = 60000


def size_gate(n_trains) -> str:
    """Why the speed-ups' sizes cannot be compared with the thesis' (``""`` when every
    measured job searched the thesis' 60000 training digits).

    The costs of the searches grow differently with the number of training digits, so
    a speed-up's size, and which of two speed-ups is the larger, at fewer digits says
    nothing about the thesis' (measured on this machine, CPU time, 1000 test digits:
    the hinge search's speed-up at r = 5 was 2.6x on 10000 training digits and 10.3x
    on 60000, the 3-NN ball tree's over the naive r-D search 4.8x and 5.9x). Claims about a trend in r, about exactness or about the input scale
    are decided at any size; claims about how large a speed-up is only at 60000. The
    number of test digits only sets how many queries a per-query time averages.
    """
    sizes = sorted({int(n) for n in n_trains if n == n})
    smaller = [n for n in sizes if n != THESIS_N_TRAIN]
    if not smaller:
        return ""
    return (f"not a verdict at this size: measured on {smaller[0]} training digits, not "
            f"the thesis' {THESIS_N_TRAIN}; the searches' costs grow differently with "
            f"n, so a speed-up's size at fewer digits says nothing about the thesis'")


def clearly_below(a: float, b: float, band: float) -> bool:
    """Whether the speed-up ``a`` is below ``b`` beyond the timing band: ``a (1 + band)
    < b``. Within the band neither is below the other."""
    return bool(a * (1.0 + band) < b)


def trend(xs, ys, band: float = 0.0) -> tuple[float, bool]:
    """Spearman's rank correlation of ``ys`` with ``xs`` and whether ``ys`` falls: the
    correlation is negative and the last value below the first beyond the timing band
    (:func:`clearly_below`)."""
    xs, ys = np.asarray(xs, float), np.asarray(ys, float)
    if len(xs) < 2:
        return float("nan"), False
    rho = float(spearmanr(xs, ys).statistic) if np.ptp(ys) > 0 else 0.0
    order = np.argsort(xs)
    return rho, bool(rho < 0 and clearly_below(ys[order[-1]], ys[order[0]], band))



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
