"""Fig. 3.29 (thesis 3.1.12): detecting and cutting "bad" edges of a noisy Swiss roll.

"MVU is based on a nearest neighbor graph. But what if two distant layers of the
manifold are accidentally connected by a link? See Figure 3.29 for an example of n =
600 points sampled from a swiss-roll manifold with additional noise. The left image
shows the k = 7 nearest neighbor graph with "bad" edges between the outer in the inner
layer of the swiss-roll. In this case MVU would preserve the length of those edges and
could not unfold the data. [...] The right image in Figure 3.29 was generated with t =
7 and sigma = 1. The "bad" edges were automatically detected as outliers of the
distribution of q_ij^t + q_ji^t and cut." Caption: "Edges with low traverse
probability are highlighted in black. The right image shows the same graph after the
highlighted edges have been cut."

Jobs (:mod:`harness.results._bad_edge_points`): ``graph`` (the k-NN graph, its
detection and the ground truth), ``sweep`` (the detection on rolls of other noise
levels and seeds), ``before`` and ``after`` (MVU without and with the cut). The
aggregation writes the graph before (bad edges highlighted) and after (3-D), the MVU
embeddings before and after (2-D), their normalised eigenvalues, the detection's
precision and recall against the ground truth, and three claims with verdicts. The
detection itself: :mod:`harness.problems.bad_edges` (its choices are this figure's
parameters).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import yaml

from harness.claims import make_claim
from harness.errors import ConfigError
from harness.problems.bad_edges import BadEdgeRule
from harness.results import _bad_edge_points as points
from harness.results._fig_3_29_output import write_outputs
from harness.results.common.formatting import certificate_text
from harness.results.common.figure_files import harmonic_mean, read_point
from harness.results.common.mvu_point import MEASURES
from harness.results.common.profile import dataset_choice, mvu_point_params
from harness.solvers.mvu import MVU_SOLVERS

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SCHEMA", "work", "sources",
           "check", "keys", "params", "rule", "build", "claims", "write", "THESIS"]

NAME = "fig_3_29"
TITLE = "Fig. 3.29: detecting and cutting bad edges of a noisy Swiss roll (thesis 3.1.12)"
THESIS_SECTION = "3.1.12"
KIND = "figure"
SIDECAR = True
THESIS = {"n_samples": 600, "n_neighbors": 7, "walk_steps": 7, "walk_sigma": 1.0}
SCHEMA = yaml.safe_load("""
    type: object
    additionalProperties: false
    description: >-
      Fig. 3.29 (thesis 3.1.12): bad edges of a noisy Swiss roll's k-NN graph detected
      by a t-step random walk and cut; MVU before and after (jobs graph, sweep,
      before, after)
    properties:
      n_samples: {type: integer, minimum: 10, default: 600, description: thesis n = 600}
      n_neighbors: {type: integer, minimum: 1, default: 7, description: thesis k = 7}
      dataset_params:
        type: object
        default: {noise: 0.75, seed: 3}
        description: >-
          swiss_roll load() arguments; the thesis says only "additional noise".
          noise 0.75 gives the k = 7 graph of n = 600 between 2 and 15 bad edges
          (seeds 0-9); seed 3 is a roll with 15 (see the sweep)
      variant:
        enum: [equality, inequality]
        default: inequality
        description: >-
          the MVU SDP of the before/after jobs; the equality SDP of the k = 7 cliques
          of noisy 3-D data is rigid (locked) with or without the cut
      walk_steps: {type: integer, minimum: 1, default: 7, description: t (thesis 7)}
      walk_sigma:
        type: number
        exclusiveMinimum: 0
        default: 1.0
        description: sigma of exp(-|x_i - x_j| / sigma), in the roll's units (thesis 1)
      cut_fence:
        type: number
        minimum: 0
        default: 1.5
        description: cut below Q1 - cut_fence (Q3 - Q1) of log(q_ij + q_ji)
      walk_transition: {enum: [row, raw], default: row,
                        description: "row-normalised random walk, or p_ij as written"}
      walk_passage: {enum: [first, visits], default: first,
                     description: "first passage within t steps, or summed s-step probabilities"}
      truth_ratio:
        type: number
        exclusiveMinimum: 1
        default: 2.0
        description: >-
          ground truth: an edge is bad when its endpoints are more than this many
          times farther apart on the roll than in space (noise-free points)
      sweep_noise:
        type: array
        items: {type: number, minimum: 0}
        minItems: 1
        default: [0.5, 0.6, 0.75, 1.0]
        description: noise levels of the detection sweep (no SDP)
      sweep_seeds: {type: integer, minimum: 1, default: 10,
                    description: "rolls per noise level of the sweep (seeds 0..N-1)"}
      eval_neighbors: {$ref: "#/$defs/eval_neighbors"}
      solver: {$ref: "#/$defs/fig_solver"}
      time_limit_seconds: {$ref: "#/$defs/fig_time_limit"}
      unfold_threshold:
        type: number
        exclusiveMinimum: 0
        exclusiveMaximum: 1
        default: 0.95
        description: MVU counts as unfolded when its top two eigenvalues hold this share of the trace
      min_recall:
        type: number
        minimum: 0
        maximum: 1
        default: 0.9
        description: the detection claim needs at least this recall of the bad edges
      max_good_cut:
        type: number
        minimum: 0
        maximum: 1
        default: 0.05
        description: and at most this fraction of the good edges cut
