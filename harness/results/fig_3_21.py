"""Fig. 3.21 (thesis 3.1.8): loss (3.26) after variational MVU and SDP time against m.

"For the simulated network with nodes at US cities, Fig. 3.21 plots the value eq.
(3.26) as a function of m. Further, it also plots the computation time required to
create and solve the SDP. The figure shows that more eigenvectors lead to better
solutions, but at the expense of increased computation time. In our experience,
there is a "sweet spot" around m ~ 10 that best manages this tradeoff."

The US-cities network (n = 1097, "10% uniform noise") is not available: the default
data set is ``us_cities_standin``, a uniform network of the same size and noise,
labelled as a stand-in in the CSV, the Markdown and every claim's evidence. Whether a
data set is a stand-in is its plugin's ``stand_in_for`` (:mod:`harness.registry`): on
a stand-in the loss claim is "not measured (stand-in)", its numbers shown; the time
claim (the SDP's cost as m grows) keeps its verdict and says where it was measured. A
real US-cities plugin goes through the same code and gets verdicts on both.

One job per m (``fig_3_21/m<m>``, :mod:`harness.results.common.sensor_point`): the SDP
alone (no CG), timed as the fastest of ``repeats`` runs (graph Laplacian, factor,
eigenvectors, SDP data and solve), in CPU seconds of the process (``sdp_cpu_seconds``,
load-independent; older records have wall seconds only, and the claim then says so).
Loss (3.26) of the 2-D output (the SDP's top two principal coordinates; the thesis'
left panel) and of K = Q Z Q^T itself.

Readings, fixed from the text ("more eigenvectors lead to better solutions, but at the
expense of increased computation time"; the figure's curves, not single steps, carry
the trade-off): *trend*, Spearman's rank correlation of the value with m of the
claimed sign at one-sided p < ``trend_alpha`` and the largest m's value beyond the
smallest's; *every step*, each next m no worse than the previous within a stated
tolerance (``loss_tolerance``; ``time_tolerance`` for the CPU timing's noise, 5 %).
Both are stated; they disagreeing makes "partly holds".
"""

from __future__ import annotations

import math

import pandas as pd
import yaml
from tabulate import tabulate

from harness import registry
from harness.claims import Reading, make_claim, readings_claim, stand_in_claim
from harness.errors import ConfigError
from harness.reference import CLAIMS_FILE, thesis_claim
from harness.results.common.figure_files import (
    gap_mark, read_point, save_png, write_figure_files,
)
from harness.results.common.profile import parse_int_key
from harness.results.common.profile import dataset_choice
from harness.results.common.sensor_point import (
    check_sensor_dataset, sensor_inputs, sensor_params, sensor_sources, sensor_work,
)
from harness.results.common.tables import Footnotes

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SCHEMA", "check", "keys",
           "params", "work", "sources", "inputs", "build", "trend_checks", "spearman_trend",
           "claims", "write"]

NAME = "fig_3_21"
TITLE = ("Fig. 3.21: loss (3.26) after variational MVU and SDP time against m "
         "(thesis 3.1.8)")
