"""Fig. 2.16 (thesis 2.1.9, "LMNN Training with Ball Trees"): "The relative speed up from
using ball trees to find all active hinge-losses in the MNIST digits data. The benefit
of ball trees reduces as the dimensionality of the input increases." The text: "Although
the impact is not as drastic as for the nearest neighbor search (Figure 2.13), ball
trees do speed up the search for active hinge losses significantly ... after
dimensionality reduction with principal component analysis", and the margin's constant 1
"can inflate h_ij ... This effect can be reduced by multiplying the input data with a
large constant before training."

The declaration (keys, params, checks). The profile section's schema is ``schema.yaml``;
a job runs :mod:`.work`; :mod:`.write` writes the outputs and the verdicts;
``README.md`` says what the result shows, the choices where the thesis is ambiguous, its
sizes and measured numbers.
"""

from __future__ import annotations

from harness.results.common.declare import balltree_profile

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "EXCLUSIVE",
           "COST_EXPONENTS", "check",
           "keys", "params"]

NAME = "fig_2_16"
TITLE = ("Fig. 2.16: speed-up of the ball-tree search of all active hinge losses over the "
         "blocked search, MNIST after PCA to r dimensions (thesis 2.1.9)")
THESIS_SECTION = "2.1.9"
KIND = "figure"
SIDECAR = True
#: its jobs time searches: the workflow runs each with every core reserved
EXCLUSIVE = True
#: a job's CPU is dominated by the search of all active hinge losses, every training
#: digit against the training digits of the other classes: n_train^2; the test digits
#: enter only the 3-NN timing beside it (n_train x n_test pairs, a sixth of the
#: hinge search's at 60000 / 10000), counted as no growth (``harness plan``)
COST_EXPONENTS = {"dataset_params.n_train": 2.0, "dataset_params.n_test": 0.0}

_conf, check, keys = balltree_profile.section_hooks(NAME)


def params(config: dict, key: str) -> dict:
    conf = _conf(config)
    return balltree_profile.params(config, conf, NAME, key,
                         scales=[float(s) for s in conf["scales"]],
                         target_distance=float(conf["target_distance"]))
