"""The claims-register entries Fig. 3.24's records decide beyond the result's own two
(issue 51; thesis 3.1.4 line 1492, 3.1.11 line 1962, 4 line 2208, and a lecture note):
minimum- against maximum-trace MVU on the data sets of Fig. 3.24.

Read from :func:`harness.results.fig_3_24.write.build`'s frame: the ratios min-trace /
max-trace of local continuity, trust and intersection of real data whose two solves are
certified optimal (a stand-in is shown in the evidence, never counted; a data set not
reachable is not measured), and, for the eigenvalue count, the ``ev_count_*`` columns
(the number of the records' normalised eigenvalues above 1 %; a record keeps the top
20, so a count of 20 is a lower bound). Every entry is about every one of the four
data sets (:func:`harness.claims.about_every`): a counterexample decides, passes on a
subset do not. The register's tolerance 0.01 around 1 is the band inside which a ratio
decides nothing (:func:`harness.claims.beyond_noise`).
"""

from __future__ import annotations

import pandas as pd

from harness.claims import Reading, about_every, beyond_noise, make_claim, readings_claim

__all__ = ["TOLERANCE", "register_claims"]

NAME = "fig_3_24"
#: the register's tolerance around a ratio of 1 (these entries; the result's own
#: ``equal_tolerance`` is its own entries')
TOLERANCE = 0.01


def _counted(frame: pd.DataFrame) -> pd.DataFrame:
    ok = frame[(frame["status"] == "ok") & ~frame["stand_in"].astype(bool)]
    return ok[ok["certified"].astype(bool)]


def _ratios_text(rows: pd.DataFrame, label: str = "") -> str:
    return "; ".join(f"{label}{d}: " + ", ".join(f"{r.measure} {r.ratio:.3f}"
                                               for r in part.itertuples())
                     for d, part in rows.groupby("dataset", sort=False))


def _evidence(frame: pd.DataFrame) -> str:
    counted = _counted(frame)
    stand_ins = frame[(frame["status"] == "ok") & frame["stand_in"].astype(bool)]
    parts = [_ratios_text(counted)] if len(counted) else []
    if len(stand_ins):
        parts.append(_ratios_text(stand_ins, "stand-in, not counted: "))
    gaps = frame.loc[frame["status"] != "ok", "dataset"].drop_duplicates()
    if len(gaps):
        parts.append("not measured: " + ", ".join(gaps))
    return "; ".join(parts)


def _every(frame: pd.DataFrame, datasets, checks) -> tuple[list, str]:
    return about_every(list(checks), list(datasets), _counted(frame)["thesis_dataset"])


def _ratio_reading(frame, datasets, name: str, what: str) -> Reading:
    ratios = _counted(frame)["ratio"]
    checks, why = _every(frame, datasets, [beyond_noise(1 - r, TOLERANCE) for r in ratios])
    return Reading(name, checks, f"{what}; a ratio within {TOLERANCE:g} of 1 decides nothing"
                   + (f" ({why})" if why else ""))


def _mean_reading(frame, datasets) -> Reading:
    counted = _counted(frame)
    means = counted.groupby("measure")["ratio"].mean()
    checks, why = about_every([bool(m < 1 - TOLERANCE) for m in means], list(datasets),
                              counted["thesis_dataset"], "the mean over", False)
    return Reading("mean per metric", checks, "the mean ratio of each metric over the data "
                   f"sets below {1 - TOLERANCE:g}" + (f" ({why})" if why else ""))


def _ev_count_reading(frame, datasets) -> Reading:
    rows = _counted(frame).drop_duplicates("dataset")
    checks, said = [], []
    for r in rows.itertuples():
        hi, lo = int(r.ev_count_max_trace), int(r.ev_count_min_trace)
        truncated = r.ev_count_max_trace >= r.ev_kept_max_trace
        said.append(f"{r.dataset}: {hi}{'+' if truncated else ''} against {lo}"
                    f"{'+' if lo >= r.ev_kept_min_trace else ''}")
        if not truncated:  # a lower bound of the max-trace count decides nothing
            checks.append(hi < lo)
    checks, why = _every(frame, datasets, checks)
    return Reading("eigenvalue count", checks, (
        "normalised eigenvalues above 1 %, max-trace against min-trace (fewer needed; "
        "+: at least, the records keep the top ones): " + ("; ".join(said) or "none counted")
        + (f" ({why})" if why else "")))


def register_claims(frame: pd.DataFrame, datasets) -> list[dict]:
    """The claims of the register entries (one per entry) from the figure's frame;
    ``datasets`` are the thesis' data sets of Fig. 3.24."""
    evidence = _evidence(frame)
    every = "every ratio min-trace / max-trace below 1 on every data set"

    def with_evidence(claim):
        claim["evidence"] = f"{evidence}; {claim['evidence']}"
        return claim

    quality = _ratio_reading(frame, datasets, "quality", every)
    counted = _counted(frame)
    higher, why = _every(frame, datasets,
                         [beyond_noise(r.max_trace_value - r.min_trace_value, TOLERANCE)
                          for r in counted.itertuples()])
    difference = Reading("quality", higher, (
        f"every value of max-trace MVU above min-trace MVU's; a difference within "
        f"{TOLERANCE:g} decides nothing") + (f" ({why})" if why else ""))
    return [with_evidence(c) for c in (
        readings_claim(NAME, "Maximising the trace gives a lower dimensional embedding than "
                       "minimising it (3.1.4)",
                       [_ev_count_reading(frame, datasets), difference],
                       register="s3-1-4-max-trace-gives-low-dimension"),
        make_claim(NAME, "Minimum-trace MVU's embedding is of less quality under all metrics "
                   "(3.1.11)", quality.checks, quality.evidence,
                   register="s3-1-11-less-quality-all-metrics"),
        readings_claim(NAME, "The maximum-trace variant leads to better results under all "
                       "metrics (4)", [_ratio_reading(frame, datasets, "every ratio", every),
                                       _mean_reading(frame, datasets)],
                       register="s4-max-trace-better-all-metrics"),
        make_claim(NAME, "Minimising the trace does not give a faithful low-dimensional "
                   "representation (lecture)", quality.checks, quality.evidence,
                   register="lec-min-trace-not-faithful"),
    )]