""")


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def rule(conf: dict) -> dict:
    """The detection rule of a profile section as plain values (checked)."""
    return BadEdgeRule(walk_steps=conf["walk_steps"], walk_sigma=float(conf["walk_sigma"]),
                       fence=float(conf["cut_fence"]), transition=conf["walk_transition"],
                       passage=conf["walk_passage"]).as_dict()


def check(config: dict) -> None:
    """Profile checks beyond the schema: the solver, k and l below n, no n_samples in
    dataset_params, the rule."""
    conf = _conf(config)
    where = f"results.{NAME}"
    if conf["solver"] not in MVU_SOLVERS:
        raise ConfigError(f"{where}.solver: unknown solver {conf['solver']!r}; valid "
                          f"solvers: {', '.join(MVU_SOLVERS)}")
    n = conf["n_samples"]
    for what in ("n_neighbors", "eval_neighbors"):
        if conf[what] >= n:
            raise ConfigError(f"{where}.{what} = {conf[what]} must be below n_samples = {n}")
    if "n_samples" in conf["dataset_params"]:
        raise ConfigError(f"{where}.dataset_params: set the size with {where}.n_samples, "
                          f"not dataset_params.n_samples")
    try:
        rule(conf)
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from exc


def keys(config: dict) -> list[str]:
    """``graph``, ``sweep``, ``before``, ``after``."""
    return list(points.KINDS)


def params(config: dict, key: str) -> dict:
    """Resolved parameters of one job (``graph``, ``sweep``, ``before``, ``after``)."""
    if key not in points.KINDS:
        raise ConfigError(f"job {NAME}/{key}: the jobs are "
                          f"{', '.join(f'{NAME}/{k}' for k in points.KINDS)}")
    conf = _conf(config)
    choice = dataset_choice(config, points.DATASET, conf["n_samples"], conf["dataset_params"])
    walk = rule(conf)
    if key in ("before", "after"):
        p = mvu_point_params(config, conf, figure=NAME, key=key, dataset=choice,
                             variant=conf["variant"], n_neighbors=conf["n_neighbors"],
                             n_components=2, kind=key)
        if key == "after":
            p["method_params"].update(
                cut_bad_edges=True, walk_steps=walk["walk_steps"],
                walk_sigma=walk["walk_sigma"], cut_fence=walk["fence"],
                walk_transition=walk["transition"], walk_passage=walk["passage"])
        return p
    common = {"figure": NAME, "point": f"{NAME}/{key}", "kind": key, "seed": config["seed"],
              "blas_threads": config["blas_threads"],
              "time_limit_seconds": float(conf["time_limit_seconds"]),
              "n_neighbors": conf["n_neighbors"], "rule": walk,
              "truth_ratio": float(conf["truth_ratio"])}
    if key == "graph":
        return {**common, **choice}
    base = {k: v for k, v in choice["dataset_params"].items() if k not in ("noise", "seed")}
    return {**common, "dataset": points.DATASET, "dataset_params": base,
            "noises": [float(v) for v in conf["sweep_noise"]],
            "seeds": list(range(conf["sweep_seeds"]))}


work = points.work


def sources(params: dict) -> list:
    """The data set plugin; for the MVU jobs also the MVU plugin and the solver."""
    return points.sources(params)


# ---- aggregation -----------------------------------------------------------------
def _top2(record: dict) -> float:
    spectrum = record.get("normalised_eigenvalues") or []
    return float(sum(spectrum[:2])) if record["status"] == "ok" else math.nan


def _mvu_row(config: dict, stage: str) -> dict:
    record = read_point(config, NAME, stage)
    ok = record["status"] == "ok"
    solve = record.get("solve") or {}
    spectrum = record.get("normalised_eigenvalues") or []
    truth = record.get("truth_measures") or {}
    row = {"part": "mvu", "stage": stage, "status": record["status"],
           "reason": record.get("reason", ""), "n_samples": record.get("n_samples"),
           "top2_share": _top2(record)}
    inputs = record.get("input_spectrum") or []
    for i in range(5):
        row[f"ev{i + 1}"] = (spectrum[i] if i < len(spectrum) else 0.0) if ok else math.nan
    for i in range(3):
        row[f"input_ev{i + 1}"] = inputs[i] if ok and i < len(inputs) else math.nan
    for q in MEASURES:
        row[f"truth_{q}"] = truth.get(q, math.nan) if ok else math.nan
        row[f"input_{q}"] = (record.get("measures") or {}).get(q, math.nan) if ok else math.nan
    row["truth_harmonic_mean"] = harmonic_mean([row[f"truth_{q}"] for q in MEASURES])
    cut = (record.get("bad_edges") or {})
    row.update(n_cut=cut.get("n_cut", 0 if stage == "before" else math.nan),
               solve_status=solve.get("status"), solve_gap=solve.get("gap"),
               solve_certificate=certificate_text(solve) if solve else None,
               solve_violation=solve.get("violation"),
               wall_seconds=(record.get("timing") or {}).get("wall_seconds"))
    return row


def _detection_row(config: dict) -> dict:
    record = read_point(config, NAME, "graph")
    row = {"part": "detection", "stage": "figure roll", "status": record["status"],
           "reason": record.get("reason", ""), "n_samples": record.get("n_samples")}
    row.update({k: v for k, v in (record.get("detection") or {}).items() if k != "rule"})
    if record["status"] == "ok" and record.get("stretch") is not None:
        stretch, bad = np.asarray(record["stretch"], float), np.asarray(record["bad"], bool)
        row["max_good_stretch"] = float(stretch[~bad].max()) if (~bad).any() else math.nan
        row["min_bad_stretch"] = float(stretch[bad].min()) if bad.any() else math.nan
    return row


def _sweep_rows(config: dict) -> list[dict]:
    record = read_point(config, NAME, "sweep")
    if record["status"] != "ok":
        return [{"part": "sweep", "stage": "all", "status": record["status"],
                 "reason": record.get("reason", "")}]
    rolls = pd.DataFrame(record["rolls"])
    rows = []
    for noise, part in rolls.groupby("noise", sort=True):
        sums = part[["n_edges", "n_bad", "n_cut", "true_positives", "false_positives"]].sum()
        good = sums["n_edges"] - sums["n_bad"]
        rows.append({"part": "sweep", "stage": f"noise {noise:g}", "status": "ok", "reason": "",
                     "noise": noise, "rolls": len(part), **sums.astype(int).to_dict(),
                     "recall": sums["true_positives"] / sums["n_bad"] if sums["n_bad"] else math.nan,
                     "precision": (sums["true_positives"] / sums["n_cut"] if sums["n_cut"]
                                   else math.nan),
                     "good_cut_fraction": sums["false_positives"] / good if good else math.nan,
                     "rolls_all_caught": int((part["true_positives"] == part["n_bad"]).sum()),
                     "n_bad_min": int(part["n_bad"].min()), "n_bad_max": int(part["n_bad"].max()),
                     "seed_min": int(part["seed"].min()), "seed_max": int(part["seed"].max()),
                     "rolls_disconnected": int((part["components_after_cut"] > 1).sum())})
    return rows


def build(config: dict) -> pd.DataFrame:
    """One frame, column ``part``: the two MVU rows (``before``, ``after``), the
    detection on the figure's roll (with the largest ground-truth stretch of a good
    edge and the smallest of a bad one), and one row per noise level of the sweep
    (with the fewest and most bad edges of one roll)."""
    rows = [_mvu_row(config, "before"), _mvu_row(config, "after"), _detection_row(config)]
    return pd.DataFrame(rows + _sweep_rows(config))


def _part(frame: pd.DataFrame, part: str, stage: str | None = None) -> pd.Series | None:
    rows = frame[(frame["part"] == part) & ((frame["stage"] == stage) if stage else True)]
    return rows.iloc[0] if len(rows) else None


def _claim_detection(config: dict, frame: pd.DataFrame) -> dict:
    conf = _conf(config)
    text = ("Bad edges (short cuts between layers) have a low probability q_ij^t + q_ji^t "
            "of a t-step random walk and are detected as outliers of its distribution "
            f"(t = {THESIS['walk_steps']}, sigma = {THESIS['walk_sigma']:g}; 3.1.12, Fig. 3.29)")
    det = _part(frame, "detection")
    checks, parts = [], []
    if det is not None and det["status"] == "ok":
        recall = det["recall"]
        checks += [bool(recall >= conf["min_recall"]) if det["n_bad"] else False,
                   bool(det["good_cut_fraction"] <= conf["max_good_cut"])]
        parts.append(f"figure roll: {int(det['true_positives'])} of {int(det['n_bad'])} bad "
                     f"edges cut (recall {recall:.2f}, need >= {conf['min_recall']:g}), "
                     f"{int(det['false_positives'])} of {int(det['n_edges'] - det['n_bad'])} "
                     f"good edges cut ({det['good_cut_fraction']:.1%}, allowed "
                     f"{conf['max_good_cut']:.0%}), precision {det['precision']:.2f}")
    noise = conf["dataset_params"].get("noise")
    sweep = frame[(frame["part"] == "sweep") & (frame["status"] == "ok")]
    same = sweep.iloc[:0]
    if noise is not None and len(sweep):
        same = sweep[np.isclose(sweep["noise"].astype(float), float(noise))]
    if len(same):
        row = same.iloc[0]
        checks.append(bool(row["recall"] >= conf["min_recall"]))
        parts.append(f"sweep at the same noise {row['noise']:g} ({int(row['rolls'])} rolls): "
                     f"recall {row['recall']:.2f}, {int(row['rolls_all_caught'])} rolls with "
                     f"every bad edge cut")
    if len(sweep):
        parts.append("recall by noise: " + ", ".join(
            f"{r.noise:g}: {r.recall:.2f} ({int(r.true_positives)}/{int(r.n_bad)})"
            for r in sweep.itertuples()))
    return make_claim(NAME, text, checks, "; ".join(parts) + "." if parts else "")


def _claim_unfold(config: dict, frame: pd.DataFrame) -> list[dict]:
    conf = _conf(config)
    threshold = conf["unfold_threshold"]
    before, after = _part(frame, "mvu", "before"), _part(frame, "mvu", "after")
    measured = [r for r in (before, after) if r is not None and r["status"] == "ok"]
    shares = {r["stage"]: r["top2_share"] for r in measured}
    hms = {r["stage"]: r["truth_harmonic_mean"] for r in measured}
    certified = {r["stage"]: r["solve_status"] == "optimal" for r in measured}
    note = "" if all(certified.values()) else " (a solve not certified optimal: " + ", ".join(
        s for s, c in certified.items() if not c) + ")"
    variant = f"{conf['variant']} MVU, k = {conf['n_neighbors']}"
    out = []
    text = ("With bad edges MVU preserves their lengths and cannot unfold the data (3.1.12, "
            "Fig. 3.29)")
    evidence = (f"{variant}: top-2 eigenvalue share {shares['before']:.3f} before the cut "
                f"(unfolded means >= {threshold:g}){note}" if "before" in shares else "")
    out.append(make_claim(NAME, text, [shares["before"] < threshold] if "before" in shares
                          else [], evidence))
    text = ("After the bad edges are cut, MVU unfolds the roll (implied by 3.1.12, "
            "Fig. 3.29)")
    checks, evidence = [], ""
    if len(shares) == 2:
        checks = [shares["after"] >= threshold, hms["after"] > hms["before"]]
        evidence = (f"{variant}: top-2 share {shares['before']:.3f} -> {shares['after']:.3f} "
                    f"(>= {threshold:g} counts as unfolded); harmonic mean of continuity, "
                    f"trust and intersection against the roll's true 2-D coordinates "
                    f"{hms['before']:.3f} -> {hms['after']:.3f}; {int(after['n_cut'])} edges "
                    f"cut{note}")
    out.append(make_claim(NAME, text, checks, evidence))
    return out


def claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """The detection claim and the two MVU claims (before: cannot unfold; after:
    unfolds), with verdicts (:mod:`harness.claims`)."""
    frame = build(config) if frame is None else frame
    return [_claim_detection(config, frame), *_claim_unfold(config, frame)]


def write(config: dict) -> list:
    """Write ``results/<profile>/figures/fig_3_29.{csv,png,md,json}``."""
    frame = build(config)
    return write_outputs(config, frame, claims(config, frame))
