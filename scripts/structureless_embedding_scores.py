"""What an embedding with no structure scores under Table 3.2's measures (thesis 3.1.9,
eqs. 3.27-3.29): local continuity, local trust and neighbourhood intersection of points
drawn at random in d dimensions (uniform in the unit cube, and standard Gaussian),
against a data set's inputs, l = 15 as in the table.

Usage: python scripts/structureless_embedding_scores.py [DATASET] [D] [SEEDS]
(default frey 3 10)

Prints mean +- standard deviation over the seeds per draw. Table 3.2's known deviations
cite it: the thesis' hLLE row on Frey's faces (0.799 / 0.862 / 0.008) is what uniform
random points score there, N at the chance level l / (n - 1).
"""

import sys

import numpy as np

from harness.metrics.embedding_quality import embedding_quality, input_neighbors
from harness.registry import get_dataset

L = 15


def main(name: str = "frey", d: int = 3, seeds: int = 10) -> None:
    X = np.asarray(get_dataset(name)().load().X, dtype=float)
    inputs = input_neighbors(X, L)
    print(f"{name}: n = {len(X)}, p = {X.shape[1]}, l = {L}, d = {d}, {seeds} seeds; "
          f"chance level of N: l / (n - 1) = {L / (len(X) - 1):.4f}")
    for draw in ("uniform", "gaussian"):
        scores = []
        for seed in range(seeds):
            rng = np.random.default_rng(seed)
            Y = rng.uniform(size=(len(X), d)) if draw == "uniform" else \
                rng.standard_normal((len(X), d))
            scores.append(embedding_quality(X, Y, L, input_neighbors=inputs))
        line = ", ".join(f"{m} {np.mean([s[m] for s in scores]):.3f} +- "
                         f"{np.std([s[m] for s in scores]):.3f}" for m in scores[0])
        print(f"{draw}: {line}")


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0] if args else "frey", int(args[1]) if len(args) > 1 else 3,
         int(args[2]) if len(args) > 2 else 10)
