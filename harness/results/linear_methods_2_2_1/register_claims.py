"""The claims-register entries of section 2.2 / 2.2.1 (thesis lines 1055-1150) and
2.1.5's LDA remark (line 725), each decided under the entry's readings
(``harness/claims_register/chapter_2.yaml``) from the records of this result's jobs
(:mod:`.work`), passed as ``{group: record}``.

Theorems are decided against *independent* numbers: the best value random directions
(frames) and a gradient optimiser find for the objective, a dense grid on the unit
circle, a refit on rescaled data. A reading that would only re-evaluate its own formula
((2.26) at c p against at p; the centred whitening identity) is shown without a check,
never counted. Statistical readings use a paired t-test over the draws (p < 0.05) and
two standard errors (:func:`harness.claims.significant`); a time ratio is judged
against the harness' timing band (:func:`harness.results.solver_table.register_claims.
timing_ratio_check`).
"""

from __future__ import annotations

from harness.claims import (
    WITHIN_NOISE, Reading, about_every, make_claim, readings_claim, significant,
)
from harness.results.linear_methods_2_2_1 import NAME
from harness.results.solver_table.register_claims import TIMING_BAND, timing_ratio_check

__all__ = ["FIG", "TABLE_2_1", "advantage", "register_claims"]

FIG = "fig_2_20"
#: Table 2.1's nine data sets by registry name (RCA's time profile)
TABLE_2_1 = ("mnist", "newsgroups", "letter", "isolet", "yale_b", "iris", "balance_scale",
             "wine", "olivetti")
LABEL = {FIG: "the Fig. 2.20 data", "mnist": "MNIST subsample"}


def _label(name: str) -> str:
    return LABEL.get(name, name)


def advantage(case: dict, against: str) -> float:
    """How much better the eigen solution's objective is than ``against``'s best
    (``"best_random"``, ``"best_optimiser"``), relative: positive when better, ``-1e-9``
    when 1e-9 relatively worse."""
    eigen, other = case["eigen"], case[against]
    scale = max(abs(other), 1e-300)
    return (eigen - other) / scale if case["sense"] == "max" else (other - eigen) / scale


def _gone(name: str, reason: str) -> str:
    """A data set that was not measured, short: the fetch command when the reason is
    missing data, else the reason's first clause."""
    if "harness fetch" in reason or "not available offline" in reason:
        return f"{name} (unavailable, run `harness fetch {name}`)"
    return f"{name} ({reason.split(';')[0].split(':')[0]})"


def _status(record: dict | None) -> str:
    if record is None:
        return "no record"
    return "" if record.get("status") == "ok" else f"{record.get('status')}: {record.get('reason', '')}"


def _not_run(group: str, record) -> str:
    return f"job {NAME}/{group} not measured ({_status(record)}; run `harness job {NAME}/{group}`)"


def _optimum_reading(record, objectives, named, tol: float, name: str, what: str) -> Reading:
    """Per case: the eigen solution's objective no worse than the best random and
    optimised one, relatively ``tol``; a claim about every one of ``named``."""
    if record is None or record.get("status") != "ok":
        return Reading(name, [], _not_run("optima", record))
    cases = [c for c in record["cases"] if c["objective"] in objectives and c["dataset"] in named]
    checks = [advantage(c, "best_random") >= -tol and advantage(c, "best_optimiser") >= -tol
              for c in cases]
    worst_r = min((advantage(c, "best_random") for c in cases), default=float("nan"))
    worst_o = min((advantage(c, "best_optimiser") for c in cases), default=float("nan"))
    measured = {c["dataset"] for c in cases}
    evidence = (f"{what}: {len(cases)} cases on {', '.join(_label(n) for n in named if n in measured)}; "
                f"the eigen solution's objective against the best of up to "
                f"{max((c['n_random'] for c in cases), default=0)} random ones and of L-BFGS-B from "
                f"{max((c['n_starts'] for c in cases), default=0)} starts: smallest relative "
                f"advantage {worst_r:.3g} (random), {worst_o:.3g} (optimiser) (at least "
                f"-{tol:g} needed)")
    gone = record.get("unavailable", {})
    if gone:
        evidence += "; not measured: " + ", ".join(_gone(k, v) for k, v in gone.items())
    kept, why = about_every(checks, named, measured)
    return Reading(name, kept, evidence + (f"; {why}" if why else ""))


def _optimum_claim(records, objectives, named, tol, register, claim, what):
    r = _optimum_reading(records.get("optima"), objectives, named, tol, "reading", what)
    return make_claim(NAME, claim, r.checks, r.evidence, register=register)


