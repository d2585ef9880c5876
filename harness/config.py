"""Profiles (``config/*.yaml``): reading, the schema, and validation.

A profile names a results folder, a seed, BLAS threads, plugin arguments and, under
``results:``, the thesis results it regenerates, one section each (in the order of
the report). Its schema is ``config/schema.yaml`` with every result module's
``SCHEMA`` merged in as ``results.properties.NAME`` (:func:`profile_schema`); after
the schema and its defaults, each result's ``check(config)`` checks (and may
normalise) its own section, e.g. expands ``methods: all``.
"""

from __future__ import annotations

import contextlib
import copy
from pathlib import Path

import jsonschema
import yaml

from harness import registry
from harness.registry import UnknownNameError
from harness.config_keys import check_map_keys
from harness.errors import ConfigError, check_names
from harness.result_registry import result_modules, result_schema
from harness.schema_defaults import validate_with_defaults

__all__ = ["ConfigError", "SCHEMA_PATH", "profile_schema", "validate_config", "load_config"]

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "config" / "schema.yaml"
# sections of the layout before results: (each became results.NAME)
OLD_SECTIONS = ("tables", "solver_table", "figures")


def profile_schema() -> dict:
    """``config/schema.yaml`` with each thesis result's section schema in
    ``properties.results.properties`` (and no other section allowed there)."""
    with open(SCHEMA_PATH) as fh:
        schema = yaml.load(fh, Loader=SAFE_LOADER)  # noqa: S506 (a safe loader)
    results = schema["properties"]["results"]
    results["properties"] = {name: copy.deepcopy(result_schema(module))
                             for name, module in result_modules().items()}
    results["additionalProperties"] = False
    return schema


def _refuse_old_layout(config: dict) -> None:
    old = [key for key in OLD_SECTIONS if key in config]
    if old:
        raise ConfigError(
            f"config entry {old[0]}: the sections {', '.join(OLD_SECTIONS)} are now one "
            f"section, results:, with each table, the solver table and each figure under "
            f"its own name (results: {{table_3_2: ..., solver_table: ..., fig_3_24: ...}}; "
            f"config/quick.yaml shows it); move them there")


def validate_config(config: dict) -> dict:
    """Validate a profile; return a copy with the schema's defaults filled in, every
    key of every result section's map checked against what it names
    (:mod:`harness.config_keys`) and each result's section checked (and normalised) by
    its module's ``check``.

    Raises
    ------
    ConfigError
        With the path of the offending entry and, for an unknown name, the valid ones.
    """
    config = copy.deepcopy(dict(config))
    _refuse_old_layout(config)
    try:
        # the schema itself is checked by a test, not in each job (0.14 CPU-s each)
        validate_with_defaults(config, profile_schema(), check_schema=False)
    except jsonschema.ValidationError as exc:
        where = "/".join(str(p) for p in exc.absolute_path) or "(top level)"
        raise ConfigError(f"config entry {where}: {exc.message}") from None
    for kind, valid in (("dataset", registry.datasets()), ("method", registry.methods())):
        check_names(kind, list(config[kind + "s"]), valid, f"{kind}s")
    schema = profile_schema()
    try:
        check_map_keys(config, schema["properties"]["results"]["properties"],
                       schema["$defs"])
    except ConfigError as keys_error:
        # a result's own check names a wrong list (an unknown data set in datasets:)
        # better than the keys that list then leaves unnamed; else the key is the error
        with contextlib.suppress(UnknownNameError):
            _check_results(config)
        raise keys_error from None
    _check_results(config)
    return config


def _check_results(config: dict) -> None:
    """Each result's ``check(config)`` of its section (which may normalise it)."""
    modules = result_modules()
    for name in config["results"]:
        if hasattr(modules[name], "check"):
            modules[name].check(config)


#: libyaml's parser where PyYAML was built with it (ten times faster; the same
#: documents), else PyYAML's own
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _UniqueKeyLoader(SAFE_LOADER):
    """YAML's safe loader, refusing a key given twice in one mapping (plain YAML keeps
    the last one silently, so an entry written twice would lose the first)."""

    def construct_mapping(self, node, deep=False):
        seen = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise ConfigError(
                    f"{Path(node.start_mark.name)}: key {key!r} appears twice in one "
                    f"mapping (lines {seen[key] + 1} and {key_node.start_mark.line + 1}); "
                    f"keep one (merge their values)")
            seen[key] = key_node.start_mark.line
        return super().construct_mapping(node, deep=deep)


def load_config(path: str | Path) -> dict:
    """Read and validate a profile file (a key given twice in one mapping is refused)."""
    path = Path(path)
    if not path.exists():
        raise ConfigError(f"config file {path} does not exist")
    with open(path) as fh:
        raw = yaml.load(fh, Loader=_UniqueKeyLoader)  # noqa: S506 (a SafeLoader)
    if not isinstance(raw, dict):
        raise ConfigError(f"config file {path} must hold a mapping, not {type(raw).__name__}")
    return validate_config(raw)
