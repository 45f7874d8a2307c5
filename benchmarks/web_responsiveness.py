"""How long ``/healthz`` takes on ``hintline serve`` while a hint is made and while logins hash.

Not a ``bench_*`` case (it needs a served page and a model): run it alone,
``.venv/bin/python -m benchmarks.web_responsiveness [MODEL_SECONDS]``. It serves the page with a
`hintline serve` process on loopback, a model server on loopback that answers after MODEL_SECONDS (default 6),
asks one hint, and times /healthz every 100 ms until the hint is there; then runs eight logins at
once (argon2) and times /healthz during them.
"""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx

from hintline.web._users import UserStore


def _slow_model(seconds: float) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            time.sleep(seconds)
            answer = {"cause": "c", "next_step": "n", "frame": 0}
            body = json.dumps({
                "model": "slow", "choices": [{"finish_reason": "stop",
                "message": {"role": "assistant", "content": json.dumps(answer)}}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1},
            }).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@contextlib.contextmanager
def _serve(log: Path, users: Path, config: Path) -> Iterator[str]:
    """``hintline serve`` in its own process, as an administrator runs it."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "hintline", "serve", str(log), "--users", str(users),
         "--config", str(config), "--port", str(port)],
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                httpx.get(base + "/healthz", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def _times(base: str, until: threading.Event) -> list[float]:
    out = []
    while not until.is_set():
        start = time.perf_counter()
        httpx.get(base + "/healthz", timeout=60)
        out.append((time.perf_counter() - start) * 1000)
        time.sleep(0.1)
    return out


def _summary(label: str, ms: list[float]) -> None:
    print(f"{label}: {len(ms)} requests, p50 {statistics.median(ms):.1f} ms, max {max(ms):.1f} ms")


def main(argv: list[str]) -> int:
    seconds = float(argv[0]) if argv else 6.0
    tmp = Path(tempfile.mkdtemp())
    log = tmp / "app.log"
    logger = logging.getLogger("bench")
    handler = logging.FileHandler(log)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    try:
        {}["missing"]
    except KeyError:
        logger.exception("lookup failed")
    handler.close()
    users = tmp / "users.toml"
    UserStore(users).add("root", "admin-password-1", "admin")
    model = _slow_model(seconds)
    config = tmp / "hintline.toml"
    config.write_text(
        f'[explain.configurations.local]\nbase_url = "http://127.0.0.1:{model.server_address[1]}/v1"\n'
        f'timeout = {seconds + 30}\n[usage]\npath = "{tmp / "usage.sqlite3"}"\n'
    )
    with _serve(log, users, config) as base, httpx.Client(base_url=base, timeout=60) as c:
        import re

        token = re.search(r'name="csrf" value="([^"]+)"', c.get("/login").text).group(1)  # type: ignore[union-attr]
        c.post("/login", data={"username": "root", "password": "admin-password-1", "csrf": token})
        page = c.get("/").text
        csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
        key = re.search(r'name="key" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
        done = threading.Event()
        result: list[list[float]] = []
        timer = threading.Thread(target=lambda: result.append(_times(base, done)))
        timer.start()
        time.sleep(2)
        done.set()
        timer.join()
        _summary("/healthz with nothing else running", result[0])
        done.clear()
        result.clear()
        timer = threading.Thread(target=lambda: result.append(_times(base, done)))
        timer.start()
        where = c.post("/hint", data={"csrf": csrf, "key": key}).headers["location"]
        while 'http-equiv="refresh"' in c.get(where).text:
            time.sleep(0.2)
        done.set()
        timer.join()
        _summary(f"/healthz while a {seconds:g} s model call runs", result[0])

        clients = [httpx.Client(base_url=base, timeout=60) for _ in range(8)]
        tokens = [re.search(r'name="csrf" value="([^"]+)"', x.get("/login").text).group(1) for x in clients]  # type: ignore[union-attr]
        done = threading.Event()
        result.clear()
        timer = threading.Thread(target=lambda: result.append(_times(base, done)))
        timer.start()
        threads = [
            threading.Thread(target=x.post, args=("/login",), kwargs={"data": {
                "username": "root", "password": "admin-password-1", "csrf": t}})
            for x, t in zip(clients, tokens, strict=True)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        done.set()
        timer.join()
        _summary("/healthz during 8 concurrent logins", result[0])
    model.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
