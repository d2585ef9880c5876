# The reproduction report (harness.report): one page that a reader opens instead of
# the thesis, results/<profile>/report.html and its Markdown twin report.md, built on
# the submitting host from every result output of the profile (and rebuilt when the
# report's code or a result's claims change). The last step of reproduce_all.


rule report:
    output:
        HARNESS.report_outputs(),
    input:
        HARNESS.all_result_outputs(),
        code=HARNESS.report_sources(),
    localrule: True
    shell:
        "{HARNESS.command} report --config {HARNESS.configfile:q}"
