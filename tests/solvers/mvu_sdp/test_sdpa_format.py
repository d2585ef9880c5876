"""The SDPA sparse file of the MVU SDP and CSDP's solution file: what is written is
the SDP we mean (checked against constraint matrices built here independently), and
it reads back exactly."""

import numpy as np
import pytest

from harness.problems.mvu_problem import MVUProblem
from harness.solvers.mvu_sdp.csdp_formulation import (CSDP_VARIANTS, FORMULATIONS,
                                                  kernel_and_multipliers, to_sdpa)
from harness.solvers.mvu_sdp.sdpa_format import (SDPAProblem, read_sdpa, read_solution,
                                             write_sdpa)

EDGES = np.array([[0, 1], [0, 2], [1, 3], [2, 3]])
B = np.array([1.0, 2.0, 0.1 + 0.2, 1 / 3])  # 0.1 + 0.2 and 1/3: not short decimals


def _tiny(variant="equality"):
    return MVUProblem(n=4, edges=EDGES, sq_lengths=B, variant=variant)


def _intended(variant, formulation):
    """C, [A_1..A_k], a of the SDP as CSDP should read it, from the definitions."""
    n, m = 4, len(EDGES)
    sign = -1.0 if variant == "min_trace" else 1.0
    ones = np.ones((n, n))
    C = {"centred_objective": sign * (np.eye(n) - ones / n),  # variance (3.10)
         "centring_penalty": sign * (np.eye(n) - ones / n) - ones / n,
         "centring_constraint": sign * np.eye(n)}[formulation]
    A = []
    for i, j in EDGES:
        u = np.zeros(n)
        u[i], u[j] = 1.0, -1.0
        A.append(np.outer(u, u))  # <A_e, K> = K_ii + K_jj - 2 K_ij
    a = list(B)
    if formulation == "centring_constraint":
        A.append(ones)  # sum_ij K_ij = 0 (3.14)
        a.append(0.0)
    return C, A, np.array(a)


@pytest.mark.parametrize("variant", CSDP_VARIANTS)
@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_written_blocks_are_the_intended_matrices(tmp_path, variant, formulation):
    sdpa = to_sdpa(_tiny(variant), formulation)
    write_sdpa(sdpa, tmp_path / "p.dat-s")
    back = read_sdpa(tmp_path / "p.dat-s")
    C, A, a = _intended(variant, formulation)
    slack = variant == "inequality"
    assert back.block_sizes == ((4, -len(EDGES)) if slack else (4,))
    np.testing.assert_array_equal(back.rhs, a)  # exact: shortest round-trip repr
    np.testing.assert_array_equal(back.dense(0)[0], C)
    for number, matrix in enumerate(A, start=1):
        blocks = back.dense(number)
        np.testing.assert_array_equal(blocks[0], matrix)
        if slack:  # <A_e, K> + s_e = b_e, s_e >= 0: one unit entry in the slack block
            expected = np.zeros(len(EDGES))
            if number <= len(EDGES):
                expected[number - 1] = 1.0
            np.testing.assert_array_equal(blocks[1], expected)
    if slack:
        np.testing.assert_array_equal(back.dense(0)[1], np.zeros(len(EDGES)))
    np.testing.assert_array_equal(back.index, sdpa.index)
    np.testing.assert_array_equal(back.values, sdpa.values)


def test_the_file_reads_as_sdpa_sparse_format(tmp_path):
    """The header lines CSDP reads: k, the block count, the sizes, a."""
    write_sdpa(to_sdpa(_tiny("inequality"), "centring_constraint"), tmp_path / "p.dat-s")
    lines = (tmp_path / "p.dat-s").read_text().splitlines()
    assert lines[0].startswith('"')  # a comment
    assert lines[1:4] == ["5", "2", "4 -4"]
    assert [float(v) for v in lines[4].split()] == [*B, 0.0]
    fields = [line.split() for line in lines[5:]]
    assert all(len(f) == 5 and int(f[2]) <= int(f[3]) for f in fields)


def test_the_slack_variant_is_not_written():
    with pytest.raises(ValueError, match="slack"):
        to_sdpa(_tiny("slack"))
    with pytest.raises(ValueError, match="not one of"):
        to_sdpa(_tiny(), "dense")


def test_a_solution_file_gives_the_blocks_the_kernel_and_the_multipliers(tmp_path):
    """CSDP's solution file (y; then Z as ``1 ...`` and X as ``2 ...`` lines, upper
    triangles): K = J X J and w = y on the edges (negated for minimum trace)."""
    rng = np.random.default_rng(0)
    G = rng.standard_normal((4, 4))
    X, Z = G @ G.T, np.diag([1.0, 2.0, 3.0, 4.0])
    y = np.array([0.5, -1.5, 2.0, 0.25, 7.0])  # the last: the centring constraint
    i, j = np.triu_indices(4)
    lines = [" ".join(f"{v:.18e}" for v in y)]
    lines += [f"1 1 {a + 1} {b + 1} {Z[a, b]:.18e}" for a, b in zip(i, j) if Z[a, b]]
    lines += [f"2 1 {a + 1} {b + 1} {X[a, b]:.18e}" for a, b in zip(i, j)]
    (tmp_path / "s").write_text("\n".join(lines) + "\n")
    for variant, sign in (("equality", 1.0), ("min_trace", -1.0)):
        problem = _tiny(variant)
        solution = read_solution(tmp_path / "s", to_sdpa(problem, "centring_constraint"))
        np.testing.assert_allclose(solution.X[0], X, rtol=1e-15)
        np.testing.assert_array_equal(solution.Z[0], Z)
        K, w = kernel_and_multipliers(problem, solution)
        J = np.eye(4) - 1 / 4
        np.testing.assert_allclose(K, J @ X @ J, atol=1e-12)
        np.testing.assert_array_equal(w, sign * y[:4])


def test_a_truncated_solution_file_is_an_error_naming_it(tmp_path):
    sdpa = to_sdpa(_tiny(), "centred_objective")
    (tmp_path / "s").write_text("1 2 3 4\n2 1 1 1 1.0\n2 1 1\n")
    with pytest.raises(ValueError):
        read_solution(tmp_path / "s", sdpa)
    (tmp_path / "s").write_text("1 2 3\n")
    with pytest.raises(ValueError, match="4 numbers; found 3"):
        read_solution(tmp_path / "s", sdpa)
    (tmp_path / "s").write_text("1 2 3 4\n2 1 3 9 1.0\n")
    with pytest.raises(ValueError, match="outside|block's size"):
        read_solution(tmp_path / "s", sdpa)


def test_entries_outside_the_blocks_are_rejected():
    with pytest.raises(ValueError, match="i <= j"):
        SDPAProblem((3,), np.zeros(1), np.array([[1, 1, 2, 1]]), np.ones(1))
    with pytest.raises(ValueError, match="matrix numbers"):
        SDPAProblem((3,), np.zeros(1), np.array([[2, 1, 1, 1]]), np.ones(1))
