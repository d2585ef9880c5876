"""Evaluation protocols, one per task; each maps (method, dataset, params, seed) to
the numbers of one run."""

from harness.tasks.embedding import MEASURES as EMBEDDING_MEASURES
from harness.tasks.embedding import run_embedding

TASKS = {"embedding": run_embedding}
MEASURES = {"embedding": EMBEDDING_MEASURES}

__all__ = ["TASKS", "MEASURES"]
