"""A star of spokes: the "spokes experiment" of minimum volume embedding (generated).

Shaw and Jebara (2007; seed ``lecture_jebara_manifold_learning_mve.txt``, "SDE
Problems -> MVE", "MVE Results") show that SDE (MVU) "stretches" a star: it pulls
the spokes apart into many dimensions, where MVE keeps them in two. The lecture
prints no generator; this one is built so that a k-nearest-neighbour graph with
``k = n_spokes`` joins the spokes only at the hub:

* a centre point at the origin and ``n_spokes`` straight spokes at equal angles in
  the plane, each of ``points_per_spoke`` points at radii ``hub_radius``,
  ``hub_radius + spacing``, ...;
* the hub radius is larger than ``k spacing / (2 sin(pi / n_spokes))`` (checked in
  :meth:`Star.load` for ``k = n_spokes``): no point has a point of another spoke
  among its k nearest neighbours, while the centre's k nearest are the spokes'
  first points. Each spoke is then a rigid rod (its points are joined to their
  neighbours along the spoke) hinged to the centre by one edge, free to swing out
  of the plane: the structure SDE can stretch and MVE can flatten;
* ``extra_dims`` further coordinates (zero before noise) and Gaussian noise of
  standard deviation ``noise`` on every coordinate, so that neighbourhoods are not
  degenerate (a noise-free, planar star gives the SDPs no interior point).

``y`` is the spoke index of each point (-1 for the centre).
"""

from __future__ import annotations

import numpy as np

from harness.plugin import Dataset, DatasetPlugin

__all__ = ["Star", "star_points"]


def star_points(n_spokes: int, points_per_spoke: int, hub_radius: float, spacing: float,
                ) -> tuple[np.ndarray, np.ndarray]:
    """The noise-free planar star (``1 + n_spokes * points_per_spoke`` points, 2-D)
    and the spoke index of each point (-1: the centre)."""
    angles = 2.0 * np.pi * np.arange(n_spokes) / n_spokes
    radii = hub_radius + spacing * np.arange(points_per_spoke)
    spokes = np.stack([np.column_stack([radii * np.cos(a), radii * np.sin(a)])
                       for a in angles])
    X = np.vstack([np.zeros((1, 2)), spokes.reshape(-1, 2)])
    y = np.concatenate([[-1], np.repeat(np.arange(n_spokes), points_per_spoke)])
    return X, y


class Star(DatasetPlugin):
    """The spokes experiment's star (see the module docstring).

    Parameters of :meth:`load`
    --------------------------
    n_samples : int, default=161
        ``1 + n_spokes * points_per_spoke`` (the centre and the spokes' points).
    n_spokes : int, default=8
    hub_radius : float, default=12.0
        Distance of each spoke's first point from the centre.
    spacing : float, default=1.0
        Distance between consecutive points of a spoke.
    extra_dims : int, default=8
        Coordinates appended to the plane (zero before noise).
    noise : float, default=0.05
        Standard deviation of the Gaussian noise on every coordinate.
    seed : int, default=0
    """

    name = "star"
    thesis_name = "star"
    tasks = ("embedding",)
    params = {"n_samples": 161, "n_spokes": 8, "hub_radius": 12.0, "spacing": 1.0,
              "extra_dims": 8, "noise": 0.05, "seed": 0}
    description = ("star of straight spokes hinged at a centre (MVE's spokes experiment), "
                   "plane + noise dimensions, generated, seeded")

    def load(self, n_samples=161, n_spokes=8, hub_radius=12.0, spacing=1.0, extra_dims=8,
             noise=0.05, seed=0) -> Dataset:
        n_samples, n_spokes = int(n_samples), int(n_spokes)
        if n_spokes < 2 or n_samples < 1 + n_spokes or (n_samples - 1) % n_spokes:
            raise ValueError(f"star: n_samples = {n_samples} must be 1 + n_spokes * "
                             f"points_per_spoke with n_spokes = {n_spokes} >= 2 and at least "
                             f"one point per spoke (e.g. {1 + 20 * max(n_spokes, 2)})")
        if not spacing > 0 or noise < 0 or int(extra_dims) < 0:
            raise ValueError(f"star: need spacing > 0, noise >= 0, extra_dims >= 0; got "
                             f"spacing={spacing}, noise={noise}, extra_dims={extra_dims}")
        need = n_spokes * spacing / (2.0 * np.sin(np.pi / n_spokes))
        if not hub_radius > need:
            raise ValueError(f"star: hub_radius = {hub_radius} must exceed k spacing / "
                             f"(2 sin(pi / n_spokes)) = {need:.3g} (k = n_spokes), so that "
                             f"no spoke has another spoke's point among its k nearest "
                             f"neighbours; raise hub_radius")
        plane, y = star_points(n_spokes, (n_samples - 1) // n_spokes, float(hub_radius),
                               float(spacing))
        X = np.hstack([plane, np.zeros((len(plane), int(extra_dims)))])
        X += float(noise) * np.random.default_rng(seed).standard_normal(X.shape)
        meta = {"source": "generated", "generator": "harness.datasets.star.star_points + noise",
                "stand_in_for": None, "thesis_name": self.thesis_name,
                "description": self.description,
                "params": {"n_samples": n_samples, "n_spokes": n_spokes,
                           "hub_radius": hub_radius, "spacing": spacing,
                           "extra_dims": extra_dims, "noise": noise, "seed": seed}}
        return Dataset(np.ascontiguousarray(X), y.astype(np.int64), meta)
