"""Table 3.3 (thesis 3.1.9, "MVU for large margin classification"): percent test errors of
SVMs with the linear (3.46), polynomial (3.47, p = 2), Gaussian (3.48, sigma = 1) and
MVU (k = 4) kernels on pairs of USPS digits, 810 training and 90 test images, "the
average of 10 experiments with different 90/10 splits". The thesis' claims: "the MVU
kernel performs much worse than the other kernels" (the caption) and "the MVU kernels
performed quite poorly in this capacity, even worse than the linear kernels" (text).

The declaration (keys, params, checks). The profile section's schema is ``schema.yaml``;
a job runs :mod:`.work`; :mod:`.write` writes the outputs and the verdicts;
``README.md`` says what the result shows, the choices where the thesis is ambiguous, its
sizes and measured numbers.
"""

from __future__ import annotations

from pathlib import Path

from harness import registry
from harness.errors import ConfigError
from harness.results.common.declare.profile import (
    DEVIATIONS_FILE, SOLVER_BUDGET, check_mvu_solver,
)
from harness.results.common.declare.table_spec import TableSpec

__all__ = ["MEASURE", "THESIS_TASKS", "THESIS_DATA", "NEIGHBOURHOOD", "parse_task",
           "SPEC", "NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "CLAIMS_PER_CELL",
           "check", "keys", "params", "inputs"]

MEASURE = "test_error_pct"
THESIS_TASKS = ("1vs2", "1vs3", "2vs8", "8vs9")
THESIS_DATA = "usps"
NEIGHBOURHOOD = "neighbourhood"  # a Gaussian sigma read off the data (neighbourhood_scale)


def parse_task(task: str) -> tuple[int, int]:
    """``"1vs2"`` -> ``(1, 2)``."""
    a, sep, b = task.partition("vs")
    if not (sep and a.isdigit() and b.isdigit() and len(a) == len(b) == 1 and a != b):
        raise ValueError(f"task {task!r}: write two different digits as '1vs2'")
    return int(a), int(b)


SPEC = TableSpec(
    name="table_3_3",
    task="classification",
    title=("Table 3.3: percent test error of SVMs with linear, polynomial, Gaussian and "
           "MVU kernels on pairs of handwritten digits (thesis 3.1.9, eqs. 3.46-3.48)"),
    reference_file="thesis_table_3_3.csv",
    measures=((MEASURE, MEASURE, "test error (%)"),),
    thesis_datasets=tuple(f"{THESIS_DATA}/{t}" for t in THESIS_TASKS),
    tolerance=0.5,
    average=False,
    decimals=2,
    spread_counts=True,
    transpose_by=("source_dataset", "task"),  # as the thesis: rows tasks, columns kernels
)
NAME = SPEC.name
TITLE = SPEC.title
THESIS_SECTION = "3.1.9"
KIND = "table"
SIDECAR = True
#: its claims are the grid table's, checked cell by cell: a job not run is a cell "not
#: measured", named in the evidence (:mod:`harness.result_claims`)
CLAIMS_PER_CELL = True


def _conf(config: dict) -> dict:
    return config["results"][NAME]


# ---- jobs ----------------------------------------------------------------------------
def check(config: dict) -> None:
    """Profile checks beyond the schema: data set and solver names, the tasks, each
    kernel's parameters, and sizes that leave every fold both digits."""
    conf = _conf(config)
    where = f"results.{NAME}"
    valid = registry.datasets("classification")
    for name in conf["datasets"]:
        if name not in valid:
            raise ConfigError(f"{where}.datasets: unknown labelled dataset {name!r}; valid "
                              f"datasets: {', '.join(valid)}")
    for task in conf["tasks"]:
        try:
            parse_task(task)
        except ValueError as exc:
            raise ConfigError(f"{where}.tasks: {exc}") from None
    check_mvu_solver(conf["solver"], where)
    needs = {"polynomial": ("p",), "mvu": ("n_neighbors",), "linear": ()}
    for kernel, spec in conf["kernels"].items():
        need = needs.get(spec["type"], ("sigma",))
        if spec["type"] == "gaussian" and spec.get("sigma") == NEIGHBOURHOOD:
            need = ("sigma", "n_neighbors")
        missing = [p for p in need if p not in spec]
        if missing:
            raise ConfigError(f"{where}.kernels.{kernel}: a {spec['type']} kernel needs "
                              f"{', '.join(missing)}")
    n = 2 * conf["per_digit"]
    if not 2 <= conf["n_test"] <= n - 2 * conf["cv_folds"]:
        raise ConfigError(f"{where}.n_test = {conf['n_test']}: must leave at least "
                          f"cv_folds = {conf['cv_folds']} training images per digit of the "
                          f"{n} drawn (per_digit = {conf['per_digit']})")
    k_max = max([s.get("n_neighbors", 1) for s in conf["kernels"].values()] + [conf["scale_neighbors"]])
    if k_max >= n:
        raise ConfigError(f"{where}: k = {k_max} must be below the {n} images of a task")


def keys(config: dict) -> list[str]:
    """``DATASET/TASK/draw<d>`` for every data set, task and draw."""
    conf = _conf(config)
    return [f"{d}/{t}/draw{i}" for d in conf["datasets"] for t in conf["tasks"]
            for i in range(conf["n_draws"])]


def _parse_key(key: str) -> tuple[str, str, int]:
    parts = key.split("/")
    if len(parts) != 3 or not parts[2].startswith("draw") or not parts[2][4:].isdigit():
        raise ConfigError(f"job {NAME}/{key}: must be {NAME}/DATASET/TASK/draw<D>, e.g. "
                          f"{NAME}/usps/1vs2/draw0")
    registry.get_dataset(parts[0])
    try:
        parse_task(parts[1])
    except ValueError as exc:
        raise ConfigError(f"job {NAME}/{key}: {exc}") from None
    return parts[0], parts[1], int(parts[2][4:])


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``DATASET/TASK/draw<d>``."""
    dataset, task, draw = _parse_key(key)
    conf = _conf(config)
    cls = registry.get_dataset(dataset)
    digits = list(parse_task(task))
    load = {**cls.params, **config["datasets"].get(dataset, {}),
            **conf["dataset_params"].get(dataset, {})}
    if "digits" in cls.params:  # load only the task's digits
        load["digits"] = digits
    limit = float(conf["time_limit_seconds"])
    n_mvu = sum(spec["type"] == "mvu" for spec in conf["kernels"].values())
    return {
        "table": NAME, "dataset": dataset, "dataset_params": load, "task": task,
        "digits": digits, "draw": draw, "seed": config["seed"],
        "blas_threads": config["blas_threads"], "time_limit_seconds": limit,
        "solver": conf["solver"], "mvu_time_limit": SOLVER_BUDGET * limit
        / max(n_mvu, 1), "per_digit": conf["per_digit"], "n_test": conf["n_test"],
        "n_splits": conf["splits_per_draw"], "kernels": conf["kernels"], "C": conf["C"],
        "C_grid": conf["C_grid"], "cv_folds": conf["cv_folds"],
        "scale_neighbors": conf["scale_neighbors"],
    }


def inputs(config: dict) -> list[str]:
    """The thesis' reference CSV and the measured reasons beside cells."""
    return [str(Path(config["reference_dir"]) / SPEC.reference_file), str(DEVIATIONS_FILE)]
