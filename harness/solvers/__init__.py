"""Solver backends: what each can solve, whether it is installed and usable.

Installation is checked with :func:`importlib.util.find_spec` (no import). Usability
goes one step further: MOSEK is listed by cvxpy's ``installed_solvers()`` even
without a licence, and the failure then is a ``mosek.Error``, so its check tries a
licence checkout inside ``try``. The solve paths (problem objects, cvxpy and native
backends, certificates) are built on these declarations by the MVU work.
"""

from harness.solvers.backends import BACKENDS, Backend, backend_status

__all__ = ["BACKENDS", "Backend", "backend_status"]
