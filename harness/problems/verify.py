"""Re-check an MVU certificate from its published parts alone.

A certificate is what :class:`harness.methods.mvu.MVU` exposes after ``fit`` (and what a
solver-table record keeps beside its JSON, :func:`save_certificate`): the problem
data (``edges``, ``sq_lengths`` b), the factor F (K = F F^T) and the multipliers as
the exact real sum ``w = dual + dual_low`` of two float64 vectors, plus, after facial
reduction, how they were built (``dual_lift`` t, ``exposing_dual`` w_Y,
``face_basis`` U; ``dual + dual_low = w_base + t w_Y``). Nothing of a solver's
internal state is used: :func:`verify_certificate` rebuilds the SDP from ``edges``
and ``sq_lengths`` and computes, for the equality variant,

* value ``tr K`` of the centred F and its violation ``max_e ||f_i - f_j|^2 - b_e| /
  max b``;
* mu, a *proven lower bound* on the smallest eigenvalue of ``L(w)`` on the
  complement of the ones vector, and ``b . w``, both from both parts of w;
* the bound ``min(b . w / mu, b . w + T max(0, 1 - mu))`` on the trace of every
  feasible K (T the shortest-path trace bound), the gap ``(bound - value) / bound``,
  and ``consistent``: the value does not exceed the bound by more than
  :data:`harness.problems.mvu_certificate.INCONSISTENCY_SLACK` (relative).

(Minimum trace: nu the largest eigenvalue, a lower bound ``b . w / nu``; inequality:
w clipped at 0.) The formulas are those of :mod:`harness.problems.mvu_certificate`,
whose :func:`~harness.problems.mvu_certificate.certify` does the arithmetic here.

Precision. Without a low part, float64 with the rounding margin ``eps |L(w)|_inf``.
With one (lifted facial multipliers, t up to ~1e12) float64 cannot resolve mu: the
entries of w are ~t |w_Y| and cancel in L(w) to eigenvalues ~1, so the float64
eigenvalue is only good to ``eps t lambda_max(Y)``, and ``dual`` alone differs from w
by as much. ``b . w`` is then summed in ``numpy.longdouble``, and mu is proven by
Cholesky factorisations of ``L(dual) + L(dual_low) - lambda I + c 1 1^T / n``
assembled in ``numpy.longdouble`` (x87 80-bit, eps 1.1e-19;
:mod:`harness.problems.extended_precision`), dense, up to its
``EXTENDED_DENSE_MAX`` points.

The face data are checked too, but only reported (``face``): the bound holds for
every feasible K whatever the face, so they do not enter the verdict.
"""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import numpy as np

from harness.problems.mvu_problem import MVUProblem
from harness.problems.mvu_certificate import certify, weighted_laplacian
from harness.records import write_bytes_atomic

__all__ = ["VerifyReport", "verify_certificate", "verify_estimator", "verify_record",
           "certificate_arrays", "estimator_certificate", "save_certificate",
           "load_certificate", "certificate_path", "CLAIM_RTOL"]

#: Relative agreement asked of a recomputed value and bound with the claimed ones.
CLAIM_RTOL = 1e-6


@dataclasses.dataclass(frozen=True)
class VerifyReport:
    """What a certificate proves, recomputed from its parts.

    Attributes
    ----------
    value, violation, bound, gap, eigenvalue : float
        As in :class:`harness.problems.mvu_certificate.Certificate` (eigenvalue: the
        proven mu, or nu for minimum trace).
    consistent : bool
        False when the value lies beyond the bound (then ``gap`` is ``inf``).
    certified : bool
        Consistent, ``gap <= tol_gap``, ``violation <= tol_violation`` and ``own_gap
        <= tol_gap`` (:meth:`~harness.problems.mvu_certificate.Certificate.shortfalls`).
    extended_precision : bool
        Whether the multipliers had a low part (then ``b . w`` and mu were computed
        in extended precision).
    face : dict or None
        With facial data: ``exposure`` ``|b . w_Y| / (|b| . |w_Y|)``, ``null_residual``
        ``|L(w_Y) U|_F / (|L(w_Y)|_F |U|_F)``, ``orthonormality`` ``|U^T U - I|_max``,
        ``ones`` ``|U^T 1|_max / sqrt(n)``, ``outside_face`` ``|F - U U^T F|_F /
        |F|_F`` (F centred), ``dimension`` and ``lift`` t.
    claimed : dict or None
        The numbers the certificate was published with (value, bound, gap, ...).
    agrees : bool or None
        Whether value and bound match ``claimed`` to ``CLAIM_RTOL`` (None without a
        claim).
    problems : tuple of str
        Why ``certified`` or ``agrees`` is False.
    """

    value: float
    violation: float
    bound: float
    gap: float
    eigenvalue: float
    consistent: bool
    certified: bool
    extended_precision: bool
    face: dict | None = None
    claimed: dict | None = None
    agrees: bool | None = None
    problems: tuple = ()

    @property
    def ok(self) -> bool:
        """Certified and, where a claim was given, in agreement with it."""
        return self.certified and self.agrees is not False

    def as_dict(self) -> dict:
        return {**dataclasses.asdict(self), "problems": list(self.problems), "ok": self.ok}


