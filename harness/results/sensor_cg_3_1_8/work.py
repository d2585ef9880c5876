"""One job of the section 3.1.8 CG checks: one sensor network, localised from several
starts by the same conjugate gradient.

The network: a unit-square one (the ``sensor_network`` plugin), an L of area 1
(:func:`harness.results.graph_laplacian_3_1_8.work.l_shape_points` and the plugin
module's :func:`~harness.datasets.sensor_network.measure_network`, the same noise and
neighbours), Fig. 3.20's network (the plugin at seed 0) or a data set network (the US
cities; an unavailable one is a gap). Generated networks: each sensor measures its
``max_neighbors`` nearest within :func:`harness.results.sensor_cg_3_1_8.radius_for`,
multiplicative uniform noise.

The pieces are the harness' variational MVU from a graph
(:mod:`harness.methods.shared.variational_graph`: the SDP on the m bottom Laplacian
eigenvectors, normalised squared distances) and its CG stage
(:func:`harness.methods.shared.variational_mvu.refine_embedding`: preconditioned
nonlinear CG with exact line searches, the Laplacian's factor as preconditioner, on
the loss (3.26) when ``cg_omega`` = 1), composed as the thesis' steps:

* ``one_step``: the SDP's top two principal coordinates, then CG in 2-D;
* ``two_step``: CG in the SDP's m dimensions (``first_stage_maxiter`` line searches,
  the coordinates of Z's null space dropped as the pipeline does), its top two
  principal coordinates (``first_stage.positions_2d``: "before the 2-D CG step"), then
  CG in 2-D;
* ``restarts``: CG in 2-D from Gaussian positions of unit variance in the normalised
  units (Fig. 3.20's baseline), seed ``restart_seed + i``;
* ``large``: the one-step from the SDP on ``large_basis`` eigenvectors;
* ``speed``: the line searches each 2-D CG needs to reach within ``within`` of its
  final loss (the one-step from m, from the largest m, from random start 0, and the
  2-D step of the two-step), by re-running the same deterministic CG with fewer line
  searches (the loss never rises along exact line searches: a bisection).

Every CG in 2-D runs until a line search lowers the loss by less than 1e-10 of it or
``cg_maxiter`` line searches. Losses (3.26) are in the network's units (squared
distances squared, ordered pairs); positional errors after the rigid and the
similarity Procrustes map (:func:`harness.metrics.alignment.align`, Fig. 3.20's).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from threadpoolctl import threadpool_limits

from harness import registry
from harness.datasets.sensor_network import measure_network
from harness.methods.shared.variational_graph import (
    RANK_TOL, check_graph, graph_laplacian, laplacian_factor, variational_mvu_graph,
)
from harness.methods.shared.variational_mvu import refine_embedding
from harness.methods.shared.variational_refine import reconstruction_loss, top_components
from harness.metrics.alignment import align
from harness.plugin import ExpectedFailure
from harness.results.graph_laplacian_3_1_8.work import l_shape_points
from harness.timelimit import cpu_clock

__all__ = ["Network", "Localiser", "load_network", "node_errors", "worst_patch",
           "searches_to_within", "noise_level", "network_job", "work", "sources"]


@dataclasses.dataclass(frozen=True)
class Network:
    """True positions ``X``, measured pairs ``edges``, their ``true`` and ``measured``
    distances, the graph's numbers and the stand-in label."""

    X: np.ndarray
    edges: np.ndarray
    true: np.ndarray
    measured: np.ndarray
    graph: dict
    stand_in_for: str | None = None


def load_network(params: dict) -> Network:
    """The job's network (raises :class:`ExpectedFailure` for an unavailable data set)."""
    if params["kind"] == "dataset":
        plugin = registry.get_dataset(params["dataset"])
        data = plugin().load(**{**plugin.params, **params["dataset_params"]})
        graph = {k: data.meta[k] for k in ("radius", "n_edges", "mean_degree", "min_degree")}
        return Network(data.X, data.edges, data.true_distances, data.distances, graph,
                       data.meta.get("stand_in_for"))
    n, seed, radius = int(params["n_samples"]), int(params["seed"]), float(params["radius"])
    k, noise = int(params["max_neighbors"]), float(params["noise"])
    if params["region"] == "square":
        data = registry.get_dataset("sensor_network")().load(
            n_samples=n, radius=radius, max_neighbors=k, noise=noise, choice="nearest",
            seed=seed)
        graph = {k: data.meta[k] for k in ("radius", "n_edges", "mean_degree", "min_degree")}
        return Network(data.X, data.edges, data.true_distances, data.distances, graph)
    if params["region"] != "l_shape":
        raise ValueError(f"region must be 'square' or 'l_shape', got {params['region']!r}")
    rng = np.random.default_rng(seed)
    X = l_shape_points(n, rng)
    X = X - X.mean(axis=0)
    edges, true, measured, graph = measure_network(X, radius, k, noise, "nearest", rng)
    return Network(X, edges, true, measured, graph)


