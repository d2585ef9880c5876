"""The half-square of thesis 2.1.5 ("Convergence"; Figs. 2.3 and 2.4), generated.

"We sampled various training data sets from the rescaled unit-square X = [0, 10] x
[0, 10]. We labeled points in the upper half of the square as 1 and those in the lower
half as 0." Only the vertical direction is discriminative; the side 10 matters because
LMNN's margin is 1 (in the data's units).
"""

from __future__ import annotations

import numbers

import numpy as np

from harness.plugin import Dataset, DatasetPlugin

__all__ = ["HalfSquare", "half_square_labels"]


def half_square_labels(X: np.ndarray, side: float) -> np.ndarray:
    """The thesis' label of points of ``[0, side]^2``: 1 in the upper half (``y >
    side / 2``), else 0."""
    return (np.asarray(X, dtype=float)[:, 1] > side / 2.0).astype(int)


class HalfSquare(DatasetPlugin):
    """``n_samples`` points uniform in ``[0, side]^2``, labelled 1 above ``side / 2``.

    Parameters of :meth:`load`
    --------------------------
    n_samples : int, default=1000
        Number of points (thesis Fig. 2.3: n = 1000).
    side : float, default=10.0
        Side of the square (the thesis' ``[0, 10] x [0, 10]``).
    seed : int, default=0
        Seed of :func:`numpy.random.default_rng`; the points are
        ``rng.uniform(0, side, (n_samples, 2))``.
    """

    name = "half_square"
    thesis_name = "half_square"
    tasks = ("classification",)
    params = {"n_samples": 1000, "side": 10.0, "seed": 0}
    description = ("uniform points in [0, 10]^2, label 1 in the upper half (thesis 2.1.5, "
                   "generated, seeded)")

    def load(self, n_samples=1000, side=10.0, seed=0) -> Dataset:
        if isinstance(n_samples, bool) or not isinstance(n_samples, numbers.Integral) \
                or n_samples < 1:
            raise ValueError(f"half_square: n_samples = {n_samples!r} must be a positive "
                             f"integer, e.g. 1000")
        if not (isinstance(side, numbers.Real) and np.isfinite(side) and side > 0):
            raise ValueError(f"half_square: side = {side!r} must be a positive number "
                             f"(the thesis: 10)")
        rng = np.random.default_rng(seed)
        X = rng.uniform(0.0, float(side), size=(int(n_samples), 2))
        meta = {
            "source": "generated",
            "generator": "numpy.random.default_rng(seed).uniform(0, side, (n, 2))",
            "stand_in_for": None,
            "thesis_name": self.thesis_name,
            "description": self.description,
            "params": {"n_samples": int(n_samples), "side": float(side), "seed": int(seed)},
            "split_protocol": "training sets only; test error is an area (thesis 2.1.5)",
        }
        return Dataset(X, half_square_labels(X, float(side)), meta)