def svd_optima(records) -> dict:
    """s2-2-svd-global-optima (line 1055): PCA, LDA, RCA."""
    return _optimum_claim(records, ("pca", "lda", "rca"), (FIG, "iris", "wine"), 1e-6,
                          "s2-2-svd-global-optima", "All of these three algorithms [PCA, RCA, "
                          "LDA] can be phrased as optimization problems whose global minima "
                          "can be computed by SVD (2.2)",
                          "PCA (2.22), LDA (2.26), RCA (tr(M C_w), det M = 1)")


def pca_global(records) -> dict:
    """s2-2-1-pca-global-max-svd (line 1078)."""
    return _optimum_claim(records, ("pca",), (FIG, "iris", "wine", "mnist"), 1e-8,
                          "s2-2-1-pca-global-max-svd", "The optimization (2.22) is not concave "
                          "but the global maxima can be found with SVD (2.2.1)",
                          "PCA's p^T C p on the unit sphere")


def pca_subspace(records) -> dict:
    """s2-2-1-pca-max-variance-subspace (line 1080)."""
    return _optimum_claim(records, ("subspace_variance",), ("iris", "wine", "mnist"), 1e-8,
                          "s2-2-1-pca-max-variance-subspace", "Projection onto the d leading "
                          "eigenvectors of C is the projection onto the d-dimensional "
                          "sub-space with maximum variance (2.2.1)",
                          "trace of the projected covariance, d = 1..5")


def pca_reconstruction(records, register: str, claim: str) -> dict:
    """s2-2-1-pca-min-reconstruction-1080, s2-2-1-pca-min-l2-provably."""
    return _optimum_claim(records, ("reconstruction",), ("iris", "wine", "mnist"), 1e-8,
                          register, claim, "squared L2 reconstruction error of the centred "
                          "data from a d-dimensional orthogonal projection, d = 1..5")


def lda_global(records) -> dict:
    """s2-2-1-lda-global-max-svd (line 1135)."""
    return _optimum_claim(records, ("lda",), (FIG, "iris", "wine"), 1e-8,
                          "s2-2-1-lda-global-max-svd", "This objective (2.26) is not concave "
                          "but the global maxima can be found with SVD (2.2.1)",
                          "LDA's Fisher ratio (2.26)")


def two_minima(records) -> dict:
    """s2-2-1-fig-2-18-two-local-minima (line 1076)."""
    r = records.get("circle")
    if r is None or r.get("status") != "ok":
        gone = _not_run("circle", r)
        return readings_claim(NAME, "The function [p^T C p] is non-convex and has two local "
                              "minima (2.2.1, Fig. 2.18)", [Reading("on unit circle", [], gone),
                                                            Reading("surface on R2", [], gone)],
                              register="s2-2-1-fig-2-18-two-local-minima")
    circle = Reading(
        "on unit circle", [r["pca_local_minima"] == 2 and r["pca_minima_angle_degrees"] <= 0.1],
        f"p^T C p on {r['grid']} angles of the unit circle (C of the Fig. 2.20 data): "
        f"{r['pca_local_minima']} local minima, at most {r['pca_minima_angle_degrees']:.3g} "
        f"degrees from +-C's second eigenvector (2 within 0.1 degree needed)")
    surface = Reading(
        "surface on R2", [r["c_min_eigenvalue"] < -1e-12],
        f"the Hessian 2C of p -> p^T C p on R^2 has eigenvalues 2 x ({r['c_min_eigenvalue']:.4g}, "
        f"{r['c_max_eigenvalue']:.4g}): convex (non-convex needs one below -1e-12)")
    return readings_claim(NAME, "The function [p^T C p] is non-convex and has two local minima "
                          "(2.2.1, Fig. 2.18)", [circle, surface],
                          register="s2-2-1-fig-2-18-two-local-minima")


def extrema_eigenvectors(records) -> dict:
    """s2-2-1-fig-2-19-extrema-eigenvectors (line 1133)."""
    r = records.get("circle")
    claim = "All extrema [of (2.26) on the unit circle] are eigenvectors of (2.27) (Fig. 2.19)"
    if r is None or r.get("status") != "ok":
        return make_claim(NAME, claim, [], _not_run("circle", r),
                          register="s2-2-1-fig-2-19-extrema-eigenvectors")
    return make_claim(NAME, claim, [r["lda_max_angle_degrees"] <= 0.1] * max(1, r["lda_extrema"]),
                      f"(2.26) on {r['grid']} angles (Fig. 2.20 data): {r['lda_extrema']} local "
                      f"extrema, each at most {r['lda_max_angle_degrees']:.3g} degrees from an "
                      f"eigenvector of C_w^-1 C_b (0.1 needed)",
                      register="s2-2-1-fig-2-19-extrema-eigenvectors")


