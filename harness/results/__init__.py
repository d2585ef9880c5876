"""The thesis results, one folder each (Table 2.1, Table 3.2, the MVU solver table,
Fig. 3.24, ...), and :mod:`harness.results.common`, the code several of them share.

What a result declares and how it is found: :mod:`harness.result_registry`.
"""
