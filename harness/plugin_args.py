"""Plugin arguments of a profile, checked before any job runs.

The profile's ``datasets:`` (``load()`` keyword arguments per data set) and
``methods:`` (constructor arguments per method), and a result section's
``dataset_params`` and ``method_params``, reach a plugin only inside its job: a
misspelt or ill-typed argument (``n_sample``, ``time_limt``, ``n_samples: 'forty'`` or
``-2000``) used to pass ``snakemake -n`` and crash every job it reached with a
traceback and no record (issue 53). :func:`check_plugin_args` checks each argument
against the plugin's signature:

- its name is a parameter of ``load()`` (a data set; for a downloaded one, of the
  ``parse()`` its ``load()`` hands them to) or of the estimator (a method), else it
  is refused with the closest name (a catch-all ``**params`` takes no name: an
  argument it would ignore is refused);
- its type matches the default's (a bool for a bool, an integer for an integer, a
  number for a float, a string for a string); a parameter whose default is None or
  that has none is not typed here;
- an integer whose default is a positive count (``n_samples=1000``) must be at least
  1 (a negative count is never meant).

A plugin that validates more (ranges, combinations) still does so when it runs. The
workflow checks a profile this way when Snakemake starts (``snakemake -n`` names the
argument), and ``harness job`` before its work; :func:`harness.config.validate_config`
does not, since it runs in every job and must import no plugin.
"""

from __future__ import annotations

import difflib
import inspect
import numbers

from harness import registry
from harness.errors import ConfigError

__all__ = ["plugin_parameters", "check_args", "check_plugin_args"]


def plugin_parameters(kind: str, name: str) -> dict[str, object]:
    """The parameters a ``kind`` (``"dataset"`` or ``"method"``) plugin takes, with
    their defaults (``inspect.Parameter.empty`` where there is none)."""
    if kind == "dataset":
        plugin = registry.get_dataset(name)
        targets = [plugin.load]
        # a downloaded data set's load(**params) hands them to its parse(path, ...)
        if hasattr(plugin, "parse"):
            targets.append(plugin.parse)
    else:
        targets = [registry.get_method(name).__init__]
    found = {}
    for target in targets:
        for p in inspect.signature(target).parameters.values():
            if p.name not in ("self", "path") and p.kind not in (p.VAR_POSITIONAL,
                                                                p.VAR_KEYWORD):
                found.setdefault(p.name, p.default)
    return found


def _type_problem(value, default) -> str | None:
    if default is inspect.Parameter.empty or default is None:
        return None
    if isinstance(default, bool):
        return None if isinstance(value, bool) else "true or false"
    if isinstance(default, numbers.Integral):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            return "an integer"
        if default >= 1 and value < 1:
            return "an integer of at least 1 (a count)"
        return None
    if isinstance(default, numbers.Real):
        return None if isinstance(value, numbers.Real) and not isinstance(value, bool) \
            else "a number"
    if isinstance(default, str):
        return None if isinstance(value, str) else "a string"
    return None


def check_args(kind: str, name: str, args, where: str) -> None:
    """Refuse an argument of ``args`` that the ``kind`` plugin ``name`` does not take,
    or whose type does not match its default (module docstring).

    Raises
    ------
    ConfigError
        Naming ``where``, the argument, what it should be and the closest name.
    """
    if not isinstance(args, dict):
        raise ConfigError(f"{where}: must be a mapping of argument names to values, not "
                          f"{type(args).__name__}")
    params = plugin_parameters(kind, name)
    for arg, value in args.items():
        if arg not in params:
            close = difflib.get_close_matches(str(arg), list(params), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else "."
            raise ConfigError(f"{where}.{arg}: the {kind} {name!r} takes no argument "
                              f"{arg!r}{hint} Its arguments: {', '.join(params) or 'none'}")
        problem = _type_problem(value, params[arg])
        if problem is not None:
            raise ConfigError(f"{where}.{arg} = {value!r}: must be {problem}, like its "
                              f"default {params[arg]!r}")


def check_plugin_args(config: dict) -> None:
    """Check the profile's ``datasets:`` and ``methods:`` arguments, and each result
    section's ``dataset_params`` and ``method_params`` (keys that are not a registered
    plugin, e.g. a table's reading, are checked by their plugin elsewhere)."""
    datasets, methods = set(registry.datasets()), set(registry.methods())
    for name, args in (config.get("datasets") or {}).items():
        check_args("dataset", name, args or {}, f"datasets.{name}")
    for name, args in (config.get("methods") or {}).items():
        check_args("method", name, args or {}, f"methods.{name}")
    for result, conf in (config.get("results") or {}).items():
        where = f"results.{result}"
        for name, args in (conf.get("dataset_params") or {}).items():
            if name in datasets:
                check_args("dataset", name, args or {}, f"{where}.dataset_params.{name}")
        for column, per_method in (conf.get("method_params") or {}).items():
            for name, args in (per_method or {}).items():
                if name in methods:
                    check_args("method", name, args or {},
                               f"{where}.method_params.{column}.{name}")
