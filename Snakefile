"""Regenerate the thesis' tables next to the thesis' own numbers.

    snakemake                                   # quick profile (offline, embedded data)
    snakemake --configfile config/full.yaml     # the thesis' sizes
    snakemake -n                                # list the jobs

Every thesis result of the profile's results: section (harness.results: Table 2.1,
Table 3.2, the solver table, Figs. 3.23, 3.24, 3.28, ...) is a set of jobs and one
write step. Each job (a table cell, a certified solve, a figure point) runs `harness
job RESULT/KEY` and writes results/<profile>/records/RESULT/KEY.json atomically
(rules/jobs.smk); each result's write step, `harness write RESULT`, turns its records
into results/<profile>/<tables|figures>/RESULT.* (rules/results.smk). The jobs come
from the result modules, the profile and the plugin registry, so a new file in
harness/methods/ adds its rows and a new file in harness/results/ adds a result with no edit
here. Last, one job writes the reproduction report results/<profile>/report.{html,md}
(rules/report.smk).
"""

import sys

from harness.errors import ConfigError
from harness.workflow import JOB_PATTERN, WorkflowConfig

if not workflow.overwrite_configfiles:
    configfile: "config/quick.yaml"

try:
    HARNESS = WorkflowConfig.from_snakemake(workflow, config)
except ConfigError as exc:  # one line naming the entry, not Snakemake's stack frames
    sys.stderr.write(f"harness: error in the profile: {exc}\n")
    sys.exit(1)
# an unreadable record (truncated, not JSON) is moved aside, so that its job reruns
HARNESS.quarantine_corrupt_records()
# Jobs call the harness through HARNESS.command and HARNESS.configfile in their shell
# commands, never as params: the interpreter's and the profile's paths differ between
# `snakemake` and `snakemake --configfile ...` and change when the checkout moves, and
# a changed param reruns a job. A job's params carry only what changes its result.


# A local run starts one warm process that forks each job (harness.jobserver): the
# libraries' imports and the profile's reading paid once, not per job.
onstart:
    HARNESS.start_jobserver(workflow)


onsuccess:
    HARNESS.stop_jobserver()


onerror:
    HARNESS.stop_jobserver()


include: "rules/jobs.smk"
include: "rules/results.smk"
include: "rules/report.smk"


rule reproduce_all:
    """Every thesis result of the profile, and the report; and every job record, so
    that a deleted record is made again and its results rewritten (Snakemake ignores
    a missing input of an up-to-date output, not one of this rule, which has none)."""
    default_target: True
    input:
        HARNESS.all_outputs(),
        records=HARNESS.all_records(),
