"""Simulated sensor networks (thesis 3.1.8, eq. 3.26, Figs. 3.19-3.21; generated).

"The second simulated network, shown in Fig. 3.20, placed nodes at n = 20000
uniformly sampled points inside the unit square. The nodes were then centered on the
origin. Each node estimated the local distance to up to 20 other nodes within a
radius of size r = 0.06." The US-cities network of Fig. 3.19/3.21 (n = 1097 cities,
"each edge is weighted by its length which is corrupted by 10% uniform noise") is not
available; :class:`USCitiesStandIn` is a uniform network of the same size and noise,
a labelled stand-in.

Choices where the thesis is ambiguous (parameters of :meth:`SensorNetwork.load`):

* Centring: the sample mean is subtracted, so the true positions satisfy the
  centring constraint sum_i y_i = 0 exactly.
* Which "up to 20": each node measures its ``max_neighbors`` *nearest* nodes within
  ``radius`` (``choice="nearest"``; ``"random"`` draws them uniformly among the nodes
  in range). At n = 20000 about pi r^2 n = 226 nodes lie within r = 0.06, so the
  nearest 20 lie within ~0.018 and the radius never binds; at n = 1097 (~12 in
  range) the radius binds and the 20 rarely does.
* The graph: an unordered pair {i, j} is an edge if i measured j or j measured i
  (so a node's degree can exceed ``max_neighbors``); each pair has ONE measurement
  (one radio exchange), drawn once.
* Noise: multiplicative and uniform on the distance, d_ij (1 + noise * u_ij) with
  u_ij ~ U[-1, 1] ("10% uniform noise" = ``noise=0.1``). The thesis does not state
  the n = 20000 network's noise; the default is the US-cities network's 10%.
* Colouring ("the ground truth positioning reveals the word CONVEX in the foreground
  with a radial color gradient in the background"): ``y`` is 1 for a node inside the
  glyphs of "CONVEX" (DejaVu Sans Bold, matplotlib's bundled font, spanning 80% of the
  square's width, centred) and 0.75 |x| / max |x| (the radial gradient) elsewhere.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from scipy.spatial import cKDTree

from harness.plugin import Dataset, DatasetPlugin

__all__ = ["SensorNetworkData", "SensorNetwork", "USCitiesStandIn", "word_mask", "measured_pairs",
           "measure_network", "CHOICES"]

CHOICES = ("nearest", "random")
WORD = "CONVEX"
WORD_WIDTH = 0.8  # of the unit square
BACKGROUND_MAX = 0.75  # colour value of the farthest background node


@dataclasses.dataclass(frozen=True)
class SensorNetworkData(Dataset):
    """A sensor network: ``X`` the true positions (n x 2, centred), ``y`` the colour
    value per node, and the input of localisation, the measured graph.

    Parameters
    ----------
    edges : ndarray of shape (n_edges, 2), int64
        Unordered pairs ``(i, j)``, ``i < j``, sorted.
    distances : ndarray of shape (n_edges,)
        Measured (noisy) distances; D_ij of (3.26) is their square.
    true_distances : ndarray of shape (n_edges,)
    in_word : ndarray of shape (n_samples,), bool
        The nodes the word CONVEX covers.
    """

    edges: np.ndarray
    distances: np.ndarray
    true_distances: np.ndarray
    in_word: np.ndarray

    @property
    def sq_distances(self) -> np.ndarray:
        """D_ij of (3.26): the measured distances squared."""
        return self.distances ** 2


def word_mask(X: np.ndarray, word: str = WORD, width: float = WORD_WIDTH) -> np.ndarray:
    """Whether each point of ``X`` (centred on the origin) lies inside the glyphs of
    ``word``, set in DejaVu Sans Bold, ``width`` wide and centred. A point is inside
    when an odd number of the glyphs' outline polygons contain it (even-odd rule:
    the holes of O count out)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.path import Path
    from matplotlib.textpath import TextPath

    text = TextPath((0, 0), word, size=1.0, prop=FontProperties(family="DejaVu Sans",
                                                                 weight="bold"))
    polygons = text.to_polygons()
    corners = np.vstack(polygons)
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    scale = width / (hi[0] - lo[0])
    centre = (lo + hi) / 2
    inside = np.zeros(len(X), dtype=bool)
    for polygon in polygons:
        inside ^= Path((polygon - centre) * scale).contains_points(X)
    return inside


