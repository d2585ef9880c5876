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
    tests/test_runner.py) and the child's imports. ``started_by``: the command in its
    own process (a forkserver for the work), or handed to a job server
    (:mod:`harness.jobserver`, as a local Snakemake run does) that has imported the
    libraries once; side by side in one run. Measured by hand
    (``scripts/job_overhead.py``, fig_2_20/trial0, idle 2-core machine): 2.44 s
    against 0.45 s wall."""

    params = (["own process", "job server"],)
    param_names = ["started_by"]
    number = 1
    repeat = (3, 10, 60.0)
    timeout = 300

    def setup(self, started_by):
        import tempfile

        import yaml

        from harness.jobserver import SOCKET_ENV
        from harness.jobserver.server import start_server

        self._dir = tempfile.TemporaryDirectory()
        root = Path(__file__).resolve().parents[1]
        self.root = root
        self.path = Path(self._dir.name) / "small.yaml"
        self.path.write_text(yaml.safe_dump({
            "profile": "small", "results_dir": str(Path(self._dir.name) / "results"),
            "reference_dir": str(root / "results" / "reference"),
            "results": {"table_2_1": {"datasets": ["iris"], "methods": ["pca_knn"],
                                      "n_runs": 1}}}))
        self.env = {k: v for k, v in os.environ.items() if k != SOCKET_ENV}
        self.server = None
        if started_by == "job server":
            cwd = os.getcwd()
            os.chdir(root)  # the server serves commands run where it was started
            try:
                socket = str(Path(self._dir.name) / "jobs.sock")
                self.server = (socket, start_server(socket, watch_pid=os.getpid()))
            finally:
                os.chdir(cwd)
            self.env[SOCKET_ENV] = socket
        self.time_job(started_by)  # a first run may rebuild the plugin index

    def teardown(self, started_by):
        if self.server is not None:
            from harness.jobserver.server import stop_server

            stop_server(*self.server)
        self._dir.cleanup()

    def time_job(self, started_by):
        import subprocess
        import sys

        subprocess.run([sys.executable, "-m", "harness", "job", "--config", str(self.path),
                        "table_2_1/iris/pca_knn"], cwd=self.root, env=self.env, check=True,
                       capture_output=True)
