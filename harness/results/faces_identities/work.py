r"""One job of ``faces_identities`` (thesis 2.1.6): LMNN before / after, by neighbours.

- :func:`persons_work` (``persons<S>``, an extension): olivetti's 40 people split at
  random into ``n_train_persons`` learning people and the held-out rest; eigenfaces
  (PCA to ``n_components``) fitted on the learning people's images (``pca_fit``);
  LMNN (eq. 2.11, the plugin :class:`harness.methods.lmnn.LMNN`, k = ``n_neighbors``, mu = 0.5)
  learned on the learning people only; the held-out people identified under the
  Euclidean metric of the eigenfaces and under the learned metric, by the
  leave-one-out protocol (each held-out image a probe against every other held-out
  image, k-NN with the thesis' tie rule, 2.1.6) and by gallery / probe splits
  (``g`` seeded images per held-out person are the gallery, the rest probes, 1-NN).
- :func:`thesis_work` (``thesis<S>``, Fig. 2.7): the thesis' protocol (2.1.6: 200
  eigenfaces of the 38 x 31 images, 7 training and 3 test images per person, PCA
  fitted on all 400 images as the loader of Table 2.1 does); per test face its 3
  nearest training faces under both metrics; counted: *improved* (the Euclidean 3
  include another person, the LMNN 3 are all the test face's person), *worsened* (the
  reverse), *caption* (the 3 differ and the LMNN 3 share the test face's label).
- :func:`mnist_work` (``mnist``, Fig. 2.8): the deskewed MNIST digits on their
  leading ``n_components`` principal components (fitted on the training digits), LMNN
  on the training digits; per test digit its nearest training digit
  (``match_neighbors``) under both metrics: *gained* (Euclidean label wrong, LMNN
  right), *lost* (the reverse); *caption*: the ``n_neighbors`` nearest differ and
  more of them share the digit's label after LMNN.

A job keeps a few changed examples with their images (uint8 grey levels) for the
figure. Data not available here (olivetti is downloaded, ``harness fetch olivetti``)
gives a record with the loader's status and reason, never a crash.
"""

from __future__ import annotations

import time

import numpy as np
from sklearn.neighbors import NearestNeighbors
from threadpoolctl import threadpool_limits

from harness import registry
from harness.metrics.knn_error import knn_loo_predict, knn_predict
from harness.plugin import ExpectedFailure
from harness.timelimit import cpu_clock
from harness.methods.lmnn import LMNN
from harness.methods.pca_knn import pca_map

__all__ = ["load", "eigen_map", "fit_lmnn", "person_split", "thesis_split",
           "neighbour_changes", "compare_predictions", "persons_work", "thesis_work",
           "mnist_work", "work", "sources"]

#: olivetti's images are 38 x 31 (harness.datasets.olivetti.SIDE), MNIST's 28 x 28
SHAPES = {"olivetti": (38, 31), "mnist": (28, 28)}


def load(params: dict):
    """The job's data set as ``(dataset, None)``, or ``(None, gap body)`` when the
    loader raises an expected failure (data not available offline)."""
    try:
        return registry.get_dataset(params["dataset"])().load(**params["dataset_params"]), None
    except ExpectedFailure as exc:
        return None, {"status": exc.status, "reason": str(exc),
                      "error_type": type(exc).__name__}


def eigen_map(X_fit: np.ndarray, n_components: int):
    """The map onto the leading principal directions of ``X_fit``: ``x -> P (x - mean)``
    (at most ``min(n, d)`` directions)."""
    mean = X_fit.mean(axis=0)
    r = int(min(n_components, X_fit.shape[0] - 1, X_fit.shape[1]))
    P = pca_map(X_fit - mean, r)[0]
    return lambda X: (np.asarray(X, dtype=np.float64) - mean) @ P.T, r


def fit_lmnn(Z: np.ndarray, y: np.ndarray, params: dict) -> tuple[np.ndarray, dict]:
    """LMNN (the plugin's defaults: L-BFGS from the scaled PCA start) on ``(Z, y)``;
    ``L`` and what the fit did."""
    start = cpu_clock()
    model = LMNN(n_neighbors=params["n_neighbors"], mu=params["mu"]).fit(Z, y)
    return model.components_, {"n_iter": int(model.n_iter_), "converged": bool(model.converged_),
                               "n_active": int(model.n_active_),
                               "fit_cpu_seconds": float(cpu_clock() - start)}


def person_split(n_people: int, n_learn: int, seed: int, split: int):
    """The learning and held-out people of split ``split`` (a seeded permutation)."""
    people = np.random.default_rng([seed, split]).permutation(n_people)
    return np.sort(people[:n_learn]), np.sort(people[n_learn:])


