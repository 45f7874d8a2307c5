"""Security pieces of the page: strict headers, the Host check, CSRF tokens, login throttling."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "CSP",
    "LOOPBACK_HOSTS",
    "HostCheck",
    "LoginThrottle",
    "SecurityHeaders",
    "login_token",
    "same_token",
]

CSP = (
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'"
)
"""No inline script, no script at all: the page is server-rendered forms."""

_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"interest-cohort=()"),
]


class SecurityHeaders:
    """ASGI middleware adding the strict headers to every HTTP response.

    It wraps the whole application, outside Starlette's own error handling, so a 500 and a
    refused Host carry the headers too.
    """

    def __init__(self, app: ASGIApp, *, hsts: bool = False) -> None:
        self.app = app
        self.headers = list(_HEADERS)
        if hsts:
            self.headers.append((b"strict-transport-security", b"max-age=31536000"))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in self.headers if k not in names]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)


LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
"""The Host names accepted without ``--allowed-host``."""


def host_name(header: str) -> str:
    """The host of a ``Host`` header, without its port, lower case (``[::1]:80`` -> ``::1``)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else ""
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) stays on this machine."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class HostCheck:
    """ASGI middleware answering 400 to a request whose ``Host`` the server was not started for.

    A DNS-rebinding page (``evil.example`` resolving to 127.0.0.1) reaches the server with its own
    name in ``Host``: only the loopback names and the names given with ``--allowed-host`` pass.
    """

    def __init__(self, app: ASGIApp, *, allowed: Iterable[str]) -> None:
        self.app = app
        self.allowed = {host_name(h) for h in (*LOOPBACK_HOSTS, *allowed) if h}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            raw = dict(scope.get("headers") or []).get(b"host", b"")
            host = host_name(raw.decode("latin-1"))
            if host not in self.allowed:
                body = b"Bad Request: this server does not answer to that host name\n"
                await send({
                    "type": "http.response.start",
                    "status": 400,
                    "headers": [
                        (b"content-type", b"text/plain; charset=utf-8"),
                        (b"content-length", str(len(body)).encode()),
                    ],
                })
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def login_token(secret: bytes, nonce: str) -> str:
    """The login form's CSRF token for the nonce in the ``hintline_login`` cookie.

    The token is an HMAC of the nonce: a page on another port of the same host can set that
    cookie (cookies do not isolate ports) but cannot compute the token that goes with it.
    """
    return hmac.new(secret, nonce.encode(), hashlib.sha256).hexdigest()


def same_token(expected: object, submitted: object) -> bool:
    """Whether two tokens are the same non-empty string (constant-time)."""
    if not isinstance(expected, str) or not isinstance(submitted, str) or not submitted:
        return False
    return hmac.compare_digest(expected.encode(), submitted.encode())


def new_token() -> str:
    """A random token (session ids, CSRF tokens, login nonces)."""
    return secrets.token_urlsafe(32)


@dataclass
class LoginThrottle:
    """Limits failed logins three ways.

    * **name and address** together: after ``max_failures`` failures within ``window`` seconds,
      that pair is refused for ``lockout`` seconds, whatever the password;
    * **address**: after ``max_address_failures`` failures with any names, the address is refused
      for ``lockout`` seconds (spraying many names from one place);
    * **name** from anywhere: after ``max_failures`` failures, each further attempt waits a backoff
      that doubles per failure up to ``max_backoff`` seconds. It is never a long hard lock, so
      failing on purpose from many addresses keeps an administrator out for seconds, not minutes.
    """

    max_failures: int = 5
    max_address_failures: int = 10
    window: float = 300.0
    lockout: float = 300.0
    max_backoff: float = 30.0
    clock: Callable[[], float] = time.monotonic
    _failures: dict[str, list[float]] = field(default_factory=dict)
    _locked_until: dict[str, float] = field(default_factory=dict)

    def _recent(self, key: str, now: float) -> list[float]:
        recent = [t for t in self._failures.get(key, []) if now - t < self.window]
        if recent:
            self._failures[key] = recent
        else:
            self._failures.pop(key, None)
        return recent

    def wait(self, name: str, address: str, *, known_device: bool = False) -> float:
        """Seconds to wait before this name may try from this address (0: go ahead).

        ``known_device``: the browser proved an earlier successful login as this name (a device
        cookie): the name's backoff, which strangers can cause, does not apply to it.
        """
        now = self.clock()
        waits = [
            self._locked_until.get(k, 0.0) - now for k in (f"pair:{name}\0{address}", f"addr:{address}")
        ]
        recent = self._recent(f"name:{name}", now)
        if len(recent) >= self.max_failures and not known_device:
            backoff = min(self.max_backoff, 2.0 ** (len(recent) - self.max_failures))
            waits.append(recent[-1] + backoff - now)
        return max(0.0, *waits)

    def failed(self, name: str, address: str) -> None:
        """Record a failed login."""
        now = self.clock()
        limits = (
            (f"pair:{name}\0{address}", self.max_failures),
            (f"addr:{address}", self.max_address_failures),
            (f"name:{name}", 0),
        )
        for key, limit in limits:
            recent = self._recent(key, now)
            recent.append(now)
            self._failures[key] = recent
            if limit and len(recent) >= limit:
                self._locked_until[key] = now + self.lockout
                self._failures[key] = []
        if len(self._failures) > 10_000:  # bounded memory under a flood of names
            for key in [k for k, v in self._failures.items() if now - v[-1] >= self.window]:
                del self._failures[key]
            for key in [k for k, t in self._locked_until.items() if t <= now]:
                del self._locked_until[key]

    def succeeded(self, name: str, address: str) -> None:
        """Forget the name's failures (the address keeps its count: a right guess is no alibi)."""
        self._failures.pop(f"pair:{name}\0{address}", None)
        self._failures.pop(f"name:{name}", None)

    @staticmethod
    def describe(seconds: float) -> str:
        """``"in 5 minutes"``, ``"in 3 seconds"``."""
        if seconds >= 90:
            return f"in {math.ceil(seconds / 60)} minutes"
        whole = max(1, math.ceil(seconds))
        return f"in {whole} second{'s' if whole != 1 else ''}"
