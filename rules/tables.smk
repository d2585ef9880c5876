# The thesis' tables (Table 2.1, Table 3.2, ...; harness.table_specs): one aggregation
# job per table of the profile reads its cell records and writes
# results/<profile>/tables/<table>.{csv,md,tex} beside the thesis' values.


rule table:
    output:
        HARNESS.table_outputs("{table}"),
    input:
        HARNESS.table_records_of,
        reference=HARNESS.table_reference,
        deviations=HARNESS.known_deviations_file,
    wildcard_constraints:
        table=r"table_\d+_\d+(_peers)?",
    localrule: True
    shell:
        "{HARNESS.command} table --config {HARNESS.configfile:q} {wildcards.table}"
