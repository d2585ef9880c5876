"""Solvers: the MVU SDP's (:mod:`harness.solvers.mvu_sdp`, one entry point ``solve_mvu``
over the backend plugins of :mod:`harness.solvers.backends`, whose base is
:mod:`harness.solvers.backend`), the ARE and MVE models' (:mod:`~harness.solvers.are_solver`,
:mod:`~harness.solvers.mve_solver`) and the out-of-sample SDP's native solver
(:mod:`~harness.solvers.out_of_sample_native`).

A backend's availability -- Python modules found by :func:`importlib.util.find_spec`
(no import), programs on ``PATH`` (CSDP), a licence (MOSEK) -- is
:func:`harness.registry.backend_status`.
"""