def whitening(records) -> dict:
    """s2-2-1-whitening-identity (line 1100): centred (by construction, shown) and as
    written (uncentred)."""
    r = records.get("invariance")
    claim = ("The post-whitening covariance matrix is the identity matrix, 1/n sum_i "
             "C^-1/2 x_i x_i^T C^-1/2 = I (2.2.1)")
    if r is None or r.get("status") != "ok":
        gone = _not_run("invariance", r)
        return readings_claim(NAME, claim, [Reading("centred data", [], gone),
                                            Reading("uncentred as written", [], gone)],
                              register="s2-2-1-whitening-identity")
    w = r["whitening"]
    centred = Reading("centred data", [], "largest |entry - I| " + ", ".join(
        f"{_label(k)} {v['centred_max_deviation']:.2g}" for k, v in w.items())
        + "; the identity re-evaluated on its own formula (holds by construction up to "
          "rounding): shown, not counted")
    written = Reading("uncentred as written", [v["uncentred_max_deviation"] < 1e-8 for v in w.values()],
                      "with uncentred x as printed, largest |entry - I| " + ", ".join(
                          f"{_label(k)} {v['uncentred_max_deviation']:.3g}" for k, v in w.items())
                      + " (below 1e-8 needed)")
    return readings_claim(NAME, claim, [centred, written], register="s2-2-1-whitening-identity")


def lda_invariant(records) -> dict:
    """s2-2-1-lda-scale-invariant (line 1135)."""
    r = records.get("invariance")
    claim = "(2.26) is invariant to the scale of p or the dimensions of the input (2.2.1)"
    if r is None or r.get("status") != "ok":
        gone = _not_run("invariance", r)
        return readings_claim(NAME, claim, [Reading("input dimensions", [], gone),
                                            Reading("scale of p", [], gone)],
                              register="s2-2-1-lda-scale-invariant")
    s = r["lda_scale"]
    dims = Reading("input dimensions", [
        v["n_changed_predictions"] == 0 and v["max_component_deviation"] <= 1e-6
        for v in s.values()],
        f"input dimension {r['rescaled_dimension']} x {r['rescale_factor']:g}, LDA refitted: "
        + ", ".join(f"{_label(k)} {v['n_changed_predictions']} of {v['n_test']} kNN "
                    f"predictions changed, projections equal up to per-component scale to "
                    f"{v['max_component_deviation']:.2g}" for k, v in s.items())
        + " (none changed and 1e-6 needed)")
    p = Reading("scale of p", [], "(2.26) at c p against at p: relative difference at most "
                f"{max(v['p_scale_relative_deviation'] for v in s.values()):.2g}; c^2 cancels "
                "in the formula itself, so this re-evaluates it: shown, not counted")
    return readings_claim(NAME, claim, [dims, p], register="s2-2-1-lda-scale-invariant")


def _paired(summary: dict, claimed: str, limit: str = "beyond"):
    """The check of a paired comparison: ``claimed`` "greater" / "less" beyond two
    standard errors and significant (p < 0.05) -> True, the other way -> False, else
    WITHIN_NOISE."""
    diff, se = summary["mean_difference"], summary["se_difference"]
    sign = 1 if claimed == "greater" else -1
    p_claimed, p_other = ((summary["p_greater"], summary["p_less"]) if claimed == "greater"
                          else (summary["p_less"], summary["p_greater"]))
    tested = significant(p_claimed, p_other)
    if tested is True and sign * diff > 2 * se:
        return True
    if tested is False and -sign * diff > 2 * se:
        return False
    return WITHIN_NOISE


def _not_worse(summary: dict) -> bool:
    """``<=`` within two standard errors: the mean difference at most 2 SE."""
    return summary["mean_difference"] <= 2 * summary["se_difference"]


def _diff_text(summary: dict, what: str) -> str:
    return (f"{what}: mean difference {summary['mean_difference']:.3g} points, 2 SE "
            f"{2 * summary['se_difference']:.3g}, paired t-test p = {summary['p_greater']:.3g} "
            f"(greater) / {summary['p_less']:.3g} (less) over {summary['n']} draws")


