"""The job server (harness.jobserver): a served command does what the same command
does in its own process -- the same record, exit code and output -- and anything it
cannot serve faithfully runs in the caller."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import psutil
import pytest
import yaml

from harness import jobserver
from harness.jobserver.client import run_served
from harness.jobserver.server import socket_path_for, start_server, stop_server
from harness.records import read_record
from tests.conftest import embedding_plugin

JOB = "table_3_2/swiss_roll/isomap"


@pytest.fixture
def serve(tmp_path, repo_root, monkeypatch):
    """Start a job server in the checkout, from the test's environment as it is when
    called (pytest changes a few variables between a test's setup and its body);
    stopped afterwards."""
    started = []

    def start():
        monkeypatch.chdir(repo_root)
        path = str(tmp_path / "jobs.sock")
        process = start_server(path, watch_pid=os.getpid())
        assert os.path.exists(path), "the server did not start listening"
        started.append((path, process))
        monkeypatch.setenv(jobserver.SOCKET_ENV, path)
        return path, process

    yield start
    for path, process in started:
        stop_server(path, process)


def _profile(tmp_path, repo_root, methods=("isomap",), **section) -> str:
    path = tmp_path / "unit.yaml"
    path.write_text(yaml.safe_dump({
        "profile": "unit", "results_dir": str(tmp_path / "results"),
        "reference_dir": str(repo_root / "results" / "reference"),
        "datasets": {"swiss_roll": {"n_samples": 300}},
        "results": {"table_3_2": {"datasets": ["swiss_roll"], "methods": list(methods),
                                 "n_runs": 1, **section}}}))
    return str(path)


def _record(tmp_path, job=JOB):
    return read_record(tmp_path / "results" / "unit" / "records" / f"{job}.json")


def _run_in_own_process(profile, job, repo_root):
    env = {k: v for k, v in os.environ.items() if k != jobserver.SOCKET_ENV}
    return subprocess.run([sys.executable, "-m", "harness", "job", "--config", profile, job],
                          cwd=repo_root, env=env, capture_output=True, text=True, timeout=300)


def test_a_served_job_writes_the_record_its_own_process_writes(tmp_path, repo_root, serve,
                                                               capfd, monkeypatch):
    profile = _profile(tmp_path, repo_root)
    own = _run_in_own_process(profile, JOB, repo_root)
    assert own.returncode == 0, own.stderr
    alone = _record(tmp_path)
    os.unlink(tmp_path / "results/unit/records" / f"{JOB}.json")
    serve()
    capfd.readouterr()

    assert run_served(["job", "--config", profile, JOB]) == 0  # served
    out = capfd.readouterr()
    assert f"{JOB}: ok" in out.out and "not run by the job server" not in out.err
    served = _record(tmp_path)
    assert served["summary"] == alone["summary"]  # Isomap: deterministic
    assert served["params"] == alone["params"] and served["status"] == "ok"
    assert (served["provenance"]["started_by"], alone["provenance"]["started_by"]) == (
        "job server", "own process")
    # the work ran in its own (grandchild) process, measured as before
    assert served["timing"]["cpu_seconds"] > 0 and served["timing"]["peak_memory_mb"] > 10
    assert all(lib["num_threads"] == 1 for lib in served["blas_during_run"])


def test_a_served_command_gets_its_exit_code_and_error(tmp_path, repo_root, serve, capfd,
                                                      monkeypatch):
    profile = _profile(tmp_path, repo_root)
    serve()
    assert run_served(["job", "--config", profile, "table_3_2/swiss_roll/lle"]) == 2
    err = capfd.readouterr().err
    assert "harness: error:" in err and "not run by the job server" not in err


def test_the_thread_counts_of_the_caller_hold_in_a_served_job(tmp_path, repo_root, serve,
                                                             monkeypatch):
    """Snakemake sets OMP_NUM_THREADS & co per job; BLAS read them when the server
    loaded it, so a served job applies them itself (threadpoolctl)."""
    profile = _profile(tmp_path, repo_root)
    serve()
    code = ("import sys\nfrom harness.jobserver.client import run_served\n"
            f"code = run_served(['job', '--config', {profile!r}, {JOB!r}])\n"
            "sys.exit(99 if code is None else code)")
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    out = subprocess.run([sys.executable, "-c", code], cwd=repo_root, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr  # 99: not served
    blas = [lib for lib in _record(tmp_path)["blas_during_run"] if lib["user_api"] == "blas"]
    assert blas and all(lib["num_threads"] == 1 for lib in blas)


def test_what_the_server_cannot_run_faithfully_runs_in_the_caller(tmp_path, repo_root,
                                                                  serve, capfd, monkeypatch):
    profile = _profile(tmp_path, repo_root)
    serve()
    assert run_served(["list"]) is None  # not a served command
    monkeypatch.setenv("HARNESS_TEST_SOMETHING", "1")  # read by who knows what
    assert run_served(["job", "--config", profile, JOB]) is None
    assert ("not run by the job server (environment variables differ from the server's: "
            "HARNESS_TEST_SOMETHING); running here") in capfd.readouterr().err
    monkeypatch.delenv("HARNESS_TEST_SOMETHING")
    monkeypatch.chdir(tmp_path)
    assert run_served(["job", "--config", profile, JOB]) is None
    assert "another working directory" in capfd.readouterr().err
    monkeypatch.setenv(jobserver.SOCKET_ENV, str(tmp_path / "no-server.sock"))
    assert run_served(["job", "--config", profile, JOB]) is None
    assert not (tmp_path / "results").exists()


def test_a_served_job_keeps_its_cpu_budget(tmp_path, repo_root, serve, drop_plugin,
                                           monkeypatch):
    drop_plugin("methods", "busy_served_test",
                embedding_plugin("busy_served_test", "while True: pass"))
    profile = _profile(tmp_path, repo_root, methods=["busy_served_test"],
                       time_limit_seconds=1.5)
    job = "table_3_2/swiss_roll/busy_served_test"
    serve()
    assert run_served(["job", "--config", profile, job]) == 0
    record = _record(tmp_path, job)
    assert record["status"] == "timeout" and record["limit"] == "cpu"
    assert 1.5 <= record["timing"]["cpu_seconds"] < 30


def test_a_caller_that_goes_away_takes_its_served_job_with_it(tmp_path, repo_root, serve,
                                                              drop_plugin):
    drop_plugin("methods", "sleepy_served_test",
                embedding_plugin("sleepy_served_test", "time.sleep(120)",
                                 imports="import time"))
    profile = _profile(tmp_path, repo_root, methods=["sleepy_served_test"])
    job = "table_3_2/swiss_roll/sleepy_served_test"
    _path, process = serve()
    caller = subprocess.Popen([sys.executable, "-m", "harness", "job", "--config", profile,
                               job], cwd=repo_root, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    server_process = psutil.Process(process.pid)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any(
            "sleep" in " ".join(p.cmdline()) or p.children()
            for p in server_process.children()):
        time.sleep(0.2)
    served = server_process.children(recursive=True)
    assert served, "the job did not reach the server"
    caller.send_signal(signal.SIGKILL)
    caller.wait()
    gone, alive = psutil.wait_procs(served, timeout=10)
    assert not alive, f"still running after the caller died: {alive}"
    assert not (tmp_path / "results/unit/records" / f"{job}.json").exists()


def _sleepy_job(drop_plugin, tmp_path, repo_root, name):
    """A profile and the job of a method that sleeps for two minutes."""
    drop_plugin("methods", name, embedding_plugin(name, "time.sleep(120)",
                                                  imports="import time"))
    return _profile(tmp_path, repo_root, methods=[name]), f"table_3_2/swiss_roll/{name}"


def _children_once_started(process, timeout=60.0):
    """``process``'s descendants, once it has any (at most ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not process.children(recursive=True):
        time.sleep(0.2)
    return process.children(recursive=True)


def test_a_killed_owner_takes_its_served_job_with_it(tmp_path, repo_root, drop_plugin,
                                                     monkeypatch):
    """issue 53: `kill -9` of Snakemake left its running job going; the caller (its
    shell's `harness job`) survives the owner, so the served child watches the owner."""
    profile, job = _sleepy_job(drop_plugin, tmp_path, repo_root, "sleepy_owner_test")
    owner = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    monkeypatch.chdir(repo_root)
    path = str(tmp_path / "owner.sock")
    process = start_server(path, watch_pid=owner.pid)
    env = {**os.environ, jobserver.SOCKET_ENV: path}
    caller = subprocess.Popen([sys.executable, "-m", "harness", "job", "--config", profile,
                               job], cwd=repo_root, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    served = _children_once_started(psutil.Process(process.pid))
    assert served, "the job did not reach the server"
    owner.kill()
    owner.wait()
    gone, alive = psutil.wait_procs(served, timeout=10)
    assert not alive, f"still running after its owner died: {alive}"
    caller.wait(10)
    assert not (tmp_path / "results/unit/records" / f"{job}.json").exists()


def test_a_killed_owner_takes_a_job_in_its_own_process_with_it(tmp_path, repo_root,
                                                              drop_plugin):
    """issue 53: with the server off, a job in its own process outlived `kill -9` of
    Snakemake; the workflow names its pid (HARNESS_OWNER_PID) to every local job."""
    from harness.owner_watch import OWNER_ENV

    profile, job = _sleepy_job(drop_plugin, tmp_path, repo_root, "sleepy_own_test")
    owner = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    env = {**os.environ, jobserver.SOCKET_ENV: "off", OWNER_ENV: str(owner.pid)}
    caller = subprocess.Popen([sys.executable, "-m", "harness", "job", "--config", profile,
                               job], cwd=repo_root, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    work = _children_once_started(psutil.Process(caller.pid))
    assert work, "the job did not start its work"
    owner.kill()
    owner.wait()
    caller.wait(10)
    gone, alive = psutil.wait_procs(work, timeout=10)
    assert not alive, f"still running after its owner died: {alive}"
    assert not (tmp_path / "results/unit/records" / f"{job}.json").exists()


def test_the_server_stops_when_its_socket_goes_or_its_owner_dies(tmp_path):
    path = str(tmp_path / "a.sock")
    process = start_server(path, watch_pid=os.getpid())
    assert os.path.exists(path)
    os.unlink(path)
    assert process.wait(10) == 0
    owner = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    path = str(tmp_path / "b.sock")
    process = start_server(path, watch_pid=owner.pid)
    assert os.path.exists(path)
    owner.kill()
    owner.wait()
    assert process.wait(10) == 0
    assert not os.path.exists(path)


def test_the_socket_path_fits_a_unix_socket(tmp_path):
    assert len(socket_path_for(4_194_304)) < 100
