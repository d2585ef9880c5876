"""One sample of the section 3.1.9 noise check: on the sample's seeded Swiss roll (the
noise-free one and the noisy one of Table 3.2, the same 3-D points: the noise is
appended coordinates drawn after them), each method fitted and measured as a Table 3.2
cell (:func:`harness.tasks.embedding.run_embedding`: the three metrics of eqs.
3.27-3.29 at Table 3.2's l, on the input the method saw), and the mean of the three.
"""

from __future__ import annotations

from threadpoolctl import threadpool_limits

from harness import registry
from harness.plugin import ExpectedFailure
from harness.tasks.embedding import MEASURES, run_embedding
from harness.timelimit import cpu_clock

__all__ = ["fit", "work", "sources"]


def fit(method: str, spec: dict, seed: int) -> dict:
    """One (method, roll): Table 3.2's three metrics, their mean and the fit's CPU-s."""
    data = registry.get_dataset(spec["dataset"])().load(**spec["dataset_params"])
    out = run_embedding(registry.get_method(method), data,
                        {"method_params": spec["method_params"],
                         "eval_neighbors": spec["eval_neighbors"]}, seed)
    measures = {m: float(out["measures"][m]) for m in MEASURES}
    return {**measures, "mean": sum(measures.values()) / len(measures),
            "n_samples": data.n_samples, "n_features": int(data.X.shape[1]),
            "fit_cpu_seconds": float(out["fit_cpu_seconds"])}


def work(params: dict) -> dict:
    """The child's work for one sample; returns the record body."""
    cpu = cpu_clock()
    fits = {}
    with threadpool_limits(limits=params["blas_threads"]):
        for method, levels in params["fits"].items():
            for level, spec in levels.items():
                try:
                    fits.setdefault(method, {})[level] = fit(method, spec, params["seed"])
                except ExpectedFailure as exc:
                    return {"status": exc.status, "reason": f"{method} on the {level} roll: "
                            f"{exc}", "error_type": type(exc).__name__}
    return {"status": "ok", "reason": "", "fits": fits, "group_cpu_seconds": cpu_clock() - cpu}


def sources(params: dict) -> list:
    """The method and data set plugins the job finds by name."""
    return ([registry.get_method(m) for m in params["fits"]]
            + [registry.get_dataset(spec["dataset"]) for levels in params["fits"].values()
               for spec in levels.values()])
