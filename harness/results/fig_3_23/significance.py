"""The tests of Fig. 3.23's significance statements over its trials (thesis 3.1.10), as
the claims register reads them: a one-sided sign test of "the ratio exceeds 1" over a
data set's trials, and a one-sided paired Wilcoxon signed-rank test of "the CG
post-processing lowers the ratio" over the trials both extensions finished. Their
p-values are columns of the figure's frame (:func:`trial_columns`), so that the
claims' evidence states numbers of this run."""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from harness.claims import significant

__all__ = ["LEVEL", "sign_test", "paired_lower", "trial_columns", "significant"]

#: the level of every test of the register's readings of Fig. 3.23 (one-sided)
LEVEL = 0.05


def sign_test(ratios) -> tuple[int, float, float]:
    """The trials whose ratio exceeds 1, and the one-sided sign test's p-values of "more
    trials above 1 than below" and of the other way (ties dropped); NaN without a
    trial off 1."""
    ratios = np.asarray(list(ratios), dtype=float)
    above, below = int(np.sum(ratios > 1)), int(np.sum(ratios < 1))
    n = above + below
    if n == 0:
        return above, math.nan, math.nan
    return (above, float(stats.binomtest(above, n, 0.5, alternative="greater").pvalue),
            float(stats.binomtest(below, n, 0.5, alternative="greater").pvalue))


def paired_lower(first, second) -> tuple[float, float]:
    """One-sided paired Wilcoxon signed-rank p-values of ``first`` below ``second``
    over the paired trials, and of the other way; NaN with fewer than two pairs or
    no nonzero difference."""
    d = np.asarray(list(first), dtype=float) - np.asarray(list(second), dtype=float)
    if d.size < 2 or not np.any(d != 0):
        return math.nan, math.nan
    return (float(stats.wilcoxon(d, alternative="less").pvalue),
            float(stats.wilcoxon(d, alternative="greater").pvalue))


def trial_columns(records: list[dict], name: str, counted) -> dict:
    """The frame columns of one (data set, extension) row from its counted trials
    (``counted(record, name)``): the sign test of its ratio against 1, and for the CG
    extension the paired test against the plain sdp extension on the trials where both
    are counted."""
    ratios = [r["measures"][name] for r in records if counted(r, name)]
    above, p_above, p_below = sign_test(ratios)
    out = {"trials_above_1": above, "sign_p_above_1": p_above, "sign_p_below_1": p_below}
    if name == "oos_sdp_cg":
        pairs = [(r["measures"][name], r["measures"]["oos_sdp"]) for r in records
                 if counted(r, name) and "oos_sdp" in r["measures"] and counted(r, "oos_sdp")]
        lower, higher = paired_lower([a for a, _ in pairs], [b for _, b in pairs])
        out.update(cg_pairs=len(pairs), wilcoxon_p_cg_lower=lower,
                   wilcoxon_p_cg_higher=higher)
    return out
