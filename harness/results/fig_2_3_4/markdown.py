"""The Markdown of Figs. 2.3 and 2.4 (:mod:`harness.results.fig_2_3_4`): the claims,
the axis factors of Fig. 2.3, the table of p per size of Fig. 2.4 and the choices."""

from __future__ import annotations

import pandas as pd
from tabulate import tabulate

from harness.results.common.write.figure_files import claim_lines, gap_mark
from harness.results.common.write.tables import Footnotes
from harness.results.fig_2_3_4 import NAME

__all__ = ["markdown", "choices"]



def _mean_se(mean, se) -> str:
    return f"{mean:.4f} ± {se:.4f}" if pd.notna(se) else f"{mean:.4f}"


def _size_table(sizes: pd.DataFrame, notes: Footnotes) -> str:
    rows = []
    for r in sizes.itertuples():
        if r.status != "ok":
            rows.append({"n": r.n, "p Euclidean": f"{gap_mark(r.status)}{notes.mark(r.reason)}"})
            continue
        rows.append({
            "n": r.n, "runs": int(r.runs),
            "p Euclidean (mean ± se)": _mean_se(r.mean_p_euclidean, r.se_p_euclidean),
            "p LMNN (mean ± se)": _mean_se(r.mean_p_lmnn, r.se_p_lmnn),
            "LMNN better / worse runs": f"{int(r.lmnn_better_runs)} / {int(r.lmnn_worse_runs)}",
            "Wilcoxon p (one-sided)": f"{r.wilcoxon_pvalue:.1e}",
            "mean factors h / v": f"{r.horizontal:.2f} / {r.vertical:.2f}",
            "redraws": int(r.redraws), "unconverged": int(r.unconverged)})
    return tabulate(pd.DataFrame(rows).astype(object).fillna(""), headers="keys",
                    tablefmt="github", showindex=False)


def _scaling_lines(scale: pd.Series, notes: Footnotes) -> list[str]:
    if scale["status"] != "ok":
        return [f"Fig. 2.3's job: {gap_mark(scale['status'])}{notes.mark(scale['reason'])}"]
    return [
        f"n = {scale['n']}: LMNN stretches the horizontal axis by {scale['horizontal']:.3f} "
        f"(thesis 1.4) and the vertical by {scale['vertical']:.3f} (thesis 2.2); the images "
        f"of the two axes meet at {scale['angle_degrees']:.1f} degrees (90: no skew); "
        f"singular values of L {scale['sv1']:.3f} and {scale['sv2']:.3f} along input "
        f"directions {scale['sv1_direction']:.1f} and {scale['sv2_direction']:.1f} degrees "
        f"from the x axis. p on this training set: Euclidean {scale['mean_p_euclidean']:.4f}, "
        f"LMNN {scale['mean_p_lmnn']:.4f}; loss (2.11) {scale['loss']:.3f}, "
        f"converged {bool(scale['converged'])}."]


#: The k = 3 factors, measured once (not by this run's jobs), with how to measure again
K3_CITATION = (
    "cited earlier measurement: `harness job --config PROFILE fig_2_3_4/n1000` with a "
    "profile of seed 0 whose results.fig_2_3_4 is {sizes: [1000], runs: 20, n_neighbors: "
    "3, grid_size: 500}, 20 training sets of n = 1000, 2026-11-26, commit 6579b02: k = 3 "
    "gives mean factors 1.31 / 1.88 (runs 1.17-1.50 / 1.73-2.08)")


def _factor_spread(conf: dict, frame: pd.DataFrame | None) -> str:
    """The k of this run and its factors over the runs of Fig. 2.3's size, from the
    records (or why not)."""
    n = conf["scaling_n_samples"]
    rows = (frame[(frame["panel"] == "fig_2_4") & (frame["n"] == n) & (frame["status"] == "ok")]
            if frame is not None and "horizontal_min" in frame else pd.DataFrame())
    if rows.empty:
        return (f"This run has no measured runs of n = {n} (Fig. 2.3's size) to give the "
                f"spread of k = {conf['n_neighbors']}'s factors.")
    r = rows.iloc[0]
    return (f"This run (k = {conf['n_neighbors']}), over its {int(r.runs)} runs of n = {n}: "
            f"mean factors {r.horizontal:.2f} / {r.vertical:.2f} (runs "
            f"{r.horizontal_min:.2f}-{r.horizontal_max:.2f} / {r.vertical_min:.2f}-"
            f"{r.vertical_max:.2f}; thesis 1.4 / 2.2).")


