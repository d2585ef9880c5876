"""Fig. 3.22 (thesis 3.1.9): MVU's metrics against the output dimensionality r.

The declaration (keys, params, checks). The profile section's schema is ``schema.yaml``;
a job runs the module named in ``WORK``; :mod:`.write` writes the outputs and the
verdicts; ``README.md`` says what the result shows, the choices where the thesis is
ambiguous, its sizes and measured numbers.
"""

from __future__ import annotations

from harness.errors import ConfigError
from harness.results.common.declare.profile import (
    check_datasets_section, check_registered_dataset, dataset_choice, mvu_point_params,
    thesis_column,
)

__all__ = ["WORK", "NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "dimensions",
           "check", "keys", "params"]

#: the job code: a shared work module (its import closure is each job's sources)
WORK = "harness.results.common.work.mvu_point"


NAME = "fig_3_22"
TITLE = ("Fig. 3.22: MVU's local continuity, trust and intersection against the output "
         "dimensionality r, with the normalised eigenvalues (thesis 3.1.9)")
THESIS_SECTION = "3.1.9"
KIND = "figure"
SIDECAR = True


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def dimensions(conf: dict) -> list[int]:
    """The output dimensions r measured: 1 .. ``max_dimension``."""
    return list(range(1, conf["max_dimension"] + 1))


def check(config: dict) -> None:
    """Profile checks beyond the schema: data set and solver names, per-data-set
    keys that name a listed data set, k, l and the largest r below every n_samples."""
    conf = _conf(config)
    check_datasets_section(conf, f"results.{NAME}",
                           lambda name: [(what, conf[what]) for what in
                                         ("n_neighbors", "eval_neighbors", "max_dimension")])


def keys(config: dict) -> list[str]:
    """One job per listed data set, keyed by its name."""
    return list(_conf(config)["datasets"])


def params(config: dict, key: str) -> dict:
    """Resolved parameters of the job ``fig_3_22/<dataset>`` (any registered data set):
    one MVU point fitted with r = max_dimension and swept over r = 1 .. max_dimension;
    a disconnected graph is joined as the section's ``connect_components`` says (the
    thesis' 3.1.12 links by default, as Table 3.2)."""
    if "/" in key:
        raise ConfigError(f"job {NAME}/{key}: must be {NAME}/DATASET, e.g. {NAME}/frey")
    check_registered_dataset(key, f"job {NAME}/{key}")
    conf = _conf(config)
    choice = dataset_choice(config, key, conf["n_samples"].get(key),
                            conf["dataset_params"].get(key))
    point = mvu_point_params(config, conf, figure=NAME, key=key, dataset=choice,
                             variant="equality", n_neighbors=conf["n_neighbors"],
                             n_components=conf["max_dimension"],
                             sweep_dimensions=dimensions(conf),
                             thesis_dataset=thesis_column(key))
    link = conf["connect_components"]
    point["method_params"]["connect_components"] = None if link == "none" else link
    return point
