"""Security pieces of the page: strict headers, CSRF tokens, and a lockout after failed logins."""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CSP", "LoginThrottle", "SecurityHeaders", "check_csrf", "csrf_token"]

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
    """ASGI middleware adding the strict headers to every HTTP response."""

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


def csrf_token(session: dict[str, object]) -> str:
    """The session's CSRF token, made on first use."""
    token = session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return token


def check_csrf(session: dict[str, object], submitted: object) -> bool:
    """Whether ``submitted`` is the session's CSRF token (constant-time)."""
    expected = session.get("csrf")
    if not isinstance(expected, str) or not isinstance(submitted, str) or not submitted:
        return False
    return hmac.compare_digest(expected.encode(), submitted.encode())


@dataclass
class LoginThrottle:
    """Lock a name (and a client address) out after repeated failed logins.

    After ``max_failures`` failures within ``window`` seconds, further attempts are refused
    for ``lockout`` seconds, whatever the password.
    """

    max_failures: int = 5
    window: float = 300.0
    lockout: float = 300.0
    clock: Callable[[], float] = time.monotonic
    _failures: dict[str, list[float]] = field(default_factory=dict)
    _locked_until: dict[str, float] = field(default_factory=dict)

    def locked(self, *keys: str) -> bool:
        """Whether any of these keys (name, address) is locked now."""
        now = self.clock()
        return any(self._locked_until.get(k, 0.0) > now for k in keys)

    def failed(self, *keys: str) -> None:
        """Record a failed login for these keys."""
        now = self.clock()
        for key in keys:
            recent = [t for t in self._failures.get(key, []) if now - t < self.window]
            recent.append(now)
            self._failures[key] = recent
            if len(recent) >= self.max_failures:
                self._locked_until[key] = now + self.lockout
                self._failures[key] = []

    def succeeded(self, *keys: str) -> None:
        """Forget the failures of these keys."""
        for key in keys:
            self._failures.pop(key, None)
