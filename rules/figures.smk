# The thesis' figures (Figs. 3.23, 3.24, 3.28, ...; harness.experiments): one
# aggregation job per figure of the profile reads its point records (one figure_point
# job each) and writes results/<profile>/figures/<figure>.{csv,png,md}.


rule figure:
    output:
        HARNESS.figure_outputs("{figure}"),
    input:
        HARNESS.figure_records_of,
    wildcard_constraints:
        figure=r"fig_\d+_\d+",
    localrule: True
    shell:
        "{HARNESS.command} figure --config {HARNESS.configfile:q} {wildcards.figure}"
