"""The claims-register entries of Fig. 2.20 (thesis 2.2.1, lines 1061-1148) and the
lecture's PCA-against-FDA sentence, each decided under the entry's readings
(``harness/claims_register/chapter_2.yaml``, ``lectures.yaml``). The figure's own
three statements stay illustrations, not counted (see ``write.claims``); these are the
register's readings, and a reading that holds by construction is shown without a
check, never counted:

* the within-chunklet covariance after RCA is the identity by construction (RCA
  whitens exactly that matrix, 2.24): the readings *equalise* and *chunklet estimate*
  have no check;
* PCA's first component is the sample's direction of maximum variance by construction:
  the reading *sample* of ``s2-2-1-fig-2-20-pca-max-variance`` has no check.

Measured per trial from the record's points, labels and maps (columns of the CSV,
:func:`trial_columns`): RCA's scale ratio between the input's directions of largest
and smallest within-class variance (full labels) and within-chunklet variance
(``rca_scale_ratio``, ``rca_chunklet_scale_ratio``: ``|A v_max| / |A v_min|``); the
angle of PCA's first direction to the leading eigenvector of the population (mixture)
covariance ``Sigma + delta delta^T / 4`` (``pca_population_angle``); the lowest 1-NN
leave-one-out error of a 1-D projection over :data:`GRID` directions
(``best_grid_loo_error``).

Readings whose test is "over 20 draws" (or "mean over 20 draws") need 20 trials; the
profiles run fewer (``n_trials``), so they read "not measured" with our numbers, unless
a per-draw part fails. Data sets the register adds (iris, wine) are not run by this
result: a claim about every one of them passes its checks through
:func:`harness.claims.about_every`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from harness.claims import Reading, about_every, beyond_noise, make_claim, readings_claim
from harness.metrics.knn_error import knn_loo_error
from harness.results.fig_2_20 import NAME

__all__ = ["DRAWS", "GRID", "FIG", "trial_columns", "span", "register_claims"]

#: "over 20 draws", "mean over 20 draws"
DRAWS = 20
#: directions of the dense grid of 1-D projections (0.5 degrees apart)
GRID = 360
FIG = "the Fig. 2.20 data"


def _scale_ratio(A: np.ndarray, C: np.ndarray) -> float:
    """``|A v_max| / |A v_min|`` for the unit eigenvectors of ``C`` of its largest and
    smallest eigenvalue."""
    vectors = np.linalg.eigh(C)[1]
    return float(np.linalg.norm(A @ vectors[:, -1]) / np.linalg.norm(A @ vectors[:, 0]))


def trial_columns(record: dict) -> dict[str, dict]:
    """The register's measures of one trial's record, by the frame row (method) that
    holds them."""
    from harness.methods.rca_knn import within_chunklet_covariance

    from harness.results.fig_2_20.work import angle_degrees, two_gaussians

    X, y = np.asarray(record["points"]), np.asarray(record["labels"])
    chunks = np.asarray(record["chunklets"])
    A = np.asarray(record["maps"]["rca"])
    _, _, Sigma, delta = two_gaussians(record["params"])
    mixture = Sigma + np.outer(delta, delta) / 4.0
    pca = np.asarray(record["directions"]["pca"]["direction"])
    grid = np.linspace(0.0, math.pi, GRID, endpoint=False)
    best = min(knn_loo_error(X @ np.array([math.cos(t), math.sin(t)])[:, None], y, 1)
               for t in grid)
    chunk_eigen = record["chunklet_eigenvalues_rca"]
    return {"rca": {"rca_scale_ratio": _scale_ratio(A, within_chunklet_covariance(X, y)),
                    "rca_chunklet_scale_ratio": _scale_ratio(A, within_chunklet_covariance(
                        X, chunks)),
                    "chunklet_min_rca": min(chunk_eigen), "chunklet_max_rca": max(chunk_eigen)},
            "pca": {"pca_population_angle": angle_degrees(
                pca, np.linalg.eigh(mixture)[1][:, -1])},
            "lda": {"best_grid_loo_error": 100.0 * best}}


def _method(frame: pd.DataFrame, method: str) -> pd.DataFrame:
    if "method" not in frame:
        return frame.iloc[0:0]
    return frame[(frame["status"] == "ok") & (frame["method"] == method)].set_index("trial")


def _pair(pca: pd.DataFrame, lda: pd.DataFrame, more=()) -> pd.DataFrame:
    """Per trial measured by both: ``loo_error_pca``, ``loo_error_lda`` and ``more``
    columns of LDA's rows."""
    return pca[["loo_error"]].add_suffix("_pca").join(
        lda[["loo_error"]].add_suffix("_lda").join(lda[list(more)]), how="inner")


