"""The claims-register entries of sections 3.1.2 and 3.1.3 (thesis lines 1334-1379),
each decided under the entry's readings (``harness/claims_register/chapter_3.yaml``)
from the records of this result's jobs (:mod:`.work`), passed as ``{group: record}``.

A theorem counts only against numbers computed independently of the formula it is
about: classical MDS against PCA's SVD and against L-BFGS on (3.4), ``G``'s eigenvalues
against those of the covariance, an order-preserving embedding exhibited for each random
matrix. The residual identity below (3.5) re-evaluates the eigen-decomposition it is
about: shown, not counted. A claim about *every* one of its named data sets is decided
through :func:`harness.claims.about_every`, one about *some* one through
:func:`harness.claims.about_some`, one about *most* through
:func:`harness.claims.about_most`.

Choices where a registered tolerance names no denominator: the eigenvalue ratio's
"relative 1e-8" is read relative to ``G``'s largest eigenvalue -- the scale of the
entry's own 1e-10 rank threshold, at which a double-precision eigenvalue carries ~1e-6
relative rounding -- and the per-eigenvalue deviation is shown beside it; ``S'``'s
"relative 1e-8" is relative to the eigen solution's ``S'``, floored at 1e-12 of
``||G||_F^2`` (``S'`` is 0 once r reaches G's rank). A "monotone increasing" median is
one with no drop between neighbouring bins beyond two bootstrap standard errors and a
rise from the first bin to the last beyond two.
"""

from __future__ import annotations

import math

from harness.claims import (
    Reading, about_every, about_most, about_some, beyond_noise, make_claim, readings_claim,
)
from harness.results.common.write.check_groups import not_run, record_ok
from harness.results.mds_3_1_2 import NAME

__all__ = ["NAMED", "monotone_checks", "register_claims"]

#: the data sets each register entry names (its reading's ``test``)
NAMED = {
    "s3-1-2-metric-mds-local-minima": ("swiss_roll", "mnist"),
    "s3-1-2-classical-mds-global-minimum-by-eigenvectors": ("swiss_roll", "mnist", "gaussian"),
    "s3-1-2-classical-mds-residual": ("swiss_roll", "mnist", "gaussian"),
    "s3-1-2-mds-identical-to-pca": ("swiss_roll", "mnist", "olivetti"),
    "s3-1-2-pca-mds-same-rank-eigenvalues": ("swiss_roll", "mnist", "olivetti"),
    "s3-1-2-nonmetric-mds-depends-on-initialisation": ("swiss_roll", "mnist"),
    "s3-1-2-nonmetric-mds-classical-init-good": ("swiss_roll", "mnist", "olivetti"),
    "s3-1-2-nonmetric-mds-more-effective-low-dim": ("swiss_roll", "mnist", "olivetti"),
}
LABEL = {"swiss_roll": "Swiss roll", "mnist": "MNIST subsample", "gaussian": "Gaussian",
         "olivetti": "olivetti"}
#: registered tolerances
EXACT = 1e-8
RELATIVE = 0.01


def _label(name: str) -> str:
    return LABEL.get(name, name)




def _cases(record, named) -> dict:
    """The measured cases of ``named``, by data set."""
    return {d: record["cases"][d] for d in named if d in record["cases"]}


def _gaps(record, named) -> str:
    """``"; not measured: mnist (reason)"`` for the named data sets without a case."""
    gone = [f"{_label(d)} ({record['unavailable'].get(d, 'not in this profile')[:80]})"
            for d in named if d not in record["cases"]]
    return ("; not measured: " + ", ".join(gone)) if gone else ""


def _with_note(evidence: str, note: str) -> str:
    return evidence + (f"; {note}" if note else "")


# ---- classical MDS ----------------------------------------------------------------------
def global_minimum(records) -> dict:
    """s3-1-2-classical-mds-global-minimum-by-eigenvectors (line 1340)."""
    entry = "s3-1-2-classical-mds-global-minimum-by-eigenvectors"
    claim = ("The global minima of S' (3.3) can be computed as the eigenvectors of G "
             "(3.1.2)")
    r = records.get("classical")
    if not record_ok(r):
        return make_claim(NAME, claim, [], not_run(NAME, "classical", r), register=entry)
    named = NAMED[entry]
    cases = _cases(r, named)
    checks = [o["advantage"] >= -EXACT for c in cases.values() for o in c["optima"]]
    checks, note = about_every(checks, named, cases)
    evidence = "; ".join(
        f"{_label(d)} (n = {c['n']}): " + ", ".join(
            f"r = {o['r']}: S' {o['eigen']:.6g} (eigenvectors) against best {o['best_optimiser']:.6g} "
            f"of L-BFGS-B from {o['starts']} random starts, relative advantage {o['advantage']:.3g}"
            for o in c["optima"]) for d, c in cases.items())
    return make_claim(NAME, claim, checks, _with_note(
        evidence + f" (at least -{EXACT:g} needed)" + _gaps(r, named), note), register=entry)


