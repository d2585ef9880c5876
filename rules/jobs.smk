# One rule runs every job of every thesis result (harness.jobs, harness.runner):
# `harness job RESULT/KEY` writes results/<profile>/records/RESULT/KEY.json. params
# holds the job's resolved parameters (deterministic), so that a change of profile
# values reruns exactly the jobs it affects; the source files of the code the job runs
# (the result's module, the plugins it names, every project module they import) are
# its inputs, so editing shared code reruns exactly the jobs computed with it. A job
# of a result that times computations (EXCLUSIVE = True) reserves every core. Jobs
# start longest first, by their CPU seconds in the profile's reference run.


rule job:
    output:
        HARNESS.record_pattern,
    input:
        HARNESS.job_sources,
    params:
        resolved=HARNESS.job_params_json,
    wildcard_constraints:
        job=JOB_PATTERN,
    threads: HARNESS.job_threads
    priority: HARNESS.job_priority
    resources:
        runtime=HARNESS.job_runtime_minutes,
        mem_mb=HARNESS.job_memory_mb,
    log:
        HARNESS.log_pattern,
    shell:
        "{HARNESS.command} job --config {HARNESS.configfile:q} {wildcards.job:q} > {log:q} 2>&1"
