"""The files of Fig. 3.29 (:mod:`harness.results.fig_3_29`): Markdown and the six panels
(graph before and after in 3-D, MVU before and after in 2-D, the score distribution
with its fence, the normalised eigenvalues). Kept apart from the jobs' code
(:mod:`harness.results.fig_3_29.work`), so editing it reruns no job."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from tabulate import tabulate

from harness.formatting import fmt_number
from harness.results.common.write.figure_files import gap_mark, read_point, save_png, write_figure_files
from harness.results.common.work.mvu_point import MEASURES
from harness.results.common.write.tables import Footnotes
from harness.results.fig_3_29 import NAME, _conf

__all__ = ["write_outputs", "choices", "mvu_table", "sweep_table", "cut_consistency"]

SHORT = {"local_continuity": "C", "local_trust": "T", "neighborhood_intersection": "N"}


def cut_consistency(config: dict) -> str:
    """Whether the MVU ``after`` job cut exactly the edges the ``graph`` job detected."""
    graph, after = read_point(config, NAME, "graph"), read_point(config, NAME, "after")
    if graph["status"] != "ok" or after["status"] != "ok" or not after.get("bad_edges"):
        return "not checked (a job is not measured)"
    detected = {tuple(e) for e, c in zip(graph["edges"], graph["cut"]) if c}
    cut = {tuple(e) for e in after["bad_edges"]["cut_edges"]}
    if detected == cut:
        return f"yes: the same {len(cut)} edges"
    return (f"NO: {len(cut - detected)} cut only by MVU, {len(detected - cut)} only by the "
            f"detection job")


def mvu_table(frame: pd.DataFrame, notes: Footnotes) -> str:
    """MVU before / after: spectrum, metrics against truth and input, the solve."""
    shown = []
    for row in frame[frame["part"] == "mvu"].itertuples():
        if row.status != "ok":
            shown.append({"MVU": row.stage, "top-2 share": f"{gap_mark(row.status)}"
                                                           f"{notes.mark(row.reason)}"})
            continue
        shown.append({
            "MVU": row.stage, "edges cut": int(row.n_cut), "top-2 share": fmt_number(row.top2_share, '.3f'),
            "λ1..λ3 / Σλ": " ".join(fmt_number(getattr(row, f"ev{i}"), '.3f') for i in (1, 2, 3)),
            "vs true 2-D: C T N (hm)": " ".join(fmt_number(getattr(row, f"truth_{q}"), '.3f')
                                               for q in MEASURES)
            + f" ({fmt_number(row.truth_harmonic_mean, '.3f')})",
            "vs input: C T N": " ".join(fmt_number(getattr(row, f"input_{q}"), '.3f') for q in MEASURES),
            "solve": f"{row.solve_status}, {row.solve_certificate}",
            "wall s": fmt_number(row.wall_seconds, '.1f')})
    return tabulate(pd.DataFrame(shown).astype(object).fillna(""), headers="keys",
                    tablefmt="github", showindex=False)


def sweep_table(frame: pd.DataFrame, notes: Footnotes) -> str:
    """The detection on the figure's roll and per noise level of the sweep."""
    shown = []
    for row in frame[frame["part"].isin(["detection", "sweep"])].itertuples():
        if row.status != "ok":
            shown.append({"rolls": row.stage, "bad edges": f"{gap_mark(row.status)}"
                                                            f"{notes.mark(row.reason)}"})
            continue
        rolls = "1" if row.part == "detection" else str(int(row.rolls))
        shown.append({
            "rolls": f"{row.stage} ({rolls})", "edges": int(row.n_edges),
            "bad edges": int(row.n_bad), "cut": int(row.n_cut),
            "bad cut": int(row.true_positives), "recall": fmt_number(row.recall, '.2f'),
            "precision": fmt_number(row.precision, '.2f'),
            "good cut": f"{row.good_cut_fraction:.1%}",
            "disconnected": (int(row.components_after_cut > 1) if row.part == "detection"
                             else int(row.rolls_disconnected))})
    return tabulate(pd.DataFrame(shown).astype(object).fillna(""), headers="keys",
                    tablefmt="github", showindex=False)


#: The equality SDP on the seed-3 roll, measured once (before the profiles ran it)
EQUALITY_CITATION = (
    "cited earlier measurement: `harness job fig_3_29/before fig_3_29/after` with "
    "results.fig_3_29.variant: equality, n = 600, k = 7, noise 0.75, seed 3, reported in "
    "commit 6de1929 (2026-11-25)")