def pca_not_invariant(records) -> dict:
    """s2-2-1-pca-not-scale-invariant (line 1088)."""
    r = records.get("invariance")
    claim = ("Another drawback of PCA is also that the output is not invariant to the scale "
             "of the input dimensions (2.2.1)")
    if r is None or r.get("status") != "ok":
        gone = _not_run("invariance", r)
        return readings_claim(NAME, claim, [Reading("subspace changes", [], gone),
                                            Reading("kNN changes", [], gone)],
                              register="s2-2-1-pca-not-scale-invariant")
    angles = r["pca_scale"]
    sub = Reading("subspace changes", [v["largest_angle_degrees"] > 5 for v in angles.values()],
                  f"input dimension {r['rescaled_dimension']} x {r['rescale_factor']:g}, PCA to "
                  f"{r['pca_scale_components']}: largest principal angle to the original "
                  "subspace " + ", ".join(f"{k} {v['largest_angle_degrees']:.3g} degrees"
                                          for k, v in angles.items()) + " (above 5 needed)")
    knn = r["pca_knn"]
    two_sided = knn["p_two_sided"] < 0.05 and abs(knn["mean_difference"]) > 2 * knn["se_difference"]
    changes = Reading("kNN changes", [True if two_sided else WITHIN_NOISE],
                      f"wine, {knn['n']} random 70/30 splits, kNN test error after PCA "
                      f"{knn['mean_error']:.3g} % vs {knn['mean_error_rescaled']:.3g} % rescaled; "
                      + _diff_text(knn, "rescaled minus original")
                      + f", two-sided p = {knn['p_two_sided']:.3g}")
    return readings_claim(NAME, claim, [sub, changes], register="s2-2-1-pca-not-scale-invariant")


def cw_rank(records) -> dict:
    """s2-2-1-cw-singular-1141 (line 1141): rank of C_w on Olivetti's pixels."""
    r = records.get("singular")
    claim = ("[(2.27) is only well defined if C_w is non-singular.] This can be a potential "
             "problem when the data is very high dimensional and sparsely sampled (2.2.1)")
    if r is None or r.get("status") != "ok":
        return make_claim(NAME, claim, [], _not_run("singular", r),
                          register="s2-2-1-cw-singular-1141")
    o = r["cases"].get("olivetti")
    if o is None:
        return make_claim(NAME, claim, [], "not measured: " + _gone(
            "olivetti", r.get("unavailable", {}).get("olivetti", "not run")),
            register="s2-2-1-cw-singular-1141")
    return make_claim(NAME, claim, [o["rank"] <= o["n"] - o["n_classes"] < o["d"]],
                      f"olivetti pixels, training split: n = {o['n']}, {o['n_classes']} classes, "
                      f"d = {o['d']}: rank of C_w {o['rank']} (at most n - classes = "
                      f"{o['n'] - o['n_classes']} < d needed)", register="s2-2-1-cw-singular-1141")


def cw_singular(records) -> dict:
    """s2-2-1-cw-singular-1150 (line 1150): smallest / largest eigenvalue of C_w."""
    r = records.get("singular")
    claim = ("If the data is high dimensional and sparsely sampled, the matrix C_w can be "
             "singular (2.2.1)")
    if r is None or r.get("status") != "ok":
        return make_claim(NAME, claim, [], _not_run("singular", r),
                          register="s2-2-1-cw-singular-1150")
    cases = r["cases"]
    evidence = "; ".join(f"{_label(k)} (n = {v['n']}, d = {v['d']}): smallest / largest "
                         f"eigenvalue of C_w {v['min_over_max']:.3g}" for k, v in cases.items())
    gone = r.get("unavailable", {})
    if gone:
        evidence += "; not measured: " + ", ".join(_gone(k, v) for k, v in gone.items())
    return make_claim(NAME, claim, [v["min_over_max"] < 1e-10 for v in cases.values()],
                      evidence + " (below 1e-10 needed)", register="s2-2-1-cw-singular-1150")


