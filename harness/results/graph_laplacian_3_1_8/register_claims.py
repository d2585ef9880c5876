"""The claims-register entries of section 3.1.8's graph Laplacian (thesis lines 1667,
1669, 1694, 1700, 1718), decided under the entries' readings
(``harness/claims_register/chapter_3.yaml``) from this result's records, passed as
``{key: record}``.

Choices where a reading leaves room (fixed before any number was measured):

* Fig. 3.16: j = 1 is the first non-constant eigenvector (the constant one, eigenvalue
  0, is left out), j = 1..20 on one n = 1000 graph (the profile's seed). A nodal domain
  is a connected component of the subgraph induced on the nodes of one strict sign; a
  node whose value is exactly 0.0 is in no domain (their count is shown). Spearman's
  rho with ties ranked by their mean. The Dirichlet-energy reading (f^T L f of the unit
  eigenvectors = their eigenvalues, ascending) holds by construction: shown, not
  counted.
* "Relative residual" is ``|P - Q_m Q_m^T P|_F / |P|_F`` of the centred true
  coordinates P (x and y together, the Frobenius norm), not its square. The bases are
  nested (one eigensolve, prefixes), so "monotone decreasing in m" (non-increasing)
  holds by construction: shown, not counted; the check is the residual below 0.1 at m
  = 10 on every network named -- each unit-square network of the profile's seeds (n =
  2000, every pair within r = 0.06 an edge) and the US-cities network (the data set
  plugin's graph: the smallest connecting radius, up to 20 nearest). A stand-in is
  shown, never counted; a network not measured leaves the claim without a verdict
  unless another fails.
* Non-convex boundaries: the L-shaped region (a square of side 2 / sqrt 3 without its
  upper right quarter: area 1, the square's density, the same radius), network s of
  each kind paired by seed; a pair passes when the L's residual at m = 10 exceeds the
  square's by more than 0.01, fails when it is below by more than 0.01, and is within
  noise between (:func:`harness.claims.beyond_noise`); "most" is more than half of
  the seeds' pairs (:func:`harness.claims.about_most`).
* The Swiss roll's edges: a point is on the boundary when its t or its height lies
  within 5 % of the sample's range from either end; the neighbours are each point's k
  = 15 nearest in the input the method was given (the noisy roll for variational
  MVU), pooled by the point they belong to; one least-squares scale of all pairs
  (it cancels in the ratio of medians). Variational MVU counts only from a certified
  ("optimal") SDP solve.
"""

from __future__ import annotations

from harness.claims import Reading, about_every, about_most, beyond_noise, make_claim, readings_claim
from harness.results.common.write.check_groups import not_run, record_ok
from harness.results.common.write.certified import certified
from harness.results.graph_laplacian_3_1_8 import (
    EIGENMAP, LOCAL_MINIMA, NAME, NETWORK, NODAL, VARIATIONAL,
)

__all__ = ["RHO_MIN", "CHECK_M", "RESIDUAL_MAX", "NONCONVEX_TOL", "COMPRESSION_MAX",
           "OBJECTIVE_DIFFERS", "EMBEDDING_DIFFERS", "residual_at", "thresholds",
           "fig_3_16_smoothness", "smooth_functions", "nonconvex_boundaries", "bad_at_edges",
           "collapses_edges", "different_local_minima", "register_claims"]

RHO_MIN = 0.9
CHECK_M = 10
RESIDUAL_MAX = 0.1
NONCONVEX_TOL = 0.01
COMPRESSION_MAX = 0.8
#: s3-1-8-fig-3-17-different-local-minima: the register's thresholds
OBJECTIVE_DIFFERS, EMBEDDING_DIFFERS = 0.01, 0.05
#: the real network the smooth-functions entry names (its stand-in is shown only)
CITIES = "us_cities_network"
SQUARE, L_SHAPE = "square", "l_shape"


