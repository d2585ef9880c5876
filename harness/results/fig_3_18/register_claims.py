"""The claims-register entries of Fig. 3.18 (thesis 3.1.8, lines 1716 and 1725),
decided under the entries' readings (``harness/claims_register/chapter_3.yaml``) from
this result's records, passed as ``{key: record}``.

Choices where a reading leaves room (fixed before the verdicts' numbers were measured):

* The images: MNIST's training part, 28 x 28 raw pixels in [0, 1], neither deskewed nor
  projected (chapter 3 never names chapter 2's pre-processing). The count reads the
  labels of the whole training part in every profile; the embeddings are of all twos
  and threes (the full profile) or of a seeded subset stratified by digit (the quick
  profile: its size is in every evidence string).
* Ink: an image's total ink is the sum of its pixel values; the first PCA score is the
  ``pca`` plugin's (centred, full SVD); one case, |r| >= 0.8.
* LLE's k, which the thesis does not give: each k of the profile ({8, 12}) is one case
  of each reading. Under the entry's quantifier ("most") two cases hold only when both
  pass, and fail as soon as one fails; while a k is not measured the reading has no
  verdict unless the measured one fails (:func:`harness.claims.about_every`). 2-means is
  scikit-learn's k-means (10 seeded restarts) on the two coordinates as LLE returns them
  (unit-norm eigenvectors, not rescaled); purity is the share of images whose digit is
  their cluster's majority; 1-NN is Euclidean in the embedding, leave one out. The
  thresholds (0.8) are the tolerance itself: no noise band.
* "Variational MVU" is the SDP's solution without CG (the figure's bottom left, which the
  quote names; the CG embedding is shown, not decided), on the m = 10 bottom LLE
  eigenvectors of the same k as the LLE it is compared with; each k is one case, a
  counterexample at either k decides. Continuity: local continuity (3.27) at l = 15;
  C(var) - C(LLE) beyond 0.01 holds, below -0.01 fails, between is undecided
  (:func:`harness.claims.beyond_noise`). Edge loss: "the graph" is variational MVU's
  own constraint graph at that k (each image with its k nearest neighbours, pairwise:
  3.1.4's clique graph); the loss is (3.26) at the embedding's best scale over the sum
  of the squared input lengths squared (:func:`harness.results.fig_3_18.work.edge_loss`,
  LLE's scale being arbitrary); the relative gain (L(LLE) - L(var)) / L(LLE) beyond 0.01
  holds, below -0.01 fails, between is undecided.
"""

from __future__ import annotations

import math

from harness.claims import Reading, about_every, beyond_noise, make_claim, readings_claim
from harness.results.common.write.check_groups import not_run, record_ok
from harness.results.fig_3_18 import COUNT, NAME, PCA, PREFIX

__all__ = ["THESIS_COUNT", "INK_MIN", "CLUSTER_MIN", "CONTINUITY_TOL", "LOSS_TOL", "gains",
           "mnist_count", "pca_ink", "lle_clusters", "variational_preserves_more",
           "register_claims"]

#: the thesis' n of Fig. 3.18
THESIS_COUNT = 12089
#: the readings' thresholds and noise bands
INK_MIN, CLUSTER_MIN, CONTINUITY_TOL, LOSS_TOL = 0.8, 0.8, 0.01, 0.01




def _sample(r: dict) -> str:
    """The images a job embedded, in words."""
    seed = (r.get("params") or {}).get("seed")
    if r["n"] < r["n_digits"]:
        return (f"a subset of n = {r['n']} of the {r['n_digits']} twos and threes, "
                f"stratified by digit (seed {seed})")
    return f"all n = {r['n']} twos and threes"


def _on(measured: dict) -> str:
    """``"on <the images>: "`` of the measured LLE jobs (one sample for every k)."""
    return f"on {_sample(next(iter(measured.values())))}: " if measured else ""


def _lle_jobs(records: dict) -> tuple[list[str], dict]:
    """``(every LLE job's k label, {k label: record} of the measured ones)``."""
    named = [key[len(PREFIX):] for key in records if key.startswith(PREFIX)]
    return named, {k: records[PREFIX + k] for k in named if record_ok(records[PREFIX + k])}


def _unmeasured(records: dict, named: list[str]) -> str:
    gone = [not_run(NAME, PREFIX + k, records.get(PREFIX + k)) for k in named
            if not record_ok(records.get(PREFIX + k))]
    return ("; " + "; ".join(gone)) if gone else ""


def gains(r: dict) -> dict:
    """What variational MVU gains over LLE in one LLE job's record: the continuity
    difference and the relative edge-loss gain (NaN where LLE's loss is 0)."""
    lle, var = r["lle"], r["variational"]
    loss = lle["edge_loss"]
    return {"continuity_gain": var["continuity"] - lle["continuity"],
            "edge_loss_relative_gain": (loss - var["edge_loss"]) / loss if loss > 0 else math.nan}


