"""The outputs side shared by Figs. 2.13 and 2.16 (thesis 2.1.9): the size gate of their
claims (the thesis measured on 60000 training digits), a monotone-trend test and the
Markdown. Their declarations' side is :mod:`harness.results.common.declare.balltree_profile`,
their jobs :mod:`harness.results.common.work.balltree_point`."""

from __future__ import annotations

import numpy as np
from scipy.stats import spearmanr

from harness.claims import WITHIN_NOISE
from harness.results.common.declare.balltree_profile import keys
from harness.results.common.write.figure_files import claim_lines, write_figure_files

__all__ = ["THESIS_N_TRAIN", "size_gate", "clearly_below", "trend", "at_least", "at_most",
           "falls", "halves", "both", "write_md"]

#: Properties both figures' sections have (the figures add theirs).


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


def clearly_below(a: float, b: float, band: float):
    """Whether the speed-up ``a`` is below ``b`` beyond the timing band: ``True`` when
    ``a (1 + band) < b``, ``False`` when ``a`` is not below ``b`` beyond it (``b (1 +
    band) <= a``), else :data:`harness.claims.WITHIN_NOISE` -- within the band neither
    is below the other and the case decides nothing. With ``band`` 0 (an exact count,
    the same on every machine) there is no noise: ``a < b``."""
    if band == 0:
        return bool(a < b)
    if a * (1.0 + band) < b:
        return True
    return False if b * (1.0 + band) <= a else WITHIN_NOISE


def trend(xs, ys, band: float = 0.0) -> tuple[float, object]:
    """Spearman's rank correlation of ``ys`` with ``xs`` and whether ``ys`` falls: the
    correlation is negative and the last value below the first beyond the timing band
    (:func:`clearly_below`); last and first within the band: inside the noise
    (:data:`harness.claims.WITHIN_NOISE`)."""
    xs, ys = np.asarray(xs, float), np.asarray(ys, float)
    if len(xs) < 2:
        return float("nan"), False
    rho = float(spearmanr(xs, ys).statistic) if np.ptp(ys) > 0 else 0.0
    order = np.argsort(xs)
    ends = clearly_below(ys[order[-1]], ys[order[0]], band)
    if ends is WITHIN_NOISE:
        return rho, WITHIN_NOISE
    return rho, bool(rho < 0 and ends)


def at_least(value: float, threshold: float, band: float):
    """Whether a speed-up ``value`` is at least ``threshold`` beyond the timing band:
    ``True`` when ``value >= threshold (1 + band)``, ``False`` when ``value (1 + band) <
    threshold``, else :data:`harness.claims.WITHIN_NOISE` (the difference from the
    threshold lies inside the band). ``band`` 0 (an exact count): ``value >= threshold``.
    A NaN value measures nothing (:data:`~harness.claims.WITHIN_NOISE`).

    Examples
    --------
    >>> at_least(4.0, 2.0, 0.65), at_least(1.0, 2.0, 0.65), at_least(2.5, 2.0, 0.65)
    (True, False, WITHIN_NOISE)
    """
    if value != value:
        return WITHIN_NOISE
    if value >= threshold * (1.0 + band):
        return True
    return False if value * (1.0 + band) < threshold else WITHIN_NOISE


def at_most(value: float, threshold: float, band: float):
    """Whether a speed-up ``value`` is at most ``threshold`` beyond the timing band (the
    mirror of :func:`at_least`): ``True`` when ``value (1 + band) <= threshold``,
    ``False`` when ``value > threshold (1 + band)``, else inside the band.

    Examples
    --------
    >>> at_most(0.5, 1.5, 0.65), at_most(3.0, 1.5, 0.65), at_most(1.6, 1.5, 0.65)
    (True, False, WITHIN_NOISE)
    """
    if value != value:
        return WITHIN_NOISE
    if value * (1.0 + band) <= threshold:
        return True
    return False if value > threshold * (1.0 + band) else WITHIN_NOISE


def falls(xs, ys, band: float = 0.0) -> tuple[float, object]:
    """Spearman's rho of ``ys`` with ``xs`` and the check "rho < 0": a pass when
    negative; when not, a counterexample unless every value lies within the timing band
    of every other (largest <= smallest (1 + band)), where the order is noise
    (:data:`harness.claims.WITHIN_NOISE`). Fewer than two values: no check (``None``).

    Examples
    --------
    >>> falls([5, 15, 40], [4.0, 2.0, 1.0])[1], falls([5, 15], [1.0, 1.2], 0.65)[1]
    (True, WITHIN_NOISE)
    """
    xs, ys = np.asarray(xs, float), np.asarray(ys, float)
    if len(xs) < 2:
        return float("nan"), None
    rho = float(spearmanr(xs, ys).statistic) if np.ptp(ys) > 0 else 0.0
    if rho < 0:
        return rho, True
    if band > 0 and ys.max() <= ys.min() * (1.0 + band):
        return rho, WITHIN_NOISE
    return rho, False


def halves(first: float, last: float, band: float = 0.0):
    """Whether ``last`` is below half of ``first`` beyond the timing band
    (:func:`clearly_below` of ``last`` and ``first / 2``).

    Examples
    --------
    >>> halves(5.0, 0.7, 0.65), halves(5.0, 4.5, 0.65), halves(5.0, 2.0, 0.65)
    (True, False, WITHIN_NOISE)
    """
    return clearly_below(last, first / 2.0, band)


def both(*checks):
    """One case's check from its checks in two or more measures (CPU time, coordinate
    operations), every one of which the case needs: a counterexample when one fails,
    else inside the noise when one is, else a pass.

    Examples
    --------
    >>> both(True, True), both(True, False), both(True, WITHIN_NOISE)
    (True, False, WITHIN_NOISE)
    """
    if any(c is False for c in checks):
        return False
    return WITHIN_NOISE if any(c is WITHIN_NOISE for c in checks) else True


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