def span(values, spec=".3g", empty: str = "not measured") -> str:
    """The smallest and largest of ``values`` as ``"a to b"`` (one number when they are
    equal; ``empty`` when there are none)."""
    values = list(values)
    if not values:
        return empty
    low, high = min(values), max(values)
    return format(low, spec) if low == high else f"{format(low, spec)} to {format(high, spec)}"


def _draws_note(count: int) -> str:
    return (f"no verdict: the reading is over {DRAWS} draws, {count} measured"
            if count < DRAWS else "")


def _over_draws(name: str, checks: list, count: int, evidence: str) -> Reading:
    """A reading over :data:`DRAWS` draws: decided by a failing draw or once every draw
    is measured, else no check."""
    if count >= DRAWS or any(c is False for c in checks):
        return Reading(name, checks, evidence)
    return Reading(name, [], f"{evidence}; {_draws_note(count)}")


def _chunklet_text(rca: pd.DataFrame) -> str:
    return (f"within-chunklet eigenvalues after RCA: smallest {span(rca['chunklet_min_rca'], '.6f')}, "
            f"largest {span(rca['chunklet_max_rca'], '.6f')}")


def _by_construction(name: str, evidence: str) -> Reading:
    return Reading(name, [], f"{evidence}; holds by construction, shown and not counted")


def _three_sets(checks: list, evidence: str, name: str) -> Reading:
    kept, why = about_every(checks, [FIG, "iris", "wine"], [FIG] if checks else [])
    return Reading(name, kept, evidence + (f"; {why} (iris and wine are not run by this "
                                           f"result)" if why else ""))


def _rca_enhance(rca: pd.DataFrame) -> dict:
    literal = _three_sets(
        [r > 1.1 for r in rca["rca_scale_ratio"]],
        f"RCA's scale of the input's direction of largest within-class variance over that "
        f"of smallest {span(rca['rca_scale_ratio'])} over {len(rca)} trials (above 1.1 "
        f"needed)", "literal enhance")
    whitened = _three_sets(
        [abs(lo - 1) <= 0.5 and abs(hi - 1) <= 0.5
         for lo, hi in zip(rca["within_min_rca"], rca["within_max_rca"])],
        f"within-class eigenvalues after RCA {span(rca['within_min_rca'])} (smallest), "
        f"{span(rca['within_max_rca'])} (largest) (within 0.5 of 1 needed)", "whitened")
    return readings_claim(NAME, "RCA de-noises with PCA, then projects onto directions that "
                          "enhance the within-class variance (2.2.1)", [literal, whitened],
                          register="s2-2-1-rca-enhance-within-class")


def _rca_amplifies(rca: pd.DataFrame) -> dict:
    literal = _three_sets(
        [r > 1.1 for r in rca["rca_chunklet_scale_ratio"]],
        f"RCA's scale of the input's direction of largest within-chunklet variance over that "
        f"of smallest {span(rca['rca_chunklet_scale_ratio'])} over {len(rca)} trials (above "
        f"1.1 needed; RCA (2.24) scales a direction of chunklet variance lambda by 1 / "
        f"sqrt(lambda))", "literal amplify")
    equalise = _by_construction(
        "equalise", _chunklet_text(rca))
    return readings_claim(NAME, "RCA amplifies the directions responsible for the variance "
                          "within chunklets (2.2.1)", [literal, equalise],
                          register="s2-2-1-rca-amplifies-within-chunklet")


def _rca_uniform(rca: pd.DataFrame) -> dict:
    near = Reading(
        "near identity",
        [abs(lo - 1) <= 0.5 and abs(hi - 1) <= 0.5 and hi / lo <= 2
         for lo, hi in zip(rca["within_min_rca"], rca["within_max_rca"])],
        f"within-class eigenvalues (all labels) after RCA {span(rca['within_min_rca'])} "
        f"(smallest), {span(rca['within_max_rca'])} (largest) over {len(rca)} trials "
        f"(within 0.5 of 1, ratio at most 2 needed)")
    chunklet = _by_construction(
        "chunklet estimate", _chunklet_text(rca))
    return readings_claim(NAME, "RCA whitens the within-class variance to uniform "
                          "covariance (2.2.1, Fig. 2.20)", [near, chunklet],
                          register="s2-2-1-rca-whitens-uniform")


def _pca_max_variance(pca: pd.DataFrame) -> dict:
    sample = _by_construction("sample", f"PCA's projected variance over the grid maximum "
                              f"{span(pca['variance_share'], '.6f')}")
    angles = pca["pca_population_angle"]
    population = _over_draws(
        "population", [], len(pca),
        f"angle of PCA's first direction to the population covariance's leading "
        f"eigenvector {span(angles)} degrees over {len(pca)} trials (mean over {DRAWS} "
        f"draws at most 5 needed)")
    if len(pca) >= DRAWS:
        population = Reading("population", [angles.mean() <= 5], population.evidence)
    return readings_claim(NAME, "The first PCA principal component reveals the direction "
                          "with maximum variance (2.2.1, Fig. 2.20)", [sample, population],
                          register="s2-2-1-fig-2-20-pca-max-variance")