def _close(a, b, rtol: float) -> bool:
    if a is None:  # JSON keeps no inf: nothing claimed
        return True
    a, b = float(a), float(b)
    if not (np.isfinite(a) and np.isfinite(b)):
        return a == b
    return abs(a - b) <= rtol * max(abs(a), abs(b), 1e-300)


def _face_checks(problem: MVUProblem, F: np.ndarray, w_Y: np.ndarray,
                 U: np.ndarray | None, t: float) -> dict:
    b = problem.sq_lengths.astype(np.longdouble)
    scale = float(np.abs(b) @ np.abs(w_Y.astype(np.longdouble)))
    out = {"lift": float(t), "exposure": abs(float(b @ w_Y.astype(np.longdouble))) / scale
           if scale else float("nan")}
    if U is not None:
        Y = weighted_laplacian(problem.n, problem.edges, w_Y)
        norm_Y = float(np.sqrt((Y.multiply(Y)).sum())) or 1e-300
        Fc = problem.centred(F)
        out.update(
            dimension=int(U.shape[1]),
            null_residual=float(np.linalg.norm(Y @ U)) / (norm_Y * max(
                float(np.linalg.norm(U)), 1e-300)),
            orthonormality=float(np.abs(U.T @ U - np.eye(U.shape[1])).max(initial=0.0)),
            ones=float(np.abs(U.sum(axis=0)).max(initial=0.0) / np.sqrt(problem.n)),
            outside_face=float(np.linalg.norm(Fc - U @ (U.T @ Fc)))
            / max(float(np.linalg.norm(Fc)), 1e-300))
    return out


def verify_certificate(edges, sq_lengths, kernel_factor, dual, dual_low=None, *,
                       variant: str = "equality", omega: float = 0.9,
                       dual_lift: float = 0.0, exposing_dual=None, face_basis=None,
                       claimed: dict | None = None, tol_gap: float = 1e-3,
                       tol_violation: float = 1e-4) -> VerifyReport:
    """Re-check an MVU certificate from the problem data and its published parts.

    Parameters
    ----------
    edges : array of shape (m, 2)
        The clique graph (``MVU.edges_``).
    sq_lengths : array of shape (m,)
        b, the squared input distances on the edges (``MVU.sq_lengths_``).
    kernel_factor : array of shape (n, p)
        F, ``K = F F^T`` (centred here).
    dual, dual_low : array of shape (m,)
        The multipliers, the exact sum ``dual + dual_low`` (``dual_low`` None or
        zero: ``dual`` alone, checked in float64).
    variant : {"equality", "inequality", "min_trace", "slack"}
    omega : float
        Slack weight (``slack`` only).
    dual_lift, exposing_dual, face_basis : float, array, array, optional
        t, w_Y and U of a facial lift: reported in ``face``, not used by the bound.
    claimed : dict, optional
        Published numbers (``value``, ``bound``, ...): compared in ``agrees``.
    tol_gap, tol_violation : float
        What ``certified`` asks.

    Returns
    -------
    VerifyReport
    """
    F = np.asarray(kernel_factor, dtype=np.float64)
    F = F.reshape(len(F), -1)
    edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    b = np.asarray(sq_lengths, dtype=np.float64)
    problem = MVUProblem(n=len(F), edges=edges, sq_lengths=b, variant=variant, omega=omega)
    w = np.asarray(dual, dtype=np.float64)
    low = None if dual_low is None else np.asarray(dual_low, dtype=np.float64)
    if low is not None and not np.any(low):
        low = None
    cert = certify(problem, F, w, w_low=low)
    says = {"inconsistent": lambda: f"inconsistent: value {cert.value:.8g} beyond the "
                                    f"bound {cert.bound:.8g}",
            "gap": lambda: f"gap {cert.gap:.3e} above {tol_gap:g}",
            "violation": lambda: f"violation {cert.violation:.3e} above {tol_violation:g}",
            "own_gap": lambda: f"own gap {cert.own_gap:.3e} above {tol_gap:g} (the "
                               f"residuals move the bound to {cert.candidate_bound:.8g})"}
    problems = [says[name]() for name in cert.shortfalls(tol_gap, tol_violation)]
    certified = not problems
    agrees = None
    if claimed is not None:
        agrees = True
        for key in ("value", "bound"):
            if key in claimed and not _close(claimed[key], getattr(cert, key), CLAIM_RTOL):
                agrees = False
                problems.append(f"{key} {getattr(cert, key):.10g} recomputed, "
                                f"{claimed[key]} claimed")
    face = None
    if exposing_dual is not None:
        face = _face_checks(problem, F, np.asarray(exposing_dual, dtype=np.float64),
                            None if face_basis is None else np.asarray(face_basis, float),
                            dual_lift)
    return VerifyReport(value=cert.value, violation=cert.violation, bound=cert.bound,
                        gap=cert.gap, eigenvalue=cert.eigenvalue,
                        consistent=cert.consistent, certified=certified,
                        extended_precision=low is not None, face=face,
                        claimed=None if claimed is None else dict(claimed),
                        agrees=agrees, problems=tuple(problems))


