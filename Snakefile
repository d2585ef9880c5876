"""Regenerate the thesis' tables next to the thesis' own numbers.

    snakemake                                   # quick profile (offline, embedded data)
    snakemake --configfile config/full.yaml     # the thesis' sizes
    snakemake -n                                # list the jobs

One job per cell (table x data set x method [x solver]) runs `harness run CELL` and
writes results/<profile>/cells/<cell>.json atomically; one job per table aggregates
the records into results/<profile>/tables/<table>.{csv,md,tex}. The cells are
expanded from the profile and the plugin registry, so a new file in methods/ adds its
rows with no edit here. The MVU solver table (profile section solver_table) runs one
job per certified solve, `harness solve-point` (rules/solver_table.smk).
The thesis figures (profile section figures) run one job per MVU solve, `harness
figure-point` (rules/figure_points.smk), and one aggregation job per figure writing
results/<profile>/figures/<figure>.{csv,png,md} (rules/figures.smk). Last, one job
writes the reproduction report results/<profile>/report.{html,md} (rules/report.smk).
"""

from harness.workflow import WorkflowConfig

if not workflow.overwrite_configfiles:
    configfile: "config/quick.yaml"

HARNESS = WorkflowConfig.from_snakemake(workflow, config)
# Jobs call the harness through HARNESS.command and HARNESS.configfile in their shell
# commands, never as params: the interpreter's and the profile's paths differ between
# `snakemake` and `snakemake --configfile ...` and change when the checkout moves, and
# a changed param reruns a job. A job's params carry only what changes its result.


include: "rules/cells.smk"
include: "rules/tables.smk"
include: "rules/solver_table.smk"
include: "rules/figure_points.smk"
include: "rules/figures.smk"
include: "rules/report.smk"


rule reproduce_all:
    """Every table and figure of the profile, and the report."""
    default_target: True
    input:
        HARNESS.all_outputs(),
