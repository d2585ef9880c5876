"""Audit of the numbers in a result's generated Markdown: every number the text shows
must come from this run's records, the result's CSV (written from those records), the
profile (its parameters) or the thesis' reference CSVs; anything else is reported as
unexplained (a number nobody measured in this run, or a stale one-off measurement).

The audit is deliberately conservative: it only looks at tokens that are plausibly
measurements and skips what is not one --

- inline code spans (commands, job ids, the provenance lines of ``## Points``) and
  link / image targets;
- dates (``2026-11-26``), citation years (``Saerens et al. 2004``) and anything
  glued to letters or underscores (job keys ``n1000``, ``r15``, commit hashes,
  ``λ1``, ``ev3``), and dimension labels glued by a hyphen to a word (``3-NN``,
  ``2-D``, ``784-D``);
- the thesis' own cross-references: ``Fig. 2.17``, ``Figs. 2.3 and 2.4``, ``Table
  3.2``, section numbers (``2.1.9``, any dotted triple) and equation numbers in
  parentheses (``(2.11)``, ``(3.27)``);
- integers of magnitude ``small_int`` or less (counts and ordinals such as "k = 3",
  "the two largest"; the decimals carry the measurements).

A shown number matches a known value ``v`` when ``|v|`` or ``100 |v|`` (a fraction
shown as a percentage) rounds to it at the shown precision (half a unit of the last
shown digit; relative to the mantissa for ``1.5e-07``). Signs are ignored (a
difference "+0.10" or "-0.10"). Numbers derived from two recorded numbers (ratios,
differences, statistics of per-run values) are not searched for: a result that
shows one puts it in its frame (the CSV).

The exceptions, each with its reason: :data:`CONSTANTS` (constants of the code or of a
data file a text states), :data:`THESIS` (numbers quoted from the thesis' prose, with
where) and :data:`CITED` (numbers of an earlier measurement, accepted only inside a
parenthesis labelled ``(cited earlier measurement: <command>, <size>, <date/commit>:
...)``, so that the same number without its label still fails).

Long numeric lists in records (raw data: coordinates, per-edge scores) contribute
only their minimum, maximum, mean and median, so that they do not make every number
look explained.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["WHITELIST", "CITED", "CONSTANTS", "THESIS", "CITED_LABEL", "whitelisted", "Token",
           "numeric_tokens", "csv_numbers", "known_numbers", "result_known_numbers", "unexplained",
           "audit_result", "audit_profile", "audit_lines", "MAX_LIST"]

#: Numbers of earlier measurements a result's Markdown may cite although this run did
#: not measure them: (result, number as shown, reason). They are accepted only inside
#: a parenthesis that opens with the label "(cited earlier measurement: <command>,
#: <size>, <date/commit>: ...)", so an unlabelled use still fails the audit.
CITED: tuple[tuple[str, str, str], ...] = tuple(
    [("fig_2_3_4", number, "k = 3's axis factors, a cited earlier measurement "
      "(harness.results.fig_2_3_4.markdown.K3_CITATION): the profile runs k = 1 only")
     for number in ("1.31", "1.88", "1.17", "1.50", "1.73", "2.08")]
    + [("fig_2_17", number, "the baseline and LMNN (rec) at the thesis' 60000 / 10000 "
        "images, a cited earlier measurement shown below that size "
        "(harness.results.fig_2_17.outputs.FULL_SIZE_CITATION)")
       for number in ("1.99", "2.83", "2.16")]
    + [("fig_3_32_35", number, "readings of the Gaussian kernel's width on the Swiss "
        "roll (n = 800, noise 0-0.2), scripts/sigma_readings.py, 2026-11-28")
       for number in ("1.42", "1.44", "1.00", "1.02", "1.11", "1.12", "1.71", "1.73")]
    + [("fig_3_28", number, "the lifted facial multipliers of the noise-free roll at "
        "n = 1000, k = 5, measured when extended precision was added (commit adbab07; "
        "harness.problems.extended_precision's notes)")
       for number in ("1e-11", "1e12", "4e-3", "1e-6")]
    + [("table_3_2", number, "olivetti's k = 5 graph components by reading of its "
        "downsampling, a cited earlier measurement (the notes of "
        "harness.results.table_3_2 and harness.methods.mvu's table note): the quick profile has "
        "no olivetti record where the data are not fetched") for number in ("390", "385")]
    + [(name, "390", "olivetti's k = 5 graph components on the 400 real faces, "
        "a cited earlier measurement (tests/datasets/test_real_files.py, 2026-11-26), "
        "in the MVU choice of harness.methods.are's notes (lecture_are) or harness.methods.mvu's table "
        "note (table_3_2_l5)") for name in ("lecture_are", "table_3_2_l5")])
#: Constants of the code a result's Markdown states (anywhere in its text):
#: (result, number as shown, reason)
CONSTANTS: tuple[tuple[str, str, str], ...] = (
    ("fig_2_13", "1e-9", "the relative tolerance of 'exact' in the search comparison, a "
     "constant of the code (harness.results.common.work.balltree_point._EXACT_RTOL)"),
    ("table_3_2", "255", "the 8-bit pixel scale the olivetti loader divides by "
     "(harness.datasets.olivetti), a constant named in a note"),
    *[(name, "7291", "the size of libsvm's USPS training file (harness.datasets.usps, "
       "sha256-checked), in the data set's note") for name in ("fig_3_32_35", "fig_3_37",
                                                               "table_3_3")],
    ("table_2_1_peers", "1e-7", "metric-learn's LMNN learn_rate, passed as its "
     "default (harness.methods.peer_metric_learn_lmnn's note)"),
    ("table_2_1_peers", "1e-5", "the tol NCA and pylmnn are run with, their defaults "
     "(harness.methods.nca_knn's and harness.methods.peer_pylmnn's notes)"),
    ("fig_3_28", "2004", "the year of Weinberger's public sde.m (v1.3), whose CSDP "
     "call the sde_csdp50 reading follows"),
    ("fig_3_20", "1e-10", "the relative gain below which the preconditioned CG stops "
     "its line searches, the default ftol of harness.methods.shared.variational_refine.pcg"),
    ("table_3_2_l5", "0.999", "the omega below which the norm reading of (3.23) is "
     "unbounded, in the variational MVU methods' table note (Table 3.2's rows)"),
    ("fig_2_20", "3600", "the grid of directions the maxima of the variance and the "
     "Fisher ratio are checked against (harness.results.fig_2_20.work.GRID)"),
)
#: Numbers a result's Markdown quotes from the thesis' prose, which the reference CSVs
#: (its tables' and claims' numbers) do not hold: (result, number as shown, where)
THESIS: tuple[tuple[str, str, str], ...] = (
    ("fig_3_20", "1028", "3.1.8: Fig. 3.20's panels 'scaled by factors of 0.50 and 1028'"),
    ("fig_3_22", "560", "3.1.6 (Fig. 3.13): Frey's faces have 'p = 560 dimensions' "
     "(28 x 20 pixels), where Table 3.2's 'input dim' row says 650"),
    ("fig_3_24", "1960", "3.1.6 (Fig. 3.13): 'a data set of n = 1960 images of faces'"),
    ("fig_3_32_35", "1541", "3.1.9: the teapot's 'Gaussian (sigma = 1541)' kernel"),
    *[("table_3_3", number, "3.1.9 (Table 3.3): each experiment's 810 training and 90 "
       "test images") for number in ("810", "90")],
    *[(name, "536", "375 + 161, the training and test sizes the thesis' Table 2.1 "
       "lists for balance (whose '# inputs' it gives as 535); the data set's note "
       "(harness.datasets.balance_scale)")
      for name in ("table_2_1", "table_2_1_peers", "fig_2_9_12", "lecture_spca")],
)
#: Every exception of the audit, for review
WHITELIST = CITED + CONSTANTS + THESIS
CITED_LABEL = "(cited earlier measurement"

#: numeric lists longer than this are raw data: only their summary statistics count
MAX_LIST = 200
SMALL_INT = 10

_CODE = re.compile(r"`[^`]*`")
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?\b")
_CITATION_YEAR = re.compile(r"\bet al\.?,?\s+\(?(?:19|20)\d{2}\)?")
_SECTION = re.compile(r"(?<![\d.])\d+\.\d+\.\d+(?:\.\d+)*(?![\d])")
_EQUATION = re.compile(r"\(\d\.\d{1,2}\)")
_NUM = r"\d+(?:\.\d+)?"
_CROSS_REF = re.compile(
    rf"\b(?:Figs?\.?|Figures?|Tables?|Eqs?\.?|Equations?|Sections?|Algorithms?|"
    rf"Chapters?)\s+{_NUM}(?:\s*(?:,|/|-|–|and|to|&)\s*{_NUM})*", re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_CELL_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_UNIT_SUFFIXES = ("x", "s", "pp", "h", "min", "ms", "GB", "MB")


@dataclass(frozen=True)
class Token:
    """A number as shown: its text, value, the half-unit tolerance of its last shown
    digit, and some context for a report."""

    text: str
    value: float
    tolerance: float
    context: str
    cited: bool = False  # inside a "(cited earlier measurement: ...)" parenthesis

    def __str__(self) -> str:
        return f"{self.text} (in '...{self.context}...')"


def _blank(text: str, pattern: re.Pattern) -> str:
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def _tolerance(text: str) -> float:
    mantissa, _, exponent = text.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    half = 0.5 * 10.0 ** -decimals
    if exponent:
        half *= 10.0 ** int(exponent)
    return half * (1 + 1e-6) + 1e-12


def _is_measurement_like(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start else " "
    before2 = text[start - 2] if start > 1 else " "
    after = text[end:end + 1]
    if before.isalpha() or before == "_":
        # "x1.45" (a factor) is a number; "n1000", "r15", "ev3", "λ1" are names
        return before == "x" and not (before2.isalnum() or before2 == "_")
    if before == "-" and (before2.isalpha() or before2 == "_"):
        return False  # "top-2", "k-3"
    if before == "." and before2.isdigit():
        return False
    if after and (after.isalpha() or after == "_"):
        rest = re.match(r"[A-Za-z_]+", text[end:]).group(0)
        return rest in _UNIT_SUFFIXES
    if after == "-" and text[end + 1:end + 2].isalpha():
        return False  # "3-NN", "2-D", "784-D", "5-dimensional"
    return True


def numeric_tokens(markdown: str, small_int: int = SMALL_INT) -> list[Token]:
    """The numbers of a Markdown text that may be measurements (see the module doc for
    what is skipped)."""
    text = _blank(markdown, _CODE)
    cited = _cited_spans(text)
    for pattern in (_LINK_TARGET, _DATE, _CITATION_YEAR, _CROSS_REF, _SECTION,
                    _EQUATION):
        text = _blank(text, pattern)
    tokens = []
    for m in _NUMBER.finditer(text):
        if not _is_measurement_like(text, m.start(), m.end()):
            continue
        shown = m.group(0)
        value = float(shown)
        if "." not in shown and "e" not in shown.lower() and abs(value) <= small_int:
            continue
        context = markdown[max(0, m.start() - 40):m.end() + 20].replace("\n", " ")
        inside = any(a <= m.start() < b for a, b in cited)
        tokens.append(Token(shown, value, _tolerance(shown), context, inside))
    return tokens


def _cited_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) of every parenthesis opening with :data:`CITED_LABEL`."""
    spans = []
    start = text.find(CITED_LABEL)
    while start >= 0:
        depth, end = 0, len(text)
        for i in range(start, len(text)):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            if depth == 0:
                end = i + 1
                break
        spans.append((start, end))
        start = text.find(CITED_LABEL, start + 1)
    return spans


