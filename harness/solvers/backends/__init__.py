"""The solver backend plugins: one file per backend, named after it.

Each module defines one subclass of :class:`harness.solvers.backend.SolverBackend`
(or of its families :class:`~harness.solvers.cvxpy_backend.CvxpyBackend` and
:class:`~harness.solvers.native_backend.NativeBackend`); :mod:`harness.registry` discovers
them (``harness list`` shows each with whether it is usable). Copy ``clarabel.py`` to
``mysolver.py`` and the backend ``mysolver`` is in the solver table's
``backends: all``, the MVU method's solvers and the asv solver benchmark. Files
whose name starts with an underscore are not scanned.
"""
