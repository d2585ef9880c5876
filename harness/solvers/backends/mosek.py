"""MOSEK's interior-point conic solver through cvxpy; needs a licence."""

from harness.solvers.cvxpy_backend import CvxpyBackend


class MOSEK(CvxpyBackend):
    order = 70
    description = "MOSEK interior point, through cvxpy (licence needed)"
    modules = ("cvxpy", "mosek")
    install = "pip install mosek, and a licence in ~/mosek/mosek.lic"
    cvxpy_name = "MOSEK"

    @classmethod
    def licence(cls) -> tuple[bool, str]:
        """A licence checkout (cvxpy lists MOSEK as installed without one)."""
        try:
            import mosek

            with mosek.Env() as env:
                env.checkoutlicense(mosek.feature.pts)
        except Exception as exc:  # mosek.Error, and anything a broken install raises
            return False, (f"MOSEK installed but not usable (no licence? put mosek.lic in "
                           f"~/mosek or set MOSEKLM_LICENSE_FILE): {type(exc).__name__}: {exc}")
        return True, ""
