"""Validating an instance against a JSON schema while filling in the schema's defaults.

jsonschema only validates; this module extends the validator class the schema
declares (``$schema``) so that its ``properties`` keyword first inserts every
missing property's ``default``, then validates as before: the recipe of jsonschema's
FAQ ("Why doesn't my schema's default property set the default on my instance?").
A property whose schema is a ``$ref`` (``{$ref: "#/$defs/..."}``) takes the default
of the schema it refers to. Defaults are deep-copied, so two instances never share
a default list or mapping, and defaults inside an inserted default are filled too.
"""

from __future__ import annotations

import copy
from typing import Any

import referencing
import referencing.jsonschema
from jsonschema import exceptions, validators

__all__ = ["validate_with_defaults"]

_MISSING = object()


def _default_of(subschema: Any, resolver: referencing.Resolver) -> Any:
    """The ``default`` of a property's schema, following ``$ref``; ``_MISSING`` if none."""
    while isinstance(subschema, dict):
        if "default" in subschema:
            return subschema["default"]
        if "$ref" not in subschema:
            break
        resolved = resolver.lookup(subschema["$ref"])
        subschema, resolver = resolved.contents, resolved.resolver
    return _MISSING


def _filling_validator(schema: dict) -> type:
    """The validator class ``schema`` declares, its ``properties`` keyword extended to
    insert missing defaults before validating."""
    validator_class = validators.validator_for(schema)
    validate_properties = validator_class.VALIDATORS["properties"]
    # $ref are looked up from the root schema (the profile schema's are all
    # "#/$defs/..."); without $schema, both validator_for and this take draft 2020-12
    root = referencing.Resource.from_contents(
        schema, default_specification=referencing.jsonschema.DRAFT202012)
    resolver = referencing.Registry().resolver_with_root(root)

    def set_defaults(validator, properties, instance, subschema):
        if validator.is_type(instance, "object"):
            for name, property_schema in properties.items():
                if name not in instance:
                    default = _default_of(property_schema, resolver)
                    if default is not _MISSING:
                        instance[name] = copy.deepcopy(default)
        yield from validate_properties(validator, properties, instance, subschema)

    return validators.extend(validator_class, {"properties": set_defaults})


def validate_with_defaults(instance: Any, schema: dict, *, check_schema: bool = True) -> None:
    """Validate ``instance`` against ``schema`` and fill in the schema's defaults.

    Validation is :func:`jsonschema.validate`'s (the validator class of the schema's
    ``$schema``, the schema checked first, the most relevant error raised), so the
    error for an invalid instance is the same: valid defaults add no error (a default
    of a ``required`` property could hide that one; the profile schema has none).

    Parameters
    ----------
    instance : Any
        The document (e.g. a parsed YAML profile); changed in place: every missing
        property with a ``default`` gets a deep copy of it, at every level, also
        through ``$ref``.
    schema : dict
        The JSON schema.
    check_schema : bool
        Check the schema itself first (against its metaschema). A caller that
        validates the same schema in every process may skip it and test the schema
        once instead (the profile schema: ``tests/test_config.py``).

    Raises
    ------
    jsonschema.ValidationError
        The instance is invalid (it may then be partly filled).
    jsonschema.SchemaError
        The schema itself is invalid.
    """
    cls = _filling_validator(schema)
    if check_schema:
        cls.check_schema(schema)
    error = exceptions.best_match(cls(schema).iter_errors(instance))
    if error is not None:
        raise error
