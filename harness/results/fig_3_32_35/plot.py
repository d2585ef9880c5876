"""The PNG of Figs. 3.32-3.35: per data set (one row) the 2-D kernel PCA embeddings
under each kernel, the normalised eigenvalue spectra and the Gaussian kernel's first
three components (Fig. 3.34). Gaps are drawn as marked, empty panels."""

from __future__ import annotations

import numpy as np
import pandas as pd

from harness.results.common.write.figure_files import gap_mark, save_png

__all__ = ["N_BARS", "plot_figure"]

N_BARS = 10  # leading normalised eigenvalues drawn per kernel
COLOURS = {"linear": "tab:blue", "polynomial": "tab:orange", "gaussian": "tab:green",
           "mvu": "tab:red"}


def _gap(ax, text: str) -> None:
    write = getattr(ax, "text2D", ax.text)  # a 3-D panel places 2-D text by text2D
    write(0.5, 0.5, text, ha="center", va="center", fontsize=9, color="dimgray",
          transform=ax.transAxes, wrap=True)
    if hasattr(ax, "text2D"):
        ax.set_axis_off()
    else:
        ax.set_xticks([])
        ax.set_yticks([])


def _scatter(ax, record: dict, dims: int) -> None:
    Y = np.asarray(record["embedding"], dtype=float)[:, :dims]
    colour = record.get("colour")
    c = None if colour is None else np.asarray(colour, dtype=float)
    points = [Y[:, j] for j in range(dims)]
    ax.scatter(*points, c=c, cmap="viridis" if c is not None else None, s=4, linewidths=0)
    if dims == 2:
        ax.set_aspect("equal", adjustable="datalim")
    ax.tick_params(labelsize=6)


def _spectrum(ax, part: pd.DataFrame) -> None:
    kernels = list(part["kernel"])
    width = 0.8 / max(len(kernels), 1)
    xs = np.arange(1, N_BARS + 1)
    for j, row in enumerate(part.itertuples()):
        values = [getattr(row, f"ev{i}", np.nan) for i in xs]
        values = np.nan_to_num(np.asarray(values, dtype=float))
        ax.bar(xs + (j - (len(kernels) - 1) / 2) * width, values, width,
               color=COLOURS.get(row.kernel), label=row.kernel)
    ax.set_ylim(0, 1.05)
    ax.set_xticks(xs)
    ax.tick_params(labelsize=6)
    ax.set_xlabel("eigenvalue", fontsize=7)
    ax.set_ylabel("λ / trace", fontsize=7)
    ax.legend(fontsize=6)


def plot_figure(frame: pd.DataFrame, config: dict, path, records: dict, title: str) -> None:
    """Draw the figure to ``path``; ``records`` maps (data set, kernel) to the record of
    every measured point."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    datasets = list(dict.fromkeys(frame["dataset"]))
    kernels = list(dict.fromkeys(frame["kernel"]))
    ncols = len(kernels) + 2
    fig = plt.figure(figsize=(2.9 * ncols, 2.9 * len(datasets) + 0.6))
    for i, dataset in enumerate(datasets):
        part = frame[frame["dataset"] == dataset]
        stand = bool(part["stand_in"].iloc[0])
        label = dataset + (" (stand-in)" if stand else "")
        for j, kernel in enumerate(kernels):
            ax = fig.add_subplot(len(datasets), ncols, i * ncols + j + 1)
            row = part[part["kernel"] == kernel].iloc[0]
            setting = row["setting"] if row["status"] == "ok" and row["setting"] != "-" else ""
            ax.set_title(f"{label}: {kernel}" + (f"\n{setting}" if setting else ""), fontsize=7)
            if (dataset, kernel) in records:
                _scatter(ax, records[(dataset, kernel)], 2)
            else:
                _gap(ax, gap_mark(row["status"]))
        ax = fig.add_subplot(len(datasets), ncols, i * ncols + len(kernels) + 1)
        ax.set_title(f"{label}: normalised eigenvalues", fontsize=7)
        measured = part[part["status"] == "ok"]
        _spectrum(ax, measured) if len(measured) else _gap(ax, "no spectrum")
        ax = fig.add_subplot(len(datasets), ncols, (i + 1) * ncols, projection="3d")
        ax.set_title(f"{label}: Gaussian, first 3 components (Fig. 3.34)", fontsize=7)
        if (dataset, "gaussian") in records:
            _scatter(ax, records[(dataset, "gaussian")], 3)
        else:
            _gap(ax, "not measured")
    fig.suptitle(f"{title}\nprofile {config['profile']}; colour: roll parameter, rotation "
                 f"angle or digit", fontsize=9)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)
