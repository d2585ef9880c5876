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


class OneSmallJob:
    """Wall time of one small job from the command line, as Snakemake starts each of
    ``make reproduce``'s ~300 jobs: ``harness job table_2_1/iris/pca_knn`` (one run,
    ~5 ms of fitting) in a new process, so the time is the job's fixed cost: the
    parent (profile, parameters, record; it imports none of the work's code, see
    tests/test_runner.py) and the child's imports."""

    number = 1
    repeat = (3, 10, 60.0)
    timeout = 300

    def setup(self):
        import tempfile

        import yaml

        self._dir = tempfile.TemporaryDirectory()
        root = Path(__file__).resolve().parents[1]
        self.root = root
        self.path = Path(self._dir.name) / "small.yaml"
        self.path.write_text(yaml.safe_dump({
            "profile": "small", "results_dir": str(Path(self._dir.name) / "results"),
            "reference_dir": str(root / "results" / "reference"),
            "results": {"table_2_1": {"datasets": ["iris"], "methods": ["pca_knn"],
                                      "n_runs": 1}}}))
        self.time_job()  # a first run may rebuild the plugin index

    def teardown(self):
        self._dir.cleanup()

    def time_job(self):
        import subprocess
        import sys

        subprocess.run([sys.executable, "-m", "harness", "job", "--config", str(self.path),
                        "table_2_1/iris/pca_knn"], cwd=self.root, check=True,
                       capture_output=True)
