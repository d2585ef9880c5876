"""Readings of the Gaussian kernel's width in Figs. 3.32-3.35 (thesis 3.1.9, footnote 4:
"the estimated standard deviation within neighborhoods of size k = 4"), measured on
the Swiss roll plugin the figure uses (n = 800, the figure's size) at several noise
levels, beside the thesis' sigma = 1.45 for its roll.

Usage: python scripts/sigma_readings.py [N] [NOISE ...]   (default 800 and 0 0.1 0.2)

Prints one line per noise level: the harness' reading (harness.kernels.
neighbourhood_scale, the RMS distance of a point to its k nearest neighbours) and the
others it was chosen over. The figure's notes cite this script's output.
"""

import sys

import numpy as np
from sklearn.neighbors import NearestNeighbors

from harness.datasets.swiss_roll import SwissRoll
from harness.kernels import neighbourhood_scale

K = 4


def readings(X: np.ndarray, k: int = K) -> dict[str, float]:
    """Every reading of "the standard deviation within neighbourhoods of size k"."""
    dist, idx = NearestNeighbors(n_neighbors=k + 1).fit(X).kneighbors(X)
    members = X[idx]  # each point and its k nearest neighbours
    centroids = members.mean(axis=1)
    rms = neighbourhood_scale(X, k)
    return {"rms to neighbours (harness)": rms, "that / sqrt 2": rms / np.sqrt(2),
            "rms of the members to their centroid": float(np.sqrt(
                ((members - centroids[:, None, :]) ** 2).sum(axis=2).mean())),
            "mean neighbour distance": float(dist[:, 1:].mean()),
            "mean k-th neighbour distance": float(dist[:, -1].mean())}


def main(argv: list[str]) -> None:
    n = int(argv[0]) if argv else 800
    for noise in [float(a) for a in argv[1:]] or [0.0, 0.1, 0.2]:
        X = SwissRoll().load(n_samples=n, noise=noise).X
        print(f"n = {n}, noise {noise:g}: " + "; ".join(
            f"{name} {value:.2f}" for name, value in readings(X).items()))


if __name__ == "__main__":
    main(sys.argv[1:])
