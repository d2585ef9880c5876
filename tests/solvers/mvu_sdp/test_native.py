"""How solve_native routes a problem through facial reduction (facial="auto"): a small
face is solved on the face, a face that keeps most edges goes to the full problem,
an exact face whose feasible solution is only marked is not handed to the full
problem (it has no interior), an inexact one is; the record always carries the face."""

import dataclasses

import numpy as np
import pytest

from harness.datasets.swiss_roll import SwissRoll
from harness.problems import facial_reduction as fr
from harness.problems import mvu_certificate as mc
from harness.problems.mvu_problem import MVUProblem
from harness.solvers.mvu_sdp import native_solver as native
from harness.solvers.mvu_sdp.native_solver import solve_native


def _roll_problem(n, k, variant="equality"):
    X = SwissRoll().load(n_samples=n, noise=0.0, seed=0).X
    return MVUProblem.from_points(X, k, variant=variant)


def test_a_small_face_is_solved_on_the_face_and_certified_on_the_full_problem():
    P = _roll_problem(120, 8)
    res = solve_native(P, time_limit=60)
    assert res.details["method"] == "facial" and res.status == "optimal"
    face = res.details["face"]
    assert face == {**face, "dimension": 3, "ambient": 119, "single_point": True,
                    "exact": True}
    cert = mc.certify(P, res.F, res.w)  # recomputed on the full problem
    assert cert.gap <= 1e-3 and cert.violation <= 1e-4


def test_a_face_keeping_most_edges_goes_to_the_full_problem(monkeypatch):
    P = _roll_problem(800, 4)  # a face of dimension 183: above QR_MAX_DIM
    red = fr.reduce(P)
    assert red.face_dim < P.n - 1 and len(red.kept) > native.FACIAL_MAX_KEPT * P.m

    def facial(*args, **kwargs):
        raise AssertionError("the face keeps most edges: no facial solve")

    calls = []
    monkeypatch.setattr(native, "solve_facial", facial)
    monkeypatch.setattr(native, "solve_ipm", lambda problem, **kw: calls.append(kw)
                        or dataclasses.replace(_marked(problem), status="optimal"))
    res = solve_native(P, time_limit=120)
    assert len(calls) == 1 and calls[0]["time_limit"] <= 120
    assert res.details["face"]["dimension"] == red.face_dim
    assert res.details["face"]["kept_edges"] == len(red.kept)


def _marked(problem, **_):
    """A facial result that is feasible and consistent but not certified optimal."""
    X = SwissRoll().load(n_samples=problem.n, noise=0.0, seed=0).X
    F = X - X.mean(axis=0)
    cert = mc.Certificate(value=1.0, violation=1e-7, bound=1.005, gap=5e-3, eigenvalue=0.995)
    return native.NativeResult(F=F, w=np.zeros(problem.m), status="inaccurate",
                                   certificate=cert, iterations=3, seconds=0.1, history=[])


@pytest.mark.parametrize("exact", [True, False])
def test_a_marked_face_goes_to_the_full_problem_only_if_the_face_is_inexact(monkeypatch, exact):
    P = _roll_problem(120, 5)
    red = fr.reduce(P)
    red = dataclasses.replace(red, exposure_residual=0.0 if exact else 1e-9)
    monkeypatch.setattr(native, "reduce_to_face", lambda problem: red)
    monkeypatch.setattr(native, "solve_facial", _marked)
    calls = []

    def full(problem, **kwargs):
        calls.append(kwargs)
        return dataclasses.replace(_marked(problem), status="optimal")

    monkeypatch.setattr(native, "solve_ipm", full)
    res = solve_native(P, time_limit=60)
    if exact:  # no interior: the face's certified gap is the answer
        assert not calls and res.status == "inaccurate" and res.details["method"] == "facial"
    else:
        assert len(calls) == 1 and res.status == "optimal"
    assert res.details["face"]["exact"] is exact
