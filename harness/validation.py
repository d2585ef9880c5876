"""Input checks shared by the embedding task and the method plugins, so that bad
input gets the same clear message whether a plugin or the harness finds it."""

from __future__ import annotations

import numpy as np
from sklearn.utils.validation import check_array

__all__ = ["check_embedding_input"]


def check_embedding_input(X, *, n_neighbors: int | None, n_components: int) -> np.ndarray:
    """Validate inputs of an embedding method and return them as float64.

    Errors name the bad thing and the fix: non-finite entries (with the number of
    affected rows), fewer than two samples, ``n_neighbors`` not below the number of
    samples, ``n_components`` not below the number of samples.
    """
    X = np.asarray(X) if not hasattr(X, "shape") else X
    if getattr(X, "ndim", 2) == 2 and np.issubdtype(np.asarray(X).dtype, np.floating):
        bad = ~np.isfinite(np.asarray(X)).all(axis=1)
        if bad.any():
            raise ValueError(
                f"Input X contains NaN or infinity in {int(bad.sum())} of {len(bad)} rows "
                f"(first: row {int(np.flatnonzero(bad)[0])}); remove or impute them"
            )
    X = check_array(X, dtype=np.float64, ensure_min_samples=2, input_name="X")
    n = X.shape[0]
    if n_neighbors is not None and not 1 <= n_neighbors < n:
        raise ValueError(
            f"n_neighbors={n_neighbors} must satisfy 1 <= n_neighbors < n_samples={n}; "
            f"lower n_neighbors or use more samples"
        )
    if not 1 <= n_components < n:
        raise ValueError(
            f"n_components={n_components} must satisfy 1 <= n_components < n_samples={n}"
        )
    return X
