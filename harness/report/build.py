"""Gather everything the report shows into one :class:`Report`.

A result's declaration may name the report's part it belongs to: ``GROUP`` (absent:
the thesis' results). ``GROUP = "lecture"`` (:data:`GROUPS`) marks a result of the
lecture methods on the thesis' data: not a thesis result, shown after the thesis'
results under its own heading; it may state only claims that decide the lecture notes'
own register entries (:mod:`harness.register`, kind ``"lecture"``), never a thesis claim.
"""

from __future__ import annotations

import dataclasses

from harness.claims import NOT_YET_BUILT, VERDICTS
from harness.claims_table import KINDS, claims_table, tally
from harness.claims_table import collect_claims as all_claims
from harness.jobs import profile_results, result_record_paths
from harness.number_audit import audit_lines, audit_profile
from harness.result_claims import result_claims
from harness.register import load_register
from harness.report.runinfo import RunInfo, provenance_summary, run_info
from harness.report.sections import Section, result_section
from harness.result_registry import hook, result_modules

__all__ = ["TITLE", "GROUPS", "Report", "build_report", "collect_claims", "result_group"]

TITLE = "Reproduction report: Weinberger (2007), Metric Learning with Convex Optimization"
#: the report's parts after the thesis' results: a declaration's ``GROUP`` -> (heading,
#: what the part's sections are)
GROUPS = {
    "lecture": ("Lecture methods (not thesis results; verdicts only on claims of the lecture notes)",
                "The methods of the course notes (statwiki STAT 841 F14) on the thesis' "
                "data and on generated data. These are not results of the thesis: each "
                "cell is our measurement alone (mean ± standard deviation over the runs), "
                "with no thesis number, no delta and no verdict."),
}


def result_group(module) -> str:
    """The report part of a result (its declaration's ``GROUP``; ``""`` for the
    thesis' results).

    Raises
    ------
    ValueError
        For a ``GROUP`` that is not a key of :data:`GROUPS`.
    """
    group = getattr(module, "GROUP", "") or ""
    if group and group not in GROUPS:
        raise ValueError(f"{module.__name__}.GROUP = {group!r}; use one of "
                         f"{', '.join(map(repr, GROUPS))} or leave it out (a thesis result)")
    return group


@dataclasses.dataclass
class Report:
    """The content of ``report.html`` / ``report.md``.

    Attributes
    ----------
    profile, description : str
    sections : list of Section
        One per thesis result of the profile, in its order: the thesis' results
        first, then each part of :data:`GROUPS` (a section's ``group``).
    claims : list of dict
        Every claim (:mod:`harness.claims`), in the profile's order of the results.
    runs : dict
        Section key -> :class:`RunInfo` of its records.
    provenance : list of (str, str)
    not_in_profile : list of str
        Results the harness can regenerate that this profile does not list.
    audit : list of str
        :func:`harness.number_audit.audit_lines` of the written results: one line when
        every number of their Markdown is traced, else one per result naming the
        numbers nothing explains.
    """

    profile: str
    description: str
    sections: list[Section]
    claims: list[dict]
    runs: dict[str, RunInfo]
    provenance: list[tuple[str, str]]
    not_in_profile: list[str]
    audit: list[str] = dataclasses.field(default_factory=list)
    register: list[dict] = dataclasses.field(default_factory=list)

    def parts(self) -> list[tuple[str, str, list[Section]]]:
        """``(group, heading, sections)`` per part of the report, the thesis' results
        first (group and heading ``""``), then each non-empty part of :data:`GROUPS`
        with its heading."""
        out = [("", "", [s for s in self.sections if not s.group])]
        for group, (heading, _) in GROUPS.items():
            if found := [s for s in self.sections if s.group == group]:
                out.append((group, heading, found))
        return out

    def register_counts(self) -> list[str]:
        """One line per kind of row of the claims register table
        (:func:`harness.claims_table.tally`): thesis claims apart from lecture claims,
        the harness' own checks and unregistered claims."""
        return [tally(self.register, kind) for kind in KINDS
                if any(r["kind"] == kind for r in self.register)]

    def register_decided(self) -> list[dict]:
        """The register rows with a verdict other than ``not yet built``."""
        return [r for r in self.register if r["verdict"] != NOT_YET_BUILT]

    def register_open(self) -> list[dict]:
        """The register entries no result decides yet."""
        return [r for r in self.register if r["verdict"] == NOT_YET_BUILT]

    def tally(self, source: str | None = None) -> str:
        """``2 holds, 1 not measured``: the verdicts of the claims of ``source`` (all
        claims if None), zero counts left out."""
        verdicts = [c["verdict"] for c in self.claims if source in (None, c["source"])]
        return ", ".join(f"{verdicts.count(v)} {v}" for v in VERDICTS if verdicts.count(v))

    def overview(self, section: Section) -> str:
        """One line on a section for the summary: missing, or its cell counts and its
        claims' verdicts."""
        if section.missing:
            return f"not generated: {section.missing}"
        claims = self.tally(section.key)
        parts = [section.summary] + ([f"claims: {claims}"] if claims else [])
        return "; ".join(p for p in parts if p) or "generated"


def collect_claims(config: dict) -> list[dict]:
    """:func:`harness.claims_table.collect_claims`: the claims of every result of the
    profile, after checking that a result of a part in :data:`GROUPS` states only
    claims deciding lecture register entries (no thesis claim, no unregistered one)."""
    register = load_register()
    for module in profile_results(config):
        if result_group(module) and hook(module, "claims"):
            wrong = [c for c in result_claims(config, module)
                     if c.get("register") not in register
                     or register[c["register"]].kind != "lecture"]
            if wrong:
                raise ValueError(f"{module.__name__} is in the report's part "
                                 f"{result_group(module)!r}, whose results state only the "
                                 f"lecture notes' register claims, but {len(wrong)} of its "
                                 f"claims decide no lecture entry: {wrong[0]['claim']!r}")
    return all_claims(config)


def build_report(config: dict) -> Report:
    """Read a validated profile's outputs and records into a :class:`Report`.

    Missing outputs become sections marked "not generated" (naming the command that
    makes them); missing records are counted, not fatal.
    """
    modules = profile_results(config)
    parts = ["", *GROUPS]  # the thesis' results first, then the parts in GROUPS' order
    modules = sorted(modules, key=lambda module: parts.index(result_group(module)))
    sections = []
    for module in modules:
        sections.append(result_section(config, module))
        sections[-1].group = result_group(module)
    runs, records = {}, []
    for module in modules:
        runs[module.NAME], found = run_info(result_record_paths(config, module.NAME))
        records += found
    others = [f"{name} ({module.TITLE.split(':')[0]})"
              for name, module in result_modules().items() if name not in config["results"]]
    claims = collect_claims(config)
    return Report(profile=config["profile"], description=config.get("description", ""),
                  sections=sections, claims=claims, runs=runs,
                  provenance=provenance_summary(records, config), not_in_profile=others,
                  audit=audit_lines(audit_profile(config)),
                  register=claims_table(config, claims))
