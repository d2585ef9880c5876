"""The csdp backend: CSDP's answer judged by the harness' own certificate like any
other backend's; a missing program, a limit and CSDP's error codes are statuses with
reasons, never crashes or hangs.

The tests that run CSDP itself skip without it; those that exercise the mapping of
its outcomes use small stand-in programs named ``csdp`` on ``PATH``. Nothing pins
CSDP's iteration counts or digits beyond the certificate's guarantees (its BLAS
kernels differ between machines). The outcomes that are pinned ("optimal" on the
n = 50 roll in every formulation) were checked under three BLAS builds: Debian's
reference BLAS (what `apt-get install coinor-csdp` links by default) and OpenBLAS
0.3.21 with its Haswell and SkylakeX kernels (`apt-get install libopenblas0-pthread`,
then ``LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-pthread
OPENBLAS_CORETYPE=Haswell pytest tests/solvers/mvu_sdp/test_csdp.py``, and SkylakeX):
all pass under each.
"""

import functools
import shutil
import stat
import tempfile
from pathlib import Path

import numpy as np
import pytest

from harness.problems.mvu_problem import MVUProblem
from harness.problems.mvu_certificate import INCONSISTENCY_SLACK, certify
from harness.problems.verify import verify_estimator
from harness.registry import backend_status
from harness.solvers.mvu_sdp import solve_mvu
from harness.solvers.backends.csdp import solve_csdp
from harness.solvers.mvu_sdp.csdp_run import RETURN_CODES, openblas_dir
from harness.solvers.mvu_sdp.csdp_formulation import CSDP_VARIANTS, FORMULATIONS
from harness.solvers.mvu_sdp.result import judge
from harness.methods.mvu import MVU, SolverFailedError
from tests.problems.mvu_data import helix, noisy_roll

CSDP = shutil.which("csdp")
INSTALL = "apt-get install coinor-csdp"
needs_csdp = pytest.mark.skipif(CSDP is None, reason=f"CSDP not installed: {INSTALL}")


@functools.cache
def _roll(n, variant="equality"):
    return MVUProblem.from_points(noisy_roll(n), 5, variant=variant)


@functools.cache
def _native(n):
    result = solve_mvu(_roll(n), "native")
    assert result.status == "optimal", result.reason
    return result


def _agrees_with_its_certificate(problem, result, tol_gap=1e-3, tol_violation=1e-4):
    """The status is the verdict of the certificate recomputed here."""
    cert = certify(problem, result.F, result.w)
    assert cert.gap == pytest.approx(result.certificate.gap, rel=1e-6, abs=1e-12)
    assert result.status == judge(cert, tol_gap, tol_violation)[0], (result.status, cert)
    return cert


@needs_csdp
@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_a_real_solve_is_certified_and_agrees_with_the_native_optimum(formulation):
    """Every formulation (same optimal embedding, csdp_formulation's proof): CSDP's
    answer is optimal by the harness' certificate, and its value and the native
    solver's lie within their certified gaps of each other (both bracket the
    optimum: value <= OPT <= bound, up to the violation's slack)."""
    problem = _roll(50)
    result = solve_mvu(problem, "csdp", options={"formulation": formulation}, time_limit=60)
    cert = _agrees_with_its_certificate(problem, result)
    assert result.status == "optimal", result.reason
    assert cert.gap <= 1e-3 and cert.violation <= 1e-4
    assert np.allclose(result.F.mean(axis=0), 0)
    native = _native(50).certificate
    width = max(cert.gap * cert.bound, native.gap * native.bound)
    slack = INCONSISTENCY_SLACK * max(cert.bound, native.bound)
    assert abs(cert.value - native.value) <= width + slack
    facts = result.details["csdp"]
    assert facts["formulation"] == formulation and facts["return_code"] in RETURN_CODES
    assert result.solver_status.startswith(f"{facts['return_code']}:")
    assert facts["cpu_seconds"] > 0 and facts["parameters"]["printlevel"] == 1


@needs_csdp
@pytest.mark.parametrize("variant", CSDP_VARIANTS)
def test_every_variant_is_judged_by_its_recomputed_certificate(variant):
    """Inequality (w >= 0 from the slack block) and minimum trace (w = -y) too, and
    the noise-free helix whose SDP has no interior (facial reduction's case): the
    status is always the certificate's verdict, whatever CSDP's return code."""
    for problem in (_roll(30, variant),
                    MVUProblem.from_points(helix(40), 4, variant=variant)):
        result = solve_csdp(problem, time_limit=60)
        assert result.F is not None, (result.status, result.reason)
        _agrees_with_its_certificate(problem, result)