def _row(frame, part: str, stage: str | None = None):
    if frame is None:
        return None
    rows = frame[(frame["part"] == part) & ((frame["stage"] == stage) if stage else True)]
    return rows.iloc[0] if len(rows) and rows.iloc[0]["status"] == "ok" else None


def _data_choice(conf: dict, frame) -> str:
    """How many bad edges the profile's noise gives over the sweep's rolls and on the
    figure's roll, from this run's records."""
    data = conf["dataset_params"]
    noise, seed = data.get("noise"), data.get("seed")
    sweep = None
    if frame is not None and noise is not None:
        rows = frame[(frame["part"] == "sweep") & (frame["status"] == "ok")]
        rows = rows[np.isclose(rows["noise"].astype(float), float(noise))] if len(rows) else rows
        sweep = rows.iloc[0] if len(rows) else None
    det = _row(frame, "detection")
    parts = []
    if sweep is not None:
        parts.append(f"over the sweep's {int(sweep['rolls'])} rolls of noise {noise:g} "
                     f"(seeds {int(sweep['seed_min'])}-{int(sweep['seed_max'])}) the k = "
                     f"{conf['n_neighbors']} graph of n = {conf['n_samples']} has "
                     + (f"{int(sweep['n_bad_min'])} bad edges in every roll"
                        if sweep['n_bad_min'] == sweep['n_bad_max'] else
                        f"between {int(sweep['n_bad_min'])} and {int(sweep['n_bad_max'])} "
                        f"bad edges"))
    if det is not None:
        parts.append(f"the figure's roll (seed {seed}) has {int(det['n_bad'])}")
    measured = ("In this run's records " + "; ".join(parts) + "." if parts else
                "This run has no sweep or graph record to count the bad edges.")
    return (f"Data: the swiss_roll plugin (scikit-learn's generator, the thesis' scale: t in "
            f"[1.5 pi, 4.5 pi], height in [0, 21]), n = {conf['n_samples']}, "
            f"dataset_params {data}. The thesis says only 'additional noise'. {measured} "
            f"The seed was chosen from the sweep so that the graph shows several short cuts, "
            f"as the thesis' image does; the sweep says how typical it is.")


def _truth_choice(conf: dict, frame) -> str:
    det = _row(frame, "detection")
    spread = ""
    if det is not None and pd.notna(det.get("max_good_stretch", math.nan)) and \
            pd.notna(det.get("min_bad_stretch", math.nan)):
        spread = (f"; on the figure's graph the good edges' ratios reach at most "
                  f"{det['max_good_stretch']:.2f}, the bad edges' are at least "
                  f"{det['min_bad_stretch']:.2f}")
    return (f"Ground truth: an edge is bad when its endpoints are more than "
            f"{conf['truth_ratio']:g} times farther apart on the roll (the geodesic in the "
            "unrolled coordinates: arc length and height, from the noise-free points of the "
            f"same seed) than in space{spread}.")


def _input_spectrum(frame) -> str:
    row = _row(frame, "mvu", "before")
    values = [] if row is None else [row.get(f"input_ev{i}", math.nan) for i in (1, 2, 3)]
    if not values or not all(pd.notna(v) for v in values):
        return ""
    return ("; this run's input (the before record) has the PCA spectrum "
            + " ".join(fmt_number(v, '.3f') for v in values))


