"""Table 2.1's statistics rows (thesis 2.1.6, lines 788-794: input dimensionality,
number of inputs, training and test examples, classes of the nine data sets) measured
from our loaders beside the thesis', and the numbers of principal components holding
95 % of the variance of deskewed MNIST (164) and isolet (172). One job per data set
(``table_2_1_statistics/<dataset>``, a registry name).

The declaration: the profile section is ``schema.yaml``, a job runs :mod:`.work`, the
table and the verdicts are written by :mod:`.write` (:mod:`.register_claims`);
``README.md`` says what the table shows and the choices where the thesis is ambiguous.
"""

from __future__ import annotations

from harness import registry
from harness.errors import ConfigError
from harness.reference import reference_value

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "REFERENCE", "check", "keys", "params"]

NAME = "table_2_1_statistics"
TITLE = ("Table 2.1's statistics: dimensionality, inputs, training and test examples, "
         "classes of the nine data sets; principal components holding 95 % of the "
         "variance (thesis 2.1.6)")
THESIS_SECTION = "2.1.6"
KIND = "table"
SIDECAR = True
#: the thesis' Table 2.1 (results/reference/)
REFERENCE = "thesis_table_2_1.csv"


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def _check_name(name: str, where: str) -> None:
    """Raise :class:`ConfigError` naming ``where`` if no data set is called ``name``."""
    try:
        registry.dataset_info(name)
    except registry.UnknownNameError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def check(config: dict) -> None:
    """Every listed data set is registered."""
    for name in _conf(config)["datasets"]:
        _check_name(name, f"results.{NAME}.datasets")


def keys(config: dict) -> list[str]:
    """One job per listed data set, keyed by its registry name."""
    return list(_conf(config)["datasets"])


def params(config: dict, key: str) -> dict:
    """Resolved parameters of ``table_2_1_statistics/<dataset>``: the loader's own
    defaults (with the profile's ``datasets:`` entry), the raw inputs (no PCA), and for
    the data sets of ``pc_datasets`` the variance fraction whose principal components
    are counted."""
    conf = _conf(config)
    if key not in conf["datasets"]:
        raise ConfigError(f"job {NAME}/{key}: {key!r} is not in results.{NAME}.datasets "
                          f"({', '.join(conf['datasets'])})")
    _check_name(key, f"job {NAME}/{key}")
    column = registry.dataset_info(key).thesis_name
    train, inputs = (reference_value(config["reference_dir"], REFERENCE, q, "", column)
                     for q in ("n_training", "n_inputs"))
    return {"table": NAME, "point": f"{NAME}/{key}", "dataset": key,
            "dataset_params": dict(config["datasets"].get(key, {})),
            "thesis_column": column,
            # the harness' split for a loader that states none (olivetti: 7 of 10 per
            # person, 2.1.6): the thesis' n_training / n_inputs of the loaded size
            "thesis_fraction": train / inputs if train and inputs else None,
            "count_components": key in conf["pc_datasets"],
            "variance_fraction": float(conf["variance_fraction"]),
            "mnist_deskew_order": int(conf["mnist_deskew_order"]),
            "blas_threads": config["blas_threads"],
            "time_limit_seconds": float(conf["time_limit_seconds"])}
