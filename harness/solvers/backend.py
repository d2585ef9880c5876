"""The base of a solver backend plugin: one file in :mod:`harness.solvers.backends`.

A backend plugin is a module of ``harness/solvers/backends/`` that defines one
subclass of :class:`SolverBackend`; the registry (:mod:`harness.registry`) finds it
like a method plugin, indexed without importing it, and names it after its file
(``backends/clarabel.py`` is the backend ``clarabel``), so that a copy of a backend's
file under a new name is a new backend with no other edit. The class declares

- what it needs: Python ``modules`` (checked with :func:`importlib.util.find_spec`,
  no import), ``programs`` on ``PATH`` with an ``install`` hint, and a
  :meth:`~SolverBackend.licence` check (MOSEK);
- what it solves: the SDP ``variants``, a linear cost (``linear_cost``), and
  ``max_n``, the largest MVU problem it is run on by the grid tables (a dense n x n
  model beyond it is a skipped cell);
- :meth:`~SolverBackend.solve`, which returns a
  :class:`~harness.solvers.mvu_sdp.result.SolveResult` certified from the problem data.

Two families, whose members differ only in declarations, have their own modules:
:class:`~harness.solvers.cvxpy_backend.CvxpyBackend` (a cvxpy solver name) and
:class:`~harness.solvers.native_backend.NativeBackend` (the native solver's
``method``). Nothing heavy is imported here, nor is any solver's code: the registry
imports this module, and every job's source closure (:mod:`harness.sources`) would
otherwise carry the solvers.
"""

from __future__ import annotations

import importlib.util
import shutil
from typing import ClassVar

from harness.problems.mvu_variants import VARIANTS

__all__ = ["SolverBackend", "DENSE_MAX_N", "DEFAULT_BACKEND"]

#: The largest MVU problem a dense cvxpy model is run on by the grid tables: measured
#: here, Clarabel needs 47 s at n = 100 and a dense n = 200 solve grew past 20 GiB.
DENSE_MAX_N = 150
#: The backend ``solve_mvu`` runs when none is named.
DEFAULT_BACKEND = "native"


class SolverBackend:
    """One MVU SDP solver backend (module docstring).

    Class attributes (the registry indexes them without importing the module):

    Attributes
    ----------
    name : str
        The module's file name, set when the class is defined: cell ids
        (``equality/clarabel/n40``) and profiles use it.
    order : int
        Position in listings and in ``backends: all`` (ties by name).
    description : str
        One line for ``harness list``.
    modules : tuple of str
        Python modules that must be importable.
    programs : tuple of str
        Executables that must be on ``PATH`` (an external solver run as a program).
    install : str
        How to install what is missing, for the reason of a skipped solve.
    variants : tuple of str
        The SDP variants it solves (:data:`harness.problems.mvu_variants.VARIANTS`).
    linear_cost : bool
        Whether it minimises a linear cost over the equality variant's feasible set
        (minimum volume embedding's SDP step, ``cost=``).
    max_n : int or None
        The largest number of points the grid tables run it on (None: no cap).
    cvxpy_name : str
        Non-empty for a general-purpose conic solver reached through cvxpy: cvxpy's
        name of it (the ARE and MVE models use every such backend too).
    options : tuple of str
        The names of its own options (``solve_mvu(..., options=)``), e.g. CSDP's
        ``formulation`` and ``params``.

    A plugin (or its family) defines the classmethod ``solve(problem, *, time_limit,
    tol_gap, tol_violation, seed=0, init=None, cost=None, options=None)``: it solves
    ``problem`` (an :class:`~harness.problems.mvu_problem.MVUProblem` of one of
    :attr:`variants`) and returns a :class:`~harness.solvers.mvu_sdp.result.SolveResult`
    certified from the problem data (:func:`harness.solvers.mvu_sdp.dispatch.solve_mvu`
    has the arguments; ``options`` holds only names of :attr:`options`). The registry
    refuses a backend without it, naming its file.
    """

    name: ClassVar[str] = ""
    order: ClassVar[int] = 100
    description: ClassVar[str] = ""
    modules: ClassVar[tuple[str, ...]] = ()
    programs: ClassVar[tuple[str, ...]] = ()
    install: ClassVar[str] = ""
    variants: ClassVar[tuple[str, ...]] = VARIANTS
    linear_cost: ClassVar[bool] = False
    max_n: ClassVar[int | None] = None
    cvxpy_name: ClassVar[str] = ""
    options: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.name = cls.__module__.rpartition(".")[2]

    @classmethod
    def installed(cls) -> tuple[bool, str]:
        """``(True, "")``, or ``(False, reason)`` naming the missing module or program
        and how to install it."""
        missing = [m for m in cls.modules if importlib.util.find_spec(m) is None]
        if missing:
            return False, (f"not installed: python module(s) {', '.join(missing)}"
                           + (f" (install: {cls.install})" if cls.install else ""))
        absent = [p for p in cls.programs if shutil.which(p) is None]
        if absent:
            return False, (f"not installed: program(s) {', '.join(absent)} not on PATH"
                           + (f" (install: {cls.install})" if cls.install else ""))
        return True, ""

    @classmethod
    def licence(cls) -> tuple[bool, str]:
        """``(True, "")`` when no licence is needed or one is found."""
        return True, ""

    @classmethod
    def status(cls) -> tuple[bool, str]:
        """``(usable, reason)``: installed, then licensed where needed."""
        ok, reason = cls.installed()
        if ok:
            ok, reason = cls.licence()
        return ok, reason

    @classmethod
    def size_skip(cls, n: int) -> tuple[bool, str]:
        """``(True, reason)`` for a problem of ``n`` points beyond :attr:`max_n`."""
        if cls.max_n is None or n <= cls.max_n:
            return False, ""
        return True, (f"{cls.name} solves a dense {n} x {n} SDP; it is run up to "
                      f"n = {cls.max_n} (max_n of harness/solvers/backends/{cls.name}.py)")