def certificate_arrays(edges, sq_lengths, kernel_factor, dual, dual_low=None, *,
                       variant: str = "equality", omega: float = 0.9,
                       dual_lift: float = 0.0, exposing_dual=None,
                       face_basis=None) -> dict:
    """The keyword arguments of :func:`verify_certificate` as one dict (what
    :func:`save_certificate` writes); ``dual_low`` zero when not given."""
    dual = np.asarray(dual, dtype=np.float64)
    return {"edges": np.asarray(edges, dtype=np.int64), "sq_lengths": np.asarray(
        sq_lengths, dtype=np.float64), "kernel_factor": np.asarray(kernel_factor, float),
        "dual": dual, "dual_low": np.zeros_like(dual) if dual_low is None
        else np.asarray(dual_low, dtype=np.float64),
        "variant": str(variant), "omega": float(omega), "dual_lift": float(dual_lift),
        "exposing_dual": exposing_dual, "face_basis": face_basis}


def estimator_certificate(estimator) -> dict:
    """:func:`certificate_arrays` of a fitted :class:`harness.methods.mvu.MVU`, from its
    public attributes only."""
    return certificate_arrays(
        estimator.edges_, estimator.sq_lengths_, estimator.kernel_factor_,
        estimator.dual_, estimator.dual_low_, variant=estimator.variant,
        omega=estimator.omega, dual_lift=estimator.dual_lift_,
        exposing_dual=estimator.exposing_dual_, face_basis=estimator.face_basis_)


def verify_estimator(estimator, **kwargs) -> VerifyReport:
    """:func:`verify_certificate` of a fitted :class:`harness.methods.mvu.MVU`, claimed
    numbers from its ``solve_info_`` (``value``, ``bound``) and its tolerances."""
    info = estimator.solve_info_
    kwargs.setdefault("claimed", {k: info[k] for k in ("value", "bound", "gap") if k in info})
    kwargs.setdefault("tol_gap", estimator.tol_gap)
    kwargs.setdefault("tol_violation", estimator.tol_violation)
    return verify_certificate(**estimator_certificate(estimator), **kwargs)


def certificate_path(record_path: str | Path) -> Path:
    """Where the arrays of the record ``.../KEY.json`` live: ``.../KEY.certificate.npz``."""
    return Path(record_path).with_suffix(".certificate.npz")


def save_certificate(path: str | Path, arrays: dict) -> Path:
    """Write :func:`certificate_arrays` to ``path`` as a compressed ``.npz``
    (atomically; None entries left out)."""
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **{k: np.asarray(v) for k, v in arrays.items()
                                   if v is not None})
    return write_bytes_atomic(path, buffer.getvalue())


def load_certificate(path: str | Path) -> dict:
    """The keyword arguments of :func:`verify_certificate` from a saved ``.npz``."""
    with np.load(path, allow_pickle=False) as data:
        out = {k: data[k] for k in data.files}
    for key in ("omega", "dual_lift"):
        if key in out:
            out[key] = float(out[key])
    out["variant"] = str(out.get("variant", "equality"))
    out.setdefault("exposing_dual", None)
    out.setdefault("face_basis", None)
    return out


def verify_record(path: str | Path) -> VerifyReport:
    """Verify a record's certificate: the arrays beside ``path`` (a record
    ``KEY.json`` with ``certificate_file``, or a ``.npz`` itself) against the
    numbers the record claims (its ``certificate``) and its tolerances.

    Raises
    ------
    FileNotFoundError
        The record keeps no certificate arrays (or their file is missing).
    """
    path = Path(path)
    if path.suffix == ".npz":
        return verify_certificate(**load_certificate(path))
    with open(path) as fh:
        record = json.load(fh)
    name = record.get("certificate_file")
    if not name:
        raise FileNotFoundError(
            f"{path} keeps no certificate arrays (records of the solver table with a "
            f"solve do, as KEY.certificate.npz beside KEY.json; this record's status is "
            f"{record.get('status')!r})")
    params = record.get("params", {})
    claimed = {k: v for k, v in (record.get("certificate") or {}).items()
               if k in ("value", "bound", "gap", "violation")}
    return verify_certificate(**load_certificate(path.parent / name), claimed=claimed,
                              tol_gap=params.get("tol_gap", 1e-3),
                              tol_violation=params.get("tol_violation", 1e-4))
