"""Regenerate the thesis' tables next to the thesis' own numbers.

    snakemake                                   # quick profile (offline, embedded data)
    snakemake --configfile config/full.yaml     # the thesis' sizes
    snakemake -n                                # list the jobs

One job per cell (table x data set x method [x solver]) runs `harness run CELL` and
writes results/<profile>/cells/<cell>.json atomically; one job per table aggregates
the records into results/<profile>/tables/<table>.{csv,md,tex}. The cells are
expanded from the profile and the plugin registry, so a new file in methods/ adds its
rows with no edit here.
"""

from harness.workflow import WorkflowConfig

if not workflow.overwrite_configfiles:
    configfile: "config/quick.yaml"

HARNESS = WorkflowConfig.from_snakemake(workflow, config)


include: "rules/cells.smk"
include: "rules/table_3_2.smk"


rule reproduce_all:
    """Every table and figure of the profile."""
    default_target: True
    input:
        HARNESS.all_outputs(),