def _wrong_intuition(pca: pd.DataFrame, lda: pd.DataFrame) -> dict:
    both = _pair(pca, lda)
    gap = both["loo_error_pca"] - both["loo_error_lda"]
    checks = [g > 10 for g in gap] + ([gap.mean() > 10] if len(both) >= DRAWS else [])
    evidence = (f"1-NN leave-one-out error along the first direction: PCA "
                f"{span(both['loo_error_pca'])} %, LDA {span(both['loo_error_lda'])} % "
                f"over {len(both)} trials (PCA above LDA by more than 10 points needed, on "
                f"a draw and in the mean over {DRAWS} draws)")
    if len(both) < DRAWS:
        checks, evidence = [], f"{evidence}; {_draws_note(len(both))}"
    return make_claim(NAME, "For classification, extracting the features that capture "
                      "maximum variance can be the wrong intuition (2.2.1, Fig. 2.20)",
                      checks, evidence, register="s2-2-1-pca-wrong-intuition")


def _lda_separates(pca: pd.DataFrame, lda: pd.DataFrame) -> dict:
    both = _pair(pca, lda, ("best_grid_loo_error",))
    diff = both["loo_error_pca"] - both["loo_error_lda"]
    se = diff.std(ddof=1) / math.sqrt(len(diff)) if len(diff) > 1 else math.nan
    beats = _over_draws("lda beats pca", [beyond_noise(diff.mean(), 2 * se)], len(both),
                        f"1-NN leave-one-out error PCA {span(both['loo_error_pca'])} %, LDA "
                        f"{span(both['loo_error_lda'])} % (LDA below by more than 2 standard "
                        f"errors over the paired draws needed)")
    best = Reading(
        "lda best direction",
        [r.loo_error_lda - r.best_grid_loo_error <= 1 for r in both.itertuples()],
        "1-NN leave-one-out error, LDA's direction against the best of "
        f"{GRID} directions: " + ", ".join(
            f"trial {t}: {r.loo_error_lda:.2f} % vs {r.best_grid_loo_error:.2f} %"
            for t, r in both.iterrows()) + " (within 1 point needed)")
    return readings_claim(NAME, "The projection direction of LDA best separates the two "
                          "classes (2.2.1, Fig. 2.20)", [beats, best],
                          register="s2-2-1-fig-2-20-lda-separates")


def _lda_bayes(lda: pd.DataFrame) -> dict:
    angles = lda["angle_to_bayes_degrees"]
    reading = _over_draws("angle", [a <= 5 for a in angles], len(lda),
                          f"LDA's angle to Sigma^-1 (mu_1 - mu_0) {span(angles)} degrees "
                          f"over {len(lda)} trials (at most 5 needed, on a draw and in the "
                          f"mean over {DRAWS} draws)")
    checks = reading.checks + ([angles.mean() <= 5] if len(lda) >= DRAWS else [])
    return make_claim(NAME, "With two Gaussian classes of identical covariance the first "
                      "LDA component recovers the direction orthogonal to the optimal Bayes "
                      "classifier (2.2.1)", checks, reading.evidence,
                      register="s2-2-1-lda-bayes-direction")


def _lecture(pca: pd.DataFrame, lda: pd.DataFrame) -> dict:
    both = _pair(pca, lda)
    n = pca["n_samples"] if "n_samples" in pca else pd.Series(dtype=float)
    checks = []
    for trial, r in both.iterrows():
        p, q, size = r.loo_error_pca / 100, r.loo_error_lda / 100, n.get(trial, math.nan)
        se = 100 * math.sqrt((p * (1 - p) + q * (1 - q)) / size)
        checks.append(beyond_noise(r.loo_error_pca - r.loo_error_lda, 2 * se))
    return make_claim(NAME, "Projecting on the direction of maximum variation does not "
                      "discriminate two elongated classes as FDA does (lecture)", checks,
                      f"1-NN leave-one-out error of the 1-D projection: PCA "
                      f"{span(both['loo_error_pca'])} %, LDA {span(both['loo_error_lda'])} "
                      f"% over {len(both)} trials (PCA above by more than 2 binomial "
                      f"standard errors of the difference of the two errors needed, on one "
                      f"trial)", register="lec-pca-vs-fda-discrimination")


def register_claims(frame: pd.DataFrame) -> list[dict]:
    """The eight entries' claims from the figure's frame (``write.build`` with
    :func:`trial_columns`' columns)."""
    pca, rca, lda = (_method(frame, m) for m in ("pca", "rca", "lda"))
    return [_rca_enhance(rca), _rca_amplifies(rca), _rca_uniform(rca), _pca_max_variance(pca),
            _wrong_intuition(pca, lda), _lda_separates(pca, lda), _lda_bayes(lda),
            _lecture(pca, lda)]
