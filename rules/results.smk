# One rule definition writes every thesis result of the profile (harness.results):
# `harness write RESULT` reads the records of its jobs and writes
# results/<profile>/<tables|figures>/RESULT.{csv,md,tex|png}. Defined once per result
# (rule write_RESULT) because each result declares its own output files; the code
# that writes it and the files it is built from (the thesis' reference CSV) are
# inputs, so editing them rewrites it. Aggregation is cheap: a local rule.

for _result in HARNESS.result_names:

    rule:
        name:
            f"write_{_result}"
        output:
            HARNESS.result_outputs(_result),
        input:
            records=HARNESS.result_records(_result),
            code=HARNESS.result_inputs(_result),
        params:
            # bound now: Snakemake evaluates the shell string again when the job runs,
            # after the loop has moved on
            result=_result,
        localrule: True
        shell:
            "{HARNESS.command} write --config {HARNESS.configfile:q} {params.result}"