def node_errors(Y: np.ndarray, X: np.ndarray, scale: bool) -> np.ndarray:
    """|aligned y_i - x_i| per node, after the rigid (``scale`` False) or the
    similarity Procrustes map."""
    moved, _ = align(Y, X, scale=scale)
    return np.linalg.norm(moved - X, axis=1)


def _rms(errors: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(errors))))


def worst_patch(before: np.ndarray, after: np.ndarray, fraction: float) -> dict:
    """The ``fraction`` of nodes with the largest errors ``before`` (at least one):
    their RMS error before and after, and the RMS error of the largest ``fraction``
    of the errors after (its own worst nodes), with the counts.

    >>> worst_patch(np.array([1.0, 1.0, 4.0, 1.0]), np.array([1.0, 3.0, 2.0, 1.0]), 0.25)
    {'count': 1, 'rms_before': 4.0, 'rms_after': 2.0, 'rms_after_own_worst': 3.0, 'overlap': 0}
    """
    count = max(1, math.ceil(fraction * len(before) - 1e-9))
    worst = np.argsort(before, kind="stable")[::-1][:count]
    own = np.argsort(after, kind="stable")[::-1][:count]
    return {"count": int(count), "rms_before": _rms(before[worst]),
            "rms_after": _rms(after[worst]), "rms_after_own_worst": _rms(after[own]),
            "overlap": int(len(np.intersect1d(worst, own)))}


def searches_to_within(loss_at, total: int, within: float) -> int:
    """The fewest line searches k in [0, total] with ``loss_at(k) <= (1 + within) *
    loss_at(total)``, by bisection: ``loss_at`` must not increase with k (exact line
    searches lower the loss or stop).

    >>> searches_to_within([10.0, 5.0, 2.0, 1.02, 1.0].__getitem__, 4, 0.05)
    3
    """
    target = (1.0 + within) * loss_at(total)
    lo, hi = 0, int(total)  # loss_at(hi) <= target always
    while lo < hi:
        mid = (lo + hi) // 2
        if loss_at(mid) <= target:
            hi = mid
        else:
            lo = mid + 1
    return lo


def noise_level(net: Network) -> dict:
    """The distance noise of the network's measurements: the RMS of measured minus
    true distance over the edges (the "distance-noise level"), the mean edge length and
    the RMS relative error."""
    diff = net.measured - net.true
    return {"rms_distance_error": _rms(diff), "mean_edge_length": float(net.true.mean()),
            "rms_relative_error": _rms(diff / net.true)}


