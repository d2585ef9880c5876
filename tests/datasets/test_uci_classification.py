"""The UCI classification files rebuilt offline (``harness/datasets/iris.py``, ``wine.py``,
``balance_scale.py``, ``_uci_text.py``): exact bytes, shapes, classes, the iris trap,
discovery, and that altered bytes are refused."""

from __future__ import annotations

import csv
import hashlib
from collections import Counter

import numpy as np
import pytest
from sklearn.datasets import load_iris, load_wine

from harness.datasets._uci_text import (ReconstructionMismatchError, UCITextDataset, check_sha256,
                                parse_uci_text, uci_number)
from harness.datasets.balance_scale import BalanceScale
from harness.datasets.iris import Iris
from harness.datasets.wine import Wine
from harness import registry
from harness.plugin import DataUnavailableError, DatasetPlugin

# Published sha256 of the UCI files (../shared/DATA.md), written out here on purpose
# rather than read from the plugins.
PUBLISHED = {
    Iris: "6f608b71a7317216319b4d27b4d9bc84e6abd734eda7872b71a458569e2656c0",
    Wine: "6be6b1203f3d51df0b553a70e57b8a723cd405683958204f96d23d7cd6aea659",
    BalanceScale: "5611187ef7345d807aa8ae22615945ade52a190537c0b1434bd44c3e877c5bb4",
}
PLUGINS = list(PUBLISHED)
SHAPES = {Iris: (150, 4), Wine: (178, 13), BalanceScale: (625, 4)}
COUNTS = {
    Iris: {"Iris-setosa": 50, "Iris-versicolor": 50, "Iris-virginica": 50},
    Wine: {1: 59, 2: 71, 3: 48},
    BalanceScale: {"L": 288, "B": 49, "R": 288},
}
THESIS_KEYS = {Iris: "iris", Wine: "wine", BalanceScale: "bal"}


@pytest.fixture(scope="module")
def loaded():
    return {cls: cls().load() for cls in PLUGINS}


@pytest.mark.parametrize("cls", PLUGINS, ids=lambda c: c.name)
def test_rebuilt_bytes_hash_to_the_published_sha256(cls):
    data = cls().reconstruct()
    assert hashlib.sha256(data).hexdigest() == PUBLISHED[cls]
    assert cls.sha256 == PUBLISHED[cls]


@pytest.mark.parametrize("cls", PLUGINS, ids=lambda c: c.name)
def test_shape_dtype_and_class_counts(cls, loaded):
    data = loaded[cls]
    assert data.X.shape == SHAPES[cls] and data.n_samples == SHAPES[cls][0]
    assert data.X.dtype == np.float64 and np.isfinite(data.X).all()
    assert isinstance(data.y, np.ndarray) and data.y.shape == (SHAPES[cls][0],)
    assert dict(Counter(data.y.tolist())) == COUNTS[cls]


@pytest.mark.parametrize("cls", PLUGINS, ids=lambda c: c.name)
def test_meta_and_split_protocol_follow_thesis_table_2_1(cls, loaded, repo_root):
    meta = loaded[cls].meta
    assert meta["sha256"] == PUBLISHED[cls]
    assert meta["stand_in_for"] is None and meta["thesis_name"] == cls.thesis_name
    assert meta["source"] == ("generated" if cls is BalanceScale else "package")
    assert meta["description"] == cls.description
    with open(repo_root / "results" / "reference" / "thesis_table_2_1.csv") as fh:
        table = {row["quantity"]: int(float(row["value"])) for row in csv.DictReader(fh)
                 if row["dataset"] == THESIS_KEYS[cls] and not row["method"]}
    split = meta["split_protocol"]
    for key in ("n_inputs", "n_training", "n_testing", "pct_validation", "n_runs"):
        assert split[f"thesis_{key}"] == table[key], key
    assert split["n_train_fraction"] == table["n_training"] / table["n_inputs"]
    assert split["n_train"] + split["n_test"] == split["n_samples"] == SHAPES[cls][0]
    assert split["n_train"] == round(split["n_train_fraction"] * SHAPES[cls][0])
    assert cls.table_note and str(table["n_inputs"]) in cls.table_note
    assert str(SHAPES[cls][0]) in cls.table_note


