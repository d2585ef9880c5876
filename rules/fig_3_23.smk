# Fig. 3.23 (thesis 3.1.10): consistency of out-of-sample extensions relative to MVU; one
# figure_point job per (data set, trial), then this aggregation.


rule fig_3_23:
    output:
        HARNESS.figure_outputs("fig_3_23"),
    input:
        HARNESS.figure_point_records("fig_3_23"),
    params:
        configfile=HARNESS.configfile,
        harness=HARNESS.command,
    localrule: True
    shell:
        "{params.harness} figure --config {params.configfile:q} fig_3_23"
