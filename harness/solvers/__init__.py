"""Solver backends: what each can solve, whether it is installed and usable.

Installation is checked with :func:`importlib.util.find_spec` (no import), and an
external program (CSDP) with :func:`shutil.which`; a missing one names how to install
it. Usability
goes one step further: MOSEK is listed by cvxpy's ``installed_solvers()`` even
without a licence, and the failure then is a ``mosek.Error``, so its check tries a
licence checkout inside ``try``. The MVU SDP solvers (one entry point,
``solve_mvu``, over the native, cvxpy and CSDP backends) are the package
:mod:`harness.solvers.mvu`; the out-of-sample SDP's native solver is
:mod:`harness.solvers.out_of_sample_native`.
"""

from harness.solvers.backends import BACKENDS, Backend, backend_status

__all__ = ["BACKENDS", "Backend", "backend_status"]