def thresholds(value: dict) -> list[tuple[str, float]]:
    """The thresholds the verdicts compare a record's numbers with (rows of the CSV,
    beside the numbers they apply to)."""
    if "spearman_rho" in value:
        return [("threshold.spearman_rho", RHO_MIN)]
    if "residuals" in value:
        return [("threshold.residual_at_m10", RESIDUAL_MAX),
                ("threshold.nonconvex_difference", NONCONVEX_TOL)]
    if "ratio_of_medians" in value:
        return [("threshold.ratio_of_medians", COMPRESSION_MAX)]
    if "procrustes_residual" in value:
        return [("threshold.objective_relative_difference", OBJECTIVE_DIFFERS),
                ("threshold.procrustes_residual", EMBEDDING_DIFFERS)]
    return []




def residual_at(r: dict, m: int = CHECK_M) -> float:
    """The record's relative residual at m basis vectors."""
    return r["residuals"][r["basis_sizes"].index(m)]


def fig_3_16_smoothness(records) -> dict:
    """s3-1-8-fig-3-16-less-smooth-with-eigenvalue (line 1669): two readings, the
    Dirichlet energy's shown, not counted."""
    entry = "s3-1-8-fig-3-16-less-smooth-with-eigenvalue"
    claim = ("The eigenvectors of the graph Laplacian become less smooth as the eigenvalue "
             "increases (3.1.8, Fig. 3.16)")
    r = records.get(NODAL)
    if not record_ok(r):
        gone = not_run(NAME, NODAL, r)
        return readings_claim(NAME, claim, [Reading("nodal domains", [], gone),
                                            Reading("Dirichlet energy", [], gone)], register=entry)
    rows = r["eigenvectors"]
    graph = (f"n = {r['n_samples']} uniform points in the unit square (seed "
             f"{r['seed']}), symmetrised unweighted "
             f"{r['n_neighbors']}-NN graph ({r['components']} component"
             f"{'s' if r['components'] != 1 else ''}), eigenvectors j = 1..{rows[-1]['j']} "
             f"(j = 1 the first non-constant)")
    counts = ", ".join(str(x["nodal_domains"]) for x in rows)
    zeros = sum(x["zeros"] for x in rows)
    text = (f"{graph}: nodal domains {counts}; Spearman rho against j "
            f"{r['spearman_rho']:.3f} (above {RHO_MIN:g} needed); nodes exactly 0, in no "
            f"domain: {zeros}")
    checks = [r["spearman_rho"] > RHO_MIN] if r["components"] == 1 else []
    if r["components"] != 1:
        text += "; the graph is disconnected: its bottom eigenvectors are not Fig. 3.16's (no check)"
    energy = (f"f^T L f of the unit eigenvectors from {rows[0]['dirichlet_energy']:.4g} (j = 1) "
              f"to {rows[-1]['dirichlet_energy']:.4g} (j = {rows[-1]['j']}), "
              + ("never decreasing" if r["energy_steps_down"] == 0 else
                 f"decreasing at {r['energy_steps_down']} steps (rounding)")
              + "; they are the eigenvalues, in ascending order by construction (shown, "
              "not counted)")
    return readings_claim(NAME, claim, [Reading("nodal domains", checks, text),
                                        Reading("Dirichlet energy", [], energy)], register=entry)


def _regions(records, region: str) -> dict:
    """``{seed: record or None}`` of one region's jobs (None: not measured)."""
    prefix = region + "_s"
    return {int(k[len(prefix):]): (r if record_ok(r) else None)
            for k, r in records.items() if k.startswith(prefix) and k[len(prefix):].isdigit()}


def _residual_text(label: str, r: dict) -> str:
    g = r["graph"]
    sizes = r["basis_sizes"]
    return (f"{label} (n = {r['n_samples']}, r = {g['radius']:.3g}, mean degree "
            f"{g['mean_degree']:.3g}): {r['residuals'][0]:.3g} at m = {sizes[0]}, "
            f"{residual_at(r):.3g} at m = {CHECK_M}, {r['residuals'][-1]:.3g} at m = {sizes[-1]}")


