"""The claims register: one entry per measurable sentence of the thesis (chapters 2-4) and,
marked apart, of the lecture notes, read from ``harness/claims_register/*.yaml``.

The register is written from the text before any number is computed (issue 51); a
result's claim names the entry it decides (``register`` key of the claim dict,
:mod:`harness.claims`) and ``harness claims`` joins the two (:mod:`harness.claims_table`).

An entry (one YAML mapping) has:

==============  ===================================================================
``id``          unique, kebab-case; ``s<section>-...`` for the thesis, ``lec-...``
                for the lecture notes
``source``      the text's file name in the shared seeds
                (``thesis_weinberger_2007_metric_learning.txt`` or a lecture file)
``line``        1-based line of that file holding the quote
``quote``       the sentence (or clause), a verbatim substring of that line
``section``     the thesis section (``"2.1.6"``) or the lecture's heading
``about``       the result and the data sets the sentence is about
``quantifier``  one of :data:`QUANTIFIERS`
``readings``    one or more readings fixed from the text, each with ``name``,
                ``predicate``, ``comparator``, ``tolerance`` and ``test``
``results``     the harness results whose records can decide it (may be empty)
``decidable``   ``"yes"``, or why not: ``"not comparable: ..."`` (2007 hardware),
                ``"data not reachable: ..."``, ``"not an experiment: ..."``
``note``        optional: the ambiguity and the choice made
==============  ===================================================================
"""

from __future__ import annotations

import dataclasses
import functools
import re
from pathlib import Path

import yaml

__all__ = ["QUANTIFIERS", "REGISTER_DIR", "THESIS", "RegisterError", "RegisterReading", "Entry",
           "load_register", "verify_quotes"]

#: the quantifiers of a register entry: ``every`` (every, all, always, never, only, none)
#: is universal, ``some`` existential, ``most`` a majority ("generally", "almost all");
#: a ``mean``, ``trend`` or ``number`` claim is one statement whose parts must all
#: hold (:func:`harness.claims.verdict_of`)
QUANTIFIERS = ("every", "most", "some", "mean", "trend", "number")
#: where the register's YAML files live (one per thesis chapter, one for the lectures)
REGISTER_DIR = Path(__file__).resolve().parent / "claims_register"
#: the thesis' text file name in the shared seeds
THESIS = "thesis_weinberger_2007_metric_learning.txt"
KEYS = ("id", "source", "line", "quote", "section", "about", "quantifier", "readings",
        "results", "decidable")
READING_KEYS = ("name", "predicate", "comparator", "tolerance", "test")
#: the reasons an entry cannot be decided here, as its ``decidable`` value starts
UNDECIDABLE = ("not comparable:", "data not reachable:", "not an experiment:")
_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


class RegisterError(ValueError):
    """A malformed register file or entry; the message names the file, the entry and
    the fix."""


@dataclasses.dataclass(frozen=True)
class RegisterReading:
    """One reading of an entry: what is computed (``predicate``), how it is compared
    (``comparator``), what difference is too small to decide (``tolerance``) and how
    it is decided (``test``)."""

    name: str
    predicate: str
    comparator: str
    tolerance: str
    test: str


@dataclasses.dataclass(frozen=True)
class Entry:
    """One register entry (see the module docstring for the fields)."""

    id: str
    source: str
    line: int
    quote: str
    section: str
    about: str
    quantifier: str
    readings: tuple[RegisterReading, ...]
    results: tuple[str, ...]
    decidable: str
    note: str = ""
    file: str = ""

    @property
    def kind(self) -> str:
        """``"thesis"`` or ``"lecture"``."""
        return "thesis" if self.source == THESIS else "lecture"

    @property
    def reading_text(self) -> str:
        """The readings in one line: ``name: predicate (comparator; tolerance; test)``."""
        return " | ".join(f"{r.name}: {r.predicate} ({r.comparator}; {r.tolerance}; "
                          f"{r.test})" for r in self.readings)


