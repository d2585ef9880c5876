"""One job of Fig. 2.13 (thesis 2.1.9): the timed 3-NN searches at one PCA dimension r
(:mod:`harness.results.common.work.balltree_point`, shared with the other ball-tree figure)."""

from __future__ import annotations

from harness.results.common.work.balltree_point import knn_work as work
from harness.results.common.work.balltree_point import sources

__all__ = ["work", "sources"]
