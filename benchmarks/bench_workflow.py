"""asv benchmark of what a Snakemake run of the full profile computes before any job:
every job's resolved parameters, Snakemake params and source files, over every thesis
result of ``config/full.yaml`` (:class:`harness.workflow.WorkflowConfig`). This is the
bulk of ``snakemake -n --configfile config/full.yaml`` (tests/test_full_profile.py
checks what the dry run lists, not how long it takes)."""

import os
from pathlib import Path
from types import SimpleNamespace

from harness.config import load_config
from harness.jobs import profile_results, result_jobs
from harness.workflow import WorkflowConfig


class FullProfileJobs:
    """Resolve every job of the full profile (data need not be present)."""

    timeout = 300

    def setup(self):
        # the profile's paths (reference CSVs, results) are relative to the repository,
        # as for `snakemake` run there; asv runs each benchmark in its own process
        self._cwd = os.getcwd()
        os.chdir(Path(__file__).resolve().parents[1])
        self.path = "config/full.yaml"
        self.config = load_config(self.path)

    def teardown(self):
        os.chdir(self._cwd)

    def time_resolve_every_job(self):
        workflow = WorkflowConfig(self.path, self.config)
        for module in profile_results(self.config):
            for job in result_jobs(self.config, module.NAME):
                wildcards = SimpleNamespace(job=job.id)
                workflow.job_params_json(wildcards)
                workflow.job_sources(wildcards)

    def track_jobs(self):
        return sum(len(result_jobs(self.config, m.NAME)) for m in profile_results(self.config))

    track_jobs.unit = "jobs"
