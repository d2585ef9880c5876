"""A warm process that runs ``harness`` commands by forking: a job's start-up paid once.

Every job of a run is a fresh ``python -m harness job ID`` (Snakemake runs a shell
command per job, so that any executor can ship it to a cluster). Measured on the
quick profile's cheapest job (``harness job fig_2_20/trial0``, 0.1 s of work, 2-core
machine, ``scripts/job_overhead.py``): about 3 CPU-s and 2.5 s wall per job, nearly
all of it importing NumPy, SciPy, scikit-learn and pandas twice (the command and the
forkserver of :mod:`harness.timelimit`) and validating the profile -- over 300 jobs,
a quarter of ``make reproduce``.

The job server imports those libraries once and forks a child per command. A
``harness job`` (``write``, ``report``) that finds :data:`SOCKET_ENV` set sends its
arguments, working directory, environment and standard streams over a Unix socket;
the server forks; the child runs the command exactly as ``python -m harness`` would
(:func:`harness.cli.main`, writing to the caller's streams) and hands back its exit
code, which the caller exits with. The job's own limits and measurements are
unchanged: its work still runs in a grandchild under the CPU budget of
:mod:`harness.timelimit` (forked from the served child, :func:`fork_from_here`, not
from a second interpreter), and the record's CPU, wall and peak memory are the
grandchild's.

What keeps it safe to share one process:

- the server imports only third-party libraries (:data:`PRELOAD`), never the
  project's code: every served command imports the project's modules afresh, so an
  edit between two jobs is seen, as with separate processes;
- the server runs nothing but imports (no solver, no thread pool of its own), the
  condition under which a forked child is safe (:mod:`harness.timelimit`);
- a command is served only when its interpreter, working directory and environment
  are the server's (apart from :data:`IGNORED_ENV`): an environment variable that a
  preloaded library read at import (``OPENBLAS_NUM_THREADS``, ...) would otherwise
  hold the server's value. Anything else runs in its own process, as without a server;
- a caller that goes away (Snakemake cancelling a job) takes its served command with
  it: the served child watches the connection and kills its process group; so does
  the end of the process the server watches (Snakemake killed with ``kill -9``, whose
  shells and callers would wait on), so that no job runs on after its run.

The Snakefile starts a server for a local run (``onstart``) and stops it at the end;
it also stops by itself when the process it watches (Snakemake) is gone, when its
socket file is removed, or after :data:`IDLE_SECONDS` without a command. Without a
server (a cluster executor, a job run by hand) every command runs as before.
"""

from __future__ import annotations

__all__ = ["SOCKET_ENV", "PRELOAD", "SERVED_COMMANDS", "IGNORED_ENV", "THREAD_ENV",
           "TEMP_ENV", "IDLE_SECONDS"]

# the caller's side: harness.jobserver.client (run_served); the server's:
# harness.jobserver.server (serve, start_server, stop_server); the wire between them:
# harness.jobserver.wire

#: the environment variable that names the server's socket (set by the Snakefile for
#: the jobs it starts)
SOCKET_ENV = "HARNESS_JOBSERVER"
#: what the server imports before it listens: third-party libraries only (the
#: forkserver's list of :mod:`harness.timelimit` and what the profile's validation
#: and most jobs import), never the project's own modules
PRELOAD = ("numpy", "scipy.linalg", "scipy.sparse", "scipy.stats", "sklearn.neighbors",
           "pandas", "jsonschema", "yaml", "psutil", "threadpoolctl")
#: the ``harness`` subcommands that a server runs
SERVED_COMMANDS = frozenset({"job", "write", "report"})
#: environment variables that may differ between a caller and the server: set by the
#: shell per process, or read by the project's own code when it runs (not at import)
IGNORED_ENV = frozenset({"PWD", "OLDPWD", "SHLVL", "_", "COLUMNS", "LINES", SOCKET_ENV})
#: thread counts that Snakemake sets per job and that BLAS and OpenMP read once, when
#: they load (in the server): a served command applies its own through threadpoolctl
#: instead (:func:`_apply_threads`), unless the server's environment sets one, which
#: would cap its pools below what a fresh process could use (then it is refused)
THREAD_ENV = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
              "GOTO_NUM_THREADS", "OMP_NUM_THREADS", "NUMEXPR_NUM_THREADS",
              "VECLIB_MAXIMUM_THREADS")
#: the temporary directory (Snakemake sets one per job): Python's choice of it is
#: reset in a served command (:func:`tempfile.gettempdir` caches its first answer)
TEMP_ENV = ("TMPDIR", "TEMP", "TMP", "TEMPDIR")
#: a server with no command for this long stops
IDLE_SECONDS = 900.0
