"""A solver backend is one file: a copy of ``harness/solvers/backends/clarabel.py``
under a new name is, with no other edit, a backend of ``harness list``, of the quick
profile's solver table (``snakemake -n``) and of the asv solver benchmark's
parameters; the plugins' declarations are what the dispatcher, the skips and the
profile checks read."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

from harness import registry
from harness.config import load_config
from harness.errors import ConfigError
from harness.problems.mvu_problem import MVUProblem
from harness.results.solver_table.points import solver_points
from harness.solvers.backend import DENSE_MAX_N, SolverBackend
from harness.solvers.mvu_sdp import cvxpy_solvers, mvu_solvers, solve_mvu

SHIPPED = ["native", "native_lowrank", "clarabel", "scs", "cvxopt", "sdpa", "mosek", "csdp"]


def _run(args, cwd, timeout=600):
    return subprocess.run([sys.executable, *args], cwd=cwd, env=dict(os.environ),
                          capture_output=True, text=True, timeout=timeout)


def test_the_shipped_backends_are_plugins_named_after_their_files():
    assert mvu_solvers() == tuple(SHIPPED)
    assert cvxpy_solvers() == ("clarabel", "scs", "cvxopt", "sdpa", "mosek")
    for name in SHIPPED:
        cls = registry.get_backend(name)
        assert issubclass(cls, SolverBackend) and cls.name == name
        assert registry.backend_info(name).module == f"harness.solvers.backends.{name}"
    assert registry.backend_info("clarabel").max_n == DENSE_MAX_N
    assert registry.backend_info("csdp").programs == ("csdp",)
    assert registry.backend_info("native").variants == ("equality", "inequality", "min_trace")
    with pytest.raises(registry.UnknownNameError, match="valid names: native, native_lowrank"):
        registry.get_backend("clarabell")


def test_the_dispatcher_reads_what_a_backend_declares():
    problem = MVUProblem.from_points(np.random.default_rng(0).standard_normal((12, 3)), 4,
                                     variant="slack")
    skipped = solve_mvu(problem, "native")
    assert skipped.status == "skipped" and "solves equality, inequality, min_trace" in skipped.reason
    with pytest.raises(ValueError, match="the clarabel backend takes no option"):
        solve_mvu(problem, "clarabel", options={"params": {}})
    with pytest.raises(ValueError, match="unknown MVU solver 'nope'; valid: native"):
        solve_mvu(problem, "nope")


def test_a_copied_backend_file_joins_list_solver_table_and_asv(drop_plugin, repo_root,
                                                               tmp_path):
    source = (repo_root / "harness" / "solvers" / "backends" / "clarabel.py").read_text()
    name = drop_plugin("backends", "clarabel_copy_test", source).stem

    problem = MVUProblem.from_points(np.random.default_rng(1).standard_normal((15, 3)), 4)
    solved = solve_mvu(problem, name, time_limit=60)
    assert solved.solver == name and solved.status == "optimal", solved.reason
    assert solved.certificate.gap <= 1e-3

    listed = _run(["-m", "harness", "list"], repo_root)
    assert listed.returncode == 0, listed.stderr[-2000:]
    assert re.search(rf"^\s+{name}\s+usable\s+Clarabel", listed.stdout, flags=re.M)
    assert re.search(rf"mvu\s.*solvers: native, native_lowrank, clarabel, {name}, scs", listed.stdout)

    quick = load_config(repo_root / "config" / "quick.yaml")
    assert f"equality/{name}/n40" in [p.key for p in solver_points(quick)]
    work = tmp_path / "work"
    work.mkdir()
    for item in ("Snakefile", "rules", "config"):
        copy = shutil.copytree if (repo_root / item).is_dir() else shutil.copy
        copy(repo_root / item, work / item)
    (work / "results").mkdir()
    (work / "results" / "reference").symlink_to(repo_root / "results" / "reference")
    dry = _run(["-m", "snakemake", "--cores", "1", "--configfile", "config/quick.yaml",
                "-n", "results/quick/tables/solver_table.md"], work)
    assert dry.returncode == 0, dry.stderr[-3000:]
    assert f"job=solver_table/equality/{name}/n40" in dry.stdout

    asv = _run(["-c", "from benchmarks.bench_mvu_solvers import MVUSolvers; "
                      "print(MVUSolvers.params[0])"], repo_root)
    assert asv.returncode == 0, asv.stderr[-2000:]
    assert f"'{name}'" in asv.stdout and "'csdp'" in asv.stdout


def test_a_misspelt_backend_in_a_profile_is_refused_with_the_valid_names(repo_root):
    from harness.results.solver_table.points import check_solver_table

    section = {"backends": ["native", "clarabell"], "n": [40], "n_per_backend": {},
               "time_limit_per_backend": {}, "variants": ["equality"], "k": 5}
    with pytest.raises(ConfigError, match="clarabell.*clarabel"):
        check_solver_table(section)


def test_a_backend_file_without_solve_is_refused_naming_it(drop_plugin):
    drop_plugin("backends", "half_done_test", '''
        from harness.solvers.backend import SolverBackend


        class HalfDone(SolverBackend):
            modules = ("cvxpy",)
        ''')
    with pytest.raises(TypeError, match=r"backends plugin harness.solvers.backends.half_done_"
                                        r"\w*test.HalfDone defines no solve\(\)"):
        registry.backends()
