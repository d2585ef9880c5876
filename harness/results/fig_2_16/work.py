"""One job of Fig. 2.16 (thesis 2.1.9): the timed impostor (active hinge-loss) searches at one
PCA dimension r (:mod:`harness.results.common.work.balltree_point`, shared with the other ball-tree figure)."""

from __future__ import annotations

from harness.results.common.work.balltree_point import hinge_work as work
from harness.results.common.work.balltree_point import sources

__all__ = ["work", "sources"]
