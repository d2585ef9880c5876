# One job per figure point (one MVU solve of a thesis figure, harness.experiments):
# `harness figure-point FIGURE/KEY` writes results/<profile>/figures/points/FIGURE/KEY.json.
# params holds the point's resolved parameters (deterministic), so that a change of
# profile values reruns exactly the points it affects; the data set, MVU and solver
# source files are inputs, so a faster or more capable solver reruns its points.


rule figure_point:
    output:
        HARNESS.figure_point_pattern,
    input:
        HARNESS.figure_point_sources,
    params:
        resolved=HARNESS.figure_point_params_json,
    wildcard_constraints:
        point=r"fig_[0-9]+_[0-9]+/[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)?",
    threads: 1
    resources:
        runtime=HARNESS.figure_point_runtime_minutes,
        mem_mb=8000,
    log:
        HARNESS.figure_point_log_pattern,
    shell:
        "{HARNESS.command} figure-point --config {HARNESS.configfile:q} {wildcards.point:q} "
        "> {log:q} 2>&1"