def choices(config: dict, frame: pd.DataFrame | None = None) -> list[str]:
    """The choices where the thesis is ambiguous, with this profile's values and the
    counts of this run's records (``frame``: :func:`harness.results.fig_3_29.build`)."""
    conf = _conf(config)
    return [
        _data_choice(conf, frame),
        "Graph: the symmetric k-nearest-neighbour graph (i ~ j if either is among the "
        "other's k nearest), eta_ij = 1 on its edges; the random walk runs on it, not on "
        "MVU's clique graph.",
        f"Transition matrix: '{conf['walk_transition']}' ('row': p_ij = eta_ij exp(-|x_i - "
        "x_j| / sigma) row-normalised, so that the walk is a random walk and q a "
        "probability; 'raw': p as written, rows need not sum to 1).",
        f"q_ij^t ('less than t + 1 steps'): '{conf['walk_passage']}' ('first': the "
        "probability that the walk from i reaches j for the first time within t steps, "
        "computed exactly by the first-passage recursion with sparse products, every "
        "node a target once; 'visits': the sum of the s-step probabilities, s = 1..t).",
        f"t = {conf['walk_steps']} and sigma = {conf['walk_sigma']:g} (thesis: 7 and 1); "
        "sigma is in the data's units: the thesis' roll scale (the median edge length of "
        "the figure's graph is given above).",
        f"Outlier rule: an edge is cut when log(q_ij + q_ji) lies below the lower Tukey "
        f"fence Q1 - {conf['cut_fence']:g} (Q3 - Q1) of its distribution over the graph's "
        "edges (the thesis says only 'outliers of the distribution'); only low outliers "
        "(the caption: 'low traverse probability').",
        "MVU's graph after the cut: a cut edge leaves both endpoints' neighbourhoods "
        "before they are joined into cliques (3.1.4), and a cut pair is dropped from every "
        "clique, so no clique brings a cut edge back (harness.problems.mvu_problem."
        "neighbourhood_cliques); only neighbourhoods the cut left whole are passed to "
        "facial reduction as cliques.",
        f"MVU SDP: '{conf['variant']}' (the thesis' own, equality, by default), on the "
        f"figure's roll and on the rolls of seeds 0 to {conf['mvu_seeds'] - 1} at the "
        f"same noise, which decide the MVU claims (not one roll picked from the sweep). "
        "The thesis shows only the graphs; its text implies "
        "that MVU unfolds the roll once the bad edges are cut. The equality SDP (3.1.4) "
        "cannot show this at k = 7: each clique of 8 noisy 3-D points is rigid and "
        "neighbouring cliques share at least 4 affinely independent points, so the "
        "input is its only solution, with or without the cut. On this figure's roll "
        f"({EQUALITY_CITATION}) facial reduction left a single feasible kernel before the "
        "cut, the input's own (certified), and after it a solution with the input's PCA "
        f"spectrum again (not certified){_input_spectrum(frame)}. The thesis' own roll of "
        "Fig. 3.28 locks at k = 7 too (its caption). The inequality SDP (3.1.6: distances may shrink) is not rigid, yet a bad "
        "edge still holds two layers together.",
        _truth_choice(conf, frame),
        f"Verdicts: 'unfolded' when the two largest eigenvalues of the kernel hold at least "
        f"{conf['unfold_threshold']:g} of its trace, and the harmonic mean of local "
        f"continuity, trust and intersection (l = {conf['eval_neighbors']}) against the "
        f"roll's true 2-D coordinates rises; detection: recall >= {conf['min_recall']:g} "
        f"on the figure's roll and over the sweep's rolls of the same noise, at most "
        f"{conf['max_good_cut']:.0%} of the good edges cut.",
    ]


def _draw_edges(ax, X: np.ndarray, edges: np.ndarray, **style) -> None:
    from mpl_toolkits.mplot3d.art3d import Line3DCollection

    if len(edges):  # Matplotlib cannot add an empty 3-D collection
        ax.add_collection3d(Line3DCollection(
            np.stack([X[edges[:, 0]], X[edges[:, 1]]], axis=1), **style))


def _graph_panels(fig, graph: dict, spec) -> None:
    X, edges = np.asarray(graph["X"]), np.asarray(graph["edges"], dtype=int)
    cut, bad = np.asarray(graph["cut"], bool), np.asarray(graph["bad"], bool)
    for col, (title, keep) in enumerate((
            ("k-NN graph; cut (low q): black if bad by the truth, orange if not;\n"
             "red: bad, not cut", np.ones(len(edges), bool)),
            ("after the cut; red: bad edges left", ~cut))):
        ax = fig.add_subplot(spec[0, col], projection="3d")
        _draw_edges(ax, X, edges[keep & ~cut & ~bad], colors="0.6", linewidths=0.3)
        if col == 0:
            _draw_edges(ax, X, edges[cut & ~bad], colors="darkorange", linewidths=0.9)
            _draw_edges(ax, X, edges[cut & bad], colors="black", linewidths=1.6)
        _draw_edges(ax, X, edges[keep & bad & ~cut], colors="red", linewidths=1.6)
        ax.scatter(X[:, 0], X[:, 1], X[:, 2], c=graph["t"], cmap="viridis", s=3)
        ax.view_init(elev=12, azim=-80)
        ax.set_title(title, fontsize=8)
        ax.set_axis_off()


def _histogram(ax, graph: dict) -> None:
    score = np.log(np.asarray(graph["q_ij"]) + np.asarray(graph["q_ji"]))
    bad = np.asarray(graph["bad"], bool)
    bins = np.linspace(score.min(), score.max(), 40)
    ax.hist([score[~bad], score[bad]], bins=bins, stacked=True, color=["0.6", "red"],
            label=["good (truth)", "bad (truth)"])
    ax.axvline(graph["detection"]["log_threshold"], color="black", linestyle="--",
               label="fence: cut left of it")
    ax.set_yscale("log")
    ax.set_xlabel("log(q_ij^t + q_ji^t)")
    ax.legend(fontsize=7)