def residual(records) -> dict:
    """s3-1-2-classical-mds-residual (line 1348): an identity of the decomposition it is
    about (shown, not counted)."""
    entry = "s3-1-2-classical-mds-residual"
    claim = "Classical MDS' residual is S'(Y) = sum_{i>r} lambda_i^2 (3.1.2)"
    r = records.get("classical")
    if not record_ok(r):
        return make_claim(NAME, claim, [], not_run(NAME, "classical", r), register=entry)
    cases = _cases(r, NAMED[entry])
    shown = "; ".join(
        f"{_label(d)}: " + ", ".join(
            f"r = {x['r']}: {x['residual']:.8g} against {x['discarded_squared']:.8g}"
            for x in c["residuals"]) for d, c in cases.items())
    return make_claim(NAME, claim, [], shown + "; ||G - Y Y^T||_F^2 of the eigen solution "
                      "re-evaluates the eigen-decomposition it is computed from (an identity "
                      "up to rounding): shown, not counted" + _gaps(r, NAMED[entry]),
                      register=entry)


def identical_to_pca(records) -> dict:
    """s3-1-2-mds-identical-to-pca (line 1350)."""
    entry = "s3-1-2-mds-identical-to-pca"
    claim = "The embedding of classical MDS is identical to that of PCA (3.1.2)"
    r = records.get("classical")
    if not record_ok(r):
        return make_claim(NAME, claim, [], not_run(NAME, "classical", r), register=entry)
    named = NAMED[entry]
    cases = _cases(r, named)
    checks, note = about_every([c["pca_max_deviation"] < EXACT for c in cases.values()],
                               named, cases)
    evidence = "; ".join(
        f"{_label(d)} (n = {c['n']}, p = {c['p']}): largest |MDS - PCA| over "
        f"{c['pca_dimensions_compared']} of {c['pca_dimension']} dimensions (sign aligned, "
        f"tied eigenvalues excluded) {c['pca_max_deviation']:.3g} of the largest coordinate"
        for d, c in cases.items())
    return make_claim(NAME, claim, checks, _with_note(
        evidence + f" (below {EXACT:g} needed)" + _gaps(r, named), note), register=entry)


def same_rank_eigenvalues(records) -> dict:
    """s3-1-2-pca-mds-same-rank-eigenvalues (line 1350)."""
    entry = "s3-1-2-pca-mds-same-rank-eigenvalues"
    claim = ("PCA's covariance and MDS' inner-product matrix have the same rank and "
             "eigenvalues up to a constant factor (3.1.2)")
    r = records.get("classical")
    if not record_ok(r):
        return make_claim(NAME, claim, [], not_run(NAME, "classical", r), register=entry)
    named = NAMED[entry]
    cases = _cases(r, named)
    checks, note = about_every(
        [c["rank_gram"] == c["rank_covariance"] and c["scaled_deviation"] < EXACT
         for c in cases.values()], named, cases)
    evidence = "; ".join(
        f"{_label(d)}: rank {c['rank_gram']} (G) and {c['rank_covariance']} (C), eigenvalue "
        f"ratios {c['ratio_min']:.10g} .. {c['ratio_max']:.10g} (n = {c['ratio_expected']:.0f}), "
        f"largest |lambda_G - n lambda_C| {c['scaled_deviation']:.3g} of G's largest "
        f"eigenvalue (per eigenvalue {c['ratio_deviation']:.3g}, shown)" for d, c in cases.items())
    return make_claim(NAME, claim, checks, _with_note(
        evidence + f" (equal ranks and below {EXACT:g} needed)" + _gaps(r, named), note),
        register=entry)


