"""The claims-register entries Table 3.2's re-evaluation at other l decides (issue 55;
thesis 3.1.9, lines 1781 and 1789-1832), on the table's long CSV.

- ``s3-1-9-mvu-trust-l5-0-938`` ("If the local trust of MVU is evaluated with l = 5,
  the average result improves from 0.799 to 0.938"): MVU's local trust averaged over
  the thesis' four data sets (olivetti, teapot, Swiss roll, Frey), at l = 15 and l = 5
  on the same embedding. Reading "values": each average within 0.05 of the thesis'
  number; reading "direction": the l = 5 average above the l = 15 one by more than
  0.05 (a difference within 0.05 either way decides nothing,
  :func:`harness.claims.beyond_noise`). The average exists only when all four data
  sets are measured on real data with a certified MVU solve (as Table 3.2's average
  column); the Swiss roll's two readings (the 3-D roll, the 3.1.5 roll) give one
  average each, both checked.
- ``s3-1-9-intersection-approaches-1-as-l-grows`` ("as l becomes large N(Y)
  approaches 1"): for every embedding of the table, Spearman's rho between l (5, 10,
  15, 50, 100, n/2, n-1) and N(Y) is positive and N(Y) at l = n-1 is 1 within 1e-9; a
  claim about every embedding of the thesis' four data sets
  (:func:`harness.claims.about_every`): a counterexample decides, passes on a subset
  do not.

Stand-ins are shown in the evidence and never counted; an MVU cell whose SDP is not
certified is named and not counted.
"""

from __future__ import annotations

import pandas as pd
from scipy.stats import spearmanr

from harness.claims import Reading, about_every, beyond_noise, make_claim, readings_claim
from harness.results.table_3_2_l5.lgrid import L_GRID, l_tag

__all__ = ["THESIS_DATASETS", "THESIS_L15", "THESIS_L5", "TOLERANCE", "ONE_TOLERANCE",
           "mvu_trust_averages", "intersection_trends", "register_claims"]

THESIS_DATASETS = ("olivetti", "teapot", "swiss_roll", "frey")
THESIS_L15, THESIS_L5 = 0.799, 0.938  # thesis line 1832
TOLERANCE = 0.05      # the register's tolerance of both readings
ONE_TOLERANCE = 1e-9  # N(Y) at l = n-1 equals 1 within this


def _flag(value) -> bool:
    """A CSV's boolean cell (``True``, ``"True"``, ``"true"``) as a bool."""
    return str(value).strip().lower() == "true"


def _measured(frame: pd.DataFrame) -> pd.DataFrame:
    ok = frame[frame["status"] == "ok"]
    return ok[ok["ours"].notna()]


def mvu_trust_averages(frame: pd.DataFrame) -> tuple[list[dict], str]:
    """MVU's average local trust at l = 15 and l = 5 over the four thesis data sets,
    one row per reading of the Swiss roll column (``{"roll": column, "l15": ..., "l5":
    ...}``), and the per-column values as text (stand-ins and uncertified cells named,
    not counted); no rows when a thesis data set has no counted value."""
    mvu = _measured(frame[frame["thesis_label"] == "MVU"])
    values: dict[str, dict[str, float]] = {}
    said = []
    for row in mvu.itertuples():
        if row.measure not in ("local_trust_l15", "local_trust_l5"):
            continue
        values.setdefault(row.dataset, {"thesis": row.thesis_dataset,
                                        "stand_in": _flag(row.stand_in),
                                        "certified": str(row.certified) != "False"})
        values[row.dataset][row.measure.rsplit("_", 1)[1]] = float(row.ours)
    for column, v in values.items():
        v["counted"] = not v["stand_in"] and v["certified"]
        mark = ("" if v["counted"] else " (stand-in, not counted)" if v["stand_in"]
                else " (SDP not certified, not counted)")
        said.append(f"{column}: {v.get('l15', float('nan')):.3f} at l = 15, "
                    f"{v.get('l5', float('nan')):.3f} at l = 5{mark}")
    counted = {c: v for c, v in values.items() if v["counted"] and "l15" in v and "l5" in v}
    by_thesis: dict[str, list[str]] = {}
    for column, v in counted.items():
        by_thesis.setdefault(v["thesis"], []).append(column)
    missing = [d for d in THESIS_DATASETS if d not in by_thesis]
    text = "; ".join(said) or "MVU not measured"
    if missing:
        return [], (f"{text}; no average: the thesis' average is over {', '.join(THESIS_DATASETS)}"
                    f", not measured (real data, certified): {', '.join(missing)}")
    rows = []
    for roll in by_thesis["swiss_roll"]:
        columns = [by_thesis[d][0] if d != "swiss_roll" else roll for d in THESIS_DATASETS]
        rows.append({"roll": roll,
                     "l15": sum(counted[c]["l15"] for c in columns) / len(columns),
                     "l5": sum(counted[c]["l5"] for c in columns) / len(columns)})
    return rows, text


