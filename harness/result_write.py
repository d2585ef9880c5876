"""Write one thesis result: its outputs (its ``write(config)``), then its claims into
its JSON sidecar.

The verdicts on the thesis' claims are computed by the result's ``claims(config)``
(:mod:`harness.claims`), the function the report calls; :func:`write_result` calls it
once the outputs exist and adds its claims to the sidecar as a list ``claims`` (id,
source, statement, verdict, evidence: :func:`harness.claims.structured_claims`), so
that a program can compare two runs' verdicts without parsing Markdown. Every
sidecar gets the list (empty for a result without claims); no Markdown changes.
``harness write`` and the workflow's write rules call it.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from harness.claims import structured_claims
from harness.jobs import result_input_records
from harness.record_check import check_readable
from harness.outputs import read_sidecar, result_outputs, write_sidecar
from harness.result_claims import result_claims
from harness.result_registry import hook

__all__ = ["write_result", "add_claims"]


def add_claims(config: dict, module: ModuleType) -> Path | None:
    """Add the result's claims (its ``claims(config)``, none if it has no such hook,
    withheld while its jobs have not all run: :mod:`harness.result_claims`) to its
    existing sidecar as ``claims``; return the sidecar's path, or None for a
    result without a sidecar (``SIDECAR`` false).

    Raises
    ------
    FileNotFoundError
        The sidecar does not exist (the result was not written yet).
    ValueError
        A malformed claim.
    """
    paths = result_outputs(config, module)
    if "json" not in paths:
        return None
    path = paths["json"]
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist; run `harness write {module.NAME}` "
                                f"first")
    stated = result_claims(config, module)
    data = read_sidecar(path)
    data["claims"] = structured_claims(stated, f"{module.__name__}.claims")
    return write_sidecar(path, data)


def write_result(config: dict, module: ModuleType) -> list[Path]:
    """Write the result's outputs (its ``write(config)``), then its claims into its
    sidecar (:func:`add_claims`); return the paths ``write`` returned.

    Raises
    ------
    harness.record_check.CorruptRecordError
        Before anything is written, when a record the result reads is unreadable (the
        last outputs stay as they were).
    """
    check_readable(result_input_records(config, module.NAME))
    paths = list(hook(module, "write")(config))
    add_claims(config, module)
    return paths
