"""scikit-learn's neighbourhood components analysis (NCA) as a peer row of Table 2.1."""

from __future__ import annotations

from harness.methods.shared.metric_knn import check_mu
from harness.methods.shared.peer import PeerMetricKNN


class NCAKNN(PeerMetricKNN):
    """kNN under the metric that scikit-learn's ``NeighborhoodComponentsAnalysis``
    learns (Goldberger et al. 2005, compared with LMNN in thesis 2.1.1).

    NCA maximises the expected leave-one-out accuracy of a stochastic nearest
    neighbour rule over ``L`` with L-BFGS-B; it has no target neighbours and no
    ``mu``. Prediction (kNN with the thesis' tie rule, leave-one-out, the energy
    rule 2.12 with the training set's Euclidean target neighbours) is ours, as for
    every row. NCA has no constraints, so this row has no ``n_active`` measure.
    scikit-learn is a dependency, so this peer always runs; an exception inside NCA
    is still a :class:`harness.methods.shared.peer.PeerNotRunnable` record.

    Parameters
    ----------
    n_neighbors : int, default=3
        ``k`` of the kNN rule and of the energy rule's target neighbours (NCA
        itself does not use it). Every class needs more than ``k`` members.
    mu : float, default=0.5
        Weight of the energy rule's impostor terms (2.12); NCA does not use it.
    n_components : int or None, default=None
        Rows of ``L`` (None: ``n_features``).
    init : str or ndarray, default="auto"
        NCA's start (scikit-learn's default).
    max_iter : int, default=50
        L-BFGS-B iterations (scikit-learn's default; it warns when it stops there).
    tol : float, default=1e-05
        L-BFGS-B tolerance (scikit-learn's default).
    random_state : None or int, default=None
        Passed to NCA (``init="random"`` and the PCA start).

    Attributes
    ----------
    components_ : ndarray of shape (n_components, n_features)
        NCA's ``components_`` (``L``).
    n_iter_ : int
        NCA's ``n_iter_``.
    peer_version_ : str
    """

    name = "nca_knn"
    thesis_label = "NCA"
    references = (
        "Goldberger, Roweis, Hinton, Salakhutdinov, Neighbourhood components analysis, "
        "NIPS 2004",
        "thesis 2.1.1 (related work)",
        "scikit-learn sklearn.neighbors.NeighborhoodComponentsAnalysis",
    )
    table_note = (
        "scikit-learn's NeighborhoodComponentsAnalysis (peer) with its defaults (init "
        "'auto', max_iter 50, tol 1e-5); kNN and energy rule (mu = 0.5, Euclidean "
        "target neighbours) in its metric; no constraints to count."
    )
    peer_module = "sklearn.neighbors"
    peer_dist = "scikit-learn"

    def __init__(self, *, n_neighbors=3, mu=0.5, n_components=None, init="auto",
                 max_iter=50, tol=1e-5, random_state=None):
        self.n_neighbors = n_neighbors
        self.mu = mu
        self.n_components = n_components
        self.init = init
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state

    def _check_params(self, n_features):
        check_mu(self.mu)

    def _make_peer(self, module):
        return module.NeighborhoodComponentsAnalysis(
            n_components=self.n_components, init=self.init, max_iter=self.max_iter,
            tol=self.tol, random_state=self.random_state)

    def _read_peer(self, peer):
        self.n_iter_ = int(peer.n_iter_)
        return peer.components_
