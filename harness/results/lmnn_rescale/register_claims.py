"""The claims-register entry ``s2-1-9-rescale-no-accuracy-effect`` (thesis 2.1.9, line
1030: "This re-scaling of the input only affects the scale of the matrices M, L and
has no effect on the classification accuracy"), decided under its two readings
(``harness/claims_register/chapter_2.yaml``):

* *accuracy unchanged*: per data set and scale ``c`` other than 1, the kNN test error
  of LMNN trained on ``c X`` equals that on ``X`` within ``se_factor`` (2) standard
  errors -- of the paired differences over the runs, or on a single-run data set
  (MNIST) the binomial ``sqrt(p (1 - p) / n_test)`` of the error at ``c = 1`` -- and
  the test predictions agree on at least ``min_agreement`` (99 %) of the test points
  (pooled over the runs); a difference outside or a lower agreement is a
  counterexample;
* *matrix scales*: ``|c^2 M_c - M_1|_F / |M_1|_F`` below ``frobenius_tolerance`` (5 %)
  in every run.

The register's test is "on every Table 2.1 data set tried (at least iris, wine, bal,
and MNIST)": the checks pass through :func:`harness.claims.about_every` over the
profile's data sets, so that a data set not measured leaves a passing claim
undecided, while a counterexample decides. With ``init: pca_scaled`` (the plugin's
scaled start) both readings hold nearly by construction (the fit on ``c X`` is the
fit on ``X`` divided by ``c`` up to the solver's stopping rule): the claim is then
shown, not counted.
"""

from __future__ import annotations

import math

import pandas as pd

from harness.claims import Reading, about_every, readings_claim

__all__ = ["scale_tests", "register_claims"]

NAME = "lmnn_rescale"
ENTRY = "s2-1-9-rescale-no-accuracy-effect"


def scale_tests(frame: pd.DataFrame, se_factor: float) -> pd.DataFrame:
    """One row per (data set, scale != 1): mean errors at 1 and at c (in %), the mean
    paired difference, its standard error (over the runs, or binomial for one run),
    the pooled agreement, the largest relative Frobenius distance and the runs that
    did not converge."""
    ok = frame[frame["status"] == "ok"] if "status" in frame else frame.iloc[0:0]
    rows = []
    for dataset, part in ok.groupby("dataset", sort=False):
        base = part[part["scale"] == 1].set_index("run")
        for c, at in part[part["scale"] != 1].groupby("scale", sort=True):
            at = at.set_index("run")
            diff = 100.0 * (at["error"] - base["error"].reindex(at.index))
            runs = len(at)
            if runs > 1:
                se = float(diff.std(ddof=1) / math.sqrt(runs))
            else:
                p = float(base["error"].iloc[0])
                se = 100.0 * math.sqrt(p * (1 - p) / float(at["n_test"].iloc[0]))
            rows.append({"dataset": dataset, "scale": float(c), "runs": runs,
                         "error_1_pct": 100.0 * float(base["error"].mean()),
                         "error_c_pct": 100.0 * float(at["error"].mean()),
                         "diff_pct": float(diff.mean()), "se_pct": se,
                         "allowed_pct": se_factor * se,
                         "agreement": float((at["agreement"] * at["n_test"]).sum()
                                            / at["n_test"].sum()),
                         "max_rel_frobenius": float(at["rel_frobenius"].max()),
                         "not_converged": int((~at["converged"].astype(bool)).sum()
                                              + (~base["converged"].astype(bool)).sum())})
    return pd.DataFrame(rows)


def _gaps(frame: pd.DataFrame) -> str:
    bad = frame[frame["status"] != "ok"] if "status" in frame else frame.iloc[0:0]
    return "; ".join(f"{r.dataset}: {r.status} ({r.reason})" for r in bad.itertuples())


def register_claims(conf: dict, frame: pd.DataFrame) -> list[dict]:
    """The entry's claim from the jobs' frame (one row per data set, run and scale)."""
    tests = scale_tests(frame, conf["se_factor"])
    named = list(conf["datasets"])
    measured = list(dict.fromkeys(tests["dataset"])) if len(tests) else []
    acc_checks, acc_said, mat_checks, mat_said = [], [], [], []
    for t in tests.itertuples():
        acc_checks.append(bool(abs(t.diff_pct) <= t.allowed_pct
                               and t.agreement >= conf["min_agreement"]))
        acc_said.append(f"{t.dataset} c = {t.scale:g}: {t.error_1_pct:.3g} % -> "
                        f"{t.error_c_pct:.3g} % (difference {t.diff_pct:.3g} points, allowed "
                        f"{t.allowed_pct:.3g}), predictions agree on {100 * t.agreement:.4g} % "
                        f"over {t.runs} run(s)")
        mat_checks.append(bool(t.max_rel_frobenius < conf["frobenius_tolerance"]))
        mat_said.append(f"{t.dataset} c = {t.scale:g}: largest |c^2 M_c - M_1|_F / |M_1|_F "
                        f"{t.max_rel_frobenius:.3g} ({t.not_converged} fit(s) stopped at "
                        f"max_iter)")
    gaps = _gaps(frame)
    readings = []
    for name, checks, said, rule in (
            ("accuracy unchanged", acc_checks, acc_said,
             f"within {conf['se_factor']:g} standard errors and agreement at least "
             f"{100 * conf['min_agreement']:g} %"),
            ("matrix scales", mat_checks, mat_said,
             f"below {100 * conf['frobenius_tolerance']:g} % needed")):
        kept, why = about_every(checks, named, measured)
        evidence = "; ".join(said) or "no data set measured"
        evidence += f" ({rule}; LMNN from {conf['init']})"
        readings.append(Reading(name, kept, evidence + "".join(
            f"; {text}" for text in (why, f"not measured: {gaps}" if gaps else "") if text)))
    claim = readings_claim(
        NAME, "Re-scaling the input only affects the scale of the matrices M, L and has no "
              "effect on the classification accuracy (2.1.9)", readings, register=ENTRY)
    if conf["init"] == "pca_scaled":
        claim = {**claim, "counted": False,
                 "evidence": claim["evidence"] + " (the plugin's scaled start makes the fit "
                                                 "on c X that on X over c up to the "
                                                 "solver's stopping rule: holds nearly by "
                                                 "construction, shown and not counted)"}
    return [claim]