@needs_csdp
def test_mvu_fits_with_csdp_and_an_outside_check_confirms_it():
    """``MVU(solver="csdp")``: the estimator's certificate re-checked from its
    attributes alone (:func:`harness.problems.verify.verify_estimator`)."""
    estimator = MVU(solver="csdp", n_neighbors=5).fit(noisy_roll(40))
    assert estimator.solve_info_["status"] == "optimal", estimator.solve_info_["reason"]
    assert estimator.solve_info_["csdp"]["formulation"] == "centring_penalty"
    report = verify_estimator(estimator)
    assert report.certified and report.agrees, report


def _program(directory, monkeypatch, script):
    """A stand-in ``csdp`` (a shell script) first on PATH."""
    path = directory / "csdp"
    path.write_text("#!/bin/sh\nPATH=/usr/bin:/bin\n" + script)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{directory}")
    return path


def test_a_missing_program_is_a_skip_naming_the_install(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty directory
    usable, why = backend_status("csdp")
    assert not usable and INSTALL in why
    result = solve_mvu(_roll(20), "csdp")
    assert result.status == "skipped" and INSTALL in result.reason and result.F is None
    X = noisy_roll(20)
    with pytest.raises(SolverFailedError, match="coinor-csdp") as caught:
        MVU(solver="csdp", n_neighbors=5).fit(X)
    assert caught.value.status == "skipped"


def test_a_busy_program_is_stopped_at_its_cpu_budget(tmp_path, monkeypatch):
    """Stopped by its CPU budget, not by the wall cap (generous here: a loaded
    machine gives a niced test a small share of a core)."""
    _program(tmp_path, monkeypatch, "while :; do :; done\n")
    result = solve_csdp(_roll(20), time_limit=1, wall_cap=300)
    assert result.status == "timeout" and "CPU time limit of 1 s" in result.reason
    # the kernel's CPU clock and the rusage split into user and system time differ by
    # ticks; what matters is that it ran about its budget, not until the hard limit
    assert result.F is None and 0 < result.details["csdp"]["cpu_seconds"] < 6


def test_a_waiting_program_is_stopped_at_the_wall_cap(tmp_path, monkeypatch):
    _program(tmp_path, monkeypatch, "exec sleep 60\n")
    result = solve_csdp(_roll(20), time_limit=1, wall_cap=1.0)
    assert result.status == "timeout" and "wall cap" in result.reason
    assert result.wall_seconds < 60


@needs_csdp
def test_a_tiny_budget_times_out_a_real_solve():
    """n = 300 takes CSDP about a CPU-minute; a budget of 0.5 s (1 s: whole seconds)
    ends it at once, by CPU time rather than by the (generous) wall cap."""
    result = solve_csdp(_roll(300), time_limit=0.5, wall_cap=300)
    assert result.status == "timeout" and "CPU time limit of 0.5 s" in result.reason
    assert result.F is None


_WRITE_Y = 'k=$(sed -n 2p "$1"); yes 0 | head -n "$k" | tr "\\n" " " > "$2"; echo >> "$2"\n'


@pytest.mark.parametrize("script, status, words", [
    ('echo "Storage Allocation Failed!"; exit 205\n', "failed",
     ["205: storage allocation failed", "Storage Allocation Failed!"]),
    ("exit 2\n", "infeasible", ["2: dual infeasible"]),
    ("exit 1\n", "infeasible", ["1: primal infeasible"]),
    ("exit 0\n", "failed", ["no solution file"]),
    (_WRITE_Y + 'echo "2 1 1 1 nan" >> "$2"; exit 0\n', "failed", ["not finite"]),
    # a finite but useless answer with CSDP's "solved": the certificate says no
    (_WRITE_Y + 'echo "2 1 1 1 1.0" >> "$2"; exit 0\n', "inaccurate", ["certified gap"]),
])
def test_csdp_outcomes_map_to_statuses(tmp_path, monkeypatch, script, status, words):
    _program(tmp_path, monkeypatch, script)
    result = solve_csdp(_roll(20), time_limit=10)
    assert result.status == status, result.reason
    assert all(word in result.reason + result.solver_status for word in words)


@needs_csdp
def test_a_certified_answer_is_optimal_whatever_csdp_says(tmp_path, monkeypatch):
    """CSDP's real answer behind a return code of 7 (lack of progress)."""
    _program(tmp_path, monkeypatch, f'"{CSDP}" "$@" > /dev/null; exit 7\n')
    result = solve_csdp(_roll(30), time_limit=60)
    assert result.solver_status == "7: lack of progress"
    assert result.status == "optimal", result.reason


@needs_csdp
def test_parameters_reach_csdp_and_its_files_are_removed(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    result = solve_csdp(_roll(30), time_limit=60, params={"maxiter": 2})
    assert result.solver_status.startswith("4:")  # maximum iterations reached
    assert result.details["csdp"]["parameters"]["maxiter"] == 2
    assert result.details["csdp"]["iterations"] <= 3  # iterations 0, 1, 2
    _agrees_with_its_certificate(_roll(30), result)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(ValueError, match="unknown CSDP parameter"):
        solve_csdp(_roll(30), params={"tolerance": 1e-3})


def test_what_csdp_is_not_given_is_skipped_or_refused():
    slack = MVUProblem.from_points(noisy_roll(20), 5, variant="slack")
    assert solve_csdp(slack).status == "skipped"
    with pytest.raises(ValueError, match="not one of"):
        solve_csdp(_roll(20), formulation="dense")
    if CSDP is not None:
        big = solve_csdp(_roll(20), memory_budget=1)
        assert big.status == "skipped" and "memory budget" in big.reason


@needs_csdp
def test_the_blas_csdp_loads_is_chosen_and_recorded():
    """``blas="system"`` maps the system's ``libblas.so.3`` (Debian's alternative:
    the reference BLAS, or OpenBLAS once ``libopenblas0-pthread`` is installed, whose
    priority is higher); ``"openblas"`` maps Debian's OpenBLAS where it is installed
    (else the system's, and the record says so); both answers are certified the same
    way."""
    system = solve_csdp(_roll(30), time_limit=60, blas="system")
    mapped = system.details["csdp"]["blas_library"]
    assert mapped is not None
    alternative = Path("/usr/lib/x86_64-linux-gnu/libblas.so.3")
    if alternative.exists():
        assert Path(mapped).parent == alternative.resolve().parent
    assert system.details["csdp"]["blas"] == "system"
    opened = solve_csdp(_roll(30), time_limit=60)
    expected = openblas_dir()
    found = opened.details["csdp"]["blas_library"]
    if expected is None:
        assert found == mapped
    else:
        assert found is not None and found.startswith(str(expected.resolve()))
    for result in (system, opened):
        _agrees_with_its_certificate(_roll(30), result)
    with pytest.raises(ValueError, match="unknown blas 'mkl'"):
        solve_csdp(_roll(30), blas="mkl")


def test_a_killed_caller_leaves_no_csdp_behind(tmp_path):
    """SIGKILL the process that runs CSDP (no Python cleanup can run): the kernel
    kills CSDP with it (PR_SET_PDEATHSIG), instead of leaving it to compute until its
    CPU limit."""
    import os
    import signal
    import subprocess
    import sys
    import time

    pidfile = tmp_path / "csdp.pid"
    program = tmp_path / "csdp"
    program.write_text(f"#!/bin/sh\necho $$ > {pidfile}\nexec sleep 60\n")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    code = ("from harness.solvers.backends.csdp import solve_csdp\n"
            "from tests.problems.mvu_data import noisy_roll\n"
            "from harness.problems.mvu_problem import MVUProblem\n"
            "solve_csdp(MVUProblem.from_points(noisy_roll(20), 5), time_limit=60)\n")
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}"}
    caller = subprocess.Popen([sys.executable, "-c", code], env=env)
    for _ in range(600):  # up to 60 s for the caller to import and start CSDP
        if pidfile.is_file() and pidfile.read_text().strip():
            break
        time.sleep(0.1)
    csdp_pid = int(pidfile.read_text())
    caller.send_signal(signal.SIGKILL)
    caller.wait()
    def running(pid):  # a zombie (State Z, not yet reaped by init) has stopped
        try:
            status = open(f"/proc/{pid}/status").read()
        except FileNotFoundError:
            return False
        return "\nState:\tZ" not in status

    for _ in range(50):
        if not running(csdp_pid):
            break
        time.sleep(0.1)
    else:
        os.kill(csdp_pid, signal.SIGKILL)
        raise AssertionError("the stand-in csdp outlived its caller by 5 s")


@needs_csdp
def test_mvu_passes_csdp_parameters_and_no_other_solver_takes_them():
    X = noisy_roll(30)
    fitted = MVU(n_neighbors=5, solver="csdp", csdp_params={"maxiter": 2}).fit(X)
    assert fitted.solve_info_["csdp"]["parameters"]["maxiter"] == 2
    assert fitted.solve_info_["csdp"]["iterations"] <= 3
    with pytest.raises(ValueError, match=r"the native backend takes no option\(s\) params"):
        MVU(n_neighbors=5, csdp_params={"maxiter": 2}).fit(X)
