"""Declarations of the solver backends and their availability checks: Python
modules found by ``find_spec`` (no import), programs found on ``PATH`` (CSDP), and
a licence where one is needed (MOSEK)."""

from __future__ import annotations

import dataclasses
import importlib.util
import shutil
from collections.abc import Callable

__all__ = ["Backend", "BACKENDS", "backend_status"]


@dataclasses.dataclass(frozen=True)
class Backend:
    """One solver backend.

    Parameters
    ----------
    name : str
        Used in cell ids (``t3_2/swiss_roll/mvu/clarabel``).
    modules : tuple of str
        Python modules that must be importable.
    problems : tuple of str
        Problem classes it can solve (``"sdp"``).
    usable_check : callable or None
        Extra check beyond installation (licence); returns ``(ok, reason)``.
    programs : tuple of str
        Executables that must be on ``PATH`` (an external solver run as a program).
    install : str
        How to install the programs, for the reason of a missing one.
    """

    name: str
    modules: tuple[str, ...]
    problems: tuple[str, ...] = ("sdp",)
    usable_check: Callable[[], tuple[bool, str]] | None = None
    programs: tuple[str, ...] = ()
    install: str = ""

    def installed(self) -> tuple[bool, str]:
        missing = [m for m in self.modules if importlib.util.find_spec(m) is None]
        if missing:
            return False, f"not installed: python module(s) {', '.join(missing)}"
        absent = [p for p in self.programs if shutil.which(p) is None]
        if absent:
            return False, (f"not installed: program(s) {', '.join(absent)} not on PATH"
                           + (f" (install: {self.install})" if self.install else ""))
        return True, ""


def _mosek_licence() -> tuple[bool, str]:
    try:
        import mosek

        with mosek.Env() as env:
            env.checkoutlicense(mosek.feature.pts)
    except Exception as exc:  # mosek.Error, and anything a broken install raises
        return False, (f"MOSEK installed but not usable (no licence? put mosek.lic in "
                       f"~/mosek or set MOSEKLM_LICENSE_FILE): {type(exc).__name__}: {exc}")
    return True, ""


BACKENDS: dict[str, Backend] = {
    b.name: b
    for b in (
        Backend("clarabel", ("cvxpy", "clarabel")),
        Backend("scs", ("cvxpy", "scs")),
        Backend("cvxopt", ("cvxpy", "cvxopt")),
        Backend("sdpa", ("cvxpy", "sdpap")),
        Backend("mosek", ("cvxpy", "mosek"), usable_check=_mosek_licence),
        # the thesis' own solver (3.1.4), run as a program on an SDPA file
        Backend("csdp", (), programs=("csdp",),
                install="apt-get install coinor-csdp (Debian/Ubuntu; the binary is csdp)"),
    )
}


def backend_status(name: str) -> tuple[bool, str]:
    """``(usable, reason)`` for one backend: installed, then licensed where needed."""
    backend = BACKENDS[name]
    ok, reason = backend.installed()
    if ok and backend.usable_check is not None:
        ok, reason = backend.usable_check()
    return ok, reason
