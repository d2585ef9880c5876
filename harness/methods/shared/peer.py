"""Shared core of the *peer* plugins: other implementations of LMNN (metric-learn,
pylmnn) and scikit-learn's NCA as extra rows of Table 2.1.

A peer package is optional (the ``peers`` extra of ``pyproject.toml``). Its plugin
class always imports, since the package is imported lazily, inside ``skip`` and
``fit``. A peer that cannot run here becomes a marked record whose reason starts
with ``"peer not runnable: "``, never a crash of the workflow:

- the package is missing, or importing it fails (say, because of a version
  incompatibility): :meth:`PeerMetricKNN.skip` returns ``(True, reason)`` and the
  runner writes a ``skipped`` record without fitting anything;
- the peer raises inside its own ``fit``: :class:`PeerNotRunnable` (an
  :class:`~harness.plugin.ExpectedFailure` with status ``failed``: it was tried and
  failed) carries the exception's type and message.

Input errors that :func:`harness.methods.shared.metric_knn.check_labelled_input` finds (NaN, one
class, a class not larger than ``k``) and bad parameters that the plugins check
themselves stay ordinary :class:`ValueError` raised before the peer runs.

Compatibility shims
-------------------
The two LMNN packages are unmaintained and do not run unchanged with the NumPy,
SciPy and scikit-learn of this project. The shims below touch nothing outside our
own import or ``fit`` call, and each applies only when it is needed:

``metric-learn`` 0.7.0 (fit): ``metric_learn._util`` passes ``force_all_finite=`` to
    scikit-learn's ``check_array`` and ``check_X_y``; scikit-learn 1.6 renamed it
    ``ensure_all_finite`` and 1.8 removed the old name (``TypeError: check_X_y() got
    an unexpected keyword argument 'force_all_finite'``). During our call the two
    names *in metric_learn._util only* are replaced by wrappers that rename the
    keyword; the originals are restored afterwards.
``pylmnn`` 1.6.4 (import): ``pylmnn.lmnn`` imports ``integer_types`` and
    ``string_types`` from ``six`` (or ``sklearn.externals.six``, gone since
    scikit-learn 0.23) without declaring the dependency, and ``pylmnn/__init__``
    imports ``pylmnn.bayesopt``, which needs ``GPyOpt`` (hyper-parameter search
    that we do not use). When these are not installed, the import runs with
    stand-ins in ``sys.modules`` (``six.integer_types = (int,)``, ``string_types =
    (str,)``, exactly six's values on Python 3; a ``GPyOpt.methods`` whose
    ``BayesianOptimization`` raises ImportError when called), removed right after.
``pylmnn`` 1.6.4 (fit): it passes the 2-d initial ``L`` as ``x0`` to
    ``scipy.optimize.minimize``, deprecated since SciPy 1.9 and an error now
    (``ValueError: 'x0' must only have one dimension.``), and always sets the
    L-BFGS-B option ``disp``, deprecated in SciPy 1.17 (removal in 1.18). During
    our call ``pylmnn.lmnn.minimize`` gets ``x0`` raveled (pylmnn reshapes the
    iterate itself, so the optimisation is unchanged) and no ``disp`` when it is
    pylmnn's silent default.
"""

from __future__ import annotations

import abc
import contextlib
import importlib
import importlib.util
import inspect
import sys
import types
from importlib.metadata import PackageNotFoundError, version
from typing import Any, ClassVar, Iterator

import numpy as np

from harness.plugin import ExpectedFailure
from harness.methods.shared.metric_knn import KNN_MEASURES, MetricKNNClassifier

__all__ = ["PREFIX", "PeerNotRunnable", "PeerMetricKNN", "import_peer", "peer_call",
           "PEER_MEASURES"]

PREFIX = "peer not runnable: "

# the peers expose no count of active constraints at the end (Table 2.1's
# "# active constr."): metric-learn and pylmnn compute one per iteration but keep it
# local, NCA has no constraints
PEER_MEASURES = tuple(m for m in KNN_MEASURES if m != "n_active")

