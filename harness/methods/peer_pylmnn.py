"""pylmnn's LMNN as a peer row of Table 2.1 (optional: ``pip install 'pylmnn'``, or
the ``peers`` extra)."""

from __future__ import annotations

import numbers
import warnings

from sklearn.exceptions import ConvergenceWarning

from harness.methods.shared.metric_knn import check_positive_int
from harness.methods.shared.peer import PeerMetricKNN


class PyLMNN(PeerMetricKNN):
    """kNN under the metric that pylmnn's ``LargeMarginNearestNeighbor`` learns (a
    peer of ``lmnn``).

    pylmnn 1.6 (Chiotellis) minimises the LMNN loss (thesis eq. 2.11) over ``L``
    with L-BFGS-B, normalised so that the push term has weight 1 and the pull term
    ``(1 - mu) / mu`` (the same minimiser as 2.11 for ``mu > 0``); target neighbours
    are the ``k`` nearest same-class points by Euclidean distance, margin 1, start
    PCA. Prediction (kNN with the thesis' tie rule, leave-one-out, the energy rule
    2.12) is ours, as for every row. pylmnn does not expose the number of active
    constraints, so this row has no ``n_active`` measure. pylmnn 1.6.4 needs shims
    at import and call time on current SciPy/scikit-learn (see
    :mod:`harness.methods.shared.peer`); a failure inside pylmnn is a
    :class:`harness.methods.shared.peer.PeerNotRunnable` record, a missing package a skipped one.

    Parameters
    ----------
    n_neighbors : int, default=3
        ``k``: target neighbours per point (pylmnn's ``n_neighbors``) and neighbours
        of the ``k``-NN rule. Every class needs more than ``k`` members.
    mu : float, default=0.5
        Weight of the hinge (push) term of (2.11), in ``(0, 1]``; pylmnn's
        ``weight_push_loss``.
    n_components : int or None, default=None
        Rows of ``L`` (None: ``n_features``).
    init : {"pca", "identity"} or ndarray, default="pca"
        pylmnn's start (its default).
    max_iter : int, default=50
        L-BFGS-B iterations (pylmnn's default). A ConvergenceWarning says when
        L-BFGS-B did not report success: stopped at ``max_iter``, or earlier in a
        failed line search ("ABNORMAL"; the loss is not smooth).
    tol : float, default=1e-05
        L-BFGS-B tolerance (pylmnn's default).
    max_impostors : int, default=500000
        Impostors kept per iteration (pylmnn's default).
    random_state : None or int, default=None
        Passed to pylmnn (its PCA start).

    Attributes
    ----------
    components_ : ndarray of shape (n_components, n_features)
        pylmnn's ``components_`` (``L``).
    n_iter_ : int
        pylmnn's ``n_iter_``.
    converged_ : bool
        Whether L-BFGS-B reported success.
    peer_version_ : str
    """

    name = "pylmnn"
    thesis_label = "pylmnn LMNN"
    references = (
        "Chiotellis, pylmnn: Large Margin Nearest Neighbor metric learning in Python, "
        "https://github.com/johny-c/pylmnn",
        "Weinberger, Saul, Distance metric learning for large margin nearest neighbor "
        "classification, JMLR 10, 2009",
    )
    table_note = (
        "pylmnn 1.6 LMNN (peer): L-BFGS-B on L from a PCA start, weight_push_loss = "
        "mu = 0.5, its defaults otherwise (max_iter 50, tol 1e-5); kNN and energy rule "
        "as for LMNN; no count of active constraints."
    )
    peer_module = "pylmnn"
    peer_dist = "pylmnn"

    def __init__(self, *, n_neighbors=3, mu=0.5, n_components=None, init="pca",
                 max_iter=50, tol=1e-5, max_impostors=500000, random_state=None):
        self.n_neighbors = n_neighbors
        self.mu = mu
        self.n_components = n_components
        self.init = init
        self.max_iter = max_iter
        self.tol = tol
        self.max_impostors = max_impostors
        self.random_state = random_state

    def _check_params(self, n_features):
        if not isinstance(self.mu, numbers.Real) or not 0.0 < self.mu <= 1.0:
            raise ValueError(f"mu={self.mu!r} must lie in (0, 1] (pylmnn divides by it)")
        for key in ("max_iter", "max_impostors"):
            check_positive_int(key, getattr(self, key))

    def _make_peer(self, module):
        # pylmnn checks types with isinstance(x, int) / float: plain Python values
        return module.LargeMarginNearestNeighbor(
            n_neighbors=int(self.n_neighbors), weight_push_loss=float(self.mu),
            n_components=None if self.n_components is None else int(self.n_components),
            init=self.init, max_iter=int(self.max_iter), tol=float(self.tol),
            max_impostors=int(self.max_impostors), random_state=self.random_state,
            store_opt_result=True)

    def _read_peer(self, peer):
        self.n_iter_ = int(peer.n_iter_)
        result = peer.opt_result_
        self.converged_ = bool(result.success)
        if not self.converged_:
            why = (f"at max_iter={self.max_iter}" if result.nit >= self.max_iter
                   else f"after {result.nit} iterations: {result.message}")
            warnings.warn(f"pylmnn's L-BFGS-B stopped before converging {why}",
                          ConvergenceWarning, stacklevel=4)
        return peer.components_