# ---- what is known -------------------------------------------------------------------
def _leaves(value, out: list[float]) -> None:
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, (int, float)):
        if math.isfinite(value):
            out.append(float(value))
        return
    if isinstance(value, str):
        return
    if isinstance(value, dict):
        for key, v in value.items():
            if key == "reason" and isinstance(v, str):  # a gap's reason, shown verbatim
                out += [float(m.group(0)) for m in _NUMBER.finditer(v)]
            else:
                _leaves(v, out)
        return
    if isinstance(value, (list, tuple)):
        flat = _flat_numbers(value)
        if flat is not None and len(flat) > MAX_LIST:
            arr = np.asarray(flat, dtype=float)
            arr = arr[np.isfinite(arr)]
            if arr.size:
                out += [float(arr.min()), float(arr.max()), float(arr.mean()),
                        float(np.median(arr))]
            return
        for v in value:
            _leaves(v, out)


def _flat_numbers(value) -> list | None:
    """The numbers of a (nested) list of plain numbers; None if it holds anything else."""
    out = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, (int, float)) and not isinstance(item, bool):
            out.append(item)
        else:
            return None
    return out


def csv_numbers(text: str) -> list[float]:
    """The numbers of a CSV file's numeric cells (a cell that is one number, e.g.
    ``4.87`` or ``1e-06``). A text cell -- a note, a reason, a description -- adds none:
    a number written inside a reason is not a measurement of this run (issue 51 defect
    8: a reason quoting "0.8 %" for a cell that reads 1.56 made "0.8" look traced)."""
    out = []
    for row in csv.reader(io.StringIO(text)):
        for cell in row:
            cell = cell.strip()
            if cell and _CELL_NUMBER.fullmatch(cell):
                value = float(cell)
                if math.isfinite(value):
                    out.append(value)
    return out


