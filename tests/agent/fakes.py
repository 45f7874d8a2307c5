"""Test doubles shared by the agent and integration tests: a clock that sleeps instantly, and
real failures from real calls (a refused connection, a full disk, an HTTP 429)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeClock:
    """Wall time that only moves when something sleeps; records every sleep."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def time(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds

    async def async_sleep(self, seconds: float) -> None:
        self.sleep(seconds)


def closed_port() -> int:
    """A 127.0.0.1 port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def refused_connection() -> ConnectionRefusedError:
    """A real ConnectionRefusedError from connecting to a closed loopback port."""
    try:
        socket.create_connection(("127.0.0.1", closed_port()), timeout=2).close()
    except ConnectionRefusedError as exc:
        return exc
    raise AssertionError("a closed port accepted a connection")


def connect_closed_port() -> None:
    """Connect to a closed loopback port: raises a real ConnectionRefusedError."""
    socket.create_connection(("127.0.0.1", closed_port()), timeout=2).close()


def disk_full() -> OSError:
    """A real ENOSPC from writing to /dev/full."""
    try:
        with open("/dev/full", "w") as f:
            f.write("x")
    except OSError as exc:
        return exc
    raise AssertionError("/dev/full accepted a write")


class _Handler(BaseHTTPRequestHandler):
    status = 429
    retry_after = "3"

    def do_GET(self) -> None:
        self.send_response(self.status)
        if self.retry_after:
            self.send_header("Retry-After", self.retry_after)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def http_server(status: int, retry_after: str | None = None) -> Iterator[str]:
    """A loopback HTTP server that answers every GET with ``status`` (and Retry-After)."""
    handler = type("H", (_Handler,), {"status": status, "retry_after": retry_after})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