def test_iris_is_uci_not_scikit_learns_corrected_copy(loaded):
    X = loaded[Iris].X
    sk = load_iris().data
    differ = np.flatnonzero((X != sk).any(axis=1))
    assert differ.tolist() == [34, 37]  # rows 35 and 38, 1-based
    np.testing.assert_array_equal(X[34], [4.9, 3.1, 1.5, 0.1])
    np.testing.assert_array_equal(sk[34], [4.9, 3.1, 1.5, 0.2])
    np.testing.assert_array_equal(X[37], [4.9, 3.1, 1.5, 0.1])
    np.testing.assert_array_equal(sk[37], [4.9, 3.6, 1.4, 0.1])
    lines = Iris().reconstruct().decode().split("\n")
    assert lines[0] == "5.1,3.5,1.4,0.2,Iris-setosa"
    assert lines[34] == "4.9,3.1,1.5,0.1,Iris-setosa"
    assert lines[-3:] == ["5.9,3.0,5.1,1.8,Iris-virginica", "", ""]  # blank last line


def test_wine_matches_scikit_learn_numerically(loaded):
    data = loaded[Wine]
    sk = load_wine()
    np.testing.assert_array_equal(data.X, sk.data)
    np.testing.assert_array_equal(data.y, sk.target + 1)
    first = Wine().reconstruct().decode().split("\n")[0]
    assert first == "1,14.23,1.71,2.43,15.6,127,2.8,3.06,.28,2.29,5.64,1.04,3.92,1065"


def test_balance_scale_classes_follow_the_torque_rule(loaded):
    data = loaded[BalanceScale]
    lw, ld, rw, rd = data.X.T
    expected = np.where(lw * ld > rw * rd, "L", np.where(lw * ld < rw * rd, "R", "B"))
    np.testing.assert_array_equal(data.y, expected)
    assert BalanceScale().reconstruct().startswith(b"B,1,1,1,1\nR,1,1,1,2\n")


@pytest.mark.parametrize("cls", PLUGINS, ids=lambda c: c.name)
def test_registry_discovers_the_plugins(cls):
    found = registry.datasets(task="classification")
    assert found[cls.name] is cls
    assert issubclass(cls, DatasetPlugin) and cls.tasks == ("classification",)
    assert cls.thesis_name == THESIS_KEYS[cls] and cls.stand_in_for is None
    assert cls().available() == (True, "")
    assert "verified" in cls().fetch()


def test_shared_core_is_not_a_plugin():
    assert all(c is not UCITextDataset and not c.__module__.endswith("._uci_text")
               for c in registry.datasets().values())


@pytest.mark.parametrize("cls", PLUGINS, ids=lambda c: c.name)
def test_one_tampered_byte_is_refused(cls, monkeypatch):
    good = cls().reconstruct()
    bad = bytearray(good)
    bad[len(bad) // 2] ^= 0x01
    with pytest.raises(ReconstructionMismatchError, match="not the published file"):
        check_sha256(bytes(bad), PUBLISHED[cls], cls.name)
    monkeypatch.setattr(cls, "reconstruct", lambda self: bytes(bad))
    with pytest.raises(DataUnavailableError, match=PUBLISHED[cls]):
        cls().load()
    ok, reason = cls().available()
    assert not ok and "not the published file" in reason


def test_uci_number_spelling():
    assert [uci_number(v) for v in (0.28, 127.0, 2.8, 9.899999, 14.23, -0.5)] == \
        [".28", "127", "2.8", "9.899999", "14.23", "-.5"]


def test_parse_uci_text_label_first_or_last():
    X, y = parse_uci_text(b"1,.5,2\n3,4,5\n\n", label_column=0, label_type=int)
    np.testing.assert_array_equal(X, [[0.5, 2.0], [4.0, 5.0]])
    assert y.tolist() == [1, 3]
    X, y = parse_uci_text(b"1.0,2.0,a\n3,4,b\n", label_column=-1)
    assert X.shape == (2, 2) and y.tolist() == ["a", "b"]
    with pytest.raises(ValueError, match="different lengths"):
        parse_uci_text(b"1,2,a\n3,b\n", label_column=-1)
