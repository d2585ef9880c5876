"""Code shared by several thesis results (not a result itself; discovery skips it).

Each module is named for what it is:

==========================  =====================================================
:mod:`.grid`                data sets x methods, one job per cell (Tables 2.1,
                            3.2; the shared work module of table results)
:mod:`.table_spec`          what a grid table declares (:class:`TableSpec`)
:mod:`.table_result`        a grid table result from a spec
:mod:`.table_claims`        the claims of a grid table
:mod:`.table_section`       a table's report section
:mod:`.tables`              records -> thesis / ours / delta tables, footnotes
:mod:`.profile`           the declarations' side: key parsing, section checks,
                            data set choice, an MVU point's params (light)
:mod:`.figure_files`        a figure's CSV, PNG, Markdown and sidecar
:mod:`.mvu_point`           one MVU embedding per job (Figs. 3.2x, Table 3.3)
:mod:`.sensor_point`        one sensor-network embedding (Figs. 3.20, 3.21)
:mod:`.balltree_point`      one ball-tree timing point (Figs. 2.13, 2.16)
:mod:`.balltree_figure`     the profile side (keys, params, schema) and the
                            trend test of Figs. 2.13, 2.16
==========================  =====================================================

Modules named ``*_point`` hold job code and must not import writer code (tabulate,
matplotlib, the table and figure writers); see ``tests/results/test_work_modules.py``.
"""
