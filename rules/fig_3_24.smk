# Fig. 3.24 (thesis 3.1.11): minimum- relative to maximum-trace MVU, per data set and
# metric; one figure_point job per (data set, variant), then this aggregation.


rule fig_3_24:
    output:
        HARNESS.figure_outputs("fig_3_24"),
    input:
        HARNESS.figure_point_records("fig_3_24"),
    params:
        configfile=HARNESS.configfile,
        harness=HARNESS.command,
    localrule: True
    shell:
        "{params.harness} figure --config {params.configfile:q} fig_3_24"