def _entry(raw, where: str) -> Entry:
    if not isinstance(raw, dict):
        raise RegisterError(f"{where}: an entry must be a mapping with keys {KEYS}, got "
                            f"{type(raw).__name__}")
    name = f"{where} entry {raw.get('id', '?')!r}"
    missing = [k for k in KEYS if k not in raw]
    unknown = sorted(set(raw) - set(KEYS) - {"note"})
    if missing or unknown:
        raise RegisterError(f"{name}: missing keys {missing}, unknown keys {unknown}; an "
                            f"entry has exactly {', '.join(KEYS)} (and optionally note)")
    if not _ID.fullmatch(str(raw["id"])):
        raise RegisterError(f"{name}: the id must be kebab-case (a-z, 0-9, '-')")
    if raw["quantifier"] not in QUANTIFIERS:
        raise RegisterError(f"{name}: quantifier {raw['quantifier']!r} is not one of "
                            f"{', '.join(QUANTIFIERS)}")
    if not isinstance(raw["line"], int) or raw["line"] < 1:
        raise RegisterError(f"{name}: line must be a positive integer (1-based)")
    if not str(raw["quote"]).strip():
        raise RegisterError(f"{name}: the quote is empty; copy the sentence verbatim")
    readings = raw["readings"]
    if not isinstance(readings, list) or not readings:
        raise RegisterError(f"{name}: readings must be a non-empty list")
    for r in readings:
        if not isinstance(r, dict) or set(r) != set(READING_KEYS):
            raise RegisterError(f"{name}: each reading has exactly the keys "
                                f"{', '.join(READING_KEYS)}; got {r!r}")
    names = [r["name"] for r in readings]
    if len(set(names)) != len(names):
        raise RegisterError(f"{name}: reading names must differ, got {names}")
    decidable = str(raw["decidable"])
    if decidable != "yes" and not decidable.startswith(UNDECIDABLE):
        raise RegisterError(f"{name}: decidable must be 'yes' or start with one of "
                            f"{', '.join(UNDECIDABLE)}")
    if not isinstance(raw["results"], list):
        raise RegisterError(f"{name}: results must be a list of result names")
    return Entry(id=raw["id"], source=raw["source"], line=raw["line"],
                 quote=str(raw["quote"]), section=str(raw["section"]),
                 about=str(raw["about"]), quantifier=raw["quantifier"],
                 readings=tuple(RegisterReading(**{k: str(r[k]) for k in READING_KEYS})
                                for r in readings),
                 results=tuple(raw["results"]), decidable=decidable,
                 note=str(raw.get("note") or ""), file=where)


@functools.lru_cache(maxsize=4)
def load_register(directory: Path | None = None) -> dict[str, Entry]:
    """Every entry of the register in ``directory`` (default :data:`REGISTER_DIR`), by
    id, in file then entry order.

    Raises
    ------
    RegisterError
        A file that is not a YAML list, a malformed entry, or an id used twice.
    """
    directory = Path(directory or REGISTER_DIR)
    entries: dict[str, Entry] = {}
    for path in sorted(directory.glob("*.yaml")):
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(raw, list):
            raise RegisterError(f"{path.name}: the register file must be a YAML list of "
                                f"entries")
        for item in raw:
            entry = _entry(item, path.name)
            if entry.id in entries:
                raise RegisterError(f"{path.name}: id {entry.id!r} is used twice (also in "
                                    f"{entries[entry.id].file}); ids must be unique")
            entries[entry.id] = entry
    return entries


def verify_quotes(entries: dict[str, Entry], seeds: Path) -> list[str]:
    """The entries whose quote is not a verbatim substring of its line of its source
    file in ``seeds`` (one message per entry, naming the file, line and id); empty when
    every quote is verbatim."""
    texts: dict[str, list[str]] = {}
    bad = []
    for entry in entries.values():
        if entry.source not in texts:
            path = Path(seeds) / entry.source
            if not path.is_file():
                bad.append(f"{entry.id}: source {entry.source} not found in {seeds}")
                continue
            texts[entry.source] = path.read_text(encoding="utf-8").split("\n")
        lines = texts[entry.source]
        line = lines[entry.line - 1] if entry.line <= len(lines) else ""
        if entry.quote not in line:
            bad.append(f"{entry.id}: quote not verbatim in line {entry.line} of "
                       f"{entry.source}: {entry.quote[:60]!r}")
    return bad
