"""Fig. 3.24 (thesis 3.1.11): minimum- vs maximum-trace MVU.

The declaration (keys, params, checks). The profile section's schema is ``schema.yaml``;
a job runs :mod:`.work` (an MVU point of
:mod:`harness.results.common.work.mvu_point` that also keeps the spectrum and the leading
coordinates Figs. 3.25-3.27 read); :mod:`.write` writes the outputs and the
verdicts; ``README.md`` says what the result shows, the choices where the thesis is
ambiguous, its sizes and measured numbers.
"""

from __future__ import annotations

from harness.errors import ConfigError
from harness.results.common.declare.profile import (
    check_datasets_section, check_registered_dataset, dataset_choice, mvu_point_params,
    thesis_column,
)

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "VARIANTS",
           "THESIS_DATASETS", "check", "keys", "params"]

NAME = "fig_3_24"
TITLE = "Fig. 3.24: minimum-trace relative to maximum-trace MVU (thesis 3.1.11)"
THESIS_SECTION = "3.1.11"
KIND = "figure"
SIDECAR = True
# point key suffix -> MVU variant (thesis 3.1.4 "maximize trace", 3.1.11 "minimize trace")
VARIANTS = {"max_trace": "equality", "min_trace": "min_trace"}
# the thesis' columns: label and the number of leading dimensions it evaluated
THESIS_DATASETS = {
    "swiss_roll": ("Swiss roll (noise-free)", 2),
    "teapot": ("teapot", 2),
    "mnist_fives": ("MNIST fives", 10),
    "frey": ("Frey faces", 10),
}


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def _dims(conf: dict, name: str) -> tuple[int, str]:
    if name in conf["n_components"]:
        return conf["n_components"][name], "profile"
    thesis = THESIS_DATASETS.get(thesis_column(name))
    if thesis:
        return thesis[1], "thesis 3.1.11"
    return conf["default_n_components"], "profile default"


def check(config: dict) -> None:
    """Profile checks beyond the schema: data set and solver names, per-data-set
    keys that name a listed data set, k and l below every given n_samples."""
    conf = _conf(config)
    check_datasets_section(conf, f"results.{NAME}",
                           lambda name: (("n_neighbors", conf["n_neighbors"]),
                                         ("eval_neighbors", conf["eval_neighbors"]),
                                         (f"n_components.{name}", _dims(conf, name)[0])))


def keys(config: dict) -> list[str]:
    """``<dataset>/max_trace`` and ``<dataset>/min_trace`` for every listed data set."""
    return [f"{d}/{v}" for d in _conf(config)["datasets"] for v in VARIANTS]


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``<dataset>/<max_trace|min_trace>`` (any registered
    data set; per-data-set values come from the profile section)."""
    dataset, _, variant = key.partition("/")
    if variant not in VARIANTS or "/" in variant:
        raise ConfigError(f"job {NAME}/{key}: must be {NAME}/DATASET/VARIANT with "
                          f"VARIANT one of {', '.join(VARIANTS)}")
    check_registered_dataset(dataset, f"job {NAME}/{key}")
    conf = _conf(config)
    dims, dims_source = _dims(conf, dataset)
    choice = dataset_choice(config, dataset, conf["n_samples"].get(dataset),
                            conf["dataset_params"].get(dataset))
    return mvu_point_params(config, conf, figure=NAME, key=key, dataset=choice,
                            variant=VARIANTS[variant], n_neighbors=conf["n_neighbors"],
                            n_components=dims, n_components_source=dims_source,
                            thesis_dataset=thesis_column(dataset))
