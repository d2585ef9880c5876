"""The quantities of thesis 3.1.11's sentences on min- vs max-trace spectra and
embeddings (Figs. 3.25-3.27), from one record of Fig. 3.24's points (pure functions;
the register's readings, ``harness/claims_register/chapter_3.yaml``, s3-1-11-*).

A spectrum is the kernel's eigenvalues divided by the trace, largest first (the
record's ``spectrum``: all of them)."""

from __future__ import annotations

import numpy as np

__all__ = ["MASS", "SHARE", "mass_count", "share_count", "participation_ratio",
           "projection_loss", "largest_gap", "max_window_count", "spectrum_quantities",
           "embedding_quantities"]

MASS = 0.95   # "95 % of the trace" (s3-1-11-min-trace-long-tail, -mnist-higher-dimensional)
SHARE = 0.01  # "eigenvalues above 1 % of the trace" (s3-1-11-min-trace-long-tail)


def _spectrum(values) -> np.ndarray:
    s = np.sort(np.clip(np.asarray(values, float), 0.0, None))[::-1]
    total = s.sum()
    return s / total if total > 0 else s


def mass_count(spectrum, mass: float = MASS) -> int:
    """The number of leading eigenvalues that hold ``mass`` of the trace."""
    s = _spectrum(spectrum)
    return int(min(len(s), np.searchsorted(np.cumsum(s), mass - 1e-12) + 1))


def share_count(spectrum, share: float = SHARE) -> int:
    """The number of eigenvalues above ``share`` of the trace."""
    return int(np.sum(_spectrum(spectrum) > share))


def participation_ratio(spectrum) -> float:
    """``(sum lambda)^2 / sum lambda^2`` (scale free: 1 / sum of squared shares)."""
    s = _spectrum(spectrum)
    return float(1.0 / np.sum(s**2))


def projection_loss(spectrum, r: int) -> float:
    """``1 - (sum of the top r eigenvalues) / trace``: the variance a projection onto
    the leading r dimensions discards."""
    return float(max(0.0, 1.0 - _spectrum(spectrum)[:r].sum()))


def largest_gap(spectrum, r_max: int = 10) -> tuple[float, int]:
    """The largest ``lambda_r / lambda_{r+1}`` for r = 1 .. r_max and its r (inf where
    lambda_{r+1} is 0)."""
    s = _spectrum(spectrum)
    best, at = 0.0, 0
    for r in range(1, min(r_max, len(s) - 1) + 1):
        ratio = s[r - 1] / s[r] if s[r] > 0 else np.inf
        if ratio > best:
            best, at = float(ratio), r
    return best, at


def max_window_count(values, fraction: float) -> int:
    """The largest number of ``values`` inside one interval of width ``fraction`` of
    their range (a sliding window over the sorted values)."""
    v = np.sort(np.asarray(values, float))
    width = fraction * (v[-1] - v[0])
    right = np.searchsorted(v, v + width, side="right")
    return int(np.max(right - np.arange(len(v))))


def spectrum_quantities(record: dict, r: int) -> dict:
    """The spectrum's quantities of one point (``r``: the figure's leading dimensions)."""
    s = record["spectrum"]
    gap, gap_at = largest_gap(s)
    return {"share_1": float(_spectrum(s)[0]), "share_2": float(_spectrum(s)[1]),
            "share_top3": float(_spectrum(s)[:3].sum()), "mass95_count": mass_count(s),
            "share1pct_count": share_count(s), "participation_ratio": participation_ratio(s),
            "loss_r": projection_loss(s, r), "loss_10": projection_loss(s, 10),
            "largest_gap_10": gap, "largest_gap_at": gap_at, "rank": len(s)}


def embedding_quantities(record: dict) -> dict:
    """The embedding's quantities of one point: the scores of its leading two and one
    dimensions, its Procrustes residual to the input, the mean pairwise distance of the
    2-D embedding and the largest counts of its 1-D projection inside 5 % and 1 % of
    the range."""
    from scipy.spatial.distance import pdist

    Y = np.asarray(record["embedding_2d"], float)
    out = {f"{m}_2d": v for m, v in record["measures_2d"].items()}
    out.update({f"{m}_1d": v for m, v in record["measures_1d"].items()})
    out.update({f"{m}_kept": v for m, v in record["measures_kept"].items()})
    out.update(procrustes_to_input=record["procrustes_to_input"],
               mean_distance_2d=float(pdist(Y).mean()),
               window_5pct_count=max_window_count(Y[:, 0], 0.05),
               window_1pct_count=max_window_count(Y[:, 0], 0.01))
    return out
