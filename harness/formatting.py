"""Numbers of records as the writers show them: one formatter for values that may be
missing (``None``, NaN, infinite, absent from the record), and the text of an MVU
solve's certificate.

A record keeps what the engine measured, and a job that timed out, died or was
skipped measured little: its numbers are absent, ``None`` (JSON has no NaN or
infinity, :func:`harness.records.write_json_atomic` stores both as ``null``) or NaN
once in a frame. A writer formats every such number with :func:`fmt_number`, never
with a bare format spec, so that every record status the engine produces renders.
"""

from __future__ import annotations

import math
import numbers

__all__ = ["fmt_number", "certificate_text", "solve_summary", "INCONSISTENT"]

#: How a certificate whose value lies beyond its dual bound reads (its ``gap`` is
#: infinite, stored as ``null``): no gap number, the inconsistency itself.
INCONSISTENT = "inconsistent certificate: value {side} bound"


def fmt_number(value, spec: str = ".3g", missing: str = "-") -> str:
    """``format(value, spec)``, or ``missing`` where there is no finite number.

    Parameters
    ----------
    value : object
        A number from a record or a frame; ``None``, NaN, ``pd.NA``, an infinity
        or anything that is not a real number (a string, a list) is missing.
        ``True``/``False`` are not numbers here either.
    spec : str
        A format spec (``".1e"``, ``"+.3f"``, ``".0f"``).
    missing : str
        What a missing value shows.

    Returns
    -------
    str

    Examples
    --------
    >>> fmt_number(0.01234, ".1e"), fmt_number(None, ".1e"), fmt_number(float("nan"))
    ('1.2e-02', '-', '-')
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return missing
    if not math.isfinite(value):
        return missing
    return format(value, spec)


def certificate_text(solve: dict | None, spec: str = ".1e", missing: str = "-") -> str:
    """The certificate of one MVU solve (a record's ``solve``/``solve_info``) in a
    few words: ``"gap 1.2e-03"``; ``"gap -"`` when there is none (a solve killed
    before it returned an iterate); for a certificate whose value lies beyond its
    dual bound (``consistent`` false, :class:`harness.problems.mvu_certificate.
    Certificate`) ``"inconsistent certificate: value above bound"`` (``below`` for
    minimum trace; ``beyond`` without the two numbers), never a gap number.

    Parameters
    ----------
    solve : dict or None
        The record's solve entry; keys ``gap``, ``consistent``, ``value``, ``bound``
        may each be absent or ``None``.
    spec, missing : str
        As in :func:`fmt_number`, for the gap.

    Returns
    -------
    str
    """
    solve = solve or {}
    if solve.get("consistent") is False:
        value, bound = solve.get("value"), solve.get("bound")
        known = fmt_number(value) != "-" and fmt_number(bound) != "-"
        side = ("above" if value > bound else "below") if known else "beyond"
        return INCONSISTENT.format(side=side)
    return f"gap {fmt_number(solve.get('gap'), spec, missing)}"


def solve_summary(solve: dict | None) -> str:
    """An MVU solve's verdict and certificate, as the notes of a cell whose solve is
    not certified optimal say it: ``"timeout, certified gap 1.2e-02, violation
    3.0e-05"`` or ``"inaccurate, certified inconsistent certificate: value above
    bound, violation -"``."""
    solve = solve or {}
    return (f"{solve.get('status')}, certified {certificate_text(solve)}, violation "
            f"{fmt_number(solve.get('violation'), '.1e')}")
