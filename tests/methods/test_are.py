"""The ARE estimator on the moving-window data: its fitted attributes certify the
solve and satisfy every action constraint (recomputed here), its embedding aligns
with the true window positions far better than MVU's without actions, the embedding
task hands it the data set's actions, and bad input is named."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import procrustes

from harness.datasets.moving_window import MovingWindow
from harness.datasets.swiss_roll import SwissRoll
from harness.plugin import DisconnectedGraphError
from harness.problems.are_problem import AREProblem, certify_are
from harness.problems.mvu_problem import MVUProblem
from harness.tasks.embedding import fit_params, run_embedding
from harness.methods.are import ARE
from harness.methods.mvu import MVU
from harness.methods.pca import PCA

pytest.importorskip("cvxpy")

N, SEED, K = 40, 0, 5  # the k = 5 graph of this walk is connected (21 positions seen)


@pytest.fixture(scope="module")
def data():
    return MovingWindow().load(n_samples=N, seed=SEED)


@pytest.fixture(scope="module")
def are(data):
    return ARE(n_neighbors=K).fit(data.X, actions=data.actions)


def alignment(data, Y) -> float:
    return procrustes(data.positions, Y)[2]


def test_certificate_recomputed_from_the_attributes(are, data):
    assert are.solve_info_["status"] == "optimal", are.solve_info_["reason"]
    assert are.solve_info_["solver"] == "native"  # the default
    problem = AREProblem(base=MVUProblem(n=N, edges=are.edges_, sq_lengths=are.sq_lengths_,
                                         variant="inequality"), pairs=are.action_pairs_)
    cert = certify_are(problem, are.kernel_factor_, are.dual_, are.action_dual_)
    assert cert.gap <= 1e-3 and cert.violation <= 1e-4 and cert.consistent
    assert cert.value == pytest.approx(are.eigenvalues_.sum(), rel=1e-9)
    assert cert.bound >= cert.value * (1 - 1e-4)


def test_every_action_constraint_holds(are, data):
    # every pair of steps with the same action, enumerated here, is constrained ...
    a = data.actions
    expected = {(i, j, i + 1, j + 1) for i in range(N - 1) for j in range(i + 1, N - 1)
                if a[i] == a[j]}
    assert {tuple(map(int, r)) for r in are.action_pairs_} == expected
    # ... and holds in the fitted kernel: |y_i+1 - y_j+1|^2 = |y_i - y_j|^2
    F, scale = are.kernel_factor_, are.sq_lengths_.max()
    for i, j, i1, j1 in expected:
        gap = np.sum((F[i1] - F[j1]) ** 2) - np.sum((F[i] - F[j]) ** 2)
        assert abs(gap) <= 1e-4 * scale, (i, j, gap)
    # the local distances are not exceeded
    d = np.sum((F[are.edges_[:, 0]] - F[are.edges_[:, 1]]) ** 2, axis=1)
    assert (d <= are.sq_lengths_ * (1 + 1e-4) + 1e-8 * scale).all()


def test_are_aligns_with_the_true_positions_and_mvu_does_not(are, data):
    """Measured (seed 0, n = 40, k = 5; scripts/are_alignment.py): Procrustes
    disparity ARE 0.0285, ARE's SDP without actions 0.132, MVU (equality, native)
    0.126."""
    err_are = alignment(data, are.embedding_)
    err_mvu = alignment(data, MVU(n_neighbors=K).fit(data.X).embedding_)
    err_free = alignment(data, ARE(n_neighbors=K).fit(data.X).embedding_)
    assert err_are == pytest.approx(0.0285, abs=2e-3)
    assert err_mvu == pytest.approx(0.126, abs=5e-3)
    assert err_free == pytest.approx(0.132, abs=5e-3)
    assert err_are < err_mvu / 4 and err_are < err_free / 4
    # ARE's embedding is essentially two-dimensional, as the positions are
    assert are.eigenvalues_[:2].sum() / are.eigenvalues_.sum() > 0.98


def test_the_embedding_task_passes_the_actions(data):
    class Recorder(ARE):
        """ARE without the SDP: records what reached it."""

        seen = []

        def _solve(self, X, actions):
            Recorder.seen.append(actions)
            return X[:, :self.n_components]

    params = {"method_params": {"n_neighbors": K}, "eval_neighbors": 5}
    out = run_embedding(Recorder, data, params, seed=0)
    assert out["info"]["fit_params"] == ["actions"]
    np.testing.assert_array_equal(Recorder.seen[-1], data.actions)
    # a method that takes no actions gets X alone
    assert fit_params(PCA(), data) == {}
    assert "fit_params" not in run_embedding(PCA, data, {"method_params": {},
                                                         "eval_neighbors": 5}, 0)["info"]
    # and a data set without actions offers none
    assert fit_params(ARE(), SwissRoll().load(n_samples=30)) == {}


def test_skip_without_actions_or_above_the_dense_size():
    roll = SwissRoll().load(n_samples=30)
    skip, why = ARE.skip(roll, "clarabel")
    assert skip and "needs the action sequence" in why and "moving_window" in why
    assert ARE.skip(roll, "native")[0]
    assert ARE.skip(MovingWindow().load(n_samples=150), "clarabel") == (False, "")
    skip, why = ARE.skip(MovingWindow().load(n_samples=151), "clarabel")
    assert skip and "dense 151 x 151 SDP" in why
    # the native interior point has no dense cvxpy model: no size cap here
    assert ARE.skip(MovingWindow().load(n_samples=151), "native") == (False, "")
    assert ARE.skip(None, "csdp")[0]  # not one of its solvers


@pytest.mark.parametrize(("actions", "message"), [
    (np.zeros(N), r"n_samples - 1 = 39 labels"),
    (np.zeros(N - 2), r"n_samples - 1 = 39 labels .* got shape \(38,\)"),
    (np.r_[np.zeros(N - 2), np.nan], r"NaN or infinity \(first at step 38\)"),
])
def test_bad_actions_are_named(data, actions, message):
    with pytest.raises(ValueError, match=message):
        ARE(n_neighbors=K).fit(data.X, actions=actions)


@pytest.mark.parametrize(("param", "value"), [("action_pairs", "some"),
                                              ("distances", "slack"),
                                              ("solver", "csdp")])
def test_bad_parameters_are_named(data, param, value):
    with pytest.raises(ValueError, match=rf"{param} must be one of .* got '{value}'"):
        ARE(n_neighbors=K, **{param: value}).fit(data.X, actions=data.actions)


@pytest.mark.parametrize("solver", ["native", "clarabel"])
def test_an_infeasible_sdp_is_a_solver_failure(solver):
    # 0 -> 1 -> 3 with the same action twice: equal distances 1 and 2 (see
    # tests/problems/test_are_problem.py); the native solve proves it by a negative bound
    from harness.methods.mvu import SolverFailedError

    X = np.array([[0.0], [1.0], [3.0]])
    with pytest.raises(SolverFailedError, match=f"ARE solver {solver}: infeasible"):
        ARE(n_neighbors=2, n_components=1, distances="equality", solver=solver).fit(
            X, actions=[0, 0])


def test_duplicates_and_disconnected_graphs_are_named(data):
    X = data.X.copy()
    X[7] = X[3]
    with pytest.raises(ValueError, match=r"duplicate points \(rows 3 and 7.*add noise"):
        ARE(n_neighbors=K).fit(X, actions=data.actions)
    far = np.vstack([data.X[:20], data.X[:20] + 100.0])
    with pytest.raises(DisconnectedGraphError, match="2 connected components"):
        ARE(n_neighbors=K).fit(far, actions=data.actions[:39])
