"""The profile errors every layer raises: :class:`ConfigError` and the name check.

Kept apart from :mod:`harness.config` (which loads profiles and asks every thesis
result to check its section) so that the result modules can raise them without
importing the loader that imports them.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ConfigError", "check_names"]


class ConfigError(ValueError):
    """The profile is malformed or names something that does not exist."""


def check_names(kind: str, value: Any, valid, where: str) -> list[str]:
    """``value`` as a list of names, every one in ``valid`` (``"all"``: all of them).

    Raises
    ------
    ConfigError
        Naming ``where``, the unknown names and the valid ones.
    """
    if value == "all":
        return list(valid)
    unknown = [v for v in value if v not in valid]
    if unknown:
        raise ConfigError(
            f"{where}: unknown {kind} {', '.join(map(repr, unknown))}; "
            f"valid {kind}s: {', '.join(valid) or '(none)'}"
        )
    return list(value)
