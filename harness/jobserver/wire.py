"""The job server's wire: a length-prefixed JSON message, with the caller's standard
streams passed beside the first (``SCM_RIGHTS``)."""

from __future__ import annotations

import json
import socket
import struct

__all__ = ["send", "receive"]

_HEADER = struct.Struct("!Q")


def send(conn: socket.socket, message: dict, fds: list[int] | None = None) -> None:
    data = json.dumps(message).encode()
    payload = _HEADER.pack(len(data)) + data
    if fds:
        socket.send_fds(conn, [payload], fds)
    else:
        conn.sendall(payload)


def receive(conn: socket.socket, max_fds: int = 0) -> tuple[dict | None, list[int]]:
    """One message and the descriptors sent with it; ``(None, [])`` when the peer
    closed the connection first."""
    if max_fds:
        data, fds, _flags, _addr = socket.recv_fds(conn, 1 << 16, max_fds)
    else:
        data, fds = conn.recv(1 << 16), []
    if not data:
        return None, fds
    while len(data) < _HEADER.size:
        more = conn.recv(1 << 16)
        if not more:
            return None, fds
        data += more
    (size,) = _HEADER.unpack_from(data)
    while len(data) < _HEADER.size + size:
        more = conn.recv(1 << 16)
        if not more:
            return None, fds
        data += more
    return json.loads(data[_HEADER.size:_HEADER.size + size]), fds