def mnist_count(records: dict) -> dict:
    """s3-1-8-mnist-twos-threes-count (line 1716)."""
    entry = "s3-1-8-mnist-twos-threes-count"
    claim = "MNIST's training set has n = 12089 handwritten twos and threes (3.1.8, Fig. 3.18)"
    r = records.get(COUNT)
    if not record_ok(r):
        return make_claim(NAME, claim, [], not_run(NAME, COUNT, r), register=entry)
    per = r["per_digit"]
    evidence = (f"labels of MNIST's {r['n_train']} training images: "
                + " + ".join(f"{v} {'twos' if d == '2' else 'threes'}" for d, v in per.items())
                + f" = {r['count']} (the thesis' n = {THESIS_COUNT}, exactly)")
    return make_claim(NAME, claim, [r["count"] == THESIS_COUNT], evidence, register=entry)


def pca_ink(records: dict) -> dict:
    """s3-1-8-fig-3-18-pca-first-component-ink (line 1725)."""
    entry = "s3-1-8-fig-3-18-pca-first-component-ink"
    claim = ("The first principal component of the twos and threes is the direction with "
             "maximum variance in ink (3.1.8, Fig. 3.18)")
    r = records.get(PCA)
    if not record_ok(r):
        return make_claim(NAME, claim, [], not_run(NAME, PCA, r), register=entry)
    first = r["first_score_ink_pearson"]
    evidence = (f"PCA of {_sample(r)}, {r['n_features']} raw pixels: Pearson r between the "
                f"first principal score and an image's total ink {first:.3f} (|r| at least "
                f"{INK_MIN:g} needed; the second score's r {r['second_score_ink_pearson']:.3f}; "
                f"the first component's share of the variance "
                f"{r['explained_variance_ratio'][0]:.3f})")
    return make_claim(NAME, claim, [abs(first) >= INK_MIN], evidence, register=entry)


def lle_clusters(records: dict) -> dict:
    """s3-1-8-fig-3-18-lle-clusters-digits (line 1725): two readings, each k a case."""
    entry = "s3-1-8-fig-3-18-lle-clusters-digits"
    claim = ("LLE's two-dimensional embedding clusters the vectors mostly into twos and "
             "threes (3.1.8, Fig. 3.18)")
    named, measured = _lle_jobs(records)
    readings = []
    for name, field, what in (("unsupervised", "purity", "2-means purity"),
                              ("neighbour", "one_nn_accuracy", "1-NN leave-one-out accuracy")):
        checks = [measured[k]["lle"][field] >= CLUSTER_MIN for k in measured]
        checks, note = about_every(checks, [f"k = {k}" for k in named],
                                   [f"k = {k}" for k in measured], what="each of")
        text = (_on(measured) + "; ".join(f"k = {r['k']}: {what} {r['lle'][field]:.3f}"
                                          for r in measured.values()) or "no LLE job measured")
        text += (f" (at least {CLUSTER_MIN:g} at every k needed)"
                 + _unmeasured(records, named) + (f"; {note}" if note else ""))
        readings.append(Reading(name, checks, text))
    return readings_claim(NAME, claim, readings, register=entry)


def variational_preserves_more(records: dict) -> dict:
    """s3-1-8-fig-3-18-variational-preserves-more (line 1725): two readings, each k a
    case."""
    entry = "s3-1-8-fig-3-18-variational-preserves-more"
    claim = ("Variational MVU transforms the m = 10 bottom LLE eigenvectors to preserve more "
             "local distances than LLE (3.1.8, Fig. 3.18)")
    named, measured = _lle_jobs(records)
    readings = []
    for name, field, gain, tol, text_of in (
            ("continuity", "continuity", "continuity_gain", CONTINUITY_TOL,
             lambda r, g: (f"local continuity (l = {r['eval_neighbors']}) variational MVU "
                           f"{r['variational']['continuity']:.3f} against LLE "
                           f"{r['lle']['continuity']:.3f}, difference {g:+.3f}")),
            ("edge loss", "edge_loss", "edge_loss_relative_gain", LOSS_TOL,
             lambda r, g: (f"scale-optimal relative loss on the {r['n_edges']} clique-graph "
                           f"edges variational MVU {r['variational']['edge_loss']:.3f} "
                           f"against LLE {r['lle']['edge_loss']:.3f}, relative gain "
                           f"{100 * g:+.1f} %"))):
        checks = [beyond_noise(gains(r)[gain], tol) for r in measured.values()]
        checks, note = about_every(checks, [f"k = {k}" for k in named],
                                   [f"k = {k}" for k in measured], what="each of")
        text = (_on(measured) + "; ".join(f"k = {r['k']}, m = {r['m']}: " + text_of(r, gains(r)[gain])
                                          for r in measured.values()) or "no LLE job measured")
        band = f"{tol:g}" if gain == "continuity_gain" else f"{100 * tol:g} %"
        text += (f" (above +{band} at every k needed, within {band} undecided)"
                 + _unmeasured(records, named) + (f"; {note}" if note else ""))
        readings.append(Reading(name, checks, text))
    return readings_claim(NAME, claim, readings, register=entry)


def register_claims(records: dict) -> list[dict]:
    """Every register entry this result decides, from ``{key: record}``."""
    return [mnist_count(records), pca_ink(records), lle_clusters(records),
            variational_preserves_more(records)]
