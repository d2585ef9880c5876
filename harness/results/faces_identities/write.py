"""The outputs of ``faces_identities`` from its records: the CSV (one row per person
split and protocol, per Fig. 2.7 split, and the MNIST job, with the tests' numbers),
the figure (changed examples of Figs. 2.7 and 2.8 and the held-out errors), the
Markdown and the verdicts (:func:`claims`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from tabulate import tabulate

from harness.results.common.write.figure_files import (
    figure_markdown, gap_mark, measured_frame, read_point, save_png, write_figure_files,
)
from harness.results.common.write.tables import Footnotes
from harness.results.faces_identities import MNIST, NAME, TITLE, _conf, keys
from harness.results.faces_identities.register_claims import add_tests, register_claims

__all__ = ["MEASURED", "build", "claims", "write"]

#: the columns a row may hold (NaN where a job did not measure them)
MEASURED = ("kind", "split", "protocol", "k", "n_probes", "errors_euclid", "errors_lmnn",
            "gained", "lost", "error_euclid_pct", "error_lmnn_pct", "improved", "worsened",
            "changed", "caption", "more_same", "n_train", "n_test", "n_components",
            "n_images", "n_persons", "per_person_min", "per_person_max")


def _kind(key: str) -> tuple[str, float]:
    if key == MNIST:
        return MNIST, np.nan
    prefix = "persons" if key.startswith("persons") else "thesis"
    return prefix, int(key.removeprefix(prefix))


def _pct(row: dict) -> dict:
    n = row["n_probes"]
    return {"error_euclid_pct": 100.0 * row["errors_euclid"] / n,
            "error_lmnn_pct": 100.0 * row["errors_lmnn"] / n}


def build(config: dict) -> pd.DataFrame:
    """One row per (person split, protocol), per Fig. 2.7 split and for the MNIST job;
    a job without a measurement is one row with its status; the tests' columns
    (:func:`~harness.results.faces_identities.register_claims.add_tests`)."""
    rows = []
    for key in keys(config):
        record = read_point(config, NAME, key)
        kind, split = _kind(key)
        base = {"key": key, "kind": kind, "split": split, "status": record["status"],
                "reason": record.get("reason", "")}
        if record["status"] != "ok":
            rows.append(base)
            continue
        fit = {f"lmnn_{k}": v for k, v in record["lmnn"].items()}
        if kind == "persons":
            for protocol in record["protocols"]:
                rows.append({**base, **protocol, **_pct(protocol), **fit,
                             "n_components": record["n_components"],
                             "held_out": " ".join(map(str, record["persons_held"]))})
            continue
        keep = {k: v for k, v in record.items()
                if k in MEASURED and not isinstance(v, (list, dict))}
        rows.append({**base, **keep, **_pct(record), **fit})
    return add_tests(measured_frame(rows, MEASURED))


def claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """The register entries (Figs. 2.7, 2.8, olivetti's counts, the transfer across
    individuals of chapter 4)."""
    return register_claims(_conf(config), build(config) if frame is None else frame)


# ---- outputs ---------------------------------------------------------------------
def _examples(config: dict) -> list[tuple[str, dict]]:
    """The changed examples of the first measured ``thesis`` split and of ``mnist``."""
    found = []
    for key in keys(config):
        if key.startswith("persons"):
            continue
        record = read_point(config, NAME, key)
        if record["status"] == "ok" and (key == MNIST or not any(
                k.startswith("thesis") for k, _ in found)):
            found += [(key, e) for e in record.get("examples", [])]
    return found


def _show(ax, image, title: str = "", colour: str = "black") -> None:
    ax.imshow(np.asarray(image, dtype=np.uint8), cmap="gray", vmin=0, vmax=255)
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_color(colour)
        spine.set_linewidth(2)
    if title:
        ax.set_title(title, fontsize=7)


def _plot(frame: pd.DataFrame, config: dict, path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    examples = _examples(config)
    columns = 1 + 2 * _conf(config)["n_neighbors"]
    rows = max(len(examples), 1) + 1
    fig, axes = plt.subplots(rows, columns, figsize=(1.1 * columns + 1, 1.25 * rows + 0.6),
                             squeeze=False)
    for ax in axes.ravel():
        ax.axis("off")
    for i, (key, ex) in enumerate(examples):
        label = "Fig. 2.7 (olivetti)" if key != MNIST else "Fig. 2.8 (MNIST)"
        axes[i, 0].axis("on")
        _show(axes[i, 0], ex["query_image"], f"{label}\ntest {ex['query']}")
        for j, image in enumerate(ex["before_images"]):
            axes[i, 1 + j].axis("on")
            _show(axes[i, 1 + j], image, "Euclidean" if j == 0 else "", "tab:red")
        for j, image in enumerate(ex["after_images"]):
            axes[i, 1 + len(ex["before_images"]) + j].axis("on")
            _show(axes[i, 1 + len(ex["before_images"]) + j], image, "LMNN" if j == 0 else "",
                  "tab:green")
    if not examples:
        axes[0, 0].text(0, 0.5, "no changed example measured (olivetti / MNIST gaps)",
                        fontsize=8, transform=axes[0, 0].transAxes)
    ax = fig.add_subplot(rows, 1, rows)
    persons = frame[(frame["kind"] == "persons") & (frame["status"] == "ok")]
    if len(persons):
        for n, (protocol, part) in enumerate(persons.groupby("protocol", sort=False)):
            ax.scatter(np.full(len(part), 3 * n), part["error_euclid_pct"], color="tab:red",
                       s=10, label="Euclidean (eigenfaces)" if n == 0 else None)
            ax.scatter(np.full(len(part), 3 * n + 1), part["error_lmnn_pct"], color="tab:green",
                       s=10, label="LMNN (learned on other people)" if n == 0 else None)
        names = list(dict.fromkeys(persons["protocol"]))
        ax.set_xticks([3 * n + 0.5 for n in range(len(names))], names, fontsize=7)
        ax.set_ylabel("held-out error (%)", fontsize=7)
        ax.legend(fontsize=6)
    else:
        ax.text(0.5, 0.5, "person splits not measured", ha="center", transform=ax.transAxes)
        ax.axis("off")
    fig.suptitle(f"{NAME}: changed neighbours (red: Euclidean, green: LMNN) and held-out "
                 f"identification, profile {config['profile']}", fontsize=8)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)


def _tables(frame: pd.DataFrame, notes: Footnotes) -> list[str]:
    md = []
    persons = frame[(frame["kind"] == "persons") & (frame["status"] == "ok")]
    if len(persons):
        table = persons.groupby("protocol", sort=False).agg(
            splits=("split", "count"), probes=("n_probes", "first"),
            euclid=("error_euclid_pct_mean", "first"), lmnn=("error_lmnn_pct_mean", "first"),
            ratio=("error_ratio", "first"), lower=("splits_lmnn_lower", "first"),
            higher=("splits_lmnn_higher", "first"), sign=("sign_p_lmnn_lower", "first"),
            p=("t_p_lmnn_better", "first")).reset_index()
        table.columns = ["protocol", "splits", "probes per split", "Euclidean error (%)",
                         "LMNN error (%)", "ratio", "splits LMNN lower", "splits LMNN higher",
                         "sign test p", "paired t p (LMNN better)"]
        md += ["## Held-out people (extension)", "",
               tabulate(table, headers="keys", tablefmt="github", showindex=False,
                        floatfmt=".3g"), ""]
    shown = {"thesis": ["split", "n_test", "improved", "worsened", "changed", "caption",
                        "error_euclid_pct", "error_lmnn_pct"],
             "mnist": ["n_train", "n_test", "n_components", "gained", "lost", "changed",
                       "more_same", "error_euclid_pct", "error_lmnn_pct"]}
    for kind, title in (("thesis", "Fig. 2.7: olivetti, 7 / 3 per person"),
                        ("mnist", "Fig. 2.8: MNIST")):
        part = frame[(frame["kind"] == kind) & (frame["status"] == "ok")]
        if len(part):
            part = part[shown[kind]].astype({c: "Int64" for c in shown[kind] if "pct" not in c})
            md += [f"## {title}", "", tabulate(part, headers="keys",
                                                tablefmt="github", showindex=False,
                                                floatfmt=".3g"), ""]
    for r in frame[frame["status"] != "ok"].itertuples():
        md.append(f"- {r.key}: {gap_mark(r.status)}{notes.mark(r.reason)}")
    return md


def _choices(conf: dict) -> list[str]:
    m = conf["mnist"]
    return [
        f"Person splits (extension): {conf['n_train_persons']} of the 40 people learn the "
        f"metric, the rest are held out; eigenfaces fitted on "
        + ("the learning people only" if conf["person_pca_fit"] == "train_persons"
           else "all 400 images") + f", {conf['n_components']} at most; held-out people "
        f"identified leave-one-out ({conf['n_neighbors']}-NN, tie rule of 2.1.6) and with "
        f"galleries of {', '.join(map(str, conf['gallery_sizes']))} seeded images per "
        f"person (1-NN) (results.{NAME}.n_train_persons, person_pca_fit, gallery_sizes).",
        f"Fig. 2.7: the thesis' protocol ({conf['train_per_person']} training images per "
        f"person, {conf['n_components']} eigenfaces of all 400 images); 'changed' = the "
        f"{conf['n_neighbors']} nearest training faces differ as sets.",
        f"Fig. 2.8: the first {m['n_train'] or 60000} / {m['n_test'] or 10000} MNIST digits, "
        f"deskewed, {m['n_components']} principal components of the training digits; "
        f"'nearest neighbour' = the {m['match_neighbors']} nearest (line 840), the "
        f"caption's neighbourhood the {conf['n_neighbors']} nearest.",
        f"LMNN: the plugin's defaults (L-BFGS from the scaled PCA start), k = "
        f"{conf['n_neighbors']}, mu = {conf['mu']:g}; tests one-sided at "
        f"{conf['alpha']:g} (results.{NAME}.alpha).",
    ]


def write(config: dict) -> list:
    """Write ``results/<profile>/figures/faces_identities.{csv,png,md,json}``."""
    frame = build(config)
    notes = Footnotes()
    md = figure_markdown(config, TITLE, claims(config, frame), _tables(frame, notes) + [""],
                         f"![{NAME}]({NAME}.png)", _choices(_conf(config)))
    return write_figure_files(config, NAME, keys(config), frame, md, notes.texts, _plot)
