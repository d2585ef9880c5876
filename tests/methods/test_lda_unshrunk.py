"""Table 2.1's second LDA reading: LDA as printed (eq. 2.27, no shrinkage), checked
against a direct eigen-decomposition of ``C_w^-1 C_b``."""

import numpy as np
import pytest

from harness import registry
from harness.methods.lda_knn import LDAKNN, lda_map
from harness.methods.lda_knn_unshrunk import LDAKNNUnshrunk
from harness.methods.lda_lmnn import LDALMNN
from harness.methods.lda_lmnn_unshrunk import LDALMNNUnshrunk


def _data(n_per_class=40, dim=6, n_classes=4, seed=0):
    rng = np.random.default_rng(seed)
    means = rng.normal(scale=3.0, size=(n_classes, dim))
    mix = rng.normal(size=(dim, dim))  # correlated, anisotropic classes
    X = np.vstack([rng.normal(size=(n_per_class, dim)) @ mix + m for m in means])
    return X, np.repeat(np.arange(n_classes), n_per_class)


def _naive_directions(X, codes):
    """Eq. 2.27: eigenvectors of C_w^-1 C_b, largest eigenvalue first."""
    mean = X.mean(axis=0)
    dim = X.shape[1]
    C_w, C_b = np.zeros((dim, dim)), np.zeros((dim, dim))
    for c in np.unique(codes):
        Xc = X[codes == c]
        C_w += (Xc - Xc.mean(axis=0)).T @ (Xc - Xc.mean(axis=0))
        d = Xc.mean(axis=0) - mean
        C_b += len(Xc) * np.outer(d, d)
    vals, vecs = np.linalg.eig(np.linalg.solve(C_w, C_b))
    order = np.argsort(-vals.real)
    return vals.real[order], vecs.real[:, order]


def test_unshrunk_map_spans_the_eigenvectors_of_eq_2_27():
    X, codes = _data()
    directions = lda_map(X, codes, shrinkage=None)
    vals, vecs = _naive_directions(X, codes)
    assert directions.shape == (3, X.shape[1])  # n_classes - 1
    assert vals[2] > 1e-6 and vals[3] < 1e-10 * vals[0]  # rank of C_b is 3
    for row, vec in zip(directions, vecs.T):
        cos = abs(row @ vec) / (np.linalg.norm(row) * np.linalg.norm(vec))
        assert cos == pytest.approx(1.0, abs=1e-8)


def test_shrinkage_moves_the_map_away_from_eq_2_27():
    X, codes = _data(n_per_class=8, dim=12)  # few points per dimension: shrinkage bites
    _, vecs = _naive_directions(X, codes)
    first = lda_map(X, codes, shrinkage="auto")[0]
    cos = abs(first @ vecs[:, 0]) / (np.linalg.norm(first) * np.linalg.norm(vecs[:, 0]))
    assert cos < 0.999


def test_the_unshrunk_rows_are_the_lda_rows_without_shrinkage():
    X, codes = _data()
    plain = LDAKNN(shrinkage=None).fit(X, codes)
    unshrunk = LDAKNNUnshrunk().fit(X, codes)
    np.testing.assert_array_equal(unshrunk.components_, plain.components_)
    assert LDAKNNUnshrunk().get_params()["shrinkage"] is None
    assert LDALMNNUnshrunk().get_params()["shrinkage"] is None
    assert LDALMNNUnshrunk()._preprocess(X, codes).tobytes() == \
        LDALMNN(shrinkage=None)._preprocess(X, codes).tobytes()
    methods = registry.methods("classification")
    assert methods["lda_knn_unshrunk"] is LDAKNNUnshrunk
    assert methods["lda_lmnn_unshrunk"] is LDALMNNUnshrunk
    assert (LDAKNNUnshrunk.thesis_label, LDALMNNUnshrunk.thesis_label) == (
        "LDA (unshrunk)", "LDA-LMNN (unshrunk)")


def test_a_singular_within_class_covariance_names_the_fix():
    X, codes = _data(n_per_class=5, dim=30)  # 20 points in 30 dimensions
    with pytest.raises(ValueError, match="singular.*shrinkage='auto'"):
        LDAKNNUnshrunk().fit(X, codes)
    LDAKNN().fit(X, codes)  # the shrunk reading stays defined