def smooth_functions(records) -> dict:
    """s3-1-8-smooth-functions-bottom-eigenvectors (line 1667)."""
    entry = "s3-1-8-smooth-functions-bottom-eigenvectors"
    claim = ("Smooth functions on a graph (the true coordinates of a sensor network) are "
             "well approximated by the bottom eigenvectors of its Laplacian (3.1.8)")
    said, checks, increases = [], [], []
    squares = _regions(records, SQUARE)
    for seed, r in squares.items():
        if r is None:
            said.append(f"unit square seed {seed}: not measured")
            continue
        said.append(_residual_text(f"unit square seed {seed}", r))
        checks.append(residual_at(r) < RESIDUAL_MAX)
        increases.append(r["largest_increase"])
    networks = {k[len(NETWORK):]: r for k, r in records.items() if k.startswith(NETWORK)}
    for d, r in networks.items():
        if not record_ok(r):
            said.append(f"{d}: {(r or {}).get('status', 'no record')}")
        elif r.get("stand_in_for"):
            said.append(_residual_text(f"{d} (stand-in, not counted)", r))
        else:
            said.append(_residual_text(d, r))
            checks.append(residual_at(r) < RESIDUAL_MAX)
            increases.append(r["largest_increase"])
    measured = (["unit square"] if squares and all(v is not None for v in squares.values()) else []) \
        + ([CITIES] if record_ok(networks.get(CITIES)) else [])
    checks, note = about_every(checks, ["unit square", CITIES], measured)
    text = ("relative residual |P - Q Q^T P| / |P| of the centred true coordinates on the m "
            "bottom non-constant Laplacian eigenvectors: " + "; ".join(said)
            + f" (below {RESIDUAL_MAX:g} at m = {CHECK_M} on every network needed)")
    if increases:
        step = max(increases)
        text += ("; " + (f"decreasing at every step in m on every network measured (the "
                         f"smallest decrease {-step:.2g})" if step < 0 else
                         f"non-increasing in m to rounding (largest step up {step:.2g})")
                 + ": nested bases, by construction (shown, not counted)")
    return make_claim(NAME, claim, checks, text + (f"; {note}" if note else ""), register=entry)


def nonconvex_boundaries(records) -> dict:
    """s3-1-8-laplacian-hard-for-nonconvex-boundaries (line 1694)."""
    entry = "s3-1-8-laplacian-hard-for-nonconvex-boundaries"
    claim = ("It is difficult to represent non-convex boundaries in terms of the bottom "
             "eigenvectors of the graph Laplacian (3.1.8)")
    squares, ls = _regions(records, SQUARE), _regions(records, L_SHAPE)
    seeds = sorted(set(squares) | set(ls))
    passed, said = {}, []
    for seed in seeds:
        sq, el = squares.get(seed), ls.get(seed)
        if sq is None or el is None:
            said.append(f"seed {seed}: not measured")
            continue
        passed[f"seed {seed}"] = beyond_noise(residual_at(el) - residual_at(sq), NONCONVEX_TOL)
        said.append(f"seed {seed}: {residual_at(el):.3g} against {residual_at(sq):.3g}")
    checks, note = about_most(passed, [f"seed {s}" for s in seeds])
    if not checks and len(passed) == len(seeds):  # every pair measured, some within noise
        checks, note = list(passed.values()), ""
    n = next((r["n_samples"] for r in [*squares.values(), *ls.values()] if r), None)
    text = (f"relative residual of the centred true coordinates at m = {CHECK_M}, L-shaped "
            f"region against the unit square (area 1 each, n = {n}, every pair within the "
            f"same radius an edge), network pairs by seed: " + "; ".join(said)
            + f" (the L's above the square's by more than {NONCONVEX_TOL:g} on most pairs "
            f"needed, within {NONCONVEX_TOL:g} undecided)")
    return make_claim(NAME, claim, checks, text + (f"; {note}" if note else ""), register=entry)


def _compression_text(r: dict, what: str) -> str:
    return (f"{what}, n = {r['n_samples']} (noise {r['noise']:g}, seed {r['seed']}), k = "
            f"{r['n_neighbors']}: median scaled output / input neighbour-distance ratio "
            f"{r['median_boundary']:.3g} for the {r['n_boundary']} boundary points' "
            f"neighbours, {r['median_interior']:.3g} for the {r['n_interior']} interior "
            f"points'; ratio of medians {r['ratio_of_medians']:.3g} (below "
            f"{COMPRESSION_MAX:g} needed; boundary: t or height within "
            f"{r['boundary_fraction']:g} of its range from an end)")