def known_numbers(*sources, texts: tuple[str, ...] = ()) -> np.ndarray:
    """The sorted absolute values of the numeric leaves of ``sources`` (JSON-like
    values) and of the numeric cells of ``texts`` (CSV files: their frames and the
    thesis' reference CSVs, :func:`csv_numbers`)."""
    values: list[float] = []
    for source in sources:
        _leaves(source, values)
    for text in texts:
        values += csv_numbers(text)
    return np.unique(np.abs(np.asarray(values, dtype=float)))


def result_known_numbers(config: dict, result: str) -> np.ndarray:
    """Everything a result's Markdown may show: its input records (its own jobs' and
    those of the results it reads), its CSV and the CSVs of the results it reads
    (their frames, built from those records), the profile and the thesis' reference
    CSVs."""
    from harness.jobs import result_input_records
    from harness.outputs import result_outputs
    from harness.result_registry import get_result

    records = [json.loads(p.read_text()) for p in result_input_records(config, result)
               if p.exists()]
    module = get_result(result)
    texts = []
    for name in [result, *(module.reads(config) if hasattr(module, "reads") else ())]:
        csv = result_outputs(config, get_result(name)).get("csv")
        if csv is not None and Path(csv).exists():
            texts.append(Path(csv).read_text())
    reference = Path(config.get("reference_dir") or "results/reference")
    # the thesis' reference CSVs are the thesis' words and numbers throughout (their
    # conditions quote it too): every number in them counts
    thesis = np.abs([float(m.group(0)) for p in sorted(reference.glob("*.csv"))
                     for m in _NUMBER.finditer(p.read_text())])
    return np.union1d(np.union1d(known_numbers(records, config, texts=tuple(texts)), thesis),
                      _deviation_numbers(result))


