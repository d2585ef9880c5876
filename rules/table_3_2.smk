# Table 3.2 (thesis 3.1.9): local continuity, trust and intersection of the
# manifold-learning methods, beside the thesis' values.


rule table_3_2:
    output:
        HARNESS.table_outputs("table_3_2"),
    input:
        HARNESS.table_records("table_3_2"),
        reference=HARNESS.reference("thesis_table_3_2.csv"),
    params:
        configfile=HARNESS.configfile,
        harness=HARNESS.command,
    localrule: True
    shell:
        "{params.harness} table --config {params.configfile:q} table_3_2"
