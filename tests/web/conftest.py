"""Real logs written by the real ``logging`` module, real users with argon2 hashes."""

from __future__ import annotations

import contextlib
import logging
import re
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from hintline.web import Settings, create_app
from hintline.web._app import server_options
from hintline.web._security import LoginThrottle
from hintline.web._users import UserStore

SECRET = "S3cretPassw0rd-9f2c"
PASSWORDS = {"root": "admin-password-1", "olga": "viewer-password-1"}


def write_error(path: Path, name: str, message: str, exc: BaseException) -> None:
    """Log ``exc`` with a real traceback through the real logging module."""
    logger = logging.getLogger(f"hintline.tests.{name}")
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    logger.propagate = False
    try:
        raise exc
    except BaseException:
        logger.exception(message)
    finally:
        logger.removeHandler(handler)
        handler.close()


def _key_error() -> KeyError:
    try:
        {"id": 1}["customer_id"]
    except KeyError as exc:
        return exc
    raise AssertionError


@dataclass
class Site:
    """A served page over real logs."""

    log: Path
    users: Path
    settings: Settings

    def client(self, **overrides: object) -> TestClient:
        import dataclasses

        overrides.setdefault("allowed_hosts", ("testserver",))  # the test client's Host
        raise_errors = bool(overrides.pop("raise_server_exceptions", True))
        settings = dataclasses.replace(self.settings, **overrides)  # type: ignore[arg-type]
        return TestClient(
            create_app(settings, throttle=LoginThrottle()),
            follow_redirects=False,
            raise_server_exceptions=raise_errors,
        )


@pytest.fixture
def site(tmp_path: Path) -> Site:
    log = tmp_path / "app.log"
    write_error(log, "orders", "order lookup failed", _key_error())
    write_error(
        log,
        "db",
        f"connect to postgresql://app:{SECRET}@db:5432/shop failed",
        ConnectionRefusedError(111, "Connection refused"),
    )
    write_error(log, "render", "bad template <script>alert(1)</script>", ValueError("<b>x</b>"))
    users = tmp_path / "users.toml"
    store = UserStore(users)
    store.add("root", PASSWORDS["root"], "admin")
    store.add("olga", PASSWORDS["olga"], "viewer")
    return Site(log=log, users=users, settings=Settings(log_paths=(str(log),), users_path=users))


def csrf_of(html: str) -> str:
    """The CSRF token in a page's forms."""
    match = re.search(r'name="csrf" value="([^"]+)"', html)
    assert match, "no CSRF field in the page"
    return match.group(1)


def login(client: TestClient, name: str, password: str | None = None) -> str:
    """Log in; return the CSRF token of the new session."""
    token = csrf_of(client.get("/login").text)
    r = client.post(
        "/login",
        data={"username": name, "password": password or PASSWORDS[name], "csrf": token},
    )
    assert r.status_code == 303, r.text
    return csrf_of(client.get("/").text)


def ask(client: Any, token: str, key: str, *, timeout: float = 60.0) -> Any:
    """POST a hint request and follow the "being made" page until the answer is there."""
    r = client.post("/hint", data={"csrf": token, "key": key})
    if r.status_code != 303:
        return r
    where = r.headers["location"]
    deadline = time.monotonic() + timeout
    while True:
        page = client.get(where)
        if 'http-equiv="refresh"' not in page.text or time.monotonic() > deadline:
            return page
        time.sleep(0.05)


@pytest.fixture
def admin(site: Site) -> Iterator[tuple[TestClient, str]]:
    with site.client() as client:
        yield client, login(client, "root")


@contextlib.contextmanager
def served(settings: Settings, *, throttle: LoginThrottle | None = None) -> Iterator[str]:
    """Serve the app with a real uvicorn on a free loopback port; yield its base URL."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(
        create_app(settings, throttle=throttle), host="127.0.0.1", port=port, log_level="warning",
        **server_options(settings),
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