# indirection so that tests can simulate a missing or broken package
_import_module = importlib.import_module


class PeerNotRunnable(ExpectedFailure):
    """A peer implementation cannot run here; the message starts ``"peer not runnable: "``."""

    status = "failed"

    def __init__(self, reason: str):
        super().__init__(reason if reason.startswith(PREFIX) else PREFIX + reason)


def _version(dist: str) -> str:
    try:
        return version(dist)
    except PackageNotFoundError:
        return "(version unknown)"


def _stack_versions() -> str:
    import scipy
    import sklearn

    return (f"scikit-learn {sklearn.__version__}, SciPy {scipy.__version__}, "
            f"NumPy {np.__version__}")


# --------------------------------------------------------------------------- #
# import-time shims
# --------------------------------------------------------------------------- #
def _missing(top: str) -> bool:
    if top in sys.modules:
        return sys.modules[top] is None
    try:
        return importlib.util.find_spec(top) is None
    except (ImportError, ValueError):
        return True


def _gpyopt_stand_in(*args, **kwargs):
    raise ImportError("pylmnn.find_hyperparams needs GPyOpt, which is not installed "
                      "(the harness imported pylmnn without it and uses only "
                      "LargeMarginNearestNeighbor)")


@contextlib.contextmanager
def _pylmnn_import_stand_ins() -> Iterator[None]:
    stand_ins: dict[str, types.ModuleType] = {}
    if _missing("six"):
        six = types.ModuleType("six", "stand-in for pylmnn's import (harness.methods.shared.peer)")
        six.integer_types, six.string_types = (int,), (str,)
        stand_ins["six"] = six
    if _missing("GPyOpt"):
        gpyopt = types.ModuleType("GPyOpt", "stand-in for pylmnn's import (harness.methods.shared.peer)")
        gpyopt_methods = types.ModuleType("GPyOpt.methods")
        gpyopt_methods.BayesianOptimization = _gpyopt_stand_in
        gpyopt.methods = gpyopt_methods
        stand_ins.update({"GPyOpt": gpyopt, "GPyOpt.methods": gpyopt_methods})
    sys.modules.update(stand_ins)
    try:
        yield
    finally:
        for name, module in stand_ins.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]


_IMPORT_SHIMS = {"pylmnn": _pylmnn_import_stand_ins}


def import_peer(module: str, dist: str) -> tuple[types.ModuleType | None, str]:
    """Import a peer package lazily.

    Parameters
    ----------
    module : str
        Import name (``"metric_learn"``).
    dist : str
        Distribution name, as given to pip (``"metric-learn"``).

    Returns
    -------
    (module, "") when the import works (with the import shims of this module), else
    ``(None, reason)``: ``"peer not runnable: <dist> not installed (pip install
    '<dist>')"`` when the package is missing, or ``"peer not runnable: <dist>
    <version> cannot be imported with <stack versions>: <error>"`` when importing
    it fails (a missing dependency, a removed NumPy/SciPy/scikit-learn name).
    """
    top = module.split(".")[0]
    shim = _IMPORT_SHIMS.get(top) if top not in sys.modules else None
    try:
        with shim() if shim is not None else contextlib.nullcontext():
            return _import_module(module), ""
    except ModuleNotFoundError as exc:
        if exc.name is not None and exc.name.split(".")[0] == top:
            return None, f"{PREFIX}{dist} not installed (pip install '{dist}')"
        error = exc
    except Exception as exc:  # an import that fails for any reason is not runnable
        error = exc
    return None, (f"{PREFIX}{dist} {_version(dist)} cannot be imported with "
                  f"{_stack_versions()}: {type(error).__name__}: {error}")


# --------------------------------------------------------------------------- #
# call-time shims
# --------------------------------------------------------------------------- #
def _renaming_force_all_finite(function):
    def wrapper(*args, **kwargs):
        if "force_all_finite" in kwargs:
            kwargs["ensure_all_finite"] = kwargs.pop("force_all_finite")
        return function(*args, **kwargs)

    wrapper.__wrapped__ = function
    return wrapper


