"""Faces across identities and the neighbourhoods of Figs. 2.7 and 2.8 (thesis 2.1.6).

Three kinds of job:

- ``persons<S>`` (an extension the issue asks for, no thesis sentence): olivetti split
  by person -- ``n_train_persons`` people learn the LMNN metric, the others are held out
  -- and the held-out people identified by kNN under the Euclidean metric after PCA
  against the PCA-LMNN metric learned on the other people;
- ``thesis<S>`` (Fig. 2.7, line 762): the thesis' olivetti protocol (200 eigenfaces, 7
  training and 3 test images per person), the test faces whose 3 nearest training
  neighbours change before / after LMNN, counted in both directions;
- ``mnist`` (Fig. 2.8, lines 830-840): MNIST test digits whose nearest neighbour changes
  from a mismatch (Euclidean) to a match (LMNN), and the reverse.

The declaration: the profile section is ``schema.yaml``, a job runs :mod:`.work`,
:mod:`.write` writes the outputs and the verdicts (:mod:`.register_claims`);
``README.md`` says what it shows and the choices where the thesis is ambiguous.
"""

from __future__ import annotations

from harness.errors import ConfigError

__all__ = ["NAME", "TITLE", "THESIS_SECTION", "KIND", "SIDECAR", "OLIVETTI", "MNIST",
           "check", "keys", "params"]

NAME = "faces_identities"
TITLE = ("Faces across identities (an extension) and the neighbourhoods of Figs. 2.7 and "
         "2.8: LMNN before / after on olivetti and MNIST (thesis 2.1.6)")
THESIS_SECTION = "2.1.6"
KIND = "figure"
SIDECAR = True
OLIVETTI, MNIST = "olivetti", "mnist"
#: the job kinds, by key prefix
PREFIXES = ("persons", "thesis")


def _conf(config: dict) -> dict:
    return config["results"][NAME]


def check(config: dict) -> None:
    """Held-out people that leave a gallery, and a 7 / 3 split within 10 images."""
    conf = _conf(config)
    if not 2 <= conf["n_train_persons"] <= 38:
        raise ConfigError(f"results.{NAME}.n_train_persons = {conf['n_train_persons']}: "
                          f"olivetti has 40 people; keep at least 2 to learn and 2 held out")
    if max(conf["gallery_sizes"], default=1) >= 10:
        raise ConfigError(f"results.{NAME}.gallery_sizes: each person has 10 images; a "
                          f"gallery of {max(conf['gallery_sizes'])} leaves no probe")
    if conf["n_neighbors"] >= conf["train_per_person"]:
        raise ConfigError(f"results.{NAME}.n_neighbors = {conf['n_neighbors']} needs more "
                          f"than that many training images per person "
                          f"(train_per_person = {conf['train_per_person']})")


def keys(config: dict) -> list[str]:
    """``persons<S>``, ``thesis<S>`` for each split and ``mnist`` when it is on."""
    conf = _conf(config)
    return ([f"persons{s}" for s in range(conf["n_person_splits"])]
            + [f"thesis{s}" for s in range(conf["n_thesis_splits"])]
            + ([MNIST] if conf["mnist"]["enabled"] else []))


def _split_index(key: str) -> tuple[str, int]:
    for prefix in PREFIXES:
        digits = key.removeprefix(prefix)
        if key.startswith(prefix) and digits.isdigit():
            return prefix, int(digits)
    raise ConfigError(f"job {NAME}/{key}: must be {NAME}/persons<S>, {NAME}/thesis<S> "
                      f"or {NAME}/{MNIST}")


def params(config: dict, key: str) -> dict:
    """Resolved parameters of one job (``persons<S>``, ``thesis<S>``, ``mnist``)."""
    from harness.results.common.declare.profile import dataset_choice

    conf = _conf(config)
    base = {"figure": NAME, "point": f"{NAME}/{key}", "seed": config["seed"],
            "blas_threads": config["blas_threads"],
            "time_limit_seconds": float(conf["time_limit_seconds"]),
            "n_neighbors": conf["n_neighbors"], "mu": conf["mu"],
            "n_examples": conf["n_examples"]}
    if key == MNIST:
        m = conf["mnist"]
        choice = dataset_choice(config, MNIST, None, {"n_components": None,
                                                      "n_train": m["n_train"],
                                                      "n_test": m["n_test"]})
        return {**base, "kind": MNIST, **choice, "n_components": m["n_components"],
                "match_neighbors": m["match_neighbors"]}
    kind, split = _split_index(key)
    limit = conf["n_person_splits"] if kind == "persons" else conf["n_thesis_splits"]
    if split >= limit:
        raise ConfigError(f"job {NAME}/{key}: split {split} is beyond the profile's "
                          f"{limit} {kind} splits")
    choice = dataset_choice(config, OLIVETTI, None, {"n_components": None})
    extra = ({"n_train_persons": conf["n_train_persons"], "pca_fit": conf["person_pca_fit"],
              "gallery_sizes": list(conf["gallery_sizes"])} if kind == "persons"
             else {"train_per_person": conf["train_per_person"]})
    return {**base, "kind": kind, "split": split, **choice,
            "n_components": conf["n_components"], **extra}
