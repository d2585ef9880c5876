"""hLLE on the face sets of Table 3.2 (thesis 3.1.9) under the choices the thesis leaves
open: the local Hessian estimator (scikit-learn's, all k - d - 1 complement columns;
Donoho & Grimes', the d(d+1)/2 quadratic ones; harness.methods.hlle estimator=) and the
evaluation's l (5, 10, 15; the table's header says 15, 3.1.9's text names l = 5 or 10).

Usage: python scripts/hlle_face_readings.py [DATASET ...]   (default olivetti frey)

The grid (estimators x l, k = 15, r = 3 as the table) is fixed here before any run.
Prints C / T / N per cell. Table 3.2's known deviations cite it.
"""

import sys

import numpy as np

from harness.metrics.embedding_quality import embedding_quality
from harness.registry import get_dataset
from harness.methods.hlle import HessianLLE

ESTIMATORS = ("scikit_learn", "donoho_grimes")
LEVELS = (5, 10, 15)


def main(names) -> None:
    for name in names:
        X = np.asarray(get_dataset(name)().load().X, dtype=float)
        for estimator in ESTIMATORS:
            Y = HessianLLE(n_neighbors=15, n_components=3, estimator=estimator,
                           random_state=0).fit_transform(X)
            for level in LEVELS:
                q = embedding_quality(X, Y, level)
                print(f"{name} n={len(X)} {estimator} l={level}: "
                      + " / ".join(f"{q[m]:.3f}" for m in q))


if __name__ == "__main__":
    main(sys.argv[1:] or ["olivetti", "frey"])