@contextlib.contextmanager
def _patched(module: types.ModuleType, replacements: dict[str, Any]) -> Iterator[None]:
    originals = {name: getattr(module, name) for name in replacements}
    for name, value in replacements.items():
        setattr(module, name, value)
    try:
        yield
    finally:
        for name, value in originals.items():
            setattr(module, name, value)


def _metric_learn_call_shim():
    from sklearn.utils.validation import check_array

    if "force_all_finite" in inspect.signature(check_array).parameters:
        return contextlib.nullcontext()  # scikit-learn < 1.8 still takes the old name
    util = _import_module("metric_learn._util")
    names = [n for n in ("check_array", "check_X_y") if callable(getattr(util, n, None))]
    return _patched(util, {n: _renaming_force_all_finite(getattr(util, n)) for n in names})


def _pylmnn_call_shim():
    lmnn = _import_module("pylmnn.lmnn")
    minimize = lmnn.minimize

    def minimize_1d(*args, **kwargs):
        if "x0" in kwargs:
            kwargs["x0"] = np.ravel(kwargs["x0"])
        options = kwargs.get("options")
        if isinstance(options, dict) and options.get("disp") == -1:  # pylmnn's silence
            kwargs["options"] = {k: v for k, v in options.items() if k != "disp"}
        return minimize(*args, **kwargs)

    return _patched(lmnn, {"minimize": minimize_1d})


_CALL_SHIMS = {"metric_learn": _metric_learn_call_shim, "pylmnn": _pylmnn_call_shim}


def peer_call(module: str):
    """Context manager with the call-time shims of a peer package (or none)."""
    shim = _CALL_SHIMS.get(module.split(".")[0])
    return shim() if shim is not None else contextlib.nullcontext()


# --------------------------------------------------------------------------- #
# the base class
# --------------------------------------------------------------------------- #
class PeerMetricKNN(MetricKNNClassifier):
    """Skeleton of a peer plugin: the peer learns ``L``; kNN, leave-one-out and the
    energy rule are ours (:class:`harness.methods.shared.metric_knn.MetricKNNClassifier`), so
    every row of Table 2.1 is measured alike.

    Subclasses set ``peer_module`` (import name) and ``peer_dist`` (pip name) and
    implement ``_check_params(n_features)`` (raise ValueError before the peer
    runs), ``_make_peer(module)`` (the peer's estimator, unfitted) and
    ``_read_peer(peer)`` (return ``L`` and set fitted attributes). ``fit`` passes
    the peer the validated float64 ``X`` and integer class codes.
    """

    peer_module: ClassVar[str] = ""
    peer_dist: ClassVar[str] = ""
    measures = PEER_MEASURES

    @classmethod
    def skip(cls, dataset, solver) -> tuple[bool, str]:
        """``(True, "peer not runnable: ...")`` when the peer package is missing or
        does not import here."""
        skip, why = super().skip(dataset, solver)
        if skip:
            return skip, why
        module, why = import_peer(cls.peer_module, cls.peer_dist)
        return module is None, why

    def _check_params(self, n_features: int) -> None:
        return None

    @abc.abstractmethod
    def _make_peer(self, module: types.ModuleType):
        """The peer's estimator, unfitted, built from ``module``."""

    @abc.abstractmethod
    def _read_peer(self, peer) -> np.ndarray:
        """``L`` of the fitted ``peer``; may set fitted attributes (``n_iter_``)."""

    def _fit_map(self, X, codes):
        self._check_params(X.shape[1])
        module, why = import_peer(self.peer_module, self.peer_dist)
        if module is None:
            raise PeerNotRunnable(why)
        self.peer_version_ = _version(self.peer_dist)
        try:
            with peer_call(self.peer_module):
                peer = self._make_peer(module)
                peer.fit(X, codes)
        except Exception as exc:
            raise PeerNotRunnable(
                f"{self.peer_dist} {self.peer_version_} failed in fit "
                f"({_stack_versions()}): {type(exc).__name__}: {exc}") from exc
        return self._read_peer(peer)
