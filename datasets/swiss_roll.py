"""The Swiss roll (thesis 3.1.5 and Table 3.2: n = 2000, generated)."""

from __future__ import annotations

import numpy as np
from sklearn.datasets import make_swiss_roll

from harness.plugin import Dataset, DatasetPlugin


class SwissRoll(DatasetPlugin):
    """A Swiss roll sampled uniformly in its two intrinsic coordinates.

    The thesis does not print its generator. We use the standard one of the LLE and
    Isomap papers' code (Roweis & Saul 2000), as scikit-learn's
    :func:`sklearn.datasets.make_swiss_roll` implements it::

        t ~ 1.5 pi (1 + 2 U[0, 1]),   h ~ 21 U[0, 1]
        x = (t cos t, h, t sin t) + noise * N(0, I_3)

    Optionally ``extra_noise_dims`` further coordinates of N(0, extra_noise_std^2)
    noise are appended (thesis Fig. 3.5: "five extra dimensions filled with low
    variance Gaussian noise"). ``y`` is the roll parameter t (for colouring).

    Parameters of :meth:`load`
    --------------------------
    n_samples : int, default=2000
    noise : float, default=0.0
        Standard deviation of the noise added to the three coordinates.
    extra_noise_dims : int, default=0
    extra_noise_std : float, default=0.1
    seed : int, default=0
    """

    name = "swiss_roll"
    thesis_name = "swiss_roll"
    tasks = ("embedding",)
    params = {"n_samples": 2000, "noise": 0.0, "extra_noise_dims": 0,
              "extra_noise_std": 0.1, "seed": 0}
    description = "Swiss roll, t ~ 1.5 pi (1 + 2U), height ~ 21 U (generated, seeded)"

    def load(self, n_samples=2000, noise=0.0, extra_noise_dims=0, extra_noise_std=0.1,
             seed=0) -> Dataset:
        if int(n_samples) < 1:
            raise ValueError(f"n_samples must be positive, got {n_samples}")
        rng = np.random.default_rng(seed)
        X, t = make_swiss_roll(int(n_samples), noise=float(noise),
                               random_state=int(rng.integers(2**31 - 1)))
        if extra_noise_dims:
            X = np.hstack([X, extra_noise_std * rng.standard_normal((len(X), extra_noise_dims))])
        meta = {
            "source": "generated",
            "generator": "sklearn.datasets.make_swiss_roll",
            "stand_in_for": None,
            "thesis_name": self.thesis_name,
            "description": self.description,
            "params": {"n_samples": n_samples, "noise": noise,
                       "extra_noise_dims": extra_noise_dims,
                       "extra_noise_std": extra_noise_std, "seed": seed},
        }
        return Dataset(np.ascontiguousarray(X, dtype=np.float64), t, meta)
