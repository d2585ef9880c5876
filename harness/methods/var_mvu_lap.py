"""Variational MVU, on the Laplacian-eigenmaps basis (thesis 3.1.8): the "var.MVU(Lap)" row of
Table 3.2."""

from __future__ import annotations

from harness.methods.shared.variational_mvu import VariationalMVUBase, plugin_docstring


class VariationalMVULaplacian(VariationalMVUBase):
    __doc__ = plugin_docstring("laplacian", refine=False)

    name = "var_mvu_lap"
    thesis_label = "var.MVU(Lap)"
    _basis = "laplacian"
    _refine = False