def _deviation_numbers(result: str) -> np.ndarray:
    """The literal numbers of ``result``'s measured explanations in
    ``config/known_deviations.yaml``: the earlier measurements each entry describes
    (the numbers of this run a reason states are placeholders filled from the run,
    :func:`harness.results.common.write.tables.fill_reason`, and traced as this run's)."""
    from harness.known_deviations import PLACEHOLDER, known_deviations

    values = [float(m.group(0)) for reason in known_deviations(result).values()
              for m in _NUMBER.finditer(PLACEHOLDER.sub("", reason))]
    return np.unique(np.abs(np.asarray(values, dtype=float)))


def _matches(token: Token, known: np.ndarray) -> bool:
    target = abs(token.value)
    for scale in (1.0, 100.0):
        lo, hi = (target - token.tolerance) / scale, (target + token.tolerance) / scale
        i = np.searchsorted(known, lo, side="left")
        if i < known.size and known[i] <= hi:
            return True
    return False


def unexplained(markdown: str, known: np.ndarray, whitelist=(), cited=(),
                small_int: int = SMALL_INT) -> list[Token]:
    """The tokens of ``markdown`` that match no known number, are not in ``whitelist``
    (shown texts, e.g. ``"1e-9"``) and are not in ``cited`` inside a labelled cited
    measurement."""
    allowed, cited = set(whitelist), set(cited)
    return [t for t in numeric_tokens(markdown, small_int)
            if t.text not in allowed and not (t.cited and t.text in cited)
            and not _matches(t, known)]