def subspace_dimension(records) -> dict:
    """s3-1-2-linear-eigenvalues-reveal-subspace-dimension (line 1350)."""
    entry = "s3-1-2-linear-eigenvalues-reveal-subspace-dimension"
    claim = ("For inputs in a linear subspace the eigenvalues reveal its dimensionality "
             "(3.1.2)")
    r = records.get("subspace")
    if not record_ok(r):
        return make_claim(NAME, claim, [], not_run(NAME, "subspace", r), register=entry)
    checks = [count == row["d"] for row in r["dimensions"] for count in row["counts"]]
    evidence = (f"PCA eigenvalues above {r['share']:g} of the trace, n = {r['n']} points in a "
                f"random d-dimensional subspace of R^{r['ambient']} plus noise at "
                f"{r['noise_ratio']:g} of the signal's standard deviation: " + ", ".join(
                    f"d = {row['d']}: count = d in {row['correct']} of {row['draws']} draws"
                    for row in r["dimensions"]))
    return make_claim(NAME, claim, checks, evidence, register=entry)


# ---- metric and non-metric MDS ----------------------------------------------------------
def metric_local_minima(records) -> dict:
    """s3-1-2-metric-mds-local-minima (line 1334)."""
    entry = "s3-1-2-metric-mds-local-minima"
    claim = "The loss (3.2) [metric MDS] suffers from local minima (3.1.2)"
    r = records.get("metric")
    if not record_ok(r):
        return make_claim(NAME, claim, [], not_run(NAME, "metric", r), register=entry)
    named = NAMED[entry]
    cases = {d: c for d, c in _cases(r, named).items() if c["converged"] >= 2}
    checks, note = about_some({d: c["distinct_values"] >= 2 for d, c in cases.items()}, named)
    evidence = "; ".join(
        f"{_label(d)} (n = {c['n']}, r = 2): {c['converged']} of {c['starts']} L-BFGS-B runs "
        f"converged, final losses {c['best_loss']:.6g} .. {c['worst_loss']:.6g} "
        f"({c['distinct_values']} distinct beyond {100 * RELATIVE:g} %)"
        for d, c in _cases(r, named).items())
    return make_claim(NAME, claim, checks, _with_note(
        evidence + " (two distinct converged values needed)" + _gaps(r, named), note),
        register=entry)


def nonmetric_initialisation(records) -> dict:
    """s3-1-2-nonmetric-mds-depends-on-initialisation (line 1362)."""
    entry = "s3-1-2-nonmetric-mds-depends-on-initialisation"
    claim = "Non-metric MDS is non-convex and depends on its initialisation (3.1.2)"
    r = records.get("nonmetric")
    if not record_ok(r):
        return make_claim(NAME, claim, [], not_run(NAME, "nonmetric", r), register=entry)
    named = NAMED[entry]
    cases = _cases(r, named)
    checks, note = about_some({d: c["random_spread"] > RELATIVE for d, c in cases.items()}, named)
    evidence = "; ".join(
        f"{_label(d)} (n = {c['n']}): stress-1 (3.6) from {len(c['random'])} random starts "
        f"{c['random_best']:.5g} .. {c['random_worst']:.5g} (spread "
        f"{100 * c['random_spread']:.3g} %)" for d, c in cases.items())
    return make_claim(NAME, claim, checks, _with_note(
        evidence + f" (a spread above {100 * RELATIVE:g} % needed)" + _gaps(r, named), note),
        register=entry)


def classical_initialisation(records) -> dict:
    """s3-1-2-nonmetric-mds-classical-init-good (line 1362): two readings, most data
    sets."""
    entry = "s3-1-2-nonmetric-mds-classical-init-good"
    claim = ("Initialising non-metric MDS with classical MDS is a good choice in practice "
             "(3.1.2)")
    r = records.get("nonmetric")
    if not record_ok(r):
        gone = not_run(NAME, "nonmetric", r)
        return readings_claim(NAME, claim, [Reading("vs median random", [], gone),
                                            Reading("vs best random", [], gone)], register=entry)
    named = NAMED[entry]
    cases = _cases(r, named)
    readings = []
    for name, key in (("vs median random", "random_median"), ("vs best random", "random_best")):
        passed = {d: c["from_classical"]["stress_one"] <= c[key] * (1.0 + RELATIVE)
                  for d, c in cases.items()}
        checks, note = about_most(passed, named)
        evidence = "; ".join(
            f"{_label(d)}: stress-1 {c['from_classical']['stress_one']:.5g} from classical MDS "
            f"against {c[key]:.5g}" for d, c in cases.items())
        readings.append(Reading(name, checks, _with_note(
            evidence + f" (at most {100 * RELATIVE:g} % above, on most of "
            f"{', '.join(_label(d) for d in named)})" + _gaps(r, named), note)))
    return readings_claim(NAME, claim, readings, register=entry)


