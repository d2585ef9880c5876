"""Fig. 2.13 (thesis 2.1.9): "The relative speedup on 3-nn classification obtained through
dimensionality reduction with and without ball trees (on the MNIST data set with d =
784). Ball-trees lead to much higher speed-ups in low dimensions." The text: the speed-
ups are relative to "the naive search in the original d = 784" (the naive method: PCA-
sorted dimensions, partial distances abandoned early), "the extra gain from ball trees
reduces drastically with increasing dimensionality", "ball trees recover the exact
k-nearest neighbors", and (2.1.9, Fig. 2.17) with LMNN (rec) to 15 dimensions "the
classifier is about 14.8 times faster with ball trees", to 25 dimensions "a significant
speedup factor of 5.7".

The declaration (keys, params, checks). The profile section's schema is ``schema.yaml``;
a job runs :mod:`.work`; :mod:`.write` writes the outputs and the verdicts;
``README.md`` says what the result shows, the choices where the thesis is ambiguous, its
sizes and measured numbers.
"""

from __future__ import annotations

from harness.results.common.declare import balltree_profile
from harness.results.common.declare.profile import thesis_claims_input

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "EXCLUSIVE",
           "COST_EXPONENTS", "check",
           "keys", "params", "inputs"]

NAME = "fig_2_13"
TITLE = ("Fig. 2.13: speed-up of exact 3-NN classification of MNIST after PCA to r "
         "dimensions, with and without ball trees (thesis 2.1.9)")
THESIS_SECTION = "2.1.9"
KIND = "figure"
SIDECAR = True
#: its jobs time searches: the workflow runs each with every core reserved
EXCLUSIVE = True
#: a job's CPU is dominated by the exact 784-D searches (naive and brute force), each
#: test digit against every training digit: n_train x n_test (``harness plan``)
COST_EXPONENTS = {"dataset_params.n_train": 1.0, "dataset_params.n_test": 1.0}

_conf, check, keys = balltree_profile.section_hooks(NAME)


def params(config: dict, key: str) -> dict:
    return balltree_profile.params(config, _conf(config), NAME, key)


def inputs(config: dict) -> list[str]:
    """The thesis' quoted speed-ups: an edit rewrites the figure."""
    return thesis_claims_input(config)
