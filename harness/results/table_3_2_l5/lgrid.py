"""The l grid of Table 3.2's re-evaluation (thesis 3.1.9): the neighbourhood sizes and
their measure-name tags, shared by the declaration and the job (one small module, so
that editing the declaration's notes reruns no job)."""

from __future__ import annotations

__all__ = ["L_GRID", "l_tag", "resolve_l"]

#: the neighbourhood sizes of the re-evaluation, fixed by the register's readings
#: (s3-1-9-mvu-trust-l5-0-938: l = 5 and 15; s3-1-9-intersection-approaches-1-as-l-grows:
#: l = 5, 10, 15, 50, 100, n/2, n-1); "n/2" is n // 2
L_GRID = (5, 10, 15, 50, 100, "n/2", "n-1")
_TAGS = {"n/2": "half", "n-1": "nm1"}


def l_tag(l) -> str:
    """The measure-name suffix of one entry of :data:`L_GRID` (``l5``, ``lhalf``, ``lnm1``)."""
    return "l" + _TAGS.get(l, str(l))


def resolve_l(l, n: int) -> int:
    """The neighbourhood size of one entry of :data:`L_GRID` for ``n`` points (l < n)."""
    if l == "n/2":
        return n // 2
    if l == "n-1":
        return n - 1
    return int(l)
