"""The claims-register entries on MVU's feasibility decided from
:func:`harness.results.mvu_feasibility.write.build`'s frame, each under its register
reading: s3-1-4-disconnected-graph-unbounded, s3-1-12-disconnected-sdp-infeasible,
s3-1-6-strict-may-be-infeasible, s3-1-6-relaxed-always-feasible.
"""

from __future__ import annotations

import pandas as pd

from harness.claims import WITHIN_NOISE, Reading, make_claim, readings_claim
from harness.results.mvu_feasibility import NAME

__all__ = ["unbounded_check", "register_claims"]


def _part(frame: pd.DataFrame, part: str) -> pd.DataFrame:
    if "part" not in frame:
        return frame.iloc[0:0]
    return frame[(frame["part"] == part) & (frame["status"] == "ok")]


def unbounded_check(row) -> bool:
    """The register's "unbounded": the solver says so, or it stops without a finite
    optimum while the optimum under a trace bound follows the bound ("a solver that
    stops on an iteration limit with trace still growing counts as unbounded")."""
    return str(row.solver_status).startswith("unbounded") or bool(row.sweep_tracks)


def _disconnected_text(part: pd.DataFrame) -> str:
    return "; ".join(
        f"{r.data} ({r.n:.0f} points, {r.n_components:.0f} components, k = {r.k:.0f}) with "
        f"{r.backend}: status {r.solver_status}, optimum under trace <= T trace(K0) "
        f"{r.sweep_text} (T = {r.bounds_text}); certificate: K0 feasible to "
        f"{r.k0_violation:.1e}, ray v v^T changes no edge ({r.ray_edge_change:.0e}) "
        f"({'certified' if r.ray_certified else 'not certified'}); linked control "
        f"({r.control_components:.0f} component): {r.control_status}, trace "
        f"{r.control_value_over_k0:.3g} x trace(K0)" for r in part.itertuples())


def _disconnected(frame: pd.DataFrame) -> list[dict]:
    part = _part(frame, "disconnected")
    part = part[part["n_components"] >= 2] if len(part) else part
    text = _disconnected_text(part) if len(part) else "no disconnected instance measured"
    unbounded = [unbounded_check(r) for r in part.itertuples()]
    first = make_claim(
        NAME, "On a disconnected neighbourhood graph MVU's SDP (max trace, centring, local "
              "distances) is unbounded: the solver reports unbounded (dual infeasible), or "
              "its optimum follows a trace bound (3.1.4)", unbounded, text + ".",
        register="s3-1-4-disconnected-graph-unbounded")
    infeasible = [str(r.solver_status).startswith("infeasible") for r in part.itertuples()]
    second = readings_claim(
        NAME, "It is important that the neighbourhood graph is connected or the SDP is "
              "infeasible (3.1.12)",
        [Reading("infeasible", infeasible, "the solvers' statuses: " + ", ".join(
            f"{r.data}/{r.backend} {r.solver_status}" for r in part.itertuples())),
         Reading("unbounded", unbounded, text)],
        register="s3-1-12-disconnected-sdp-infeasible")
    return [first, second]


def _strict(frame: pd.DataFrame) -> dict:
    part = _part(frame, "strict_noisy")
    checks = [True if r.solver_status == "infeasible" else
              (WITHIN_NOISE if str(r.solver_status).startswith("infeasible") else False)
              for r in part.itertuples()]
    text = "; ".join(
        f"draw {r.draw:.0f} ({r.broken_triangles:.0f} of {r.triangles:.0f} triangles break "
        f"the triangle inequality) with {r.backend}: {r.solver_status}; our Farkas "
        f"certificate b^T y = {r.farkas_by:.3g}, least eigenvalue of S {-r.farkas_delta:.1e}, "
        f"margin {r.farkas_margin:.3g} ({'certified' if r.farkas_certified else 'not certified'})"
        for r in part.itertuples())
    return make_claim(
        NAME, "Strict MVU with perturbed local distances (each length times a factor in "
              "[0.7, 1.3]) may be infeasible: some solver certifies infeasibility (3.1.6)",
        checks, (text + ".") if text else "no draw measured.",
        register="s3-1-6-strict-may-be-infeasible")


def _relaxed(frame: pd.DataFrame) -> dict:
    part = _part(frame, "relaxed")
    solves = [True if r.solver_status == "optimal" else
              (WITHIN_NOISE if r.solver_status == "optimal_inaccurate" else False)
              for r in part.itertuples()]
    zero = [bool(r.zero_violation <= 1e-12) for r in part.itertuples()]
    counts = part.groupby(["variant", "solver_status"]).size() if len(part) else {}
    status_text = ", ".join(f"{v} {s}: {n}" for (v, s), n in dict(counts).items())
    return readings_claim(
        NAME, "The relaxed versions of MVU (inequality, slack) always have non-empty "
              "feasible regions containing the trivial solution K = 0 (3.1.6)",
        [Reading("solves", solves, f"random nonnegative distances on a roll's k-NN graph, "
                 f"{part['draw'].nunique() if len(part) else 0} draws: {status_text}"),
         Reading("zero feasible", zero, "the largest violation of the model's constraints "
                 f"at K = 0: {part['zero_violation'].max() if len(part) else float('nan'):.1e}")],
        register="s3-1-6-relaxed-always-feasible")


def register_claims(frame: pd.DataFrame) -> list[dict]:
    """The four register entries, decided on ``frame``."""
    return [*_disconnected(frame), _strict(frame), _relaxed(frame)]
