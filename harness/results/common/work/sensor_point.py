"""One variational MVU localisation of a simulated sensor network, measured: the job
of Figs. 3.20 and 3.21 (thesis 3.1.8).

The work: load the network (a ``sensor_localization`` data set plugin: the measured
graph and, for evaluation only, the true positions), run
:func:`harness.methods.shared.variational_graph.variational_mvu_graph` with the point's
``method_params`` ``repeats`` times (the timings are the fastest run's; every run
computes the same positions), and measure each estimate:

* the reconstruction loss (3.26) over ordered pairs, in squared unit-square units,
  beside the loss of the true positions under the same noisy distances;
* the SDP's status, certified gap (absolute and relative to max(1, |objective|),
  on the normalised problem; the native solver's) and objective;
* the absolute positional errors |y_i - x_i| after aligning y to the truth, twice:
  ``rigid`` (the best rotation/reflection and translation: orthogonal Procrustes)
  and ``similarity`` (also the best scale, the thesis' rescaled panels; the scale
  factor is kept: the thesis scaled its panels by 0.50 and 1028).

Times (the fastest of the runs): ``sdp_seconds`` (wall) and ``sdp_cpu_seconds`` (CPU
seconds of the process, load-independent on a shared machine; one BLAS thread) of the
graph Laplacian, its factor, the eigenvectors and the SDP (data and solve);
``cg_seconds`` (wall) of both CG stages.

Estimates are named ``sdp`` (the SDP's 2-D solution) and ``refined`` (after CG) for
``init="sdp"``, ``baseline`` for ``init="random"``; with ``keep_positions`` their
2-D positions go into the record (float32, base64: :func:`pack` / :func:`unpack`).
"""

from __future__ import annotations

import base64
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from harness import registry
from harness.plugin import ExpectedFailure
from harness.provenance import blas_info
from harness.metrics.alignment import align
from harness.methods.shared.variational_graph import variational_mvu_graph
from harness.methods.shared.variational_refine import reconstruction_loss

__all__ = ["position_errors",
           "pack", "unpack", "load_network", "sensor_work", "sensor_sources", "work", "sources"]

ALIGNMENTS = ("rigid", "similarity")






def position_errors(Y: np.ndarray, X: np.ndarray) -> dict[str, float]:
    """Mean and median |aligned y_i - x_i| for both alignments, and the scale factor
    of the similarity alignment."""
    out = {}
    for name in ALIGNMENTS:
        moved, factor = align(Y, X, scale=name == "similarity")
        errors = np.linalg.norm(moved - X, axis=1)
        out[f"mean_{name}"] = float(errors.mean())
        out[f"median_{name}"] = float(np.median(errors))
        out[f"max_{name}"] = float(errors.max())
    out["scale_factor"] = factor
    return out


def pack(Y: np.ndarray) -> dict:
    """An n x d array as JSON: float32, little-endian, base64."""
    data = np.ascontiguousarray(Y, dtype="<f4")
    return {"dtype": "<f4", "shape": list(data.shape),
            "base64": base64.b64encode(data.tobytes()).decode("ascii")}


def unpack(packed: dict) -> np.ndarray:
    """The array :func:`pack` stored (as float64)."""
    raw = base64.b64decode(packed["base64"])
    return np.frombuffer(raw, dtype=packed["dtype"]).reshape(packed["shape"]).astype(float)


def load_network(params: dict):
    """The point's network (:class:`harness.datasets.sensor_network.SensorNetworkData`)."""
    return registry.get_dataset(params["dataset"])().load(**params["dataset_params"])


def _estimate(Y, net, keep):
    body = {"loss": reconstruction_loss(Y, net.edges, net.sq_distances),
            "errors": position_errors(Y, net.X)}
    if keep:
        body["positions"] = pack(Y)
    return body


def sensor_work(params: dict) -> dict:
    """The child's work for one point; returns the record body (see module doc)."""
    with threadpool_limits(limits=params["blas_threads"]):
        net = load_network(params)
        body: dict[str, Any] = {
            "status": "ok", "reason": "", "n_samples": net.n_samples,
            "n_edges": int(len(net.edges)), "dataset_meta": net.meta,
            "radius": float(net.meta["radius"]),
            "loss_true_positions": reconstruction_loss(net.X, net.edges, net.sq_distances)}
        runs = []
        try:
            for _ in range(params["repeats"]):
                runs.append(variational_mvu_graph(net.n_samples, net.edges, net.sq_distances,
                                                  **params["method_params"]))
        except ExpectedFailure as exc:
            return {**body, "status": exc.status, "reason": str(exc),
                    "error_type": type(exc).__name__}
        timings = [r.timings for r in runs]
        result = runs[-1]
        keep = params["keep_positions"]
        sdp_run = params["method_params"].get("init", "sdp") == "sdp"
        estimates = {"refined" if sdp_run else "baseline": _estimate(result.Y, net, keep)}
        if sdp_run:
            estimates["sdp"] = _estimate(result.Y_sdp, net, keep)
            estimates["sdp"]["loss_basis"] = reconstruction_loss(result.Y_basis, net.edges,
                                                                 net.sq_distances)
        body.update(
            estimates=estimates, timings=timings,
            sdp_seconds=min(t["basis"] + t.get("sdp", 0.0) for t in timings),
            sdp_cpu_seconds=min(t["basis_cpu"] + t.get("sdp_cpu", 0.0) for t in timings),
            cg_seconds=min(t.get("cg_basis", 0.0) + t.get("cg_output", 0.0) for t in timings),
            line_searches=result.cg_iterations,
            sdp={"status": result.sdp.status, "gap": result.sdp.gap,
                 "relative_gap": (None if result.sdp.gap is None else
                                  result.sdp.gap / max(1.0, abs(result.sdp.objective))),
                 "objective": result.sdp.objective, "newton_steps": result.sdp.newton_steps},
            blas_during_run=blas_info())
    return body


def sensor_sources(params: dict) -> list:
    """The data set plugin the point finds by name (the methods are imported)."""
    return [registry.get_dataset(params["dataset"])]




#: Figs. 3.20 and 3.21 name this module as their job code
#: (``WORK = "harness.results.common.work.sensor_point"``) and read these.
work, sources = sensor_work, sensor_sources
