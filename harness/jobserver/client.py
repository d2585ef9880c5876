"""The caller's side of the job server: ``harness job`` (``write``, ``report``) sends
itself to the server named by :data:`harness.jobserver.SOCKET_ENV` and exits with the
served command's exit code."""

from __future__ import annotations

import os
import socket
import sys

from harness.jobserver import SERVED_COMMANDS, SOCKET_ENV
from harness.jobserver.wire import receive, send

__all__ = ["run_served"]


def run_served(argv: list[str]) -> int | None:
    """Run ``harness ARGV`` in the job server named by :data:`SOCKET_ENV` and return
    its exit code; ``None`` when it is not served (no server, the subcommand is not
    one of :data:`SERVED_COMMANDS`, or the server refused it, e.g. for a different
    environment): the caller then runs the command itself."""
    path = os.environ.get(SOCKET_ENV)
    if not path or not argv or argv[0] not in SERVED_COMMANDS:
        return None
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(path)
    except OSError:  # no server (gone, never started, or on another host)
        conn.close()
        return None
    with conn:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        send(conn, {"argv": list(argv), "cwd": os.getcwd(),
                    "executable": sys.executable, "env": dict(os.environ)}, [0, 1, 2])
        reply, _ = receive(conn)
        if reply is None:
            print("harness: the job server's process for this command died before it "
                  "answered", file=sys.stderr)
            return 1
        if not reply.get("served"):
            print(f"harness: not run by the job server ({reply.get('why')}); running "
                  f"here", file=sys.stderr)
            return None
        done, _ = receive(conn)
    if done is None:
        print("harness: the job server's process for this command died (killed?)",
              file=sys.stderr)
        return 1
    return int(done["exit"])


