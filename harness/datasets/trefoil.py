"""The trefoil knot of thesis 3.1.5, Fig. 3.8 (generated).

The thesis: "n = 1617 inputs sampled from a trefoil knot in p = 3 dimensions"; MVU
with k = 4 unfolds them to an annulus. It prints no parametrisation. Ours (parameters
of :meth:`Trefoil.load`, documented in ``harness/results/fig_3_8_15/README.md``): the
standard trefoil

    x = sin t + 2 sin 2t,   y = cos t - 2 cos 2t,   z = -sin 3t,   t in [0, 2 pi),

sampled at ``n_samples`` evenly spaced parameters ``t_i = 2 pi i / n`` (``sampling =
"even"``) or at sorted uniform random ones (``"random"``), plus isotropic Gaussian
noise of standard deviation ``noise`` (default 0: points on the curve; a positive
value gives a thin, random tube). ``y`` is the knot parameter t of each point (before
noise), which the figure's colour coding shows.
"""

from __future__ import annotations

import numpy as np

from harness.plugin import Dataset, DatasetPlugin

__all__ = ["Trefoil", "trefoil_curve", "SAMPLINGS"]

SAMPLINGS = ("even", "random")


def trefoil_curve(t) -> np.ndarray:
    """The standard trefoil at parameters ``t`` (n x 3)."""
    t = np.asarray(t, dtype=float)
    return np.column_stack([np.sin(t) + 2.0 * np.sin(2.0 * t),
                            np.cos(t) - 2.0 * np.cos(2.0 * t), -np.sin(3.0 * t)])


class Trefoil(DatasetPlugin):
    """Points on the trefoil knot (see the module docstring).

    Parameters of :meth:`load`
    --------------------------
    n_samples : int, default=1617
        Thesis 3.1.5, Fig. 3.8.
    sampling : {"even", "random"}, default="even"
    noise : float, default=0.0
    seed : int, default=0
        Seed of the random parameters and of the noise.
    """

    name = "trefoil"
    thesis_name = "trefoil"
    tasks = ("embedding",)
    params = {"n_samples": 1617, "sampling": "even", "noise": 0.0, "seed": 0}
    description = ("trefoil knot in 3-D, standard parametrisation (thesis 3.1.5, Fig. 3.8), "
                   "generated")

    def load(self, n_samples=1617, sampling="even", noise=0.0, seed=0) -> Dataset:
        n = int(n_samples)
        if n < 5 or sampling not in SAMPLINGS or noise < 0:
            raise ValueError(f"trefoil: need n_samples >= 5, sampling in {SAMPLINGS}, "
                             f"noise >= 0; got {n_samples}, {sampling!r}, {noise}")
        rng = np.random.default_rng(seed)
        if sampling == "even":
            t = 2.0 * np.pi * np.arange(n) / n
        else:
            t = np.sort(rng.uniform(0.0, 2.0 * np.pi, n))
        X = trefoil_curve(t)
        if noise > 0:
            X = X + float(noise) * rng.standard_normal(X.shape)
        meta = {"source": "generated", "generator": "harness.datasets.trefoil.trefoil_curve",
                "stand_in_for": None, "thesis_name": self.thesis_name,
                "description": self.description,
                "params": {"n_samples": n, "sampling": sampling, "noise": float(noise),
                           "seed": int(seed)}}
        return Dataset(np.ascontiguousarray(X), t, meta)
