"""The server's side of :mod:`harness.jobserver`: import, listen, fork a child per
command, and the helpers that start and stop a server for a run."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

from harness.jobserver import (IDLE_SECONDS, IGNORED_ENV, PRELOAD, SOCKET_ENV, TEMP_ENV,
                               THREAD_ENV)
from harness.jobserver.wire import receive, send

__all__ = ["serve", "start_server", "stop_server", "socket_path_for", "main"]


def socket_path_for(owner_pid: int) -> str:
    """A socket path for a server started by process ``owner_pid``: in the temporary
    directory (a Unix socket's path is limited to about 100 bytes; a checkout's path
    may be longer)."""
    return str(Path(tempfile.gettempdir()) / f"harness-jobs-{os.getuid()}-{owner_pid}.sock")


def _refusal(request: dict, env: dict, cwd: str) -> str | None:
    """Why the server cannot run ``request`` as the caller's own process would, or
    None."""
    if request.get("executable") != sys.executable:
        return f"another interpreter ({request.get('executable')}, server: {sys.executable})"
    if request.get("cwd") != cwd:
        return f"another working directory ({request.get('cwd')}, server: {cwd})"
    theirs = request.get("env") or {}
    differ = sorted(name for name in set(theirs) | set(env)
                    if name not in IGNORED_ENV and theirs.get(name) != env.get(name)
                    and name not in TEMP_ENV
                    and (name not in THREAD_ENV or name in env))
    if differ:
        return f"environment variables differ from the server's: {', '.join(differ[:8])}"
    return None


def _apply_threads(env) -> None:
    """Limit BLAS and OpenMP to the thread counts of ``env`` (:data:`THREAD_ENV`), as
    the libraries would have sized their pools in a process started with it."""
    from threadpoolctl import threadpool_limits

    blas = next((env[name] for name in THREAD_ENV[:5] if env.get(name)), None)
    if blas is not None:
        threadpool_limits(limits=int(blas), user_api="blas")
    if env.get("OMP_NUM_THREADS"):
        threadpool_limits(limits=int(env["OMP_NUM_THREADS"]), user_api="openmp")
    if env.get("NUMEXPR_NUM_THREADS") and "numexpr" in sys.modules:
        sys.modules["numexpr"].set_num_threads(int(env["NUMEXPR_NUM_THREADS"]))


#: how often a served child asks whether the run's owner (Snakemake) is still alive
OWNER_POLL_SECONDS = 0.5


def _run_child(conn: socket.socket, request: dict, fds: list[int],
               watch_pid: int | None = None) -> None:
    """In the forked child: become the caller's command, run it, report its exit
    code, and end (never returns). It kills its process group (itself and the work it
    started; no record is left, records being written atomically) when the caller
    closes the connection, or when ``watch_pid`` (the run's Snakemake) is gone: a
    ``kill -9`` of Snakemake leaves the shells it started, and their ``harness job``
    callers, waiting, and the job would run on and write its record later (issue 53)."""
    code = 1
    try:
        os.setsid()  # one process group with the work it starts, killed together
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        sys.stdin = open(0, closefd=False)  # noqa: SIM115 (the caller's streams)
        sys.stdout = open(1, "w", closefd=False, buffering=1)  # noqa: SIM115
        sys.stderr = open(2, "w", closefd=False, buffering=1)  # noqa: SIM115
        os.environ.clear()
        os.environ.update({k: v for k, v in request["env"].items() if k != SOCKET_ENV})
        os.environ["HARNESS_SERVED_BY"] = str(os.getppid())  # the record says so
        sys.argv = ["harness", *request["argv"]]
        tempfile.tempdir = None
        _apply_threads(os.environ)
        done = threading.Event()

        def watch_caller():
            with contextlib.suppress(OSError):
                conn.recv(1)  # returns when the caller closes the connection
            if not done.is_set():
                os.killpg(0, signal.SIGKILL)

        def watch_owner():
            while not done.is_set():
                if not _alive(watch_pid):
                    os.killpg(0, signal.SIGKILL)
                time.sleep(OWNER_POLL_SECONDS)

        threading.Thread(target=watch_caller, daemon=True).start()
        if watch_pid is not None:
            threading.Thread(target=watch_owner, daemon=True).start()
        send(conn, {"served": True, "pid": os.getpid()})
        from harness import timelimit
        from harness.cli import main

        timelimit.fork_from_here()
        try:
            code = int(main(request["argv"]) or 0)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:  # noqa: BLE001 (reported to the caller as python would)
            traceback.print_exc()
            code = 1
        sys.stdout.flush()
        sys.stderr.flush()
        done.set()
        send(conn, {"exit": code})
    finally:
        os._exit(code)


def _reap() -> None:
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def _alive(pid: int | None) -> bool:
    if pid is None:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def serve(path: str, *, watch_pid: int | None = None, idle_seconds: float = IDLE_SECONDS,
          preload: tuple[str, ...] = PRELOAD) -> None:
    """Import ``preload``, listen on the Unix socket ``path`` and run each command
    sent to it in a forked child (see the module docstring), until ``watch_pid`` is
    gone, ``path`` is removed or replaced, or no command came for ``idle_seconds``.

    The socket appears (atomically, by a rename) only once the imports are done, so
    a caller finds either no server or a warm one.
    """
    env, cwd = dict(os.environ), os.getcwd()
    for name in preload:
        importlib.import_module(name)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    staging = f"{path}.{os.getpid()}.tmp"
    listener.bind(staging)
    listener.listen(64)
    os.replace(staging, path)
    inode = os.stat(path).st_ino
    listener.settimeout(1.0)
    last = time.monotonic()
    try:
        while _alive(watch_pid) and time.monotonic() - last < idle_seconds:
            try:
                if os.stat(path).st_ino != inode:
                    break
            except FileNotFoundError:
                break
            _reap()
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            last = time.monotonic()
            conn.settimeout(None)
            request, fds = receive(conn, max_fds=3)
            why = "a malformed request" if request is None or len(fds) != 3 else \
                _refusal(request, env, cwd)
            if why is not None:
                with contextlib.suppress(OSError):
                    send(conn, {"served": False, "why": why})
            elif os.fork() == 0:
                listener.close()
                _run_child(conn, request, fds, watch_pid)
            for fd in fds:
                os.close(fd)
            conn.close()
    finally:
        listener.close()
        with contextlib.suppress(FileNotFoundError, OSError):
            if os.stat(path).st_ino == inode:
                os.unlink(path)


def start_server(path: str, *, watch_pid: int | None = None, wait_seconds: float = 30.0,
                 python: str | None = None) -> subprocess.Popen:
    """Start ``python -m harness.jobserver`` on ``path`` in its own session and wait
    (up to ``wait_seconds``) until it listens; return the process. Callers that do
    not find it listening run their commands themselves, so a slow start costs
    nothing but the start-up it would have saved."""
    command = [python or sys.executable, "-m", "harness.jobserver", "--socket", path]
    if watch_pid is not None:
        command += ["--watch-pid", str(watch_pid)]
    process = subprocess.Popen(command, start_new_session=True, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + wait_seconds
    while time.monotonic() < deadline and process.poll() is None:
        if os.path.exists(path):
            break
        time.sleep(0.05)
    return process


def stop_server(path: str, process: subprocess.Popen | None = None,
                timeout: float = 5.0) -> None:
    """Stop the server on ``path``: remove its socket (it stops within a second;
    commands it is running finish) and wait for ``process`` if given."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    if process is not None:
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def main(argv: list[str] | None = None) -> int:
    """``python -m harness.jobserver --socket PATH [--watch-pid PID]``."""
    parser = argparse.ArgumentParser(prog="python -m harness.jobserver",
                                     description="A warm process that runs harness commands by forking.")
    parser.add_argument("--socket", required=True, help="the Unix socket to listen on")
    parser.add_argument("--watch-pid", type=int, help="stop when this process is gone")
    parser.add_argument("--idle-seconds", type=float, default=IDLE_SECONDS,
                        help=f"stop after this long without a command ({IDLE_SECONDS:g})")
    args = parser.parse_args(argv)
    serve(args.socket, watch_pid=args.watch_pid, idle_seconds=args.idle_seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