def choices(conf: dict, frame: pd.DataFrame | None = None) -> list[str]:
    """The choices where the thesis is ambiguous, with the profile's values; the factors
    of this run's runs of Fig. 2.3's size from ``frame`` (:func:`build`)."""
    return [
        f"k = {conf['n_neighbors']} target neighbours for LMNN (results.{NAME}.n_neighbors): "
        f"the thesis does not say; the figures evaluate the 1-NN rule. "
        f"{_factor_spread(conf, frame)} k = 3 stretches less ({K3_CITATION}).",
        f"Training sizes {', '.join(map(str, conf['sizes']))} (results.{NAME}.sizes): the "
        f"text does not list Fig. 2.4's sizes; ours run up to {max(conf['sizes'])} (Fig. "
        f"2.3's n: {conf['scaling_n_samples']} here, 1000 in the thesis).",
        "LMNN starts from M = I (init = the identity, as the thesis' Algorithm 3), mu = "
        f"0.5, margin 1 in the data's units (side {conf['side']:g}); solver "
        f"'{conf['solver']}' of harness/methods/lmnn.py (results.{NAME}.solver; 'reference' is the "
        "thesis' projected subgradient method).",
        "The factors 1.4 and 2.2 are read as the column norms of L, sqrt(M_xx) and "
        "sqrt(M_yy): how much a horizontal and a vertical unit vector are stretched. They "
        "depend on M = L^T L only (L is defined up to a rotation). The singular values of "
        "L with their input directions and the angle between the images of the axes "
        "('slight skewing') are given beside them.",
        f"p by the midpoint rule: the fraction of the {conf['grid_size']}^2 cell centres "
        f"of [0, {conf['side']:g}]^2 whose 1-NN label (under the metric) differs from "
        f"their true label (results.{NAME}.grid_size); tested against the exact polygon "
        "area on small cases.",
        "A training set with k or fewer points in a class is redrawn (LMNN needs k target "
        "neighbours of the same class; the thesis does not say); the redraws are counted "
        "per size. Fig. 2.3's sample is run 0 of its size; every run has its own seed "
        "(profile seed, n, run, draw).",
        f"Verdicts at level alpha = {conf['alpha']:g} (results.{NAME}.alpha): 'decreases "
        "with n' as a one-sided Spearman test of the runs' p against n, per metric; "
        "'stretched significantly more' as vertical > horizontal on Fig. 2.3's training "
        "set and, over the runs of that size, a one-sided sign test; "
        "'significantly below' as a one-sided Wilcoxon signed-rank test of the paired "
        "runs (same training set, both metrics), per size; 'factors 1.4 and 2.2' as each "
        f"within {conf['factor_tolerance']:.0%} (results.{NAME}.factor_tolerance).",
        "The thesis' last sentence on Fig. 2.3 says the loss 'learns to put more weight "
        "on the meaningful horizontal distances and less weight on vertical distances'; "
        "in its own setting the vertical direction is the meaningful one (and is "
        "stretched more); we read it as a slip of horizontal/vertical.",
    ]


def markdown(config: dict, frame: pd.DataFrame, claims: list[dict], title: str,
             thesis_runs: int) -> tuple[list[str], list]:
    """The figure's Markdown lines (``title`` first) and the footnote texts of its
    gaps."""
    conf = config["results"][NAME]
    notes = Footnotes()
    sizes = frame[frame["panel"] == "fig_2_4"]
    md = [f"# {title}", "", f"Profile `{config['profile']}`: {conf['runs']} runs per size "
          f"(thesis {thesis_runs}), sizes {', '.join(map(str, conf['sizes']))}, LMNN k = "
          f"{conf['n_neighbors']}, grid {conf['grid_size']}^2.", ""]
    md += claim_lines(claims)
    md += ["## Fig. 2.3: the axis scaling", ""]
    md += _scaling_lines(frame[frame["panel"] == "fig_2_3"].iloc[0], notes)
    md += ["", "## Fig. 2.4: p against the number of training points", "",
           _size_table(sizes, notes), "", f"![Figs. 2.3 and 2.4]({NAME}.png)", "",
           "## Choices where the thesis is ambiguous", ""]
    md += [f"- {line}" for line in choices(conf, frame)]
    return md, notes.texts