def eig_speedup(records) -> dict:
    """s2-2-1-rca-eig-speedup (line 1112): sqrtm + inv over eigh, at least 2 beyond the
    timing band."""
    r = records.get("rca_timing")
    claim = ("The computation of A_rca can be sped up significantly, if C_w_hat is decomposed "
             "into eigenvectors and eigenvalues (2.2.1)")
    if r is None or r.get("status") != "ok":
        return make_claim(NAME, claim, [], _not_run("rca_timing", r),
                          register="s2-2-1-rca-eig-speedup")
    rows = r["speedup"]
    return make_claim(NAME, claim, [timing_ratio_check(x["ratio"], 2.0) for x in rows],
                      "CPU time of inv(sqrtm(C)) over eigh-based C^-1/2, median of "
                      f"{r['repeats']}: " + ", ".join(
                          f"d = {x['d']}: {x['sqrtm_seconds']:.3g} s / {x['eigh_seconds']:.3g} s "
                          f"= {x['ratio']:.3g}" for x in rows)
                      + f" (at least 2 beyond the {100 * TIMING_BAND:g} % timing band needed)",
                      register="s2-2-1-rca-eig-speedup")


def bottleneck(records) -> dict:
    """s2-2-1-rca-bottleneck-eig (line 1114): share of RCA's fit in decompositions."""
    r = records.get("rca_timing")
    claim = ("Similar to PCA, the main bottle neck [of RCA] is the eigenvector decomposition "
             "(2.2.1)")
    if r is None or r.get("status") != "ok":
        gone = _not_run("rca_timing", r)
        return readings_claim(NAME, claim, [Reading("share of time", [], gone),
                                            Reading("high dimensional only", [], gone)],
                              register="s2-2-1-rca-bottleneck-eig")
    b, gone = r["bottleneck"], r.get("unavailable", {})

    def reading(name, named):
        checks = [timing_ratio_check(b[k]["eig_over_rest"], 1.0) for k in named if k in b]
        text = ("CPU share of RCA's fit in svd / eigh: " + ", ".join(
            f"{k} (n = {b[k]['n']}, d = {b[k]['d']}) {100 * b[k]['share']:.3g} %"
            for k in named if k in b) + f" (above 50 %, i.e. decompositions over the rest "
            f"above 1 beyond the {100 * TIMING_BAND:g} % band, needed)")
        missing = [k for k in named if k not in b]
        if missing:
            text += "; not measured: " + ", ".join(
                _gone(k, gone.get(k, "not in the profile")) for k in missing)
        kept, why = about_every(checks, named, [k for k in named if k in b])
        return Reading(name, kept, text + (f"; {why}" if why else ""))

    return readings_claim(NAME, claim, [reading("share of time", TABLE_2_1),
                                        reading("high dimensional only", ("mnist", "isolet"))],
                          register="s2-2-1-rca-bottleneck-eig")


def amplify_noise(records) -> dict:
    """s2-2-1-rca-amplify-noise (line 1116)."""
    r = records.get("rca_noise")
    claim = ("If the PCA noise suppression is not chosen carefully, [RCA] might also amplify "
             "low-variance noise to unit variance (2.2.1)")
    if r is None or r.get("status") != "ok":
        gone = _not_run("rca_noise", r)
        return readings_claim(NAME, claim, [Reading("noise amplified", [], gone),
                                            Reading("kNN hurt", [], gone)],
                              register="s2-2-1-rca-amplify-noise")
    draws = r["draws"]
    amplified = Reading(
        "noise amplified", [all(abs(v - 1) <= 0.5 for v in d["noise_within_variance"])
                            for d in draws],
        f"{r['noise_dimensions']} appended N(0, {r['noise_variance']:g}) dimensions, RCA "
        f"without truncation: their within-class variance after RCA "
        f"{r['noise_variance_min']:.3g} to {r['noise_variance_max']:.3g} over {len(draws)} "
        f"draws (within 0.5 of 1 needed)")
    hurt = Reading("kNN hurt", [_paired(r["comparison"], "greater")],
                   _diff_text(r["comparison"], f"kNN test error, RCA untruncated "
                              f"{r['comparison']['mean_a']:.3g} % minus truncated "
                              f"{r['comparison']['mean_b']:.3g} %"))
    return readings_claim(NAME, claim, [amplified, hurt], register="s2-2-1-rca-amplify-noise")


