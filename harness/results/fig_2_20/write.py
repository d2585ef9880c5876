"""The outputs of Fig. 2.20 (thesis 2.2.1) from its trials' records: the CSV, the
figure (trial 0: the input with each method's first direction, and the three maps),
the Markdown table of first directions over every trial and the verdicts on the
thesis' three statements (:func:`claims`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from tabulate import tabulate

from harness.claims import make_claim
from harness.results.common.write.figure_files import (
    figure_markdown, gap_mark, read_point, save_png, write_figure_files,
)
from harness.results.common.write.tables import Footnotes
from harness.results.fig_2_20 import NAME, TITLE, _conf, keys
from harness.results.fig_2_20.register_claims import register_claims, span, trial_columns
from harness.results.fig_2_20.work import GRID, METHODS

__all__ = ["METHODS", "LABELS", "build", "claims", "write"]

LABELS = {"pca": "PCA", "rca": "RCA", "lda": "LDA", "bayes": "Bayes"}
COLOURS = {"pca": "tab:purple", "rca": "tab:green", "lda": "tab:red", "bayes": "black"}
WIDTHS = {"pca": 1.5, "rca": 4.0, "lda": 2.0, "bayes": 1.0}  # RCA, LDA, Bayes nearly coincide


# ---- aggregation ---------------------------------------------------------------------
def build(config: dict) -> pd.DataFrame:
    """One row per (trial, direction: pca, rca, lda, bayes) with the record's
    measures; RCA's rows also hold the within-class eigenvalues before and after RCA;
    a trial without a record (or failed) is one row with its status."""
    rows = []
    for key in keys(config):
        record = read_point(config, NAME, key)
        base = {"trial": int(key[5:]), "status": record["status"],
                "reason": record.get("reason", "")}
        if record["status"] != "ok":
            rows.append(base)
            continue
        base["bayes_error"] = record["bayes_error"]
        base["n_samples"] = record["n_samples"]
        extra = trial_columns(record)  # the register's measures (register_claims)
        for method, m in record["directions"].items():
            row = {**base, "method": method, "direction_x": m["direction"][0],
                   "direction_y": m["direction"][1],
                   **{k: v for k, v in m.items() if k != "direction"},
                   **extra.get(method, {})}
            if method == "rca":
                before, after = record["within_eigenvalues_input"], record["within_eigenvalues_rca"]
                row.update(within_min_input=min(before), within_max_input=max(before),
                           within_min_rca=min(after), within_max_rca=max(after),
                           within_mean_rca=float(np.mean(after)),
                           n_chunklets=record["n_chunklets"],
                           n_in_chunklets=record["n_in_chunklets"],
                           expected_within_rca=_expected_within(record["n_in_chunklets"],
                                                                record["n_chunklets"]))
            rows.append(row)
    return _summaries(pd.DataFrame(rows))


def _expected_within(n: int, chunklets: int) -> float:
    """The mean within-class eigenvalue after RCA when RCA whitens the chunklet
    covariance (2.23) exactly: its 1/n (not 1/(n - L)) makes that estimate (n - L)/n of
    the covariance, so the whitened covariance is n / (n - L) on average."""
    return n / (n - chunklets) if n > chunklets else float("nan")


def _summaries(frame: pd.DataFrame) -> pd.DataFrame:
    """The numbers the text shows that are not a record's own: per row the shares of
    the grid maxima, per direction the means over the trials (so that the CSV holds
    every number the Markdown shows, harness.number_audit)."""
    if "method" not in frame:
        return frame
    frame["variance_share"] = frame["projected_variance"] / frame["max_grid_variance"]
    frame["fisher_share"] = frame["fisher_ratio"] / frame["max_grid_fisher_ratio"]
    ok = frame["status"] == "ok"
    for column in ("angle_to_bayes_degrees", "loo_error", "within_mean_rca"):
        if column in frame:
            frame.loc[ok, f"{column}_mean"] = (frame[ok].groupby("method")[column]
                                               .transform("mean"))
    return frame


def _ok(frame: pd.DataFrame, method: str) -> pd.DataFrame:
    if "method" not in frame:
        return frame.iloc[0:0]
    return frame[(frame["status"] == "ok") & (frame["method"] == method)]


def _gaps(frame: pd.DataFrame) -> str:
    bad = frame[frame["status"] != "ok"]
    return ("; not measured: " + ", ".join(f"trial {r.trial} ({gap_mark(r.status)})"
                                           for r in bad.itertuples())) if len(bad) else ""


def _span(values, spec=".3g") -> str:
    return span(values, spec, empty="-")


def claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """The thesis' three statements about Fig. 2.20, one check per trial."""
    conf = _conf(config)
    frame = build(config) if frame is None else frame
    pca, rca, lda = (_ok(frame, m).set_index("trial") for m in METHODS)
    tol, ratio, deg = conf["whiten_tolerance"], conf["uniform_ratio"], conf["lda_max_degrees"]
    gaps = _gaps(frame)

    whitened = [(abs(r.within_min_rca - 1) <= tol and abs(r.within_max_rca - 1) <= tol
                 and r.within_max_rca / r.within_min_rca <= ratio) for r in rca.itertuples()]
    first = make_claim(
        NAME, "RCA whitens the within-class variance to uniform covariance: after RCA the "
              f"within-class covariance's eigenvalues lie within {tol:g} of 1 and their "
              f"ratio is at most {ratio:g} (2.2.1, Fig. 2.20)", whitened,
        f"within-class eigenvalues after RCA {_span(rca['within_min_rca'])} (smallest) and "
        f"{_span(rca['within_max_rca'])} (largest), before {_span(rca['within_min_input'])} "
        f"and {_span(rca['within_max_input'])}, over {len(rca)} trials; RCA saw "
        f"{_span(rca['n_in_chunklets'], '.0f')} points in {_span(rca['n_chunklets'], '.0f')} "
        f"chunklets{gaps}." if len(rca) else f"no trial measured{gaps}.")

    both = pca.merge(lda, left_index=True, right_index=True, suffixes=("_pca", "_lda"))
    # what can come out against the thesis: LDA's direction separates the classes
    # better than PCA's. PCA's variance and LDA's Fisher ratio being the grid's maxima
    # hold by construction (each is its criterion's maximiser) and PCA's angle to the
    # Bayes direction by the data's design: shown, not counted (harness.claims' rules)
    separates = [bool(r.loo_error_lda < r.loo_error_pca) for r in both.itertuples()]
    by_construction = (
        f"shown, not counted (they hold by construction and by the data's design): "
        f"variance / grid maximum {_span(both['variance_share_pca'], '.6f')}, Fisher ratio "
        f"/ grid maximum {_span(both['fisher_share_lda'], '.6f')}, PCA's angle to the "
        f"Bayes direction {_span(both['angle_to_bayes_degrees_pca'])} degrees"
    ) if len(both) else ""
    second = make_claim(
        NAME, "The principal component of PCA maximises the projected variance, the "
              "projection direction of LDA best separates the two classes: LDA's "
              "leave-one-out error along its first direction is below PCA's (2.2.1, "
              "Fig. 2.20)", separates,
        f"LOO {conf['n_neighbors']}-NN error along the first direction: PCA "
        f"{_span(both['loo_error_pca'])} %, LDA {_span(both['loo_error_lda'])} % (Bayes error "
        f"{_span(pca['bayes_error'])} %); {by_construction} (over {GRID} directions); "
        f"{len(both)} trials{gaps}." if len(both) else f"no trial measured{gaps}.")

    third = make_claim(
        NAME, "With two Gaussian classes of identical covariance the first LDA component "
              "recovers the direction orthogonal to the optimal Bayes classifier: within "
              f"{deg:g} degrees of Sigma^-1 (mu_1 - mu_0) (2.2.1)",
        list(lda["angle_to_bayes_degrees"] <= deg) if len(lda) else [],
        f"LDA's angle to the Bayes direction {_span(lda['angle_to_bayes_degrees'])} degrees "
        f"over {len(lda)} trials (PCA's {_span(pca['angle_to_bayes_degrees'])}, RCA's "
        f"{_span(rca['angle_to_bayes_degrees'])}){gaps}." if len(lda)
        else f"no trial measured{gaps}.")
    # issue 51 defect 5: on this example each statement holds by construction (RCA
    # whitens the chunklets' covariance by definition; the two Gaussians are drawn so
    # that PCA's direction is not the discriminative one; LDA's population direction is
    # Sigma^-1 (mu_1 - mu_0) exactly): an illustration, shown and never counted
    why = (" (by construction of the example: an illustration, shown beside the thesis' "
           "claims and not counted)")
    return [{**c, "evidence": c["evidence"] + why, "counted": False}
            for c in (first, second, third)] + register_claims(_with_columns(frame))


