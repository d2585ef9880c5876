"""Evaluation metrics of the harness."""

from harness.metrics.embedding_quality import (
    embedding_quality,
    local_continuity,
    local_trust,
    neighborhood_intersection,
)

__all__ = [
    "local_continuity",
    "local_trust",
    "neighborhood_intersection",
    "embedding_quality",
]
