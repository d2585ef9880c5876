"""SDPA sparse files (problems) and CSDP solution files, both ways.

CSDP reads an SDP in the SDPA sparse format and reads it as

    (P)  maximise <C, X>  s.t.  <A_i, X> = a_i (i = 1..k),  X PSD (block diagonal)
    (D)  minimise a . y   s.t.  sum_i y_i A_i - C = Z,  Z PSD

(CSDP user's guide, "The SDPA sparse file format"; matrix number 0 is C, matrix i
is A_i). This module knows nothing about MVU: it holds such a problem
(:class:`SDPAProblem`), writes and reads its file (:func:`write_sdpa`,
:func:`read_sdpa`) and reads the solution file CSDP writes (:func:`read_solution`).

The file, line by line: the number of constraints k; the number of blocks; the
block sizes (negative: a diagonal block); the right-hand side a (k numbers); then one
line ``MATNO BLOCK I J VALUE`` per nonzero entry of the upper triangle (1-based,
``I <= J``; an off-diagonal entry stands for both (I, J) and (J, I)).

CSDP's solution file (``write_sol`` of CSDP 6.2): one line with y, then
``1 BLOCK I J VALUE`` lines for Z and ``2 BLOCK I J VALUE`` lines for X, upper
triangles, zeros left out.
"""

from __future__ import annotations

import dataclasses
import warnings
from pathlib import Path

import numpy as np

__all__ = ["SDPAProblem", "CSDPSolution", "write_sdpa", "read_sdpa", "read_solution"]


@dataclasses.dataclass(frozen=True)
class SDPAProblem:
    """An SDP in CSDP's form (module docstring), entries as in the file.

    Parameters
    ----------
    block_sizes : tuple of int
        One per block; negative for a diagonal block (SDPA's convention).
    rhs : ndarray of shape (k,)
        a, one entry per constraint.
    index : ndarray of shape (nnz, 4), int
        ``(matrix, block, i, j)`` per entry, 1-based with ``i <= j``; matrix 0 is C.
    values : ndarray of shape (nnz,)
    """

    block_sizes: tuple[int, ...]
    rhs: np.ndarray
    index: np.ndarray
    values: np.ndarray

    def __post_init__(self):
        index = np.asarray(self.index)
        if index.ndim != 2 or index.shape[1] != 4 or len(index) != len(self.values):
            raise ValueError(f"index must have shape (nnz, 4) matching values "
                             f"({len(self.values)}), got {index.shape}")
        if len(index) and (index[:, 0].min() < 0 or index[:, 0].max() > len(self.rhs)):
            raise ValueError(f"matrix numbers must lie in 0..{len(self.rhs)} (0 is C)")
        _check_entries(self.block_sizes, index[:, 1:], "SDPAProblem")

    @property
    def n_constraints(self) -> int:
        return len(self.rhs)

    def dense(self, matrix: int) -> list[np.ndarray]:
        """Matrix ``matrix`` (0: C, i: A_i) as one dense array per block: (s, s) for a
        matrix block, the diagonal (s,) for a diagonal block."""
        rows = self.index[:, 0] == matrix
        return _dense_blocks(self.block_sizes, self.index[rows, 1:], self.values[rows],
                             f"matrix {matrix}")


def _check_entries(block_sizes, index: np.ndarray, what: str) -> None:
    """``(block, i, j)`` rows (1-based) must lie in a block's upper triangle."""
    if not len(index):
        return
    sizes = np.abs(np.asarray(block_sizes))
    block, i, j = index.T
    if block.min() < 1 or block.max() > len(sizes):
        raise ValueError(f"{what}: block numbers must lie in 1..{len(sizes)}")
    if (i < 1).any() or (i > j).any() or (j > sizes[block - 1]).any():
        raise ValueError(f"{what}: entries must satisfy 1 <= i <= j <= their block's "
                         f"size (blocks {tuple(block_sizes)})")


def _dense_blocks(block_sizes, index: np.ndarray, values: np.ndarray,
                  what: str) -> list[np.ndarray]:
    """Dense blocks from ``(block, i, j)`` entries (1-based, upper triangle)."""
    out = []
    for number, size in enumerate(block_sizes, start=1):
        mine = index[:, 0] == number
        i, j, v = index[mine, 1] - 1, index[mine, 2] - 1, values[mine]
        if size < 0:
            if (i != j).any():
                raise ValueError(f"{what}: off-diagonal entry in diagonal block {number}")
            block = np.zeros(-size)
            np.add.at(block, i, v)
        else:
            block = np.zeros((size, size))
            np.add.at(block, (i, j), v)
            off = i != j
            np.add.at(block, (j[off], i[off]), v[off])
        out.append(block)
    return out