def more_effective(records) -> dict:
    """s3-1-2-nonmetric-mds-more-effective-low-dim (line 1364): two readings, some data
    set. The non-metric embedding is the median-stress run of the random starts (the
    typical run, independent of classical MDS)."""
    entry = "s3-1-2-nonmetric-mds-more-effective-low-dim"
    claim = "Non-metric MDS in low dimensions can be more effective than classical MDS (3.1.2)"
    r = records.get("nonmetric")
    if not record_ok(r):
        gone = not_run(NAME, "nonmetric", r)
        return readings_claim(NAME, claim, [Reading("stress-1", [], gone),
                                            Reading("rank preservation", [], gone)],
                              register=entry)
    named = NAMED[entry]
    cases = _cases(r, named)
    stress = {d: beyond_noise(c["classical"]["stress_one"] - c["median_run"]["stress_one"],
                              RELATIVE * c["classical"]["stress_one"]) for d, c in cases.items()}
    rank = {d: beyond_noise(c["median_run"]["spearman"] - c["classical"]["spearman"], RELATIVE)
            for d, c in cases.items()}
    readings = []
    for name, passed, key, what, tol in (
            ("stress-1", stress, "stress_one", "stress-1 (3.6)", f"{100 * RELATIVE:g} % relative"),
            ("rank preservation", rank, "spearman", "Spearman correlation of input and output "
             "distances", f"{RELATIVE:g}")):
        checks, note = about_some(passed, named)
        evidence = "; ".join(
            f"{_label(d)}: {what} {c['median_run'][key]:.5g} (non-metric, median of "
            f"{len(c['random'])} random starts) against {c['classical'][key]:.5g} (classical)"
            for d, c in cases.items())
        readings.append(Reading(name, checks, _with_note(
            evidence + f" (better beyond {tol} on some one needed)" + _gaps(r, named), note)))
    return readings_claim(NAME, claim, readings, register=entry)


def order_preserving(records) -> dict:
    """s3-1-2-order-preserving-euclidean-embedding-exists (line 1364)."""
    entry = "s3-1-2-order-preserving-euclidean-embedding-exists"
    claim = ("For any symmetric dissimilarity matrix there is a Euclidean embedding that "
             "strictly preserves the order of all dissimilarities (3.1.2)")
    r = records.get("order")
    if not record_ok(r):
        return make_claim(NAME, claim, [], not_run(NAME, "order", r), register=entry)
    checks = [ok for row in r["sizes"] for ok in
              [True] * (row["matrices"] - row["matrices_with_violation"])
              + [False] * row["matrices_with_violation"]]
    evidence = (f"classical MDS of D + c (ee^T - I), c {r['shift_factor']:g} times the smallest "
                "shift making G PSD, in n - 1 dimensions, on random symmetric D (U[0, 1] entries): " + ", ".join(
                    f"n = {row['n']}: {row['matrices_with_violation']} of {row['matrices']} "
                    f"matrices with a pair of pairs out of order ({row['violated_pairs']} pairs; "
                    f"median c {row['median_shift']:.3g})" for row in r["sizes"])
                + f" (ties below {r['tie']:g} not compared)")
    return make_claim(NAME, claim, checks, evidence, register=entry)


def us_cities_map(records) -> dict:
    """s3-1-2-fig-3-3-classical-mds-us-cities (line 1326)."""
    entry = "s3-1-2-fig-3-3-classical-mds-us-cities"
    claim = ("Classical MDS of the flight distances of n = 1097 US cities recovers their "
             "map in its first two dimensions (Fig. 3.3)")
    r = records.get("us_cities")
    if not record_ok(r):
        return make_claim(NAME, claim, [], not_run(NAME, "us_cities", r), register=entry)
    return make_claim(
        NAME, claim, [r["relative_residual"] < RELATIVE],
        f"the {r['n']} most populous continental-US cities of GeoNames (at least "
        f"{r['smallest_population']} people), great-circle distances: residual of a similarity "
        f"Procrustes fit of the 2-D classical MDS embedding to their equal-area map "
        f"{r['relative_residual']:.3g} of the map's variance (below {RELATIVE:g} needed); "
        f"eigenvalue shares " + ", ".join(f"{v:.3g}" for v in r["eigenvalue_shares"][:3]),
        register=entry)