def _plot(frame: pd.DataFrame, config: dict, path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(14, 8.5))
    spec = fig.add_gridspec(2, 3)
    graph = read_point(config, NAME, "graph")
    if graph["status"] == "ok":
        _graph_panels(fig, graph, spec)
        _histogram(fig.add_subplot(spec[0, 2]), graph)
    else:
        fig.text(0.3, 0.75, f"graph: {gap_mark(graph['status'])}", ha="center")
    colour = np.asarray(graph["t"]) if graph["status"] == "ok" else None
    for col, stage in enumerate(("before", "after")):
        ax = fig.add_subplot(spec[1, col])
        record = read_point(config, NAME, stage)
        if record["status"] == "ok" and record.get("embedding"):
            Y = np.asarray(record["embedding"])
            ax.scatter(Y[:, 0], Y[:, 1], c=colour, cmap="viridis", s=4)
            ax.set_aspect("equal", adjustable="datalim")
        else:
            ax.text(0.5, 0.5, gap_mark(record["status"]), ha="center", transform=ax.transAxes)
        row = frame[(frame["part"] == "mvu") & (frame["stage"] == stage)].iloc[0]
        ax.set_title(f"MVU {stage} the cut: top-2 share {fmt_number(row.top2_share, '.3f')}", fontsize=8)
    ax = fig.add_subplot(spec[1, 2])
    mvu = frame[frame["part"] == "mvu"]
    for offset, row in zip((-0.2, 0.2), mvu.itertuples()):
        ax.bar(np.arange(1, 6) + offset, [np.nan_to_num(getattr(row, f"ev{i}")) for i in
                                          range(1, 6)], 0.4, label=row.stage)
    ax.axhline(0, color="black", linewidth=0.5)
    ax.set_xlabel("eigenvalue")
    ax.set_ylabel("normalised eigenvalue λ/Σλ")
    ax.legend(fontsize=7)
    conf = _conf(config)
    fig.suptitle(f"Fig. 3.29 (thesis 3.1.12), profile {config['profile']}: n = "
                 f"{conf['n_samples']}, k = {conf['n_neighbors']}, "
                 f"{conf['dataset_params']}, t = {conf['walk_steps']}, sigma = "
                 f"{conf['walk_sigma']:g}, {conf['variant']} MVU ({conf['solver']})",
                 fontsize=9)
    save_png(fig, path)
    plt.close(fig)


def write_outputs(config: dict, frame: pd.DataFrame, claims: list[dict]) -> list:
    """The Markdown and the files (:func:`harness.results.common.write.figure_files.write_figure_files`)."""
    conf = _conf(config)
    notes = Footnotes()
    md = ["# Fig. 3.29: detecting and cutting bad edges of a noisy Swiss roll (thesis "
          "3.1.12)", "",
          f"Profile `{config['profile']}`: n = {conf['n_samples']}, k = {conf['n_neighbors']}, "
          f"dataset_params {conf['dataset_params']}; walk t = {conf['walk_steps']}, sigma = "
          f"{conf['walk_sigma']:g}, transition '{conf['walk_transition']}', q "
          f"'{conf['walk_passage']}', fence {conf['cut_fence']:g}; {conf['variant']} MVU "
          f"with solver `{conf['solver']}`.", "",
          "**Thesis:** n = 600 noisy Swiss roll points, the k = 7 nearest-neighbour graph "
          "has bad edges between the outer and the inner layer, 'MVU would preserve the "
          "length of those edges and could not unfold the data'; the bad edges were "
          "detected as outliers of q_ij^t + q_ji^t (t = 7, sigma = 1) and cut.", "",
          "## Verdicts", ""]
    md += [f"- **{c['verdict']}**: {c['claim']}. {c['evidence']}" for c in claims]
    graph = read_point(config, NAME, "graph")
    median = (f"Median edge length of the figure's graph: "
              f"{np.median(graph['lengths']):.2f} (sigma = {conf['walk_sigma']:g}). "
              if graph["status"] == "ok" else "")
    md += ["", "## Detection (figure's roll and sweep)", "", sweep_table(frame, notes), "",
           f"{median}The MVU job cut the same edges as the detection job: "
           f"{cut_consistency(config)}.",
           "", "## MVU before and after the cut", "", mvu_table(frame, notes), "",
           "![Fig. 3.29](fig_3_29.png)", "", "## Choices where the thesis is ambiguous", ""]
    md += [f"- {line}" for line in choices(config, frame)]
    keys = ["graph", "sweep", "before", "after"]
    return write_figure_files(config, NAME, keys, frame, md, notes.texts, _plot)