class Localiser:
    """The CG stage and the loss (3.26) on one network, in its normalised units (the
    mean squared measured distance 1), with the Laplacian's factor as preconditioner."""

    def __init__(self, net: Network, params: dict):
        self.net = net
        self.b = np.asarray(net.measured, dtype=float) ** 2
        self.scale = float(self.b.mean())
        self.n = len(net.X)
        check_graph(self.n, net.edges, self.b)  # a disconnected network is a gap
        self.solve = laplacian_factor(graph_laplacian(self.n, net.edges)).solve
        self.omega, self.cap = float(params["cg_omega"]), int(params["cg_maxiter"])

    def cg(self, Y0: np.ndarray, maxiter: int | None = None) -> tuple[np.ndarray, int]:
        """CG from ``Y0`` (normalised units): ``(Y, line searches)``."""
        return refine_embedding(np.array(Y0, dtype=float), self.net.edges, self.b / self.scale,
                                omega=self.omega, maxiter=self.cap if maxiter is None else maxiter,
                                cg_method="pcg", precondition=self.solve)

    def loss(self, Yn: np.ndarray) -> float:
        """The loss (3.26) of normalised positions, in the network's units."""
        return reconstruction_loss(Yn * np.sqrt(self.scale), self.net.edges, self.b)

    def measure(self, Yn: np.ndarray) -> dict:
        """Loss and RMS positional errors (rigid, similarity) of 2-D positions."""
        Y = Yn * np.sqrt(self.scale)
        return {"loss": self.loss(Yn), "rms_rigid": _rms(node_errors(Y, self.net.X, False)),
                "rms_similarity": _rms(node_errors(Y, self.net.X, True))}

    def to_within(self, Y0: np.ndarray, total: int, within: float) -> int:
        """Line searches of the CG from ``Y0`` to within ``within`` of its final loss."""
        return searches_to_within(lambda k: self.loss(self.cg(Y0, k)[0]), total, within)

    def sdp(self, m: int, params: dict):
        """The variational SDP on m eigenvectors (no CG): ``(status dict, normalised
        m-dimensional coordinates of K, its top two)``."""
        cpu = cpu_clock()
        result = variational_mvu_graph(self.n, self.net.edges, self.b, n_basis=int(m),
                                       omega=float(params["omega"]), refine=False, seed=0)
        Ym = result.Y_basis / np.sqrt(self.scale)
        norms = np.einsum("ij,ij->j", Ym, Ym)
        Ym = Ym[:, :max(2, int((norms > RANK_TOL * norms.max()).sum()))]
        status = {"m": int(m), "status": result.sdp.status, "gap": result.sdp.gap,
                  "objective": result.sdp.objective, "rank": int(Ym.shape[1]),
                  "cpu_seconds": cpu_clock() - cpu}
        return status, Ym, top_components(Ym, 2)


def network_job(params: dict) -> dict:
    """Every measurement of one network (see the module doc)."""
    cpu = cpu_clock()
    try:
        net = load_network(params)
        loc = Localiser(net, params)
    except ExpectedFailure as exc:
        return {"status": exc.status, "reason": str(exc), "error_type": type(exc).__name__}
    within = float(params["within"])
    body = {"status": "ok", "reason": "", "n_samples": loc.n, "graph": net.graph,
            "stand_in_for": net.stand_in_for, "noise": noise_level(net),
            "loss_true_positions": reconstruction_loss(net.X, net.edges, loc.b)}
    sdp, Ym, Y2 = loc.sdp(params["n_basis"], params)
    body["sdp"] = sdp
    body["sdp_estimate"] = loc.measure(Y2)
    one, one_searches = loc.cg(Y2)
    body["one_step"] = {**loc.measure(one), "line_searches": one_searches}
    first, first_searches = loc.cg(Ym, int(params["first_stage_maxiter"]))
    before = top_components(first, 2)
    two, two_searches = loc.cg(before)
    body["first_stage"] = {"loss_m_dimensions": loc.loss(first), "line_searches": first_searches,
                           "positions_2d": loc.measure(before)}
    body["two_step"] = {**loc.measure(two), "line_searches": two_searches}
    scaled = np.sqrt(loc.scale)
    body["patches"] = {"fraction": float(params["worst_fraction"]), **worst_patch(
        node_errors(before * scaled, net.X, True), node_errors(two * scaled, net.X, True),
        float(params["worst_fraction"]))}
    starts = []
    for i in range(int(params["restarts"])):
        seed = int(params["restart_seed"]) + i
        Y0 = np.random.default_rng(seed).standard_normal((loc.n, 2))
        Y, searches = loc.cg(Y0)
        starts.append({"seed": seed, **loc.measure(Y), "line_searches": searches})
    if starts:
        body["restarts"] = starts
    if params.get("large_basis"):
        large, _, Y2_large = loc.sdp(params["large_basis"], params)
        Y, searches = loc.cg(Y2_large)
        body["large"] = {"sdp": large, **loc.measure(Y), "line_searches": searches}
    if params.get("speed"):
        speed = {"within": within,
                 "one_step": loc.to_within(Y2, one_searches, within),
                 "two_step_2d": loc.to_within(before, two_searches, within)}
        if starts:
            Y0 = np.random.default_rng(int(params["restart_seed"])).standard_normal((loc.n, 2))
            speed["random"] = loc.to_within(Y0, starts[0]["line_searches"], within)
        body["speed"] = speed
    body["cpu_seconds"] = cpu_clock() - cpu
    return body


def work(params: dict) -> dict:
    """The child's work for one job; returns the record body."""
    with threadpool_limits(limits=params["blas_threads"]):
        return network_job(params)


def sources(params: dict) -> list:
    """The data set plugin the job finds by name."""
    return [registry.get_dataset(params["dataset"])]