def measured_pairs(X: np.ndarray, radius: float, max_neighbors: int, choice: str,
                    rng: np.random.Generator) -> np.ndarray:
    """Unordered pairs (i < j, sorted, unique) where i measured j or j measured i."""
    n = len(X)
    tree = cKDTree(X)
    if choice == "nearest":
        dist, idx = tree.query(X, k=min(max_neighbors + 1, n), distance_upper_bound=radius)
        idx = np.asarray(idx).reshape(n, -1)
        rows = np.repeat(np.arange(n), idx.shape[1])
        cols = idx.ravel()
        keep = (cols < n) & (cols != rows)  # missing neighbours have index n
        rows, cols = rows[keep], cols[keep]
    else:
        rows, cols = [], []
        for i, found in enumerate(tree.query_ball_point(X, radius)):
            found = np.asarray([j for j in found if j != i], dtype=np.int64)
            if len(found) > max_neighbors:
                found = rng.choice(found, size=max_neighbors, replace=False)
            rows.append(np.full(len(found), i))
            cols.append(found)
        rows, cols = np.concatenate(rows), np.concatenate(cols)
    lo, hi = np.minimum(rows, cols).astype(np.int64), np.maximum(rows, cols).astype(np.int64)
    keys = np.unique(lo * n + hi)
    return np.column_stack([keys // n, keys % n])


def measure_network(X: np.ndarray, radius: float, max_neighbors: int, noise: float,
                    choice: str, rng: np.random.Generator):
    """The measured graph of sensors at ``X``: the pairs (:func:`measured_pairs`), their
    true and measured distances (multiplicative uniform noise, ``d (1 + noise U[-1,
    1])``, drawn after the pairs) and the graph's numbers for ``meta`` (the radius, the
    edge count, the mean and smallest degree)."""
    edges = measured_pairs(X, radius, max_neighbors, choice, rng)
    true = np.linalg.norm(X[edges[:, 0]] - X[edges[:, 1]], axis=1)
    measured = true * (1 + noise * rng.uniform(-1, 1, len(edges)))
    degree = np.bincount(edges.ravel(), minlength=len(X))
    return edges, true, measured, {"radius": radius, "n_edges": int(len(edges)),
                                   "mean_degree": float(degree.mean()),
                                   "min_degree": int(degree.min())}


class SensorNetwork(DatasetPlugin):
    """n sensors uniform in the unit square, centred; each measures the distance to up
    to ``max_neighbors`` others within ``radius`` (thesis 3.1.8, Fig. 3.20).

    Parameters of :meth:`load`
    --------------------------
    n_samples : int, default=20000
    radius : float, default=0.06
    max_neighbors : int, default=20
    noise : float, default=0.1
        Multiplicative uniform distance noise: d (1 + noise U[-1, 1]); in [0, 1).
    choice : {"nearest", "random"}, default="nearest"
        Which ``max_neighbors`` nodes a node measures when more are in range.
    seed : int, default=0

    ``load`` returns a :class:`SensorNetworkData`; see the module docstring for the
    choices where the thesis is ambiguous.
    """

    name = "sensor_network"
    thesis_name = "sensor_network_20k"
    tasks = ("sensor_localization",)
    params = {"n_samples": 20000, "radius": 0.06, "max_neighbors": 20, "noise": 0.1,
              "choice": "nearest", "seed": 0}
    description = ("sensors uniform in the centred unit square, distances to up to 20 "
                   "nearest others within r = 0.06, 10% uniform noise (generated, seeded)")

    def load(self, n_samples=20000, radius=0.06, max_neighbors=20, noise=0.1,
             choice="nearest", seed=0) -> SensorNetworkData:
        n, radius, k, noise = int(n_samples), float(radius), int(max_neighbors), float(noise)
        if n < 3:
            raise ValueError(f"n_samples must be at least 3, got {n_samples}")
        if not radius > 0:
            raise ValueError(f"radius must be positive, got {radius}")
        if k < 1:
            raise ValueError(f"max_neighbors must be at least 1, got {max_neighbors}")
        if not 0 <= noise < 1:
            raise ValueError(f"noise must be in [0, 1) (a fraction of the distance), "
                             f"got {noise}")
        if choice not in CHOICES:
            raise ValueError(f"choice must be one of {CHOICES}, got {choice!r}")
        rng = np.random.default_rng(seed)
        X = rng.random((n, 2))
        X -= X.mean(axis=0)
        edges, true, measured, graph = measure_network(X, radius, k, noise, choice, rng)
        in_word = word_mask(X)
        rho = np.linalg.norm(X, axis=1)
        y = np.where(in_word, 1.0, BACKGROUND_MAX * rho / rho.max())
        meta = {
            "source": "generated", "generator": "uniform unit square, centred",
            "stand_in_for": self.stand_in_for, "thesis_name": self.thesis_name,
            "description": self.description,
            "params": {"n_samples": n, "radius": radius, "max_neighbors": k, "noise": noise,
                       "choice": choice, "seed": seed},
            **graph, "in_word": int(in_word.sum()),
        }
        return SensorNetworkData(np.ascontiguousarray(X), y, meta, edges, measured, true,
                                 in_word)


class USCitiesStandIn(SensorNetwork):
    """A uniform network of the US-cities network's size and noise (n = 1097, 10%
    uniform noise; thesis Figs. 3.19, 3.21): a labelled stand-in, since the thesis'
    city coordinates are not available. Radius and neighbours as Fig. 3.20's network
    (r = 0.06, up to 20): the thesis gives no radius for the cities."""

    name = "us_cities_standin"
    thesis_name = "us_cities"
    stand_in_for = "us_cities"
    params = {**SensorNetwork.params, "n_samples": 1097}
    description = ("uniform stand-in for the 1097 US cities: unit square, r = 0.06, up "
                   "to 20 nearest, 10% uniform noise (generated, seeded)")

    def load(self, n_samples=1097, radius=0.06, max_neighbors=20, noise=0.1,
             choice="nearest", seed=0) -> SensorNetworkData:
        return super().load(n_samples, radius, max_neighbors, noise, choice, seed)