def thesis_split(y: np.ndarray, per_person: int, seed: int, split: int):
    """Boolean training mask: ``per_person`` seeded images of every person (the rest
    test), the thesis' 7 / 3 (2.1.6)."""
    rng = np.random.default_rng([seed, split, 1])
    train = np.zeros(len(y), dtype=bool)
    for person in np.unique(y):
        rows = np.flatnonzero(y == person)
        train[rng.choice(rows, size=per_person, replace=False)] = True
    return train


def _neighbours(Z_fit: np.ndarray, Z_query: np.ndarray, k: int) -> np.ndarray:
    """Indices (n_query, k) of the k nearest rows of ``Z_fit``, nearest first."""
    return NearestNeighbors(n_neighbors=k).fit(Z_fit).kneighbors(Z_query, return_distance=False)


def neighbour_changes(y_fit, y_query, before, after) -> dict[str, np.ndarray]:
    """Per query, from its neighbours' indices before and after learning (rows of
    ``before`` / ``after``): ``improved`` (some neighbour before has another label, all
    after share the query's), ``worsened`` (the reverse), ``changed`` (the sets differ),
    ``caption`` (changed and all after share the label), ``more_same`` (changed and
    more neighbours after share the label than before)."""
    y_fit, y_query = np.asarray(y_fit), np.asarray(y_query)
    same_before = y_fit[before] == y_query[:, None]
    same_after = y_fit[after] == y_query[:, None]
    all_before, all_after = same_before.all(axis=1), same_after.all(axis=1)
    changed = np.any(np.sort(before, axis=1) != np.sort(after, axis=1), axis=1)
    return {"improved": ~all_before & all_after, "worsened": all_before & ~all_after,
            "changed": changed, "caption": changed & all_after,
            "more_same": changed & (same_after.sum(axis=1) > same_before.sum(axis=1))}


def compare_predictions(y_true, pred_before, pred_after) -> dict[str, int]:
    """Errors before and after and the discordant queries: ``gained`` (wrong before,
    right after), ``lost`` (right before, wrong after)."""
    y_true = np.asarray(y_true)
    wrong_b, wrong_a = pred_before != y_true, pred_after != y_true
    return {"n_probes": int(len(y_true)), "errors_euclid": int(wrong_b.sum()),
            "errors_lmnn": int(wrong_a.sum()), "gained": int((wrong_b & ~wrong_a).sum()),
            "lost": int((~wrong_b & wrong_a).sum())}


def _images(X: np.ndarray, rows, shape) -> list:
    """The images of ``rows`` as uint8 grey levels (min-max over each image)."""
    out = []
    for row in np.atleast_1d(rows):
        image = np.asarray(X[int(row)], dtype=np.float64)
        low, high = image.min(), image.max()
        scaled = (image - low) / (high - low) if high > low else np.zeros_like(image)
        out.append(np.round(255 * scaled).astype(np.uint8).reshape(shape).tolist())
    return out


def _examples(mask, query_rows, before_rows, after_rows, pixels, shape, count) -> list[dict]:
    """Up to ``count`` queries where ``mask`` holds: their rows and images, with their
    neighbours' before and after."""
    found = []
    for q in np.flatnonzero(mask)[:count]:
        found.append({"query": int(query_rows[q]), "before": [int(r) for r in before_rows[q]],
                      "after": [int(r) for r in after_rows[q]],
                      "query_image": _images(pixels, query_rows[q], shape)[0],
                      "before_images": _images(pixels, before_rows[q], shape),
                      "after_images": _images(pixels, after_rows[q], shape)})
    return found


def _data_counts(y) -> dict:
    counts = np.bincount(np.unique(np.asarray(y), return_inverse=True)[1])
    return {"n_images": int(len(y)), "n_persons": int(len(counts)),
            "per_person_min": int(counts.min()), "per_person_max": int(counts.max())}


