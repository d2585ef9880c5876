"""The PNG of Figs. 2.3 and 2.4 (:mod:`harness.results.fig_2_3_4`): the half-square
coloured by the Euclidean 1-NN rule (left), the same square mapped by LMNN's L and
coloured by the 1-NN rule there (middle), and p against n for both metrics (right)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from harness.results.common.write.figure_files import gap_mark, save_png
from harness.results.fig_2_3_4.work import grid_centres, nn_labels

__all__ = ["plot", "PLOT_GRID"]

PLOT_GRID = 200  # cells per side of the coloured domain
AREA = ("#9ec5f7", "#f7a8a8")  # class 0 (blue), class 1 (red)
POINTS = ("#1f4fb4", "#c21f1f")


def _regions(ax, X, y, L, side: float, title: str) -> None:
    from matplotlib.colors import ListedColormap

    g = PLOT_GRID
    centres = grid_centres(side, g)
    labels = nn_labels(X, y, L, centres).reshape(g, g)
    edges = np.linspace(0.0, side, g + 1)
    ex, ey = np.meshgrid(edges, edges)
    mapped = np.stack([ex.ravel(), ey.ravel()], axis=1) @ L.T
    ax.pcolormesh(mapped[:, 0].reshape(ex.shape), mapped[:, 1].reshape(ex.shape), labels,
                  cmap=ListedColormap(AREA), vmin=0, vmax=1, shading="flat")
    P = X @ L.T
    for c in (0, 1):
        ax.scatter(P[y == c, 0], P[y == c, 1], s=3, color=POINTS[c], linewidths=0)
    corners = np.array([[0, 0], [side, 0], [side, side], [0, side], [0, 0]]) @ L.T
    ax.plot(corners[:, 0], corners[:, 1], color="black", linewidth=0.8)
    middle = np.array([[0, side / 2], [side, side / 2]]) @ L.T
    ax.plot(middle[:, 0], middle[:, 1], color="black", linewidth=0.6, linestyle="--")
    ax.set_aspect("equal")
    ax.set_title(title, fontsize=8)


def _gap_panel(ax, status: str) -> None:
    ax.text(0.5, 0.5, gap_mark(status), ha="center", va="center", transform=ax.transAxes,
            color="dimgray")
    ax.set_xticks([])
    ax.set_yticks([])


def _curve(ax, sizes: pd.DataFrame) -> None:
    ok = sizes[sizes["status"] == "ok"]
    for metric, colour, label in (("euclidean", "tab:gray", "Euclidean"),
                                  ("lmnn", "tab:red", "LMNN")):
        if len(ok):
            ax.errorbar(ok["n"], ok[f"mean_p_{metric}"], yerr=ok[f"se_p_{metric}"].fillna(0.0),
                        marker="o", markersize=3, capsize=2, color=colour, label=label)
    for r in sizes[sizes["status"] != "ok"].itertuples():
        ax.axvline(r.n, color="lightgray", linestyle=":")
        ax.text(r.n, 0.98, gap_mark(r.status), transform=ax.get_xaxis_transform(),
                ha="center", va="top", fontsize=7, color="dimgray")
    ax.set_xscale("log")
    ax.set_xlabel("training points n")
    ax.set_ylabel("p (1-NN misclassification probability)")
    ax.set_title("Fig. 2.4: mean ± standard error over runs", fontsize=8)
    if len(ok):
        ax.legend(fontsize=7)


def plot(frame: pd.DataFrame, config: dict, path, scaling: dict) -> None:
    """Draw the three panels to ``path``; ``scaling`` is the record of Fig. 2.3's job
    (its training set and L)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    conf = config["results"]["fig_2_3_4"]
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.4))
    if scaling["status"] == "ok":
        X, y = np.asarray(scaling["X"]), np.asarray(scaling["y"])
        L = np.asarray(scaling["L"])
        s = scaling["scaling"]
        _regions(axes[0], X, y, np.eye(2), conf["side"],
                 f"Fig. 2.3 left: Euclidean 1-NN, n = {len(X)}, "
                 f"p = {scaling['p_euclidean']:.4f}")
        _regions(axes[1], X, y, L, conf["side"],
                 f"Fig. 2.3 right: after LMNN (x{s['horizontal']:.2f} horizontal, "
                 f"x{s['vertical']:.2f} vertical), p = {scaling['p_lmnn']:.4f}")
    else:
        _gap_panel(axes[0], scaling["status"])
        _gap_panel(axes[1], scaling["status"])
    _curve(axes[2], frame[frame["panel"] == "fig_2_4"])
    fig.suptitle(f"Figs. 2.3 and 2.4 (thesis 2.1.5), profile {config['profile']}: "
                 f"{conf['runs']} runs per size, LMNN k = {conf['n_neighbors']}, "
                 f"blue: class 0 (lower half), red: class 1", fontsize=9)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)
