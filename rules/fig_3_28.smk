# Fig. 3.28 (thesis 3.1.12): the k-sweep of MVU on a noise-free Swiss roll; one
# figure_point job per k, then this aggregation.


rule fig_3_28:
    output:
        HARNESS.figure_outputs("fig_3_28"),
    input:
        HARNESS.figure_point_records("fig_3_28"),
    params:
        configfile=HARNESS.configfile,
        harness=HARNESS.command,
    localrule: True
    shell:
        "{params.harness} figure --config {params.configfile:q} fig_3_28"
