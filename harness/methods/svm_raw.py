"""The SVM of Table 2.1 on the inputs as they are: the other reading of its scaling
(thesis 2.1.6, rows "SVM")."""

from __future__ import annotations

from harness.methods.svm import SVM

__all__ = ["SVMRawInputs"]


class SVMRawInputs(SVM):
    """Multiclass SVM with the kernel chosen by cross validation, on unscaled inputs.

    The thesis gives no feature scaling for its SVMs (2.1.6), so Table 2.1's SVM row
    has two readings, both run and shown: :class:`harness.methods.svm.SVM` standardises each
    feature (its default, chosen first), this row feeds the inputs (the principal
    components, the pixels) as they are. Everything else is :class:`~harness.methods.svm.SVM`:
    the grid, the cross validation, the leave-one-out training error. Table 2.1 gives
    this row the thesis' SVM numbers too (``reference_aliases`` of its spec) and its
    claims about SVMs check both rows.

    Parameters
    ----------
    cv : int, default=5
    loo_max_samples : int, default=2000
    param_grid : sequence of dict or None, default=None
        As :class:`~harness.methods.svm.SVM`.
    standardize : bool, default=False
        False: the inputs as they are (the point of this row).
    """

    name = "svm_raw"
    thesis_label = "SVM (raw inputs)"
    table_note = ("as SVM, on the inputs as they are (no standardisation); the thesis "
                  "gives no scaling, so both readings are shown.")

    def __init__(self, *, cv=5, loo_max_samples=2000, param_grid=None, standardize=False):
        super().__init__(cv=cv, loo_max_samples=loo_max_samples, param_grid=param_grid,
                         standardize=standardize)