def whitelisted(result: str, cited: bool = False) -> set[str]:
    """The numbers :data:`CONSTANTS` and :data:`THESIS` (or, with ``cited``,
    :data:`CITED`) allow in ``result``'s Markdown."""
    return {number for name, number, _ in (CITED if cited else CONSTANTS + THESIS)
            if name == result}


def audit_profile(config: dict, results=None) -> dict[str, list[Token]]:
    """:func:`audit_result` of every result of the profile (or of ``results``), by name.
    A result whose Markdown is not written, or whose records cannot be read, is a
    finding too (one token naming the missing file or the unreadable record and the
    fix), so that the audit never passes over it (issue 53)."""
    from harness.outputs import result_outputs
    from harness.jobs import result_input_records
    from harness.record_check import CorruptRecordError, check_readable
    from harness.result_registry import get_result

    found = {}
    for name in results or list(config["results"]):
        md = result_outputs(config, get_result(name)).get("md")
        if md is None:
            continue
        if not Path(md).exists():
            found[name] = [Token("(not written)", math.nan, 0.0,
                                 f"{md} does not exist: run `harness write {name}`")]
            continue
        try:
            check_readable(result_input_records(config, name))
            found[name] = audit_result(config, name)
        except CorruptRecordError as exc:
            found[name] = [Token("(unreadable record)", math.nan, 0.0, str(exc))]
    return found


def audit_lines(found: dict[str, list[Token]]) -> list[str]:
    """What :func:`audit_profile` found, as the report and ``harness audit`` say it:
    one line for a clean run, else one line per result with unexplained numbers."""
    bad = {name: tokens for name, tokens in found.items() if tokens}
    if not bad:
        kinds = (f"{len(CONSTANTS)} constants of the code or of data files, {len(THESIS)} "
                 f"quotes of the thesis' prose, {len(CITED)} cited earlier measurements")
        return [f"Every number in the generated text of the {len(found)} results written is "
                f"traced to this run's records, the results' CSVs, the profile or the "
                f"thesis' reference (harness.number_audit; the exceptions it allows, each "
                f"with its reason: {kinds})."]
    return [f"{name}: {len(tokens)} number(s) that no record, CSV, profile entry or thesis "
            f"reference explains: " + "; ".join(f"{t.text} in '…{t.context.strip()}…'"
                                                 for t in tokens)
            for name, tokens in bad.items()]


def audit_result(config: dict, result: str, markdown: str | None = None) -> list[Token]:
    """The unexplained numbers of a result's written Markdown (``markdown``: its text,
    read from ``results/<profile>/<kind>/<result>.md`` when not given), with the
    result's exceptions of :data:`CONSTANTS` and :data:`CITED`."""
    from harness.outputs import result_outputs
    from harness.result_registry import get_result

    if markdown is None:
        markdown = Path(result_outputs(config, get_result(result))["md"]).read_text()
    return unexplained(markdown, result_known_numbers(config, result),
                       whitelisted(result), whitelisted(result, cited=True))
