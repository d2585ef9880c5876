"""The outputs of the section 3.1.8 graph-Laplacian checks from their jobs' records: a
long CSV (one row per number of each record: key, path, value), the jobs table and the
verdicts (:mod:`.register_claims`, :mod:`harness.results.common.write.check_groups`).
"""

from __future__ import annotations

from harness.results.common.write.check_groups import CheckGroupsResult, jobs_summary
from harness.results.graph_laplacian_3_1_8 import KIND, NAME, SIDECAR, TITLE, keys
from harness.results.graph_laplacian_3_1_8.register_claims import (
    CHECK_M, register_claims, residual_at, thresholds,
)

__all__ = ["RESULT", "records", "derived", "build", "claims", "write"]


def derived(value: dict, path: str) -> list:
    """A residual record's residual at m = 10, and the thresholds the verdicts use."""
    if path:
        return []
    out = [(f"residual_at_m{CHECK_M}", residual_at(value))] if "residuals" in value else []
    return out + thresholds(value)


def _row(key: str, r: dict) -> dict:
    if "spearman_rho" in r:
        return {"n": r["n_samples"], "graph": f"{r['n_neighbors']}-NN, {r['components']} component(s)",
                "measured": f"nodal domains j = 1..{r['eigenvectors'][-1]['j']}: "
                            + ", ".join(str(x["nodal_domains"]) for x in r["eigenvectors"])
                            + f"; Spearman rho {r['spearman_rho']:.3f}"}
    if "residuals" in r:
        g = r["graph"]
        label = " (stand-in)" if r.get("stand_in_for") else ""
        return {"n": r["n_samples"], "graph": f"r = {g['radius']:.3g}, mean degree "
                f"{g['mean_degree']:.3g}, min {g['min_degree']}{label}",
                "measured": f"residual {r['residuals'][0]:.3g} (m = {r['basis_sizes'][0]}), "
                            f"{residual_at(r):.3g} (m = {CHECK_M}), {r['residuals'][-1]:.3g} "
                            f"(m = {r['basis_sizes'][-1]})"}
    if "procrustes_residual" in r:
        runs = r["runs"]
        return {"n": r["n_samples"], "graph": f"{r['n_neighbors']}-NN, noise {r['noise']:g}, "
                f"m = {r['n_basis']}, SDP {runs['laplacian']['sdp_status']} / "
                f"{runs['lle']['sdp_status']}",
                "measured": f"final CG objective Laplacian {runs['laplacian']['objective']:.6g}, "
                            f"LLE {runs['lle']['objective']:.6g}; Procrustes residual "
                            f"{r['procrustes_residual']:.3g}"}
    sdp = f", SDP {r['sdp_status']}" if "sdp_status" in r else ""
    return {"n": r["n_samples"], "graph": f"{r['n_neighbors']}-NN, noise {r['noise']:g}{sdp}",
            "measured": f"median ratio boundary {r['median_boundary']:.3g}, interior "
                        f"{r['median_interior']:.3g}; ratio of medians {r['ratio_of_medians']:.3g}"}


def _summary(recs: dict) -> str:
    return jobs_summary(NAME, recs, _row)


RESULT = CheckGroupsResult(
    NAME, KIND, SIDECAR, TITLE, keys, register_claims, lambda recs: [
        "Every number of the verdicts is in the CSV (key, path, value).", "", _summary(recs)],
    column="key", derive=derived)
records, build, claims, write = RESULT.records, RESULT.build, RESULT.claims, RESULT.write
