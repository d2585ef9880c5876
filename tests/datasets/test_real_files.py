"""Every loader with a real copy of its data file (``real_files.py``): the USPS test
split, the AT&T faces, Frey's pixels. The pinned hashes must be theirs, each loader
must give the thesis' sizes, and ``harness fetch NAME --file PATH`` must accept the
real file (in each of its public forms) and refuse a damaged one."""

import zipfile

import numpy as np
import pytest
from scipy.io import savemat

from harness.datasets._hashes import content_sha256, file_hash
from harness.datasets.frey import Frey, read_rda_pixels
from harness.datasets.olivetti import Olivetti, read_faces
from harness.datasets.usps import USPS, read_libsvm_digits
from harness.cli import main
from harness.plugin import DataUnavailableError
from tests.datasets.real_files import real_file


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DATA_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_usps_test_split_is_the_published_file():
    path = real_file("usps.t.bz2")
    assert USPS.extra_files[0].known_hash == "sha256:" + file_hash(path, "sha256")
    X, y = read_libsvm_digits(path)
    assert X.shape == (2007, 256) and sorted(set(y)) == list(range(10))
    assert X.min() == -1.0 and X.max() == 1.0
    assert np.bincount(y).tolist() == [359, 264, 198, 166, 200, 160, 170, 147, 166, 177]


def test_usps_fetch_file_installs_the_test_split(cache):
    path = real_file("usps.t.bz2")
    message = USPS().install(path)
    assert "usps.t.bz2" in message and "verified (sha256:a9c0164e" in message
    assert file_hash(cache / "usps.t.bz2", "sha256") == file_hash(path, "sha256")


def test_olivetti_content_hash_and_loader():
    path = real_file("att_faces.zip")
    images, people = read_faces(path)
    assert images.shape == (400, 112, 92) and images.dtype == np.uint8
    assert Olivetti.known_hash == "content-sha256:" + content_sha256(images)
    assert np.bincount(people).tolist() == [10] * 40


def test_olivetti_loads_from_the_real_zip(cache):
    path = real_file("att_faces.zip")
    assert "verified (content-sha256:2e4844a9" in Olivetti().install(path)
    data = Olivetti().load()
    assert data.X.shape == (400, 38 * 31) and data.meta["image_shape"] == [38, 31]
    assert sorted(set(data.y)) == list(range(40)) and np.bincount(data.y).min() == 10
    assert 0.0 <= data.X.min() and data.X.max() <= 1.0
    assert data.meta["hash_checked"] == Olivetti.known_hash


def test_olivetti_eigenfaces_are_the_pixels_on_their_leading_components(cache):
    """Table 2.1's olivetti (2.1.8): the 38 x 31 pixels projected on their 200 leading
    principal components, fitted on all 400 images: the projection keeps the centred
    pixels' Gram matrix up to the discarded variance."""
    Olivetti().install(real_file("att_faces.zip"))
    pixels = Olivetti().load().X
    data = Olivetti().load(n_components=200)
    assert data.X.shape == (400, 200) and data.meta["n_components"] == 200
    centred = pixels - pixels.mean(axis=0)
    total = np.sum(centred ** 2)
    kept = np.sum(data.X ** 2)
    assert kept / total == pytest.approx(data.meta["pca_variance_captured"], rel=1e-9)
    assert 0.9 < data.meta["pca_variance_captured"] < 1.0
    # the components are orthogonal directions of decreasing variance
    variances = data.X.var(axis=0)
    assert np.all(np.diff(variances) <= 1e-12 * variances[0])
    np.testing.assert_allclose(data.X.T @ data.X, np.diag(np.diag(data.X.T @ data.X)),
                               atol=1e-8 * total)


def test_olivetti_other_zip_bytes_same_images_are_accepted(cache, tmp_path):
    """A re-zipped copy (other bytes, other folder, other compression) verifies."""
    path = real_file("att_faces.zip")
    other = tmp_path / "faces.zip"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(other, "w", zipfile.ZIP_STORED) as dst:
        for name in src.namelist():
            if name.endswith(".pgm"):
                dst.writestr("orl_faces/" + name.split("/", 1)[1], src.read(name))
    assert file_hash(other, "sha256") != file_hash(path, "sha256")
    assert "verified" in Olivetti().install(other)


def test_olivetti_a_damaged_copy_is_refused_naming_expected_and_found(cache, tmp_path):
    path = real_file("att_faces.zip")
    other = tmp_path / "att_faces.zip"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(other, "w") as dst:
        for name in src.namelist():
            data = src.read(name)
            if name.endswith("s7/3.pgm"):
                data = data[:-1] + bytes([data[-1] ^ 1])  # one pixel off by one
            if not name.endswith("s40/10.pgm"):
                dst.writestr(name, data)
    with pytest.raises(DataUnavailableError, match=r"missing: \['s40/10.pgm'\]"):
        Olivetti().install(other)
    with zipfile.ZipFile(other, "a") as dst, zipfile.ZipFile(path) as src:
        dst.writestr("att_faces/s40/10.pgm", src.read("att_faces/s40/10.pgm"))
    with pytest.raises(DataUnavailableError) as info:
        Olivetti().install(other)
    assert "expected content sha256 2e4844a9" in str(info.value)
    assert "of a (400, 112, 92) uint8 array" in str(info.value)
    assert not (cache / "att_faces.zip").exists()