def bad_at_edges(records) -> dict:
    """s3-1-8-laplacian-eigenvectors-bad-at-edges (line 1700)."""
    entry = "s3-1-8-laplacian-eigenvectors-bad-at-edges"
    claim = ("The Laplacian eigenvectors are a bad representation along the edges of a "
             "graph: the Laplacian eigenmap compresses the Swiss roll's edges (3.1.8)")
    r = records.get(EIGENMAP)
    if not record_ok(r):
        return make_claim(NAME, claim, [], not_run(NAME, EIGENMAP, r), register=entry)
    return make_claim(NAME, claim, [r["ratio_of_medians"] < COMPRESSION_MAX],
                      _compression_text(r, "2-D Laplacian eigenmap of the Swiss roll"),
                      register=entry)


def collapses_edges(records) -> dict:
    """s3-1-8-laplacian-collapses-edges (line 1718)."""
    entry = "s3-1-8-laplacian-collapses-edges"
    claim = ("Variational MVU on the Laplacian eigenmaps' eigenvectors collapses the Swiss "
             "roll's points along its edges (3.1.8, Fig. 3.17's middle row)")
    r = records.get(VARIATIONAL)
    if not record_ok(r):
        return make_claim(NAME, claim, [], not_run(NAME, VARIATIONAL, r), register=entry)
    what = (f"variational MVU, Laplacian basis m = {r['n_basis']}, without CG (the SDP's "
            f"top two principal coordinates), of the noisy Swiss roll")
    if not certified(r.get("sdp_status")):
        return make_claim(NAME, claim, [], f"{what}: SDP {r.get('sdp_status')} (not "
                          f"certified, not counted); " + _compression_text(r, "shown"),
                          register=entry)
    return make_claim(NAME, claim, [r["ratio_of_medians"] < COMPRESSION_MAX],
                      _compression_text(r, what), register=entry)


def different_local_minima(records) -> dict:
    """s3-1-8-fig-3-17-different-local-minima (line 1705): two readings on the one
    roll; a run whose SDP is not certified leaves the claim not measured."""
    entry = "s3-1-8-fig-3-17-different-local-minima"
    claim = ("Variational MVU (CG) from the Laplacian eigenmaps' and from LLE's basis "
             "vectors reaches different local minima (3.1.8, Fig. 3.17)")
    r = records.get(LOCAL_MINIMA)
    if not record_ok(r):
        return make_claim(NAME, claim, [], not_run(NAME, LOCAL_MINIMA, r), register=entry)
    runs = r["runs"]
    what = (f"noisy Swiss roll n = {r['n_samples']} (noise {r['noise']:g}, k = "
            f"{r['n_neighbors']}, m = {r['n_basis']}): final CG objective Laplacian "
            f"{runs['laplacian']['objective']:.6g}, LLE {runs['lle']['objective']:.6g} "
            f"(loss (3.26) {runs['laplacian']['loss_3_26']:.4g} and "
            f"{runs['lle']['loss_3_26']:.4g})")
    loose = [b for b, x in runs.items() if not certified(x["sdp_status"])]
    if loose:
        return make_claim(NAME, claim, [], what + "; SDP not certified for "
                          + ", ".join(f"{b} ({runs[b]['sdp_status']})" for b in loose)
                          + ": not counted", register=entry)
    return readings_claim(NAME, claim, [
        Reading("loss differs", [r["objective_relative_difference"] > OBJECTIVE_DIFFERS],
                what + f"; relative difference {r['objective_relative_difference']:.3g} "
                f"(above {OBJECTIVE_DIFFERS:g} needed)"),
        Reading("embedding differs", [r["procrustes_residual"] > EMBEDDING_DIFFERS],
                f"Procrustes residual (rotation and scale) of the Laplacian run's embedding "
                f"on LLE's, over its variance: {r['procrustes_residual']:.3g} (above "
                f"{EMBEDDING_DIFFERS:g} needed)"
                + (f"; the aligning scale {r['procrustes_scale']:.4g}" if "procrustes_scale" in r
                   else ""))], register=entry)


def register_claims(records: dict) -> list[dict]:
    """Every register entry this result decides, from ``{key: record}``."""
    return [fig_3_16_smoothness(records), smooth_functions(records),
            nonconvex_boundaries(records), bad_at_edges(records), collapses_edges(records),
            different_local_minima(records)]