# ---- Fig. 3.4's geodesics ----------------------------------------------------------------
def monotone_checks(bins: list[dict]) -> list:
    """The checks of a median that increases over ``bins`` (each ``median_ratio`` with
    its bootstrap ``se``): a drop between neighbours beyond two standard errors is a
    counterexample; the rise from the first bin to the last is judged by
    :func:`harness.claims.beyond_noise` at two standard errors.

    Examples
    --------
    >>> b = lambda m: {"median_ratio": m, "se": 0.01}
    >>> monotone_checks([b(1.0), b(1.5), b(2.0)])
    [True]
    >>> monotone_checks([b(1.0), b(1.5), b(1.2), b(2.0)])
    [True, False]
    """
    def two_se(a, b):
        return 2.0 * math.hypot(a["se"], b["se"])

    drops = [False for a, b in zip(bins, bins[1:])
             if b["median_ratio"] - a["median_ratio"] < -two_se(a, b)]
    rise = beyond_noise(bins[-1]["median_ratio"] - bins[0]["median_ratio"],
                        two_se(bins[0], bins[-1]))
    return [rise, *drops]


def _max_ratio(records, entry: str, claim: str, word: str) -> dict:
    r = records.get("geodesic")
    if not record_ok(r):
        return make_claim(NAME, claim, [], not_run(NAME, "geodesic", r), register=entry)
    return make_claim(NAME, claim, [r["max_ratio"] >= 2.0],
                      f"noise-free Swiss roll, n = {r['n']}: largest geodesic / Euclidean ratio "
                      f"over all pairs {r['max_ratio']:.4g} ('{word}' read as at least 2)",
                      register=entry)


def locally_linear(records) -> dict:
    """s3-1-3-only-locally-linear (line 1374): two readings."""
    entry = "s3-1-3-only-locally-linear"
    claim = "Manifolds are only locally linear but not globally (3.1.3, Fig. 3.4)"
    r = records.get("geodesic")
    if not record_ok(r):
        gone = not_run(NAME, "geodesic", r)
        return readings_claim(NAME, claim, [Reading("local vs global", [], gone),
                                            Reading("monotone", [], gone)], register=entry)
    local = Reading(
        "local vs global",
        [abs(r["local_median_ratio"] - 1.0) <= 0.05, r["global_median_ratio"] > 1.2],
        f"median geodesic / Euclidean ratio {r['local_median_ratio']:.4g} among each point's "
        f"{r['k']} nearest neighbours (within 0.05 of 1 needed) and "
        f"{r['global_median_ratio']:.4g} among the {100 * r['global_fraction']:g} % most distant "
        f"pairs (above 1.2 needed), n = {r['n']}")
    bins = r["bins"]
    monotone = Reading(
        "monotone", monotone_checks(bins),
        f"median ratio in {len(bins)} equal-count bins of geodesic distance: " + ", ".join(
            f"{b['median_ratio']:.4g} +- {b['se']:.2g}" for b in bins)
        + f" (bootstrap standard errors over {r['bootstrap']} resamples; no drop beyond two "
          "and a rise beyond two needed)")
    return readings_claim(NAME, claim, [local, monotone], register=entry)


def register_claims(records: dict) -> list[dict]:
    """Every register entry this result decides, from ``{group: record}``."""
    return [metric_local_minima(records), global_minimum(records), residual(records),
            identical_to_pca(records), same_rank_eigenvalues(records),
            subspace_dimension(records), nonmetric_initialisation(records),
            classical_initialisation(records), more_effective(records),
            order_preserving(records), us_cities_map(records),
            _max_ratio(records, "s3-1-3-geodesic-significantly-different",
                       "The geodesic distance is significantly different from the Euclidean "
                       "distance (3.1.3, Fig. 3.4)", "significantly"),
            locally_linear(records),
            _max_ratio(records, "s3-1-3-fig-3-4-distances-differ-substantially",
                       "Globally the Euclidean and geodesic distances can differ "
                       "substantially (Fig. 3.4)", "substantially")]
