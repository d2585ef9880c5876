"""Gather everything the report shows into one :class:`Report`."""

from __future__ import annotations

import dataclasses

from harness.claims import VERDICTS, check_claim
from harness.jobs import profile_results, result_record_paths
from harness.report.runinfo import RunInfo, provenance_summary, run_info
from harness.report.sections import Section, result_section
from harness.results import hook, result_modules

__all__ = ["TITLE", "Report", "build_report", "collect_claims"]

TITLE = "Reproduction report: Weinberger (2007), Metric Learning with Convex Optimization"


@dataclasses.dataclass
class Report:
    """The content of ``report.html`` / ``report.md``.

    Attributes
    ----------
    profile, description : str
    sections : list of Section
        One per thesis result of the profile, in its order.
    claims : list of dict
        Every claim (:mod:`harness.claims`), in the profile's order of the results.
    runs : dict
        Section key -> :class:`RunInfo` of its records.
    provenance : list of (str, str)
    not_in_profile : list of str
        Results the harness can regenerate that this profile does not list.
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


def collect_claims(config: dict) -> list[dict]:
    """``claims(config)`` of every result of the profile that has claims (the thesis'
    statements with verdicts, :mod:`harness.claims`), in the profile's order."""
    found = []
    for module in profile_results(config):
        if claims := hook(module, "claims"):
            found += [check_claim(c, f"{module.__name__}.claims") for c in claims(config)]
    return found


def build_report(config: dict) -> Report:
    """Read a validated profile's outputs and records into a :class:`Report`.

    Missing outputs become sections marked "not generated" (naming the command that
    makes them); missing records are counted, not fatal.
    """
    modules = profile_results(config)
    sections = [result_section(config, module) for module in modules]
    runs, records = {}, []
    for module in modules:
        runs[module.NAME], found = run_info(result_record_paths(config, module.NAME))
        records += found
    others = [f"{name} ({module.TITLE.split(':')[0]})"
              for name, module in result_modules().items() if name not in config["results"]]
    return Report(profile=config["profile"], description=config.get("description", ""),
                  sections=sections, claims=collect_claims(config), runs=runs,
                  provenance=provenance_summary(records, config), not_in_profile=others)
