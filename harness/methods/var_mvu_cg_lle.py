"""Variational MVU, with CG refinement, on the LLE basis (thesis 3.1.8): the "var.MVU(CG)(LLE)" row of
Table 3.2."""

from __future__ import annotations

from harness.methods.shared.variational_mvu import VariationalMVUBase, plugin_docstring


class VariationalMVUCGLLE(VariationalMVUBase):
    __doc__ = plugin_docstring("lle", refine=True)

    name = "var_mvu_cg_lle"
    thesis_label = "var.MVU(CG)(LLE)"
    _basis = "lle"
    _refine = True
