"""metric-learn's LMNN as a peer row of Table 2.1 (optional: ``pip install
'metric-learn'``, or the ``peers`` extra)."""

from __future__ import annotations

from harness.methods.shared.metric_knn import check_mu, check_positive_int
from harness.methods.shared.peer import PeerMetricKNN


class MetricLearnLMNN(PeerMetricKNN):
    """kNN under the metric that metric-learn's ``LMNN`` learns (a peer of ``lmnn``).

    metric-learn 0.7 minimises the LMNN loss (thesis eq. 2.11) over ``L`` by
    gradient descent with an adaptive step (halved when the loss rises, grown by 1 %
    otherwise), target neighbours the ``k`` nearest same-class points by Euclidean
    distance, margin 1. Its ``regularization`` is the weight of the *pull* term,
    so ``regularization = 1 - mu``. Prediction (kNN with the thesis' tie rule,
    leave-one-out, the energy rule 2.12) is ours, as for every row. metric-learn
    does not expose the number of active constraints, so this row has no
    ``n_active`` measure. On scikit-learn >= 1.8 metric-learn 0.7.0 needs a shim at
    call time (see :mod:`harness.methods.shared.peer`); a failure inside metric-learn is a
    :class:`harness.methods.shared.peer.PeerNotRunnable` record, a missing package a skipped one.

    Parameters
    ----------
    n_neighbors : int, default=3
        ``k``: target neighbours per point (metric-learn's ``n_neighbors``) and
        neighbours of the ``k``-NN rule. Every class needs more than ``k`` members.
    mu : float, default=0.5
        Weight of the hinge (push) term of (2.11), in ``[0, 1]``; passed as
        ``regularization = 1 - mu``.
    n_components : int or None, default=None
        Rows of ``L`` (None: ``n_features``).
    init : str or ndarray, default="auto"
        metric-learn's start: ``"auto"`` (LDA, PCA or identity by the shape of the
        problem; identity for a square ``L`` on more points than features),
        ``"pca"``, ``"lda"``, ``"identity"``, ``"random"`` or an array.
    max_iter : int, default=1000
        metric-learn's default: at most ``max_iter - 1`` gradient steps.
    min_iter : int, default=50
        Steps before the convergence test applies (metric-learn's default).
    learn_rate : float, default=1e-7
        Initial step size (metric-learn's default).
    convergence_tol : float, default=0.001
        Stop when the loss changes by less than this (metric-learn's default).
    random_state : None or int, default=None
        Passed to metric-learn (used by ``init="random"`` and the PCA start).

    Attributes
    ----------
    components_ : ndarray of shape (n_components, n_features)
        metric-learn's ``components_`` (``L``).
    n_iter_ : int
        metric-learn's ``n_iter_``.
    peer_version_ : str
    """

    name = "metric_learn_lmnn"
    thesis_label = "metric-learn LMNN"
    references = (
        "de Vazelhes, Carey, Tang, Vauquier, Bellet, metric-learn: Metric Learning "
        "Algorithms in Python, JMLR 21(138), 2020",
        "Weinberger, Saul, Distance metric learning for large margin nearest neighbor "
        "classification, JMLR 10, 2009",
    )
    table_note = (
        "metric-learn 0.7 LMNN (peer): gradient descent on L with an adaptive step, "
        "regularization = 1 - mu = 0.5, its defaults otherwise (init 'auto', "
        "max_iter 1000, learn_rate 1e-7, convergence_tol 1e-3); kNN and energy rule as "
        "for LMNN; no count of active constraints."
    )
    peer_module = "metric_learn"
    peer_dist = "metric-learn"

    def __init__(self, *, n_neighbors=3, mu=0.5, n_components=None, init="auto",
                 max_iter=1000, min_iter=50, learn_rate=1e-7, convergence_tol=0.001,
                 random_state=None):
        self.n_neighbors = n_neighbors
        self.mu = mu
        self.n_components = n_components
        self.init = init
        self.max_iter = max_iter
        self.min_iter = min_iter
        self.learn_rate = learn_rate
        self.convergence_tol = convergence_tol
        self.random_state = random_state

    def _check_params(self, n_features):
        check_mu(self.mu)
        for key in ("max_iter", "min_iter"):
            check_positive_int(key, getattr(self, key))

    def _make_peer(self, module):
        return module.LMNN(n_neighbors=int(self.n_neighbors), regularization=1.0 - self.mu,
                           n_components=self.n_components, init=self.init,
                           max_iter=int(self.max_iter), min_iter=int(self.min_iter),
                           learn_rate=self.learn_rate,
                           convergence_tol=self.convergence_tol,
                           random_state=self.random_state)

    def _read_peer(self, peer):
        self.n_iter_ = int(peer.n_iter_)
        return peer.components_