def _with_columns(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with every column the register's claims read (NaN where no trial was
    measured)."""
    needed = ("method", "trial", "loo_error", "n_samples", "angle_to_bayes_degrees",
              "variance_share", "within_min_rca", "within_max_rca", "rca_scale_ratio",
              "rca_chunklet_scale_ratio", "chunklet_min_rca", "chunklet_max_rca",
              "pca_population_angle", "best_grid_loo_error")
    return frame.reindex(columns=[*frame.columns, *[c for c in needed if c not in frame]])


# ---- outputs ---------------------------------------------------------------------
def _draw_input(ax, record: dict, X: np.ndarray, y: np.ndarray) -> None:
    for c, marker in ((0, "o"), (1, "^")):
        ax.scatter(*X[y == c].T, s=4, marker=marker, alpha=0.5, color=f"C{c}")
    span = np.abs(X).max()
    for method in (*METHODS, "bayes"):
        d = np.asarray(record["directions"][method]["direction"]) * 0.9 * span
        ax.plot([-d[0], d[0]], [-d[1], d[1]], color=COLOURS[method], label=LABELS[method],
                linestyle="--" if method == "bayes" else "-", linewidth=WIDTHS[method])
    ax.set_aspect("equal")
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title("input and first directions", fontsize=8)


def _plot(frame: pd.DataFrame, config: dict, path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    record = read_point(config, NAME, "trial0")
    fig, axes = plt.subplots(1, 4, figsize=(13, 3.6))
    if record["status"] != "ok":
        for ax in axes:
            ax.text(0.5, 0.5, gap_mark(record["status"]), ha="center", va="center",
                    transform=ax.transAxes, color="dimgray")
            ax.set_xticks([])
            ax.set_yticks([])
    else:
        X, y = np.asarray(record["points"]), np.asarray(record["labels"])
        chunks = np.asarray(record["chunklets"])
        _draw_input(axes[0], record, X, y)
        for ax, method in zip(axes[1:], METHODS):
            Z = X @ np.asarray(record["maps"][method]).T
            if Z.shape[1] == 1:
                Z = np.column_stack([Z[:, 0], np.zeros(len(Z))])
            for c, marker in ((0, "o"), (1, "^")):
                ax.scatter(*Z[y == c].T, s=4, marker=marker, alpha=0.5, color=f"C{c}")
            if method == "rca":
                ax.scatter(*Z[chunks >= 0].T, s=10, facecolors="none", edgecolors="black",
                           linewidths=0.5, label="in chunklets")
                ax.legend(fontsize=7, loc="lower right")
            m = record["directions"][method]
            ax.set_title(f"{LABELS[method]}: {m['angle_to_bayes_degrees']:.1f}° from Bayes, "
                         f"LOO err {m['loo_error']:.1f} %", fontsize=8)
            ax.set_xlabel("first direction", fontsize=8)
            ax.set_aspect("equal")
    fig.suptitle(f"{TITLE}\nprofile {config['profile']}, trial 0, "
                 f"N = {_conf(config)['n_samples']}", fontsize=9)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)


def _table(frame: pd.DataFrame, notes: Footnotes) -> str:
    rows = []
    for method in (*METHODS, "bayes"):
        part = _ok(frame, method)
        if part.empty:
            continue
        rows.append({"direction": LABELS[method],
                     "angle to Bayes (°), mean [range]":
                         f"{part['angle_to_bayes_degrees_mean'].iloc[0]:.2f} "
                         f"[{_span(part['angle_to_bayes_degrees'])}]",
                     "LOO k-NN error (%), mean [range]":
                         f"{part['loo_error_mean'].iloc[0]:.2f} [{_span(part['loo_error'])}]",
                     "projected variance / max": _span(part["variance_share"], ".4f"),
                     "Fisher ratio / max": _span(part["fisher_share"], ".4f")})
    for r in frame[frame["status"] != "ok"].itertuples():
        rows.append({"direction": f"trial {r.trial}: {gap_mark(r.status)}"
                                  f"{notes.mark(r.reason)}"})
    if not rows:
        return "(no trial measured)"
    return tabulate(pd.DataFrame(rows).astype(object).fillna(""), headers="keys",
                    tablefmt="github", showindex=False)


def _choices(config: dict, frame: pd.DataFrame) -> list[str]:
    c = _conf(config)
    return [
        f"The Gaussians (the thesis gives no parameters): N = {c['n_samples']} points, half "
        f"per class, covariance with standard deviations {c['axis_std']} along axes rotated "
        f"by {c['rotation_degrees']:g} degrees, means -/+ {c['mean_shift']} / 2, so that "
        f"PCA's first direction (the long axis) differs from the Bayes direction; "
        f"{c['n_trials']} seeded trials, the plot shows trial 0 (results.{NAME}.axis_std, "
        f"rotation_degrees, mean_shift, n_samples, n_trials).",
        f"RCA: {c['rca_chunklet_fraction']:g} of each class drawn at random into chunklets "
        f"of at most {c['rca_chunklet_size']} points (the thesis: 10 % in chunklets of "
        f"10); n of (2.23) = the points in chunklets; PCA step with "
        f"{c['rca_n_components'] or 'every non-degenerate'} component(s). RCA's map "
        f"whitens and has no order: its first direction is "
        + ("the axis of largest variance after RCA" if c["rca_first_direction"]
           == "max_variance" else "the axis RCA stretches most")
        + f" (results.{NAME}.rca_first_direction).",
        "LDA: the generalized eigenvectors of C_b p = lambda C_w p (Eqs. 2.26-2.27), no "
        "shrinkage; C_b (2.25) with the class means centred on their average; its second "
        "axis (eigenvalue 0 with two classes) is the C_w-orthogonal one, so the LDA panel "
        "is also within-class whitened (W C_w W^T = I), a choice of scale, not LDA's claim.",
        f"Measures: the angle between lines (0-90 degrees); the leave-one-out "
        f"{c['n_neighbors']}-NN error (thesis tie rule) of the points projected onto each "
        f"first direction; the within-class covariance (Eq. 2.23 with the classes as "
        f"chunklets, all N points) after RCA. Verdicts: 'uniform' = eigenvalues within "
        f"{c['whiten_tolerance']:g} of 1 and ratio at most {c['uniform_ratio']:g}; 'a few "
        f"degrees' = {c['lda_max_degrees']:g} (results.{NAME}.whiten_tolerance, "
        f"uniform_ratio, lda_max_degrees)." + _whitening_note(frame),
    ]


def _whitening_note(frame: pd.DataFrame) -> str:
    """Why RCA's within-class eigenvalues sit above 1, with this run's numbers (none
    without a measured trial)."""
    rca = _ok(frame, "rca")
    if rca.empty:
        return ""
    first = rca.iloc[0]
    return (f" RCA whitens the chunklets' covariance (2.23), whose 1/n (not 1/(n - L)) "
            f"makes it (n - L)/n of the covariance: with n = {int(first['n_in_chunklets'])} "
            f"points in L = {int(first['n_chunklets'])} chunklets the within-class "
            f"eigenvalues after RCA are n / (n - L) = {first['expected_within_rca']:.3f} "
            f"on average, not 1 (measured: {first['within_mean_rca_mean']:.3f}, the mean "
            f"over the trials).")


def write(config: dict) -> list:
    """Write ``results/<profile>/figures/fig_2_20.{csv,png,md,json}``; return the paths."""
    frame = build(config)
    notes = Footnotes()
    table = _table(frame, notes)
    md = figure_markdown(config, TITLE, claims(config, frame),
                         ["## First directions", "", table, ""], "![Fig. 2.20](fig_2_20.png)",
                         _choices(config, frame))
    return write_figure_files(config, NAME, keys(config), frame, md, notes.texts, _plot)
