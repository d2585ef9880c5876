"""Generated clustering data (statwiki STAT 841 F14, lectures 7-8: spectral
clustering; not thesis data sets): two moons, two concentric circles, Gaussian blobs.

All three are scikit-learn's generators (:func:`sklearn.datasets.make_moons`,
:func:`~sklearn.datasets.make_circles`, :func:`~sklearn.datasets.make_blobs`), seeded
through a :class:`numpy.random.Generator`, with ``y`` the generating component (the
clusters a clusterer should find). The defaults are well separated: the moons and
circles are the classic cases that k-means on the inputs gets wrong and spectral
clustering gets right (Ng, Jordan & Weiss 2002, Fig. 1), the blobs a case both get
right.
"""

from __future__ import annotations

import numpy as np
from sklearn.datasets import make_blobs, make_circles, make_moons

from harness.plugin import Dataset, DatasetPlugin

__all__ = ["TwoMoons", "Circles", "Blobs"]


def _meta(plugin: DatasetPlugin, generator: str, params: dict) -> dict:
    return {"source": "generated", "generator": generator, "stand_in_for": None,
            "thesis_name": plugin.thesis_name, "description": plugin.description,
            "params": params, "split_protocol": None}


def _check_n(n_samples) -> int:
    if int(n_samples) < 2:
        raise ValueError(f"n_samples must be at least 2, got {n_samples}")
    return int(n_samples)


def _sklearn_seed(seed) -> int:
    return int(np.random.default_rng(seed).integers(2**31 - 1))


class TwoMoons(DatasetPlugin):
    """Two interleaving half circles (scikit-learn's ``make_moons``), radius 1, the
    second shifted by (1, 0.5), plus Gaussian noise of standard deviation ``noise``.

    Parameters of :meth:`load`
    --------------------------
    n_samples : int, default=300
        Split as evenly as possible between the moons.
    noise : float, default=0.05
    seed : int, default=0
    """

    name = "two_moons"
    thesis_name = "two_moons"
    tasks = ("clustering",)
    params = {"n_samples": 300, "noise": 0.05, "seed": 0}
    description = "two moons, sklearn make_moons (generated, seeded)"

    def load(self, n_samples=300, noise=0.05, seed=0) -> Dataset:
        X, y = make_moons(_check_n(n_samples), noise=float(noise),
                          random_state=_sklearn_seed(seed))
        meta = _meta(self, "sklearn.datasets.make_moons",
                     {"n_samples": n_samples, "noise": noise, "seed": seed})
        return Dataset(np.ascontiguousarray(X, dtype=np.float64), y, meta)


class Circles(DatasetPlugin):
    """Two concentric circles (scikit-learn's ``make_circles``): radius 1 and
    ``factor``, plus Gaussian noise of standard deviation ``noise``; ``y`` is 0 for the
    outer, 1 for the inner circle.

    Parameters of :meth:`load`
    --------------------------
    n_samples : int, default=300
    factor : float, default=0.4
        Inner radius over outer radius, in (0, 1).
    noise : float, default=0.05
    seed : int, default=0
    """

    name = "circles"
    thesis_name = "circles"
    tasks = ("clustering",)
    params = {"n_samples": 300, "factor": 0.4, "noise": 0.05, "seed": 0}
    description = "two concentric circles, sklearn make_circles (generated, seeded)"

    def load(self, n_samples=300, factor=0.4, noise=0.05, seed=0) -> Dataset:
        if not 0 < float(factor) < 1:
            raise ValueError(f"factor must lie in (0, 1), got {factor}")
        X, y = make_circles(_check_n(n_samples), factor=float(factor), noise=float(noise),
                            random_state=_sklearn_seed(seed))
        meta = _meta(self, "sklearn.datasets.make_circles",
                     {"n_samples": n_samples, "factor": factor, "noise": noise,
                      "seed": seed})
        return Dataset(np.ascontiguousarray(X, dtype=np.float64), y, meta)


class Blobs(DatasetPlugin):
    """Isotropic Gaussian blobs (scikit-learn's ``make_blobs``) around ``centers``
    centres spread evenly on a circle of radius ``radius`` in the first two
    coordinates (centre j at radius (cos 2 pi j / c, sin 2 pi j / c, 0, ...)), so
    that the blobs are well separated by construction (``make_blobs``' own random
    centres in [-10, 10]^d can fall close together), standard deviation
    ``cluster_std``.

    Parameters of :meth:`load`
    --------------------------
    n_samples : int, default=300
        Split as evenly as possible between the blobs.
    centers : int, default=3
    n_features : int, default=2
    radius : float, default=5.0
    cluster_std : float, default=0.5
    seed : int, default=0
    """

    name = "blobs"
    thesis_name = "blobs"
    tasks = ("clustering",)
    params = {"n_samples": 300, "centers": 3, "n_features": 2, "radius": 5.0,
              "cluster_std": 0.5, "seed": 0}
    description = "Gaussian blobs on a circle, sklearn make_blobs (generated, seeded)"

    def load(self, n_samples=300, centers=3, n_features=2, radius=5.0, cluster_std=0.5,
             seed=0) -> Dataset:
        c, d = int(centers), int(n_features)
        if c < 1 or d < 2:
            raise ValueError(f"centers must be >= 1 and n_features >= 2, got {centers} "
                             f"and {n_features}")
        angle = 2 * np.pi * np.arange(c) / c
        where = np.zeros((c, d))
        where[:, 0], where[:, 1] = radius * np.cos(angle), radius * np.sin(angle)
        X, y = make_blobs(_check_n(n_samples), n_features=d, centers=where,
                          cluster_std=float(cluster_std), random_state=_sklearn_seed(seed))
        meta = _meta(self, "sklearn.datasets.make_blobs",
                     {"n_samples": n_samples, "centers": centers, "n_features": n_features,
                      "radius": radius, "cluster_std": cluster_std, "seed": seed})
        return Dataset(np.ascontiguousarray(X, dtype=np.float64), y, meta)
