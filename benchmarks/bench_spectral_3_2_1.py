"""asv benchmarks of thesis 3.2.1's sparse-eigensolve claim (register entry
``s3-2-1-lle-sparse-efficient``; the result ``spectral_3_2_1`` decides it): LLE's sparse
shift-invert eigensolve (the 3 smallest eigenpairs of M = (I - W)^T (I - W)) against
Isomap's dense eigendecomposition of -1/2 J G^2 J, on a seeded Swiss roll of n = 1000
and 2000 points, k = 6. Compare the ratio within one run (shared machine). BLAS pinned
to :data:`benchmarks.common.BLAS_THREADS` threads.
"""

import numpy as np
import scipy.sparse
import scipy.sparse.linalg
from scipy.sparse.csgraph import shortest_path
from sklearn.neighbors import NearestNeighbors
from threadpoolctl import threadpool_limits

from benchmarks.common import BLAS_THREADS
from harness import registry
from harness.methods.isomap import isomap_gram
from harness.methods.shared.manifold import knn_graph
from harness.results.spectral_3_2_1.work import lle_weights


class SparseAgainstDense:
    params = [[1000, 2000], ["lle_sparse", "isomap_dense"]]
    param_names = ["n", "eigensolve"]
    timeout = 300

    def setup(self, n, eigensolve):
        self._limits = threadpool_limits(BLAS_THREADS)
        X = registry.get_dataset("swiss_roll")().load(n_samples=n, seed=0).X
        if eigensolve == "lle_sparse":
            neighbours = NearestNeighbors(n_neighbors=7).fit(X).kneighbors(X)[1][:, 1:]
            IW = scipy.sparse.identity(n, format="csr") - scipy.sparse.csr_matrix(
                lle_weights(X, neighbours))
            self.M = (IW.T @ IW).tocsc()
            self.v0 = np.random.default_rng(0).uniform(-1, 1, n)
        else:
            self.G = isomap_gram(shortest_path(knn_graph(X, 6), method="D", directed=False))

    def teardown(self, n, eigensolve):
        self._limits.restore_original_limits()

    def time_eigensolve(self, n, eigensolve):
        if eigensolve == "lle_sparse":
            scipy.sparse.linalg.eigsh(self.M, k=3, sigma=0.0, v0=self.v0)
        else:
            np.linalg.eigh(self.G)