THESIS_SECTION = "3.1.8"
KIND = "figure"
SIDECAR = True
SCHEMA = yaml.safe_load("""
    type: object
    additionalProperties: false
    description: >-
      Fig. 3.21 (thesis 3.1.8): the reconstruction loss (3.26) after variational MVU
      and the time to construct and solve its SDP for m Laplacian eigenvectors (one
      job per m: m<M>); the thesis' US-cities network has a uniform stand-in
    properties:
      dataset: {type: string, default: us_cities_standin, description: a sensor network data set plugin}
      n_samples: {type: integer, minimum: 3, default: 1097, description: sensors (the thesis' 1097 cities)}
      dataset_params: {type: object, default: {}, description: load() keyword arguments beyond n_samples}
      m:
        type: array
        items: {type: integer, minimum: 1}
        minItems: 2
        uniqueItems: true
        default: [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 18, 20]
        description: numbers of eigenvectors, one job each (the thesis' axis is not legible)
      omega:
        type: number
        exclusiveMinimum: 0
        exclusiveMaximum: 1
        default: 0.9
        description: the SDP's weight of the distance penalty (normalised distances)
      sdp_solver: {enum: [native, clarabel], default: native}
      repeats:
        type: integer
        minimum: 1
        default: 5
        description: runs per m; the time is the fastest (the loss is the same each run)
      time_limit_seconds: {$ref: "#/$defs/fig_time_limit"}
      loss_tolerance:
        type: number
        minimum: 0
        default: 0.01
        description: >-
          "more eigenvectors lead to better solutions", reading every step: each next
          m's loss at most (1 + this) times the previous, and the largest m's below the
          smallest's (aggregation only)
      time_tolerance:
        type: number
        minimum: 0
        maximum: 0.5
        default: 0.05
        description: >-
          "at the expense of increased computation time", reading every step: each next
          m's CPU time at least (1 - this) times the previous (the CPU timing's noise,
          not a trend), and the largest m's above the smallest's (aggregation only)
      trend_alpha:
        type: number
        exclusiveMinimum: 0
        exclusiveMaximum: 1
        default: 0.05
        description: >-
          reading trend: Spearman's rank correlation of the loss (time) with m is
          negative (positive) at one-sided p below this, and the largest m's value is
          below (above) the smallest's (aggregation only)
""")
THESIS_TIME_ID = "varmvu_uscities_sdp"  # thesis_claims.csv: SDP seconds at m = 10


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def check(config: dict) -> None:
    """A sensor network data set; every m at most n - 2."""
    conf = _conf(config)
    check_sensor_dataset(conf["dataset"], f"results.{NAME}.dataset")
    too_big = [m for m in conf["m"] if m > conf["n_samples"] - 2]
    if too_big:
        raise ConfigError(f"results.{NAME}.m: m = {too_big[0]} exceeds n_samples - 2 = "
                          f"{conf['n_samples'] - 2}")


def keys(config: dict) -> list[str]:
    """``m<m>`` for every m, in increasing order."""
    return [f"m{m}" for m in sorted(_conf(config)["m"])]


def _parse_m(key: str) -> int:
    return parse_int_key(NAME, key, "m", 10)


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``m<m>``: the SDP alone, timed ``repeats`` times."""
    m = _parse_m(key)
    conf = _conf(config)
    method = {"n_basis": m, "omega": conf["omega"], "refine": False,
              "precondition": False, "sdp_solver": conf["sdp_solver"], "seed": config["seed"]}
    return sensor_params(config, conf, figure=NAME, key=key, method_params=method,
                         repeats=conf["repeats"])


work, sources, inputs = sensor_work, sensor_sources, sensor_inputs


# ---- aggregation -------------------------------------------------------------------
def build(config: dict) -> pd.DataFrame:
    """One row per m: loss (3.26) of the 2-D output and of K, SDP seconds, the
    solve's status and gap, and which data set (stand-in or not)."""
    conf = _conf(config)
    cls = registry.get_dataset(conf["dataset"])
    thesis_m10 = thesis_claim(config["reference_dir"], THESIS_TIME_ID)["value"]
    loaded = dataset_choice(config, conf["dataset"], conf["n_samples"],
                            conf["dataset_params"])["dataset_params"]
    rows = []
    for key in keys(config):
        record = read_point(config, NAME, key)
        sdp = (record.get("estimates") or {}).get("sdp", {})
        rows.append({
            "m": _parse_m(key), "status": record["status"], "reason": record.get("reason", ""),
            "dataset": conf["dataset"], "stand_in_for": cls.stand_in_for or "",
            "stand_in": cls.stand_in_for is not None,
            "n_samples": record.get("n_samples", conf["n_samples"]),
            "noise": loaded.get("noise"), "radius": loaded.get("radius"),
            "loss_326": sdp.get("loss", math.nan),
            "loss_326_K": sdp.get("loss_basis", math.nan),
            "loss_326_true_positions": record.get("loss_true_positions", math.nan),
            "sdp_seconds": record.get("sdp_seconds", math.nan),
            "sdp_cpu_seconds": record.get("sdp_cpu_seconds", math.nan),
            "sdp_status": (record.get("sdp") or {}).get("status"),
            "sdp_gap": (record.get("sdp") or {}).get("relative_gap"),
            "thesis_sdp_seconds_m10": thesis_m10,
        })
    return pd.DataFrame(rows)


