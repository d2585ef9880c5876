# The MVU solver comparison (thesis 3.1.4-3.1.6): one job per certified solve
# (backend, n, variant) -> its record; one job aggregates them into
# results/<profile>/tables/solver_table.{csv,md,tex}. The points come from the
# profile's solver_table: section (harness.solver_points); the solver's source files
# are inputs, so a faster solver reruns exactly its own points.


rule solver_point:
    output:
        HARNESS.solver_point_pattern,
    input:
        HARNESS.solver_point_sources,
    params:
        resolved=HARNESS.solver_point_params_json,
    wildcard_constraints:
        variant=r"[a-z_]+",
        backend=r"[a-z0-9_]+",
        n=r"[0-9]+",
    threads: 1
    resources:
        runtime=HARNESS.solver_point_runtime_minutes,
        mem_mb=8000,
    log:
        HARNESS.solver_point_log_pattern,
    shell:
        "{HARNESS.command} solve-point --config {HARNESS.configfile:q} "
        "--variant {wildcards.variant} {wildcards.backend} {wildcards.n} > {log:q} 2>&1"


rule solver_table:
    output:
        HARNESS.table_outputs("solver_table"),
    input:
        HARNESS.solver_point_records(),
    localrule: True
    shell:
        "{HARNESS.command} solver-table --config {HARNESS.configfile:q}"