def persons_work(params: dict, X: np.ndarray, y: np.ndarray) -> dict:
    """``persons<S>``: learn on some people, identify the held-out others."""
    people = np.unique(y)
    learn_p, held_p = person_split(len(people), params["n_train_persons"], params["seed"],
                                   params["split"])
    learn, held = np.isin(y, people[learn_p]), np.isin(y, people[held_p])
    to_eigen, r = eigen_map(X[learn] if params["pca_fit"] == "train_persons" else X,
                            params["n_components"])
    Z = to_eigen(X)
    L, fit = fit_lmnn(Z[learn], y[learn], params)
    Zh, yh = Z[held], y[held]
    k = params["n_neighbors"]
    protocols = [{"protocol": "loo", "k": k, **compare_predictions(
        yh, knn_loo_predict(Zh, yh, k), knn_loo_predict(Zh, yh, k, transform=L))}]
    rng = np.random.default_rng([params["seed"], params["split"], 2])
    for g in params["gallery_sizes"]:
        gallery = np.zeros(len(yh), dtype=bool)
        for person in np.unique(yh):
            gallery[rng.choice(np.flatnonzero(yh == person), size=g, replace=False)] = True
        probes = ~gallery
        protocols.append({"protocol": f"gallery{g}", "k": 1, **compare_predictions(
            yh[probes], knn_predict(Zh[gallery], yh[gallery], Zh[probes], 1),
            knn_predict(Zh[gallery], yh[gallery], Zh[probes], 1, transform=L))})
    return {"persons_learn": [int(p) for p in people[learn_p]],
            "persons_held": [int(p) for p in people[held_p]], "n_components": r,
            "protocols": protocols, "lmnn": fit, **_data_counts(y)}


def thesis_work(params: dict, X: np.ndarray, y: np.ndarray) -> dict:
    """``thesis<S>``: Fig. 2.7's 3 nearest training faces before / after LMNN."""
    to_eigen, r = eigen_map(X, params["n_components"])
    Z = to_eigen(X)
    train = thesis_split(y, params["train_per_person"], params["seed"], params["split"])
    L, fit = fit_lmnn(Z[train], y[train], params)
    k = params["n_neighbors"]
    tr_rows, te_rows = np.flatnonzero(train), np.flatnonzero(~train)
    before = _neighbours(Z[train], Z[~train], k)
    after = _neighbours(Z[train] @ L.T, Z[~train] @ L.T, k)
    changes = neighbour_changes(y[train], y[~train], before, after)
    errors = compare_predictions(y[~train], knn_predict(Z[train], y[train], Z[~train], k),
                                 knn_predict(Z[train], y[train], Z[~train], k, transform=L))
    return {"n_components": r, "n_train": int(train.sum()), "n_test": int((~train).sum()),
            **{name: int(mask.sum()) for name, mask in changes.items()}, **errors,
            "examples": _examples(changes["improved"], te_rows, tr_rows[before],
                                  tr_rows[after], X, SHAPES["olivetti"], params["n_examples"]),
            "lmnn": fit, **_data_counts(y)}


def mnist_work(params: dict, dataset) -> dict:
    """``mnist``: Fig. 2.8's nearest training digit before / after LMNN."""
    n_train = dataset.meta["split_protocol"]["n_train"]
    X, y = np.asarray(dataset.X, dtype=np.float64), np.asarray(dataset.y)
    to_eigen, r = eigen_map(X[:n_train], params["n_components"])
    Z = to_eigen(X)
    Ztr, ytr, Zte, yte = Z[:n_train], y[:n_train], Z[n_train:], y[n_train:]
    L, fit = fit_lmnn(Ztr, ytr, params)
    m, k = params["match_neighbors"], params["n_neighbors"]
    pred_b, pred_a = knn_predict(Ztr, ytr, Zte, m), knn_predict(Ztr, ytr, Zte, m, transform=L)
    errors = compare_predictions(yte, pred_b, pred_a)
    before, after = _neighbours(Ztr, Zte, max(m, k)), _neighbours(Ztr @ L.T, Zte @ L.T, max(m, k))
    changes = neighbour_changes(ytr, yte, before[:, :k], after[:, :k])
    gained = (pred_b != yte) & (pred_a == yte)
    te_rows = np.arange(n_train, len(y))
    return {"n_components": r, "n_train": int(n_train), "n_test": int(len(yte)), **errors,
            "changed": int(changes["changed"].sum()), "more_same": int(changes["more_same"].sum()),
            "examples": _examples(gained, te_rows, before[:, :m], after[:, :m], X,
                                  SHAPES["mnist"], params["n_examples"]),
            "lmnn": fit}


def work(params: dict) -> dict:
    """Run the job ``params["kind"]`` (``persons``, ``thesis``, ``mnist``)."""
    with threadpool_limits(limits=params["blas_threads"]):
        dataset, gap = load(params)
        if gap is not None:
            return gap
        start = time.perf_counter()
        if params["kind"] == "mnist":
            body = mnist_work(params, dataset)
        else:
            X, y = np.asarray(dataset.X, dtype=np.float64), np.asarray(dataset.y)
            body = (persons_work if params["kind"] == "persons" else thesis_work)(params, X, y)
        return {"status": "ok", "reason": "", "kind": params["kind"],
                "wall_seconds_work": time.perf_counter() - start, **body}


def sources(params: dict) -> list:
    """The data set's plugin and LMNN's."""
    return [registry.get_dataset(params["dataset"]), LMNN]
