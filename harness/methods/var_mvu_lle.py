"""Variational MVU, on the LLE basis (thesis 3.1.8): the "var.MVU(LLE)" row of
Table 3.2."""

from __future__ import annotations

from harness.methods.shared.variational_mvu import VariationalMVUBase, plugin_docstring


class VariationalMVULLE(VariationalMVUBase):
    __doc__ = plugin_docstring("lle", refine=False)

    name = "var_mvu_lle"
    thesis_label = "var.MVU(LLE)"
    _basis = "lle"
    _refine = False
