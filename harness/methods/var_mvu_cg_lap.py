"""Variational MVU, with CG refinement, on the Laplacian-eigenmaps basis (thesis 3.1.8): the "var.MVU(CG)(Lap)" row of
Table 3.2."""

from __future__ import annotations

from harness.methods.shared.variational_mvu import VariationalMVUBase, plugin_docstring


class VariationalMVUCGLaplacian(VariationalMVUBase):
    __doc__ = plugin_docstring("laplacian", refine=True)

    name = "var_mvu_cg_lap"
    thesis_label = "var.MVU(CG)(Lap)"
    _basis = "laplacian"
    _refine = True