def rca_multimodal(records) -> dict:
    """s2-2-1-rca-multimodal (line 1118)."""
    r = records.get("multimodal")
    claim = ("RCA (like LMNN) can be applied to multi-modal data, if separated clusters of a "
             "distribution are captured by separate chunklets (2.2.1)")
    if r is None or r.get("status") != "ok":
        gone = _not_run("multimodal", r)
        return readings_claim(NAME, claim, [Reading("not worse than euclidean", [], gone),
                                            Reading("better than lda", [], gone)],
                              register="s2-2-1-rca-multimodal")
    s = r["comparisons"]
    return readings_claim(NAME, claim, [
        Reading("not worse than euclidean", [_not_worse(s["rca_vs_euclidean"])],
                _diff_text(s["rca_vs_euclidean"], "XOR classes, kNN test error RCA minus "
                           "Euclidean") + " (at most 2 SE needed)"),
        Reading("better than lda", [_paired(s["rca_vs_lda"], "less")],
                _diff_text(s["rca_vs_lda"], "RCA minus LDA") + " (below, beyond 2 SE, "
                "p < 0.05 needed)")], register="s2-2-1-rca-multimodal")


def lda_multimodal(records) -> dict:
    """s2-2-1-lda-multimodal-wrong (line 1150)."""
    r = records.get("multimodal")
    claim = ("If the input is sampled from multimodal distributions, minimizing the within "
             "class spread can be the wrong intuition (2.2.1)")
    if r is None or r.get("status") != "ok":
        gone = _not_run("multimodal", r)
        return readings_claim(NAME, claim, [Reading("lda hurts", [], gone),
                                            Reading("lmnn does not", [], gone)],
                              register="s2-2-1-lda-multimodal-wrong")
    s = r["comparisons"]
    return readings_claim(NAME, claim, [
        Reading("lda hurts", [_paired(s["lda_vs_euclidean"], "greater")],
                _diff_text(s["lda_vs_euclidean"], "XOR classes, kNN test error LDA minus "
                           "Euclidean") + " (above, beyond 2 SE, p < 0.05 needed)"),
        Reading("lmnn does not", [_not_worse(s["lmnn_vs_euclidean"])],
                _diff_text(s["lmnn_vs_euclidean"], "LMNN minus Euclidean")
                + " (at most 2 SE needed)")], register="s2-2-1-lda-multimodal-wrong")


def lda_bayes(records) -> dict:
    """s2-1-5-lda-recovers-bayes-boundary (line 725): most runs of each size."""
    r = records.get("half_square")
    claim = ("For this synthetic distribution [the half-square] LDA generally recovers the "
             "perfect Bayes-optimal decision boundary (2.1.5)")
    if r is None or r.get("status") != "ok":
        gone = _not_run("half_square", r)
        return readings_claim(NAME, claim, [Reading("boundary geometry", [], gone, "every"),
                                            Reading("error", [], gone, "every")],
                              register="s2-1-5-lda-recovers-bayes-boundary")
    sizes = r["sizes"]
    geometry = Reading(
        "boundary geometry", [significant(s["p_boundary_most"], s["p_boundary_fewer"])
                              for s in sizes],
        f"runs whose LDA boundary is within {r['degrees']:g} degrees of horizontal and "
        f"crosses x = 5 within {r['offset']:g} of y = 5: " + ", ".join(
            f"n = {s['n']}: {s['boundary_ok']} of {s['runs']} (binomial p = "
            f"{s['p_boundary_most']:.3g})" for s in sizes) + " (most, p < 0.05, at every size "
        "needed)", "every")
    error = Reading(
        "error", [significant(s["p_error_most"], s["p_error_fewer"]) for s in sizes],
        f"runs whose LDA misclassification probability is below {100 * r['error']:g} %: "
        + ", ".join(f"n = {s['n']}: {s['error_ok']} of {s['runs']} (median "
                    f"{100 * s['median_error']:.3g} %, p = {s['p_error_most']:.3g})"
                    for s in sizes), "every")
    return readings_claim(NAME, claim, [geometry, error],
                          register="s2-1-5-lda-recovers-bayes-boundary")


def register_claims(records: dict) -> list[dict]:
    """Every register entry this result decides, from ``{group: record}``."""
    return [svd_optima(records), two_minima(records), pca_global(records),
            pca_subspace(records),
            pca_reconstruction(records, "s2-2-1-pca-min-reconstruction-1080",
                               "This projection [onto the d leading eigenvectors] minimizes "
                               "the squared reconstruction error (2.2.1)"),
            pca_reconstruction(records, "s2-2-1-pca-min-l2-provably",
                               "PCA provably finds the low dimensional projection with the "
                               "minimum L_2 reconstruction error (2.2.1)"),
            pca_not_invariant(records), whitening(records), eig_speedup(records),
            bottleneck(records), amplify_noise(records), rca_multimodal(records),
            extrema_eigenvectors(records), lda_invariant(records), lda_global(records),
            cw_rank(records), cw_singular(records), lda_multimodal(records),
            lda_bayes(records)]