def trend_checks(values, tolerance: float, increasing: bool) -> list[bool]:
    """Per consecutive pair: the next value at most (1 + tolerance) times the previous
    (``increasing=False``: non-increasing within the tolerance) or at least (1 -
    tolerance) times it (``increasing=True``); plus last vs first, strict."""
    values = list(values)
    if len(values) < 2:
        return []
    if increasing:
        pairs = [b >= (1 - tolerance) * a for a, b in zip(values, values[1:])]
        return pairs + [values[-1] > values[0]]
    return [b <= (1 + tolerance) * a for a, b in zip(values, values[1:])] + \
        [values[-1] < values[0]]


def spearman_trend(m, values, increasing: bool, alpha: float) -> tuple[list[bool], str]:
    """Reading *trend*: Spearman's rank correlation of ``values`` with ``m`` positive
    (``increasing``) or negative at one-sided p below ``alpha``, and the largest m's
    value above (below) the smallest m's. Returns the two checks and the numbers
    (no checks for fewer than three values: no rank test)."""
    from scipy.stats import spearmanr

    m, values = list(m), list(values)
    if len(values) < 3:
        return [], f"{len(values)} values: no rank test"
    test = spearmanr(m, values, alternative="greater" if increasing else "less")
    rho, p = float(test.statistic), float(test.pvalue)
    rho_ok = bool((rho > 0 if increasing else rho < 0) and p < alpha)
    ends = values[-1] > values[0] if increasing else values[-1] < values[0]
    return [rho_ok, bool(ends)], (
        f"Spearman rho {rho:+.2f}, one-sided p {p:.2g} (needs {'>' if increasing else '<'} 0 "
        f"at p < {alpha:g}), largest m {'above' if increasing else 'below'} smallest: "
        f"{'yes' if ends else 'no'}")


def _step_text(values, tolerance: float, increasing: bool) -> str:
    checks = trend_checks(values, tolerance, increasing)
    bad = sum(not c for c in checks[:-1])
    bound = (f"at least {1 - tolerance:g} times the previous" if increasing else
             f"at most {1 + tolerance:g} times the previous")
    return (f"{bad} of {len(checks) - 1} steps break 'each next m {bound}', largest m "
            f"{'above' if increasing else 'below'} smallest: "
            f"{'yes' if checks and checks[-1] else 'no'}")


def _data_note(frame: pd.DataFrame) -> str:
    row = frame.iloc[0]
    what = f"n = {int(row['n_samples'])}, r = {row['radius']:g}, noise {row['noise']:g}"
    if row["stand_in_for"]:
        return (f"measured on {row['dataset']}, a uniform stand-in ({what}) for the "
                f"thesis' US-cities network, not the cities themselves")
    return f"measured on {row['dataset']} ({what})"


def _time_column(ok: pd.DataFrame) -> tuple[str, str]:
    """CPU seconds when every measured m has them (load-independent), else wall."""
    if len(ok) and ok["sdp_cpu_seconds"].notna().all():
        return "sdp_cpu_seconds", "CPU time of the process"
    return "sdp_seconds", ("wall time (these records have no CPU time: rerun the jobs "
                           "for it; wall time varies with the machine's load)")


LOSS_TEXT = ("More eigenvectors lead to better solutions: the loss (3.26) after variational "
             "MVU falls as m grows (3.1.8, Fig. 3.21, left)")
TIME_TEXT = ("... at the expense of increased computation time to construct and solve the "
             "SDP (3.1.8, Fig. 3.21, right)")


