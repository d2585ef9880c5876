"""Validating with defaults filled in (harness.schema_defaults)."""

import jsonschema
import pytest

from harness.schema_defaults import validate_with_defaults

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["name"],
    "properties": {
        "name": {"type": "string"},
        "seed": {"type": "integer", "minimum": 0, "default": 0},
        "tags": {"type": "array", "items": {"type": "string"}, "default": ["a"]},
        "table": {"$ref": "#/$defs/table"},
        "section": {"type": "object", "properties": {"table": {"$ref": "#/$defs/table"}},
                    "default": {}},
    },
    "$defs": {
        "limit": {"type": "number", "exclusiveMinimum": 0, "default": 60},
        "table": {
            "type": "object",
            "properties": {
                "runs": {"type": "integer", "minimum": 1, "default": 1},
                "limit": {"$ref": "#/$defs/limit"},
                "options": {"type": "object", "default": {"k": [1, 3]}},
            },
        },
    },
}


def test_defaults_filled_at_nested_levels_and_through_ref():
    profile = {"name": "p", "table": {}}
    validate_with_defaults(profile, SCHEMA)
    assert profile == {
        "name": "p", "seed": 0, "tags": ["a"],
        "table": {"runs": 1, "limit": 60, "options": {"k": [1, 3]}},
        "section": {},  # inserted default; its absent "table" has no default
    }
    nested = {"name": "p", "section": {"table": {"runs": 2}}}
    validate_with_defaults(nested, SCHEMA)
    assert nested["section"]["table"] == {"runs": 2, "limit": 60, "options": {"k": [1, 3]}}


def test_given_values_are_not_overwritten():
    profile = {"name": "p", "seed": 7, "tags": [], "table": {"limit": 5, "options": {}}}
    validate_with_defaults(profile, SCHEMA)
    assert profile["seed"] == 7 and profile["tags"] == []
    assert profile["table"] == {"runs": 1, "limit": 5, "options": {}}


def test_two_instances_do_not_share_a_default():
    first, second = {"name": "a", "table": {}}, {"name": "b", "table": {}}
    validate_with_defaults(first, SCHEMA)
    validate_with_defaults(second, SCHEMA)
    first["tags"].append("changed")
    first["table"]["options"]["k"].append(5)
    assert second["tags"] == ["a"] and second["table"]["options"] == {"k": [1, 3]}
    assert SCHEMA["properties"]["tags"]["default"] == ["a"]
    assert SCHEMA["$defs"]["table"]["properties"]["options"]["default"] == {"k": [1, 3]}


@pytest.mark.parametrize("profile, message", [
    ({"name": "p", "table": {"runs": 0}}, "0 is less than the minimum of 1"),
    ({"name": "p", "table": {"limit": -1}}, "-1 is less than or equal to the minimum of 0"),
    ({"name": "p", "table": "x"}, "'x' is not of type 'object'"),
    ({"seed": 1}, "'name' is a required property"),
    ({"name": "p", "extra": 1}, "Additional properties are not allowed"),
])
def test_an_invalid_instance_raises_what_jsonschema_validate_raises(profile, message):
    with pytest.raises(jsonschema.ValidationError, match=message) as raised:
        validate_with_defaults(dict(profile), SCHEMA)
    with pytest.raises(jsonschema.ValidationError) as plain:
        jsonschema.validate(dict(profile), SCHEMA)
    assert raised.value.message == plain.value.message
    assert list(raised.value.absolute_path) == list(plain.value.absolute_path)
