"""Gather everything the report shows into one :class:`Report`."""

from __future__ import annotations

import dataclasses

from harness import experiments
from harness.claims import VERDICTS, check_claim
from harness.report.runinfo import RunInfo, provenance_summary, record_paths, run_info
from harness.report.sections import (Section, figure_sections, solver_section,
                                     table_sections)
from harness.report.table_claims import table_claims
from harness.table_specs import TABLES

__all__ = ["TITLE", "Report", "build_report", "collect_claims"]

TITLE = "Reproduction report: Weinberger (2007), Metric Learning with Convex Optimization"


@dataclasses.dataclass
class Report:
    """The content of ``report.html`` / ``report.md``.

    Attributes
    ----------
    profile, description : str
    sections : list of Section
        The thesis tables, the solver table, the figures (profile order).
    claims : list of dict
        Every claim (:mod:`harness.claims`), tables first, then figures.
    runs : dict
        Section key -> :class:`RunInfo` of its records.
    provenance : list of (str, str)
    not_in_profile : list of str
        Tables and figures the harness can regenerate that this profile does not list.
    """

    profile: str
    description: str
    sections: list[Section]
    claims: list[dict]
    runs: dict[str, RunInfo]
    provenance: list[tuple[str, str]]
    not_in_profile: list[str]

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


def collect_claims(config: dict, sections: list[Section]) -> list[dict]:
    """The tables' claims (:mod:`harness.report.table_claims`) on their long CSVs, then
    ``claims(config)`` of every figure module of the profile that has one."""
    found = []
    for section in (s for s in sections if s.kind == "table"):
        found += table_claims(section.key, section.frame,
                              f"the table was not generated: {section.missing}")
    for figure in config.get("figures") or {}:
        module = experiments.get_figure(figure)
        if hasattr(module, "claims"):
            found += [check_claim(c, f"{module.__name__}.claims") for c in module.claims(config)]
    return found


def build_report(config: dict) -> Report:
    """Read a validated profile's outputs and records into a :class:`Report`.

    Missing outputs become sections marked "not generated" (naming the command that
    makes them); missing records are counted, not fatal.
    """
    sections = table_sections(config)
    solver = solver_section(config)
    sections += [solver] if solver else []
    sections += figure_sections(config)
    runs, records = {}, []
    for section in sections:
        runs[section.key], found = run_info(record_paths(config, section.key, section.kind))
        records += found
    listed = set(config["tables"]) | set(config.get("figures") or {})
    others = [f"{name} ({spec.title.split(':')[0]})" for name, spec in TABLES.items()
              if name not in listed]
    others += [f"{name} ({module.TITLE.split(':')[0]})"
               for name, module in experiments.FIGURES.items() if name not in listed]
    return Report(profile=config["profile"], description=config.get("description", ""),
                  sections=sections, claims=collect_claims(config, sections), runs=runs,
                  provenance=provenance_summary(records, config), not_in_profile=others)
