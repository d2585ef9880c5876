"""The "comb" of thesis 3.1.7, Fig. 3.15 (generated).

The thesis (3.1.7, "Limits of Manifold Learning") shows "n = 300 data points sampled
from a two dimensional data structure that resembles a comb", "locally mostly
one-dimensional, except at the points where two lines meet", on which MVU (k = 3) and
Isomap (k = 5) *increase* the dimensionality; its "individual strings" (the teeth)
point apart in the output. It prints no generator. Cited from the text: n = 300, a
planar (2-D) structure of straight lines meeting at points. Our choices (parameters of
:meth:`Comb.load`, documented in ``harness/results/fig_3_8_15/README.md``):

* a straight *spine* on the x axis and ``n_teeth`` straight, parallel *teeth* along
  +y, one at each ``tooth_gap``-th spine point, the first and last at the spine's ends
  (so the spine has ``(n_teeth - 1) tooth_gap + 1`` points);
* every line sampled evenly with the same ``spacing``; the points left after the spine
  are shared among the teeth (the first teeth get one more), tooth points at heights
  ``spacing, 2 spacing, ...`` above their junction (the junction is a spine point);
* no noise (``noise = 0``, the thesis' figure shows clean lines); ``noise > 0`` adds
  isotropic Gaussian noise of that standard deviation.

``tooth_gap = 6`` keeps the k = 3 and k = 5 neighbourhoods of the thesis inside one
line away from the junctions (a tooth's tip has its own 5 nearest points within
distance 5 spacing, the neighbouring tooth at 6).

``y`` is the line of each point: ``-1`` for the spine, ``j`` for tooth ``j``; the meta
holds ``junctions`` (the spine index of tooth j's base, per tooth).
:func:`crossing_neighbors` is the smallest k whose neighbourhoods all span two lines
(thesis: "large enough to span neighborhoods across different strings").
"""

from __future__ import annotations

import numpy as np

from harness.plugin import Dataset, DatasetPlugin

__all__ = ["Comb", "comb_points", "line_sets", "crossing_neighbors"]


def comb_points(n_samples: int, n_teeth: int, tooth_gap: int, spacing: float = 1.0
                ) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The noise-free planar comb: points (n x 2), the line of each point (-1 spine,
    j tooth j) and the spine index of each tooth's junction.

    Raises
    ------
    ValueError
        Fewer than two teeth, a gap below 1, or too few points for one point per tooth.
    """
    if n_teeth < 2 or tooth_gap < 1 or not spacing > 0:
        raise ValueError(f"comb: need n_teeth >= 2, tooth_gap >= 1, spacing > 0; got "
                         f"n_teeth={n_teeth}, tooth_gap={tooth_gap}, spacing={spacing}")
    n_spine = (n_teeth - 1) * tooth_gap + 1
    rest = n_samples - n_spine
    if rest < n_teeth:
        raise ValueError(f"comb: n_samples = {n_samples} leaves {rest} points after the "
                         f"spine's {n_spine}, fewer than one per tooth ({n_teeth}); raise "
                         f"n_samples or lower n_teeth / tooth_gap")
    junctions = [j * tooth_gap for j in range(n_teeth)]
    parts = [np.column_stack([spacing * np.arange(n_spine), np.zeros(n_spine)])]
    labels = [np.full(n_spine, -1)]
    per, extra = divmod(rest, n_teeth)
    for j, base in enumerate(junctions):
        m = per + (j < extra)
        parts.append(np.column_stack([np.full(m, spacing * base),
                                      spacing * np.arange(1, m + 1)]))
        labels.append(np.full(m, j))
    return np.vstack(parts), np.concatenate(labels).astype(np.int64), junctions


def line_sets(y, junctions) -> list[frozenset]:
    """The lines each point lies on: its own (``y``), and for a junction both the spine
    (-1) and its tooth."""
    lines = [{int(v)} for v in y]
    for tooth, base in enumerate(junctions):
        lines[base].add(tooth)
    return [frozenset(s) for s in lines]


def crossing_neighbors(X, y, junctions, k_max: int = 60) -> int:
    """The smallest k such that no point's neighbourhood (the point and its k nearest
    neighbours; ties broken by index, as the k-NN graph's) lies on one line: each
    spans two lines, so is locally 2-D (thesis 3.1.7: "large enough to span
    neighborhoods across different strings ... the local neighborhoods would have
    dimensionality 2").

    Raises
    ------
    ValueError
        No k up to ``k_max`` does.
    """
    from sklearn.neighbors import NearestNeighbors

    X = np.asarray(X, dtype=float)
    lines = line_sets(y, junctions)
    k_max = min(int(k_max), len(X) - 1)
    order = NearestNeighbors(n_neighbors=k_max + 1).fit(X).kneighbors(
        X, return_distance=False)[:, 1:]
    need = 0
    for i, row in enumerate(order):
        common, first = set(lines[i]), None
        for m, q in enumerate(row):
            common &= lines[q]
            if not common:
                first = m + 1
                break
        if first is None:
            raise ValueError(f"comb: point {i} and its {k_max} nearest neighbours lie on "
                             f"one line; raise k_max")
        need = max(need, first)
    return need


class Comb(DatasetPlugin):
    """The comb of thesis Fig. 3.15 (see the module docstring).

    Parameters of :meth:`load`
    --------------------------
    n_samples : int, default=300
        Thesis 3.1.7.
    n_teeth : int, default=6
        Our choice (not printed); the result sweeps it.
    tooth_gap : int, default=6
        Spine points from one tooth to the next (our choice).
    spacing : float, default=1.0
        Distance between consecutive points of a line.
    noise : float, default=0.0
        Standard deviation of isotropic Gaussian noise (0: the clean comb).
    seed : int, default=0
        Seed of the noise (unused without noise).
    """

    name = "comb"
    thesis_name = "comb"
    tasks = ("embedding",)
    params = {"n_samples": 300, "n_teeth": 6, "tooth_gap": 6, "spacing": 1.0,
              "noise": 0.0, "seed": 0}
    description = ("planar comb: a straight spine with parallel straight teeth, evenly "
                   "sampled (thesis 3.1.7, Fig. 3.15), generated")

    def load(self, n_samples=300, n_teeth=6, tooth_gap=6, spacing=1.0, noise=0.0,
             seed=0) -> Dataset:
        if noise < 0:
            raise ValueError(f"comb: noise = {noise} must be >= 0")
        X, y, junctions = comb_points(int(n_samples), int(n_teeth), int(tooth_gap),
                                      float(spacing))
        if noise > 0:
            X = X + float(noise) * np.random.default_rng(seed).standard_normal(X.shape)
        meta = {"source": "generated", "generator": "harness.datasets.comb.comb_points",
                "stand_in_for": None, "thesis_name": self.thesis_name,
                "description": self.description, "junctions": junctions,
                "params": {"n_samples": int(n_samples), "n_teeth": int(n_teeth),
                           "tooth_gap": int(tooth_gap), "spacing": float(spacing),
                           "noise": float(noise), "seed": int(seed)}}
        return Dataset(np.ascontiguousarray(X), y, meta)
