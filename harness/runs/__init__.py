"""Finished runs as data: export a reference run, compare two runs, plan a run.

A *run directory* is ``results/<profile>/`` after a run: ``records/RESULT/KEY.json``
(one record per job, :mod:`harness.jobs`), ``tables/`` and ``figures/`` (each result's
CSV, Markdown, JSON sidecar and PNG or LaTeX, :mod:`harness.outputs`) and
``report.md``/``report.html``. A *reference run* is what ``harness export-run`` keeps of
one: the results' CSV, Markdown and sidecars in the same ``tables/`` and ``figures/``
folders, ``report.md``, ``records.csv`` (one line per job record) and ``run.json``
(commit, profile, machine, dates, number of jobs, from the records' provenance); no
PNGs, no arrays, no HTML, so it is small enough to commit or archive.

==============  ==================================================================
``layout``      what a run directory or a reference run holds; reading it
``records``     the one-line summary of a job record (``records.csv``) and the
                run's provenance (``run.json``)
``export``      ``harness export-run``: write a reference run, atomically
``compare``     ``harness compare``: two runs' CSV cells and verdicts
``costmodel``   a power-law cost model of a result's jobs; list scheduling
``plan``        ``harness plan``: jobs, CPU, memory and wall of a profile before
                it runs, from an earlier run's records
==============  ==================================================================
"""
