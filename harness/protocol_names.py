"""Names of the evaluation protocols that a job's parameters use, importable without
the tasks (whose modules import scikit-learn): the profile side resolves a job's
parameters in the parent process, which imports none of the work's code."""

from __future__ import annotations

__all__ = ["K_BY_VALIDATION"]

#: ``n_neighbors`` meaning "chosen per run on a validation split of the training part"
#: (thesis 2.1.6; :func:`harness.tasks.classification.run_classification`)
K_BY_VALIDATION = "validation"
