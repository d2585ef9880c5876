"""The Swiss roll (thesis 3.1.5 and Table 3.2: n = 2000, generated)."""

from __future__ import annotations

import numpy as np
from sklearn.datasets import make_swiss_roll

from harness.plugin import Dataset, DatasetPlugin

#: The roll generators :meth:`SwissRoll.load` knows (``generator=``).
GENERATORS = ("roweis", "drtoolbox", "arc_length")
T_MIN, T_MAX = 1.5 * np.pi, 4.5 * np.pi
_HEIGHT = {"roweis": 21.0, "drtoolbox": 30.0, "arc_length": 21.0}
_SOURCE = {
    "roweis": "sklearn.datasets.make_swiss_roll",
    "drtoolbox": "drtoolbox generate_data('swiss') formula (height 30), "
                 "sklearn's random draws",
    "arc_length": "uniform in arc length of the spiral (height 21), sklearn's random draws",
}


def spiral_arc_length(t) -> np.ndarray:
    """Arc length of the spiral ``(t cos t, t sin t)`` from 0 to ``t``:
    ``(t sqrt(1 + t^2) + asinh t) / 2``."""
    t = np.asarray(t, dtype=np.float64)
    return 0.5 * (t * np.sqrt(1.0 + t * t) + np.arcsinh(t))


def spiral_parameter(s, iterations: int = 50) -> np.ndarray:
    """The inverse of :func:`spiral_arc_length` (Newton's method, ``ds/dt =
    sqrt(1 + t^2)``; to rounding for ``s`` of the roll's range)."""
    s = np.asarray(s, dtype=np.float64)
    t = np.sqrt(2.0 * s)  # s ~ t^2 / 2
    for _ in range(iterations):
        step = (spiral_arc_length(t) - s) / np.sqrt(1.0 + t * t)
        t = t - step
        if np.all(np.abs(step) <= 1e-14 * np.maximum(1.0, np.abs(t))):
            break
    return t


class SwissRoll(DatasetPlugin):
    """A Swiss roll, ``x = (t cos t, h, t sin t) + noise * N(0, I_3)``.

    The thesis does not print its generator. ``generator`` picks one:

    ``"roweis"`` (default)
        The standard one of the LLE and Isomap papers' code (Roweis & Saul 2000), as
        scikit-learn's :func:`sklearn.datasets.make_swiss_roll` implements it::

            t ~ 1.5 pi (1 + 2 U[0, 1]),   h ~ 21 U[0, 1]

    ``"drtoolbox"``
        van der Maaten's drtoolbox ``generate_data('swiss')``: the same t, height
        ``h ~ 30 U[0, 1]`` (drtoolbox's default noise 0.05 is *not* implied: set
        ``noise``). Same random draws as ``"roweis"``, so only h differs (by 30/21).
    ``"arc_length"``
        Uniform on the surface: t such that the arc length of the spiral ``(t cos t,
        t sin t)`` is uniform over t in [1.5 pi, 4.5 pi] (``"roweis"`` oversamples the
        inner turns), height 21.

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
    generator : {"roweis", "drtoolbox", "arc_length"}, default="roweis"
    """

    name = "swiss_roll"
    thesis_name = "swiss_roll"
    tasks = ("embedding",)
    params = {"n_samples": 2000, "noise": 0.0, "extra_noise_dims": 0,
              "extra_noise_std": 0.1, "seed": 0, "generator": "roweis"}
    description = "Swiss roll, t ~ 1.5 pi (1 + 2U), height ~ 21 U (generated, seeded)"

    def load(self, n_samples=2000, noise=0.0, extra_noise_dims=0, extra_noise_std=0.1,
             seed=0, generator="roweis") -> Dataset:
        if generator not in GENERATORS:
            raise ValueError(f"generator must be one of {', '.join(GENERATORS)}; "
                             f"got {generator!r}")
        if int(n_samples) < 1:
            raise ValueError(f"n_samples must be positive, got {n_samples}")
        rng = np.random.default_rng(seed)
        state = int(rng.integers(2**31 - 1))
        if generator == "roweis":
            X, t = make_swiss_roll(int(n_samples), noise=float(noise), random_state=state)
        else:
            X, t = _roll(int(n_samples), float(noise), state, generator)
        if extra_noise_dims:
            X = np.hstack([X, extra_noise_std * rng.standard_normal((len(X), extra_noise_dims))])
        meta = {
            "source": "generated",
            "generator": _SOURCE[generator],
            "stand_in_for": None,
            "thesis_name": self.thesis_name,
            "description": self.description,
            "params": {"n_samples": n_samples, "noise": noise,
                       "extra_noise_dims": extra_noise_dims,
                       "extra_noise_std": extra_noise_std, "seed": seed,
                       "generator": generator},
        }
        return Dataset(np.ascontiguousarray(X, dtype=np.float64), t, meta)


def _roll(n: int, noise: float, state: int, generator: str) -> tuple[np.ndarray, np.ndarray]:
    """The non-default rolls, with make_swiss_roll's random draws in its order (u for
    t, u for h, then the noise)."""
    draws = np.random.RandomState(state)
    u = draws.uniform(size=n)
    if generator == "arc_length":
        s0, s1 = spiral_arc_length(T_MIN), spiral_arc_length(T_MAX)
        t = np.clip(spiral_parameter(s0 + (s1 - s0) * u), T_MIN, T_MAX)
    else:
        t = T_MIN * (1 + 2 * u)
    h = _HEIGHT[generator] * draws.uniform(size=n)
    X = np.vstack((t * np.cos(t), h, t * np.sin(t)))
    X += noise * draws.standard_normal(size=(3, n))
    return X.T, t