def claims(config: dict, frame: pd.DataFrame | None = None) -> list[dict]:
    """"More eigenvectors lead to better solutions, but at the expense of increased
    computation time": two claims, each read two ways fixed from the text (a trend over
    m: Spearman's rank test; every step: each next m within a tolerance), both stated
    (:func:`harness.claims.readings_claim`).

    On a stand-in data set (its plugin's ``stand_in_for``) both claims are shown, not
    counted (:func:`harness.claims.stand_in_claim`, verdict "not measured (stand-in)"),
    with both readings' numbers in the evidence: stand-in data never counts, even for
    the time claim, whose cost depends on the network the stand-in only imitates. Times
    are CPU seconds when the records have them."""
    frame = build(config) if frame is None else frame
    conf = _conf(config)
    ok = frame[frame["status"] == "ok"].sort_values("m")
    note = _data_note(frame)
    gaps = sorted(frame.loc[frame["status"] != "ok", "m"])
    if gaps:
        note += f"; m = {', '.join(map(str, gaps))} not measured"
    stand_in = bool(frame["stand_in"].iloc[0]) if len(frame) else False
    losses = ", ".join(f"m = {r.m}: {r.loss_326:.3e}" for r in ok.itertuples())
    column, clock = _time_column(ok)
    times = ", ".join(f"m = {r.m}: {getattr(r, column) * 1e3:.0f} ms" for r in ok.itertuples())
    alpha = conf["trend_alpha"]

    def claim(text, readings, numbers, after):
        if not stand_in or not len(ok):
            made = readings_claim(NAME, text, readings)
            made["evidence"] = f"{numbers}; {made['evidence']}; {after}"
            return made
        how = "; ".join(f"reading {r.name}: {r.evidence}" for r in readings)
        return stand_in_claim(NAME, text, [conf["dataset"]], f"{numbers} ({how}); {after}")

    loss_checks, loss_trend = spearman_trend(ok["m"], ok["loss_326"], False, alpha)
    loss_claim = claim(LOSS_TEXT, [
        Reading("trend", loss_checks, loss_trend),
        Reading("every step", trend_checks(ok["loss_326"], conf["loss_tolerance"], False),
                _step_text(ok["loss_326"], conf["loss_tolerance"], False))],
        f"loss of the 2-D output {losses or 'not measured'}", note)

    values = ok[column]
    time_checks, time_trend = spearman_trend(ok["m"], values, True, alpha)
    time_claim = claim(TIME_TEXT, [
        Reading("trend", time_checks, time_trend),
        Reading("every step", trend_checks(values, conf["time_tolerance"], True),
                _step_text(values, conf["time_tolerance"], True))],
        f"{clock}, fastest of {conf['repeats']} runs, one BLAS thread: "
        f"{times or 'not measured'}",
        f"the thesis: {frame['thesis_sdp_seconds_m10'].iloc[0]:g} s (wall) at m = 10 for "
        f"the cities (2007 hardware, not compared); {note}")
    return [loss_claim, time_claim]