@dataclasses.dataclass(frozen=True)
class CSDPSolution:
    """What CSDP's solution file holds, as dense blocks (see
    :meth:`SDPAProblem.dense` for the block shapes).

    Attributes
    ----------
    y : ndarray of shape (k,)
        Dual variables, one per constraint.
    Z, X : list of ndarray
        The dual slack and the primal matrix, one array per block.
    """

    y: np.ndarray
    Z: list
    X: list


def _format_entries(index: np.ndarray, values: np.ndarray) -> str:
    # repr of a float64 is the shortest string that reads back to the same number
    return "".join(f"{m} {b} {i} {j} {v!r}\n"
                   for (m, b, i, j), v in zip(index.tolist(), values.tolist()))


def write_sdpa(problem: SDPAProblem, path: str | Path) -> None:
    """Write ``problem`` as an SDPA sparse file (every number exact: shortest
    round-trip repr)."""
    lines = ['"written by harness.solvers.mvu_sdp.sdpa_format',
             str(problem.n_constraints), str(len(problem.block_sizes)),
             " ".join(str(int(s)) for s in problem.block_sizes),
             " ".join(repr(float(v)) for v in problem.rhs)]
    with open(path, "w", encoding="ascii") as out:
        out.write("\n".join(lines) + "\n")
        out.write(_format_entries(np.asarray(problem.index), np.asarray(problem.values)))


def _numbers(text: str) -> list[str]:
    # SDPA allows commas, braces and parentheses as separators
    for ch in ",{}()":
        text = text.replace(ch, " ")
    return text.split()


def read_sdpa(path: str | Path) -> SDPAProblem:
    """Read an SDPA sparse file (as :func:`write_sdpa` writes it; comment lines
    start with ``"`` or ``*``).

    Raises
    ------
    ValueError
        The file ends early or an entry line does not have five fields.
    """
    with open(path, encoding="ascii") as f:
        lines = [line for line in f if line.strip() and line.lstrip()[0] not in '"*']
    if len(lines) < 4:
        raise ValueError(f"{path}: an SDPA file needs k, the block count, the block "
                         f"sizes and a before its entries; found {len(lines)} lines")
    k, nblocks = int(_numbers(lines[0])[0]), int(_numbers(lines[1])[0])
    sizes = tuple(int(s) for s in _numbers(lines[2])[:nblocks])
    rhs = np.array([float(v) for v in _numbers(lines[3])[:k]])
    rows = [_numbers(line) for line in lines[4:]]
    bad = [r for r in rows if len(r) != 5]
    if bad:
        raise ValueError(f"{path}: entry lines need MATNO BLOCK I J VALUE, got {bad[0]}")
    index = np.array([[int(x) for x in r[:4]] for r in rows], dtype=np.int64).reshape(-1, 4)
    values = np.array([float(r[4]) for r in rows])
    return SDPAProblem(sizes, rhs, index, values)


def read_solution(path: str | Path, problem: SDPAProblem) -> CSDPSolution:
    """Read the solution file CSDP wrote for ``problem``.

    Raises
    ------
    ValueError
        The file is empty, y does not have one entry per constraint, or an entry line
        is malformed or out of range (a truncated file, e.g. CSDP killed while writing).
    """
    with open(path, encoding="ascii") as f:
        y = np.array([float(v) for v in f.readline().split()])
        if len(y) != problem.n_constraints:
            raise ValueError(f"{path}: the first line must hold y, {problem.n_constraints} "
                             f"numbers; found {len(y)}")
    with warnings.catch_warnings():  # no entries at all (X = Z = 0) is a valid file
        warnings.simplefilter("ignore", UserWarning)
        entries = np.loadtxt(path, skiprows=1, ndmin=2)
    if entries.size == 0:
        entries = np.zeros((0, 5))
    if entries.shape[1] != 5 or not np.isin(entries[:, 0], (1, 2)).all():
        raise ValueError(f"{path}: entry lines must read WHICH BLOCK I J VALUE with WHICH "
                         f"1 (Z) or 2 (X)")
    index = entries[:, :4].astype(np.int64)
    _check_entries(problem.block_sizes, index[:, 1:], str(path))
    Z, X = (_dense_blocks(problem.block_sizes, index[index[:, 0] == which, 1:],
                          entries[index[:, 0] == which, 4], f"{path}")
            for which in (1, 2))
    return CSDPSolution(y=y, Z=Z, X=X)
