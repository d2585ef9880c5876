"""Evaluation metrics of the harness."""

from harness.metrics.embedding_quality import (
    InputNeighbors,
    embedding_quality,
    input_neighbors,
    local_continuity,
    local_trust,
    neighborhood_intersection,
)

__all__ = [
    "InputNeighbors",
    "input_neighbors",
    "local_continuity",
    "local_trust",
    "neighborhood_intersection",
    "embedding_quality",
]