def _frey_pixels():
    return read_rda_pixels(real_file("frey.rda"))


def test_frey_content_hash_is_that_of_the_r_pixels():
    pixels = _frey_pixels()
    assert pixels.shape == (560, 1965) and pixels.dtype == np.uint8
    assert (pixels.min(), pixels.max()) == (8, 238)
    assert Frey.known_hash == "content-sha256:" + content_sha256(pixels.T)


def test_frey_roweis_mat_form_gives_the_same_pixels(cache, tmp_path):
    pixels = _frey_pixels()
    mat = tmp_path / "frey_rawface.mat"
    savemat(mat, {"ff": pixels})  # Roweis' layout: ff, 560 x 1965 uint8
    assert "verified (content-sha256:2438ba4f" in Frey().install(mat)
    data = Frey().load()
    assert data.X.shape == (1965, 560) and data.meta["image_shape"] == [28, 20]
    np.testing.assert_array_equal(np.rint(data.X * 255).astype(np.uint8), pixels.T)
    assert data.X[0, :3].tolist() == pytest.approx([81 / 255, 136 / 255, 167 / 255])


def test_frey_r_form_is_converted_into_the_mat_the_loader_reads(cache, capsys):
    path = real_file("frey.rda")
    assert main(["fetch", "frey", "--file", str(path)]) == 0
    assert "verified (content-sha256:2438ba4f" in capsys.readouterr().out
    assert (cache / "frey_rawface.mat").read_bytes()[:6] == b"MATLAB"
    assert sorted(p.name for p in cache.rglob("*") if p.is_file()) == ["frey_rawface.mat"]
    assert Frey().load().X.shape == (1965, 560)


def test_frey_a_wrong_shape_is_refused(cache, tmp_path):
    mat = tmp_path / "frey_rawface.mat"
    savemat(mat, {"ff": _frey_pixels()[:, :100]})
    with pytest.raises(DataUnavailableError, match=r"shape \(560, 100\), expected \(560, 1965\)"):
        Frey().install(mat)


def test_frey_the_r_mirror_is_converted_and_verified(cache, monkeypatch):
    """Offline: the canonical host fails, the mirror serves the real .rda bytes."""
    import pooch

    rda = real_file("frey.rda").read_bytes()

    def retrieve(url, known_hash, fname, path, progressbar):
        if url == Frey.url:
            raise ConnectionError("host gone")
        (path / fname).write_bytes(rda)
        return str(path / fname)

    monkeypatch.setattr(pooch, "retrieve", retrieve)
    message = Frey().fetch()
    assert f"from {Frey.mirrors[0]}, verified (content-sha256:2438ba4f" in message
    assert Frey().load().X.shape == (1965, 560)


def test_frey_a_file_of_another_data_set_is_refused_naming_both_forms(cache):
    with pytest.raises(DataUnavailableError) as info:
        Frey().install(real_file("usps.t.bz2"))
    text = str(info.value)
    assert "expected content-sha256:2438ba4f" in text
    assert "neither a MATLAB file (Roweis' frey_rawface.mat) nor R data (frey.rda)" in text


def test_olivetti_k5_graph_has_two_components_the_thesis_link_joins(cache):
    """Table 3.2's MVU graph (k = 5) of the 400 faces: components of 390 and 10 (all of
    person 6, y = 5), the same for the clique graph and the symmetric k-NN graph; the
    thesis' artificial link (3.1.12), seed 0, joins them by one edge."""
    from harness.problems.link_components import components
    from harness.problems.mvu_problem import MVUProblem, knn_edges

    Olivetti().install(real_file("att_faces.zip"))
    data = Olivetti().load()
    clique = MVUProblem.from_points(data.X, 5)
    knn, _ = knn_edges(data.X, 5)
    for edges in (clique.edges, knn):
        labels = components(400, edges)
        assert sorted(np.bincount(labels).tolist()) == [10, 390]
    small = np.flatnonzero(labels != labels[0])
    assert small.tolist() == list(range(50, 60)) and set(data.y[small]) == {5}
    linked = MVUProblem.from_points(data.X, 5, link="thesis", link_seed=0)
    assert linked.linked_edges.tolist() == [[50, 222]] and linked.m == clique.m + 1


@pytest.mark.parametrize("resample, normalise, k, sizes", [
    ("linear", "none", 6, [390, 10]),
    ("nearest", "none", 5, [390, 10]),
    ("cubic", "none", 5, [390, 10]),
    ("block3", "none", 5, [375, 15, 10]),
    ("block3", "none", 6, [390, 10]),
    ("linear", "centre_unit", 5, [400]),
    ("block3", "centre_unit", 5, [385, 15]),
])
def test_olivetti_components_under_each_reading(cache, resample, normalise, k, sizes):
    """The sweep of the plugin's docstring: with pixels / 255 no resampling connects
    the k = 5 or 6 graph; only a per-image normalisation the thesis never names does."""
    from harness.problems.link_components import components
    from harness.problems.mvu_problem import MVUProblem

    Olivetti().install(real_file("att_faces.zip"))
    X = Olivetti().load(resample=resample, normalise=normalise).X
    assert X.shape == (400, 1178)
    labels = components(400, MVUProblem.from_points(X, k).edges)
    assert sorted(np.bincount(labels).tolist(), reverse=True) == sizes
