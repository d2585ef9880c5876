"""The reproduction harness of Weinberger (2007): the engine (config, jobs, runner,
records, sources, workflow), the thesis results (:mod:`harness.results`), the solvers
and problems, the metrics and tasks, and the report."""