def intersection_trends(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per measured embedding (data set, method): N(Y) at every l of the grid,
    Spearman's rho(l, N), N at l = n-1, whether it counts (real data, certified)."""
    tags = [f"neighborhood_intersection_{l_tag(l)}" for l in L_GRID]
    rows = _measured(frame[frame["measure"].isin(tags)])
    out = []
    for (dataset, method), part in rows.groupby(["dataset", "method"], sort=False):
        by = dict(zip(part["measure"], part["ours"].astype(float)))
        if not all(t in by for t in tags):
            continue
        series = [by[t] for t in tags]
        first = part.iloc[0]
        out.append({"dataset": dataset, "method": method, "thesis_dataset": first["thesis_dataset"],
                    "rho": float(spearmanr(range(len(series)), series)[0]),
                    "n_at_nm1": series[-1], "series": series,
                    "counted": (not _flag(first["stand_in"])
                                and str(first["certified"]) != "False")})
    return pd.DataFrame(out, columns=["dataset", "method", "thesis_dataset", "rho",
                                      "n_at_nm1", "series", "counted"])


def _trust_claim(name: str, frame: pd.DataFrame) -> dict:
    claim = ("MVU's average local trust improves from 0.799 at l = 15 to 0.938 at l = 5 "
             "(3.1.9)")
    averages, text = mvu_trust_averages(frame)
    values, direction = [], []
    for a in averages:
        values += [abs(a["l15"] - THESIS_L15) <= TOLERANCE, abs(a["l5"] - THESIS_L5) <= TOLERANCE]
        direction.append(beyond_noise(a["l5"] - a["l15"], TOLERANCE))
    means = "; ".join(f"average with the roll {a['roll']}: {a['l15']:.3f} at l = 15, "
                      f"{a['l5']:.3f} at l = 5" for a in averages)
    said = f"{text}" + (f"; {means}" if means else "")
    return readings_claim(name, claim, [
        Reading("values", values, f"{said} (thesis {THESIS_L15} and {THESIS_L5}, within "
                                  f"{TOLERANCE:g} each)"),
        Reading("direction", direction, f"the l = 5 average above the l = 15 one by more "
                                        f"than {TOLERANCE:g}")],
        register="s3-1-9-mvu-trust-l5-0-938")


def _intersection_claim(name: str, frame: pd.DataFrame) -> dict:
    claim = "As l becomes large, neighbourhood intersection N(Y) approaches 1 (3.1.9)"
    trends = intersection_trends(frame)
    counted = trends[trends["counted"]] if len(trends) else trends
    checks = [bool(r.rho > 0 and abs(r.n_at_nm1 - 1) <= ONE_TOLERANCE)
              for r in counted.itertuples()]
    checks, why = about_every(checks, THESIS_DATASETS, counted["thesis_dataset"])
    failed = [f"{r.dataset}/{r.method} (rho {r.rho:.2f}, N(n-1) {r.n_at_nm1:.6f})"
              for r in counted.itertuples()
              if not (r.rho > 0 and abs(r.n_at_nm1 - 1) <= ONE_TOLERANCE)]
    shown = trends[~trends["counted"]] if len(trends) else trends
    evidence = (f"{len(counted)} counted embeddings, N(Y) at l = "
                f"{', '.join(map(str, L_GRID))}: rho(l, N) from "
                + (f"{counted['rho'].min():.2f} to {counted['rho'].max():.2f}, N at l = n-1 "
                   f"from {counted['n_at_nm1'].min():.6f} to {counted['n_at_nm1'].max():.6f}"
                   if len(counted) else "none")
                + (f"; failing: {', '.join(failed)}" if failed else "")
                + (f"; not counted (stand-in or SDP not certified): "
                   f"{', '.join(sorted(set(shown['dataset'] + '/' + shown['method'])))}"
                   if len(shown) else "")
                + (f" ({why})" if why else ""))
    return make_claim(name, claim, checks, evidence,
                      register="s3-1-9-intersection-approaches-1-as-l-grows")


def register_claims(name: str, frame: pd.DataFrame | None) -> list[dict]:
    """The two entries' claims, on the long CSV (``frame`` None: not generated)."""
    if frame is None:
        why = f"the table {name} was not generated (run `harness write {name}`)"
        return [make_claim(name, "MVU's average local trust improves from 0.799 to 0.938 "
                           "at l = 5 (3.1.9)", [], why, register="s3-1-9-mvu-trust-l5-0-938"),
                make_claim(name, "As l becomes large N(Y) approaches 1 (3.1.9)", [], why,
                           register="s3-1-9-intersection-approaches-1-as-l-grows")]
    return [_trust_claim(name, frame), _intersection_claim(name, frame)]