# ---- outputs -----------------------------------------------------------------------
def _plot(frame: pd.DataFrame, config: dict, path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    fig.subplots_adjust(wspace=0.3)
    ok = frame[frame["status"] == "ok"]
    left.semilogy(ok["m"], ok["loss_326"], "o-", label="2-D output")
    left.semilogy(ok["m"], ok["loss_326_K"], "s--", label="K = Q Z Q^T (rank <= m)")
    if len(ok):
        left.axhline(ok["loss_326_true_positions"].iloc[0], color="gray", linestyle=":",
                     label="true positions")
    column, clock = _time_column(ok)
    right.plot(ok["m"], ok[column], "o-")
    for m, status in zip(frame["m"], frame["status"]):
        if status != "ok":
            for ax in (left, right):
                ax.axvline(m, color="lightgray")
                ax.text(m, 0.5, gap_mark(status), rotation=90, transform=ax.get_xaxis_transform(),
                        fontsize=8, color="dimgray")
    left.set_xlabel("m")
    left.set_ylabel("loss (3.26) after variational MVU")
    left.legend(fontsize=8)
    right.set_xlabel("m")
    right.set_ylabel(f"{'CPU' if column == 'sdp_cpu_seconds' else 'wall'} seconds to "
                     f"construct and solve the SDP")
    fig.suptitle(f"{TITLE}\nprofile {config['profile']}; {_data_note(frame)}", fontsize=9)
    save_png(fig, path)
    plt.close(fig)


def _choices(config: dict) -> list[str]:
    conf = _conf(config)
    return [
        "Data: the thesis' US-cities network (n = 1097 cities, '10% uniform noise') is "
        f"not available; {conf['dataset']} is a uniform network of the same size and "
        "noise (up to 20 nearest within the radius of Fig. 3.20's network; the thesis "
        "gives no radius for the cities). Its numbers are a stand-in's, not the cities'.",
        f"m = {', '.join(map(str, sorted(conf['m'])))}: the thesis' axis is not legible.",
        f"SDP as in Fig. 3.20: omega = {conf['omega']:g} on normalised distances, solver "
        f"{conf['sdp_solver']}; no CG (the thesis plots the loss after variational MVU).",
        "Loss (3.26) over ordered pairs, of the 2-D output (the SDP's top two principal "
        "coordinates) and of K = Q Z Q^T itself (all m coordinates).",
        f"Time: graph Laplacian, its factor, the eigenvectors and the SDP (data and solve), "
        f"the fastest of {conf['repeats']} runs, one BLAS thread, a shared machine; CPU "
        f"seconds of the process (load-independent; wall seconds are in the CSV), wall "
        f"seconds only for records without CPU time (the claim says so).",
        f"Verdicts, each claim read two ways fixed from the text ('more eigenvectors lead "
        f"to better solutions, but at the expense of increased computation time'), both "
        f"stated, 'partly holds' when they disagree: trend = Spearman's rank correlation "
        f"with m negative (loss) / positive (time) at one-sided p < "
        f"{conf['trend_alpha']:g}, and the largest m's value below / above the smallest's; "
        f"every step = each next m's loss at most {1 + conf['loss_tolerance']:g} times the "
        f"previous, each next m's CPU time at least {1 - conf['time_tolerance']:g} times the "
        f"previous (timing noise, not a trend), and the same end condition.",
        "Stand-in data: the loss claim on a stand-in (the plugin's stand_in_for) is 'not "
        "measured (stand-in)', its numbers shown; the time claim is about the SDP's cost "
        "as m grows and keeps its verdict, saying it was measured on the stand-in. The "
        "thesis' 19 s at m = 10 (2007 hardware, wall) is shown, not compared.",
    ]


def write(config: dict) -> list:
    """Write ``results/<profile>/figures/fig_3_21.{csv,png,md,json}``."""
    frame = build(config)
    notes = Footnotes()
    shown = []
    for row in frame.itertuples():
        if row.status != "ok":
            shown.append({"m": row.m, "loss (3.26)": f"{gap_mark(row.status)}"
                                                      f"{notes.mark(row.reason)}"})
            continue
        gap = "-" if row.sdp_gap is None or pd.isna(row.sdp_gap) else f"{row.sdp_gap:.1e}"
        shown.append({"m": row.m, "loss (3.26)": f"{row.loss_326:.4e}",
                      "loss of K": f"{row.loss_326_K:.4e}",
                      "SDP CPU seconds": ("-" if pd.isna(row.sdp_cpu_seconds)
                                          else f"{row.sdp_cpu_seconds:.3f}"),
                      "SDP wall seconds": f"{row.sdp_seconds:.3f}",
                      "solve": f"{row.sdp_status}, gap {gap}"})
    md = [f"# {TITLE}", "", f"Profile `{config['profile']}`: {_data_note(frame)}. "
          f"The thesis: {frame['thesis_sdp_seconds_m10'].iloc[0]:g} s to construct and "
          f"solve the SDP at m = 10 for the cities ({CLAIMS_FILE}: {THESIS_TIME_ID}).", "",
          "## Thesis' claims and our verdicts", ""]
    md += [f"- **{c['verdict']}**: {c['claim']}. Measured: {c['evidence']}."
           for c in claims(config, frame)]
    md += ["", "## Per m", "", tabulate(pd.DataFrame(shown).fillna(""), headers="keys",
                                         tablefmt="github", showindex=False), "",
           "![Fig. 3.21](fig_3_21.png)", "", "## Choices where the thesis is ambiguous", ""]
    md += [f"- {line}" for line in _choices(config)]
    return write_figure_files(config, NAME, keys(config), frame, md, notes.texts, _plot)
