"""Fig. 3.18 (thesis 3.1.8, lines 1716 and 1725): two-dimensional embeddings of the
n = 12089 handwritten twos and threes of MNIST's training set by PCA, LLE and
variational MVU on the m = 10 bottom LLE eigenvectors, with and without conjugate
gradient -- the count of the twos and threes, the first principal component against
the total ink, LLE's clusters, and what variational MVU preserves over LLE. One job
counts, one embeds by PCA, one per LLE neighbourhood size k embeds by LLE and
variational MVU.

The declaration: the profile section is ``schema.yaml``, a job runs :mod:`.work`, the
table and the verdicts are written by :mod:`.write` (:mod:`.register_claims`).
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "MEMORY_MB", "COUNT", "PCA",
           "PREFIX", "DIGITS", "RAW_PIXELS", "keys", "params"]

NAME = "fig_3_18"
TITLE = ("Fig. 3.18: MNIST's handwritten twos and threes in two dimensions by PCA, LLE "
         "and variational MVU with and without conjugate gradient -- the count, the first "
         "principal component against ink, LLE's clusters, the local distances variational "
         "MVU preserves (thesis 3.1.8)")
THESIS_SECTION = "3.1.8"
KIND = "table"
SIDECAR = True
#: peak resident memory of an LLE job at n = 12089, k = 12 (measured 7.1 GB: the
#: variational SDP's edge design on ~525000 clique edges, LLE's shift-invert factor)
MEMORY_MB = 8000
COUNT = "count"
PCA = "pca"
PREFIX = "lle_k"
#: the digits of Fig. 3.18
DIGITS = (2, 3)
#: the MNIST plugin's load parameters: the training part's 28 x 28 pixels in [0, 1],
#: neither deskewed nor projected (chapter 3 never names chapter 2's pre-processing;
#: the reading of ``mnist_fives``), no test images
RAW_PIXELS = {"deskew": False, "n_components": None, "n_test": 0}


def keys(config: dict) -> list[str]:
    """``count``, ``pca`` and ``lle_k<k>`` for every LLE neighbourhood size of the
    profile."""
    return [COUNT, PCA] + [f"{PREFIX}{k}" for k in config["results"][NAME]["lle_neighbors"]]


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``fig_3_18/<key>``: the data set and its load parameters,
    the digits, the seed, the BLAS threads and, for the embeddings, the (sub)sample size;
    for an LLE job its k and variational MVU's m, omega and CG iterations."""
    if key not in keys(config):
        raise ConfigError(f"job {NAME}/{key}: the key must be one of {', '.join(keys(config))}")
    conf = dict(config["results"][NAME])
    out = {"result": NAME, "point": f"{NAME}/{key}", "seed": config["seed"],
           "blas_threads": config["blas_threads"],
           "time_limit_seconds": float(conf["time_limit_seconds"]),
           "dataset": "mnist", "dataset_params": dict(RAW_PIXELS), "digits": list(DIGITS)}
    if key == COUNT:
        return {**out, "kind": COUNT}
    sample = {"n_samples": conf["n_samples"], "kmeans_init": conf["kmeans_init"],
              "eval_neighbors": conf["eval_neighbors"]}
    if key == PCA:
        return {**out, "kind": PCA, **sample}
    return {**out, "kind": "lle", **sample, "n_neighbors": int(key[len(PREFIX):]),
            "n_basis": conf["n_basis"], "omega": conf["omega"], "cg_maxiter": conf["cg_maxiter"]}
