"""Code shared by several thesis results (not a result itself; discovery skips it),
one folder per side, each module named for what it is:

``declare/`` (light: imported at discovery)
    :mod:`.declare.profile` (key parsing, section checks, data set choice, an MVU
    point's params), :mod:`.declare.grid_profile` (a data set x method grid's cells),
    :mod:`.declare.grid_finish` (a grid cell's ``finish`` hook),
    :mod:`.declare.table_spec` (what a grid table declares),
    :mod:`.declare.balltree_profile` and ``balltree_schema.yaml`` (Figs. 2.13, 2.16)
``work/`` (what a job runs; never imports writer code)
    :mod:`.work.grid` (one cell of Tables 2.1 and 3.2), :mod:`.work.mvu_point` (one MVU
    embedding: Figs. 3.2x, Table 3.3), :mod:`.work.sensor_point` (Figs. 3.20, 3.21),
    :mod:`.work.balltree_point` (Figs. 2.13, 2.16), :mod:`.work.keyed_work` (a job
    that dispatches on its kind)
``write/`` (outputs from the records; never imported by a job)
    :mod:`.write.tables` (thesis / ours / delta tables, footnotes),
    :mod:`.write.table_result`, :mod:`.write.table_claims`, :mod:`.write.table_section`,
    :mod:`.write.row_claims`, :mod:`.write.figure_files`, :mod:`.write.certified`,
    :mod:`.write.balltree_figure`

``tests/results/test_work_modules.py`` checks that no job's sources hold writer code.
"""
