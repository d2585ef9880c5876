"""The plugin contracts: what a method file in ``harness/methods/`` and a dataset file in
``harness/datasets/`` must provide.

A *method plugin* is a scikit-learn estimator that also derives from
:class:`MethodPlugin` and sets plain-value class attributes (``name``, ``task``,
``thesis_label``, ``references``, ``solvers``). A *dataset plugin* derives from
:class:`DatasetPlugin` and implements :meth:`DatasetPlugin.load`, returning a
:class:`Dataset`. The registry (:mod:`harness.registry`) finds every such class
defined in a module of ``harness/methods/`` or ``harness/datasets/`` (files whose name starts with an
underscore and subpackages such as ``harness/methods/shared/`` are shared code, not
plugins) and in the entry-point groups
``harness.methods`` and ``harness.datasets``.
"""

from __future__ import annotations

import abc
import dataclasses
from typing import Any, ClassVar

import numpy as np

__all__ = [
    "Dataset",
    "DatasetPlugin",
    "DataUnavailableError",
    "ExpectedFailure",
    "MethodPlugin",
    "DisconnectedGraphError",
]

TASKS = ("embedding", "classification", "out_of_sample", "clustering")


class ExpectedFailure(Exception):
    """A failure of one cell that the workflow records and moves past.

    Harness bugs raise anything else and fail the job loudly. ``status`` is the record
    status the failure maps to.
    """

    status = "failed"


class DataUnavailableError(ExpectedFailure):
    """The data set cannot be had here (not bundled, not cached, no network)."""

    status = "unavailable"


class DisconnectedGraphError(ExpectedFailure, ValueError):
    """The k-nearest-neighbour graph has more than one connected component."""

    status = "failed"


@dataclasses.dataclass(frozen=True)
class Dataset:
    """A loaded data set.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Inputs, float64, finite.
    y : ndarray of shape (n_samples,) or None
        Labels (classification) or a colouring parameter (manifolds), or None.
    meta : dict
        Plain values describing the data: ``source`` (``"generated"``, ``"package"``
        or ``"downloaded"``), ``sha256`` where a file was read, ``stand_in_for`` (the
        thesis data set this one replaces, or None), ``thesis_name`` (the thesis'
        column this data set fills), ``description``, ``split_protocol``.
    """

    X: np.ndarray
    y: np.ndarray | None
    meta: dict[str, Any]

    @property
    def n_samples(self) -> int:
        return int(self.X.shape[0])

    def fit_params(self) -> dict[str, Any]:
        """Side information besides X that a method may take by keyword (e.g. the
        action sequence of :class:`harness.datasets.moving_window.ActionSequenceData`).

        The embedding task passes each one to a method whose ``fit_transform``
        names it (:func:`harness.tasks.embedding.run_embedding`); a subclass of
        :class:`Dataset` that carries such information overrides this. None here.
        """
        return {}


class DatasetPlugin(abc.ABC):
    """Base class of dataset plugins.

    Class attributes
    ----------------
    name : str
        Registry name, used in cell ids and configs (``swiss_roll``).
    thesis_name : str
        The thesis' name for the data set, as in ``results/reference/*.csv``.
    stand_in_for : str or None
        Set when this data set is a synthetic stand-in for a thesis data set.
    tasks : tuple of str
        Tasks the data suits (``"embedding"``, ``"classification"``,
        ``"clustering"``).
    params : dict
        Default keyword arguments of :meth:`load`.
    fetch_command : str
        What a user types to obtain the data (``harness fetch NAME``).
    """

    name: ClassVar[str] = ""
    thesis_name: ClassVar[str] = ""
    stand_in_for: ClassVar[str | None] = None
    tasks: ClassVar[tuple[str, ...]] = ("embedding",)
    params: ClassVar[dict[str, Any]] = {}
    description: ClassVar[str] = ""

    @classmethod
    def fetch_command(cls) -> str:
        return f"harness fetch {cls.name}"

    def available(self) -> tuple[bool, str]:
        """Whether :meth:`load` can succeed here, without loading; and why not."""
        return True, ""

    def files_present(self) -> bool:
        """Whether the files :meth:`load` reads are on disk (no hashing: a cheap check
        the workflow makes per job, so that a job whose data was missing reruns once
        ``harness fetch`` has brought it). Generated and embedded data: always."""
        return True

    def fetch(self) -> str:
        """Obtain the data (download/rebuild and verify); return a one-line summary.

        Generated data sets need nothing and say so.
        """
        ok, reason = self.available()
        if not ok:
            raise DataUnavailableError(reason)
        return f"{self.name}: nothing to fetch ({self.description or 'generated'})"

    @abc.abstractmethod
    def load(self, **params: Any) -> Dataset:
        """Return the data set; raise :class:`DataUnavailableError` if it cannot be had."""


class MethodPlugin:
    """Mixin that turns a scikit-learn estimator into a harness method plugin.

    Class attributes
    ----------------
    name : str
        Registry name, used in cell ids and configs (``isomap``).
    task : str
        One of ``"embedding"``, ``"classification"``, ``"out_of_sample"``,
        ``"clustering"``.
    thesis_label : str
        The method's row label in the thesis' tables (``"Isomap"``); the reference
        CSVs are joined on it. Empty for methods the thesis does not have.
    references : tuple of str
        Citations (thesis section, original paper).
    solvers : tuple of str
        Solver backends the method accepts; empty for methods that need none.
    uses_neighbors : bool
        Whether the method builds a k-nearest-neighbour graph, so that the table's
        neighbourhood size ``n_neighbors`` is passed to it.
    table_params : dict
        Per-table constructor arguments that the thesis fixes for this method, e.g.
        ``{"table_3_2": {"n_neighbors": 5}}`` for MVU; they override the table's
        general rule, and the profile's ``methods:`` section overrides them.
    table_note : str
        One sentence for the notes under every table the method appears in: what the
        thesis left open and what this implementation chose.
    measures : tuple of str or None
        The table measures the method reports (rows it appears in); None: all of its
        task's. An SVM, for instance, has no energy rule.
    classifier_kind : str
        Classification methods: ``"knn"`` (predictions by kNN under a learned metric,
        Table 2.1's kNN and energy rows) or ``"svm"``.
    """

    name: ClassVar[str] = ""
    task: ClassVar[str] = ""
    thesis_label: ClassVar[str] = ""
    references: ClassVar[tuple[str, ...]] = ()
    solvers: ClassVar[tuple[str, ...]] = ()
    uses_neighbors: ClassVar[bool] = False
    table_params: ClassVar[dict[str, dict[str, Any]]] = {}
    table_note: ClassVar[str] = ""
    measures: ClassVar[tuple[str, ...] | None] = None
    classifier_kind: ClassVar[str] = "knn"

    @classmethod
    def skip(cls, dataset: Dataset | None, solver: str | None) -> tuple[bool, str]:
        """Return ``(True, reason)`` for a combination this method cannot run."""
        if solver is not None and solver not in cls.solvers:
            return True, f"{cls.name} does not use solver {solver!r}"
        return False, ""
