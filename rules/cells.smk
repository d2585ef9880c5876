# One job per cell, for every table: `harness run CELL` writes the cell's record.
# params holds the resolved cell parameters (deterministic), so that a change of
# profile values reruns exactly the cells it affects; the plugin source files are
# inputs, so editing a method or data set reruns its cells.


rule cell:
    output:
        HARNESS.record_pattern,
    input:
        HARNESS.cell_sources,
    params:
        resolved=HARNESS.cell_params_json,
    wildcard_constraints:
        cell=r"[A-Za-z0-9_]+/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)?",
    threads: 1
    resources:
        runtime=HARNESS.cell_runtime_minutes,
        mem_mb=4000,
    log:
        HARNESS.log_pattern,
    shell:
        "{HARNESS.command} run --config {HARNESS.configfile:q} {wildcards.cell:q} > {log:q} 2>&1"
