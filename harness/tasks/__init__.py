"""Evaluation protocols, one per task; each maps (method, dataset, params, seed) to
the numbers of one run."""

from harness.tasks.embedding import MEASURES as EMBEDDING_MEASURES
from harness.tasks.embedding import run_embedding
from harness.tasks.classification import MEASURES as CLASSIFICATION_MEASURES
from harness.tasks.classification import run_classification
from harness.tasks.clustering import MEASURES as CLUSTERING_MEASURES
from harness.tasks.clustering import run_clustering

TASKS = {"embedding": run_embedding, "classification": run_classification,
         "clustering": run_clustering}
MEASURES = {"embedding": EMBEDDING_MEASURES, "classification": CLASSIFICATION_MEASURES,
            "clustering": CLUSTERING_MEASURES}

__all__ = ["TASKS", "MEASURES"]
