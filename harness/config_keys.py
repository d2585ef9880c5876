"""The keys of every map of a profile's result sections, checked against what they name.

A per-data-set map (``n_samples: {frey: 800}``), a per-data-set-per-method map
(``method_params: {frey: {mvu: {time_limit: 800}}}``), a per-backend or per-extension
map: a misspelt key (``fery``) is not an error to JSON Schema, and the entry would be
silently ignored (issue 53: olivetti's jobs ran on all 1178 pixels instead of the
thesis' 200 principal components). Every map-valued property of a result's schema
therefore declares what its keys name, as ``x-keys`` (one kind per level of nesting):

``dataset``    a column of the section's ``datasets`` list (a data set or a reading):
               an entry for a data set the section does not run would be ignored too
``method``     a method of the section's ``methods`` list (``all``: every registered
               method)
``backend``    a backend of the section's ``backends`` list (``all``: every backend
               plugin)
``extension``  an out-of-sample extension of the section's ``extensions`` list
``named``      names the map itself defines (readings, kernel columns): not checked

and :func:`check_map_keys` refuses a key that names nothing, naming the valid keys and
the closest match. :func:`map_properties` lists the maps of a schema (a test checks
that every one declares ``x-keys``, so a new map cannot skip the check).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from harness import registry
from harness.errors import ConfigError

__all__ = ["KEY_KINDS", "map_properties", "check_map_keys"]

#: what a map's keys may name, and the section list that holds the valid names
KEY_KINDS = {"dataset": "datasets", "method": "methods", "backend": "backends",
             "extension": "extensions", "named": None}


def _resolve(node, defs: dict):
    """``node`` with its ``$ref`` (into the profile schema's ``$defs``) merged in; the
    node's own keys win (a property may refine a shared definition)."""
    while isinstance(node, dict) and "$ref" in node:
        target = defs[node["$ref"].rsplit("/", 1)[-1]]
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _is_map(node) -> bool:
    return (isinstance(node, dict) and node.get("type") == "object"
            and isinstance(node.get("additionalProperties"), dict))


def map_properties(section_schema: dict, defs: dict) -> Iterator[tuple[str, dict]]:
    """``(property name, resolved schema)`` of every map-valued property of a result
    section's schema (its top-level properties whose values are objects with free
    keys)."""
    section = _resolve(section_schema, defs)
    for name, node in section.get("properties", {}).items():
        node = _resolve(node, defs)
        if _is_map(node):
            yield name, node


#: the registered names a key of each kind may also take
_REGISTERED = {"dataset": lambda: registry.datasets(), "method": lambda: registry.methods(),
               "backend": lambda: registry.backends()}


def _valid(conf: dict, kind: str, where: str, prop: str) -> tuple[list[str], list[str]] | None:
    """The section's listed names of ``kind`` and every name a key may take."""
    listing = KEY_KINDS[kind]
    if listing is None:
        return None
    if conf.get(listing) == "all" and kind in _REGISTERED:
        conf = {**conf, listing: list(_REGISTERED[kind]())}
    if listing not in conf or not isinstance(conf[listing], list):
        raise ConfigError(f"{where}.{prop}: its keys name entries of {where}.{listing}, "
                          f"which the section does not list")
    listed = [str(name) for name in conf[listing]]
    hints = [str(name) for name in _REGISTERED[kind]()] if kind in _REGISTERED else []
    return listed, listed + [name for name in hints if name not in listed]


def _refuse(key: str, listed: list[str], every: list[str], where: str, kind: str,
            listing: str) -> None:
    close = difflib.get_close_matches(key, every, n=1) or [key] * (key in every)
    hint = "."
    if close and close[0] in listed:
        hint = f"; did you mean {close[0]!r}?"
    elif close:
        hint = f"; did you mean {close[0]!r} (add it to {listing} first)?"
    others = ""
    raise ConfigError(f"{where}: key {key!r} names no {kind} of {listing} "
                      f"({', '.join(listed) or 'none'}){others}{hint} An entry under a key "
                      f"that names nothing would be silently ignored; fix or drop it")


def _check_level(value: dict, kinds: list[str], conf: dict, where: str, prop: str,
                 section: str) -> None:
    if not kinds or not isinstance(value, dict):
        return
    kind, rest = kinds[0], kinds[1:]
    if kind not in KEY_KINDS:
        raise ValueError(f"{where}: x-keys kind {kind!r} is not one of {sorted(KEY_KINDS)}")
    valid = _valid(conf, kind, section, prop)
    for key, inner in value.items():
        if valid is not None and str(key) not in valid[0]:
            _refuse(str(key), *valid, where, kind, f"{section}.{KEY_KINDS[kind]}")
        _check_level(inner, rest, conf, f"{where}.{key}", prop, section)


def check_map_keys(config: dict, schemas: dict[str, dict], defs: dict) -> None:
    """Refuse a key of a result section's map that names nothing (:data:`KEY_KINDS`).

    Parameters
    ----------
    config : dict
        A profile after its schema's defaults (``methods: all`` stands for every
        registered method).
    schemas : dict
        Result name -> its section's schema.
    defs : dict
        The profile schema's ``$defs``.

    Raises
    ------
    ConfigError
        Naming the entry, the valid keys and the closest match.
    """
    for name, conf in config.get("results", {}).items():
        section = f"results.{name}"
        for prop, node in map_properties(schemas[name], defs):
            if prop in conf and "x-keys" in node:
                _check_level(conf[prop], list(node["x-keys"]), conf, f"{section}.{prop}",
                             prop, section)
