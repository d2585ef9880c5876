"""The claims-register entries Fig. 3.29's records decide (issue 51; thesis 3.1.12, lines
1981-1984): the bad (between-layer) edges of the figure's k = 7 graph against the good
ones, the edges flagged for a low traverse probability, and the graph after the cut.

Read from the figure roll's ``graph`` record (its edges, their lengths, the ground-truth
``bad`` flags, the random-walk probabilities ``q_ij`` and ``q_ji`` and the ``cut`` flags)
and its ``after`` MVU row (:func:`harness.results.fig_3_29.write.build`). One-sided
Mann-Whitney tests at p < 0.05 (the register's), through
:func:`harness.claims.significant`.

"Only few short alternative routes": the number of paths of length 2 or 3 between an
edge's end points that do not use the edge (the register: "paths of length <= 3"; the
edge itself is not an alternative route), counted from the adjacency matrix A: common
neighbours (A^2)_ij plus the 3-paths (A^3)_ij - deg i - deg j + 1.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import mannwhitneyu, rankdata

from harness.claims import Reading, beyond_noise, make_claim, readings_claim, significant
from harness.results.common.write.certified import certified
from harness.results.common.write.figure_files import read_point

__all__ = ["short_routes", "auc", "edge_row", "register_claims"]

NAME = "fig_3_29"
LEVEL = 0.05


def short_routes(n: int, edges: np.ndarray) -> np.ndarray:
    """Per edge (i, j) of the undirected graph, the paths of length 2 or 3 from i to j
    that avoid the edge itself.

    Examples
    --------
    >>> short_routes(4, np.array([[0, 1], [1, 2], [2, 3], [3, 0]])).tolist()  # a 4-cycle
    [1, 1, 1, 1]
    """
    A = np.zeros((n, n))
    A[edges[:, 0], edges[:, 1]] = A[edges[:, 1], edges[:, 0]] = 1
    deg = A.sum(axis=1)
    A2 = A @ A
    A3 = A2 @ A
    i, j = edges[:, 0], edges[:, 1]
    return (A2[i, j] + A3[i, j] - deg[i] - deg[j] + 1).astype(int)


def auc(scores_good: np.ndarray, scores_bad: np.ndarray) -> float:
    """The probability that a good edge scores above a bad one (ties count half): the
    ROC AUC of the score separating good from bad edges."""
    ranks = rankdata(np.r_[scores_good, scores_bad])
    g = len(scores_good)
    return float((ranks[:g].sum() - g * (g + 1) / 2) / (g * len(scores_bad)))


def _one_sided(a, b) -> tuple[float, float]:
    """p-values of a > b and of a < b (Mann-Whitney)."""
    return (float(mannwhitneyu(a, b, alternative="greater").pvalue),
            float(mannwhitneyu(a, b, alternative="less").pvalue))


def _graph(config: dict) -> dict | None:
    record = read_point(config, NAME, "graph")
    if record["status"] != "ok" or record.get("bad") is None:
        return None
    return {"edges": np.asarray(record["edges"], int), "n": int(record["n_samples"]),
            "lengths": np.asarray(record["lengths"], float),
            "bad": np.asarray(record["bad"], bool), "cut": np.asarray(record["cut"], bool),
            "q": np.asarray(record["q_ij"], float) + np.asarray(record["q_ji"], float),
            "components": (record.get("detection") or {}).get("components_after_cut")}


def edge_row(config: dict) -> dict:
    """The frame's row (part ``bad_edges``) of the figure roll's graph: the bad and good
    edges' mean lengths and short routes, their one-sided Mann-Whitney p-values, the
    medians of q_ij + q_ji and its AUC (empty but for its part where the graph record
    is missing or has no bad edge or no good one)."""
    g = _graph(config)
    row = {"part": "bad_edges", "stage": "bad edges"}
    if g is None or not g["bad"].any() or g["bad"].all():
        return {**row, "status": "missing"}
    bad, good = g["bad"], ~g["bad"]
    routes = short_routes(g["n"], g["edges"])
    long_p, short_p = _one_sided(g["lengths"][bad], g["lengths"][good])
    few_p, many_p = _one_sided(routes[good], routes[bad])
    return {**row, "status": "ok", "n_bad_edges": int(bad.sum()), "n_good_edges": int(good.sum()),
            "n_flagged": int(g["cut"].sum()), "n_flagged_bad": int((g["cut"] & bad).sum()),
            "components_after_cut": g["components"],
            "bad_mean_length": float(g["lengths"][bad].mean()),
            "good_mean_length": float(g["lengths"][good].mean()),
            "p_bad_longer": long_p, "p_bad_shorter": short_p,
            "bad_mean_routes": float(routes[bad].mean()),
            "good_mean_routes": float(routes[good].mean()),
            "p_bad_fewer_routes": few_p, "p_bad_more_routes": many_p,
            "bad_median_q": float(np.median(g["q"][bad])),
            "good_median_q": float(np.median(g["q"][good])),
            "q_auc": auc(g["q"][good], g["q"][bad]),
            "flagged_are_bad": bool(np.array_equal(g["cut"], bad))}


def _not_measured(text: str, register: str, why: str) -> dict:
    return make_claim(NAME, text, [], why, register=register)


def _long_few_routes(e) -> dict:
    return readings_claim(
        NAME, "Bad edges are long and have only few short alternative routes (3.1.12, "
              "Fig. 3.29)",
        [Reading("long", [significant(e["p_bad_longer"], e["p_bad_shorter"], LEVEL)],
                 f"{int(e['n_bad_edges'])} bad, {int(e['n_good_edges'])} good edges; mean "
                 f"length {e['bad_mean_length']:.3g} against {e['good_mean_length']:.3g}; "
                 f"one-sided Mann-Whitney p = {e['p_bad_longer']:.2g} (needs < {LEVEL:g})"),
         Reading("few routes", [significant(e["p_bad_fewer_routes"], e["p_bad_more_routes"],
                                            LEVEL)],
                 f"paths of length 2-3 avoiding the edge: mean {e['bad_mean_routes']:.3g} "
                 f"(bad) against {e['good_mean_routes']:.3g} (good); one-sided Mann-Whitney "
                 f"p = {e['p_bad_fewer_routes']:.2g} (needs < {LEVEL:g})")],
        register="s3-1-12-bad-edges-long-few-routes")


def _probability_lower(e) -> dict:
    return readings_claim(
        NAME, "A bad edge's traverse probability tends to be much lower than a good edge's "
              "(3.1.12, Fig. 3.29)",
        [Reading("median ratio", [bool(e["bad_median_q"] < 0.1 * e["good_median_q"])],
                 f"median q_ij + q_ji {e['bad_median_q']:.3g} (bad) against "
                 f"{e['good_median_q']:.3g} (good); 'much' read as below a tenth"),
         Reading("separation", [bool(e["q_auc"] >= 0.9)],
                 f"AUC of q separating good from bad edges {e['q_auc']:.3f}, needs >= 0.9")],
        register="s3-1-12-bad-edge-probability-much-lower")


def _flagged_are_bad(e) -> dict:
    return make_claim(
        NAME, "The edges flagged for a low traverse probability are the between-layer edges "
              "(3.1.12, Fig. 3.29's caption)", [bool(e["flagged_are_bad"])],
        f"{int(e['n_flagged'])} edges flagged, {int(e['n_bad_edges'])} between layers, "
        f"{int(e['n_flagged_bad'])} both; the sets must coincide",
        register="s3-1-12-caption-low-probability-edges")


def _after_cut(e, frame: pd.DataFrame) -> dict:
    text = ("After the highlighted edges are cut the graph is connected and MVU unfolds it "
            "(3.1.12, Fig. 3.29's caption)")
    rows = frame[(frame["part"] == "mvu") & (frame["stage"] == "after")]
    row = rows.iloc[0] if len(rows) else None
    components = e["components_after_cut"]
    checks = [bool(components == 1)] if pd.notna(components) else []
    said = f"{components} component(s) after the cut"
    if row is not None and row["status"] == "ok" and certified(row["solve_status"]):
        checks.append(beyond_noise(float(row["top2_share"]) - 0.95, 0.01))
        said += (f"; MVU after the cut: top two normalised eigenvalues sum to "
                 f"{row['top2_share']:.3f}, need >= 0.95 (band 0.01)")
    else:  # a graph left disconnected still decides; connected alone does not
        checks = [c for c in checks if c is False]
        said += "; the MVU solve after the cut is not measured or not certified optimal"
    return make_claim(NAME, text, checks, said, register="s3-1-12-caption-after-cut")


def register_claims(config: dict, frame: pd.DataFrame) -> list[dict]:
    """The claims of the register entries the figure's records decide (one per entry),
    from :func:`harness.results.fig_3_29.write.build`'s frame (its ``bad_edges`` row,
    :func:`edge_row`, and its ``after`` MVU row)."""
    rows = frame[frame["part"] == "bad_edges"] if "part" in frame else frame.iloc[:0]
    e = rows.iloc[0] if len(rows) else None
    if e is None or e["status"] != "ok":
        why = "not measured: the figure roll's graph record is missing or has no bad edges"
        return [_not_measured(t, r, why) for t, r in (
            ("Bad edges are long and have few short alternative routes (3.1.12)",
             "s3-1-12-bad-edges-long-few-routes"),
            ("Bad edges' traverse probability is much lower (3.1.12)",
             "s3-1-12-bad-edge-probability-much-lower"),
            ("The low-probability edges are the between-layer edges (3.1.12)",
             "s3-1-12-caption-low-probability-edges"),
            ("After the cut the graph is connected and MVU unfolds it (3.1.12)",
             "s3-1-12-caption-after-cut"))]
    return [_long_few_routes(e), _probability_lower(e), _flagged_are_bad(e),
            _after_cut(e, frame)]
