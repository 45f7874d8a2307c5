"""The Starlette application: login, the error list, per-entry hints by POST, usage.

Every route but ``/login``, ``/healthz`` and ``/static`` needs a logged-in administrator; a viewer
gets 403. Sessions are kept on the server (:mod:`._sessions`); model calls and password hashing
run on worker threads, never on the event loop (:mod:`._jobs`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import re
import secrets
import sys
import threading
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hintline.exceptions import ConfigError, MissingExtraError

try:
    import jinja2
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import PlainTextResponse, RedirectResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles
    from starlette.templating import Jinja2Templates
    from starlette.types import ASGIApp
except ImportError as exc:  # pragma: no cover
    raise MissingExtraError("web", exc.name or "starlette") from exc

from hintline.web import _service
from hintline.web._jobs import Busy, Jobs
from hintline.web._security import (
    HostCheck,
    LoginThrottle,
    SecurityHeaders,
    login_token,
    new_token,
    same_token,
)
from hintline.web._sessions import Session, SessionStore
from hintline.web._users import User, UserStore, verify_password

__all__ = ["DEVICE_COOKIE", "LOGIN_COOKIE", "SESSION_COOKIE", "Settings", "create_app", "server_options"]

_HERE = Path(__file__).parent
SESSION_COOKIE = "hintline_session"
LOGIN_COOKIE = "hintline_login"
DEVICE_COOKIE = "hintline_device"
_DEVICE_DAYS = 30
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{32,64}$")
_REFRESH_SECONDS = 2


@dataclass(frozen=True)
class Settings:
    """What the page serves and how.

    Attributes:
        log_paths: the log files to list errors from.
        users_path: the users file (see :mod:`hintline.web._users`).
        configuration: the model configuration name (``None``: the default one).
        config_path: an explicit configuration file, else the usual search order.
        project_root: the project's root, for anchored/guess.
        secret_key: keys the login form's CSRF tokens and the device cookies; random per start
            when not given (a restart makes every device a new one).
        https: served over TLS: cookies get ``Secure`` and HSTS is sent.
        secure_cookies: cookies get ``Secure`` and HSTS is sent although this server speaks
            plain HTTP (behind a TLS-terminating proxy).
        trusted_user_header: a header set by an authenticating reverse proxy
            (``X-Remote-User``); ``None`` (the default) ignores such headers.
        allowed_hosts: ``Host`` names accepted besides the loopback names.
        trusted_proxies: addresses of reverse proxies whose ``X-Forwarded-For`` is believed;
            empty (the default): the connecting address is the client's.
        page_size: entries per page.
        hint_workers: model calls that run at once.
        max_pending_hints: model calls that may run or wait before the page says "busy".
    """

    log_paths: tuple[str, ...]
    users_path: Path
    configuration: str | None = None
    config_path: str | None = None
    project_root: str | None = None
    secret_key: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    https: bool = False
    secure_cookies: bool = False
    trusted_user_header: str | None = None
    allowed_hosts: tuple[str, ...] = ()
    trusted_proxies: tuple[str, ...] = ()
    page_size: int = 10
    hint_workers: int = 2
    max_pending_hints: int = 8


def server_options(settings: Settings) -> dict[str, Any]:
    """The uvicorn options the page needs (``hintline serve`` and the tests use the same).

    Forwarded headers are believed only from the proxies the administrator names: uvicorn's own
    default trusts ``X-Forwarded-For`` from 127.0.0.1, which let any local client pick its address.
    """
    return {
        "proxy_headers": bool(settings.trusted_proxies),
        "forwarded_allow_ips": list(settings.trusted_proxies) or None,
        "server_header": False,
    }


def _lower_priority() -> None:
    """Run this worker thread (and the threads argon2 starts from it) at a lower CPU priority.

    Anonymous logins are the cheapest way to load the server: their hashing yields to the event
    loop, so pages and /healthz keep answering while a burst of logins is hashed. Linux sets the
    nice value per thread; elsewhere this does nothing.
    """
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)


@dataclass
class _Visit:
    """Who is asking: the live session and its user, if any."""

    session: Session | None = None
    user: User | None = None
    fresh: bool = False  # a session made on this request: its cookie must be set


def create_app(
    settings: Settings,
    *,
    throttle: LoginThrottle | None = None,
    sessions: SessionStore | None = None,
) -> ASGIApp:
    """Build the ASGI app for ``settings``.

    Raises:
        ConfigError: the users file cannot be read or holds an entry the page cannot use.
    """
    users = UserStore(settings.users_path)
    users.check()
    throttle = throttle or LoginThrottle()
    sessions = sessions if sessions is not None else SessionStore()
    jobs: Jobs[_service.HintResult] = Jobs(
        workers=settings.hint_workers, max_pending=settings.max_pending_hints
    )
    hashing = ThreadPoolExecutor(
        max_workers=2, thread_name_prefix="hintline-login", initializer=_lower_priority
    )
    secret = settings.secret_key.encode()
    secure = settings.https or settings.secure_cookies
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(_HERE / "templates")), autoescape=True
    )
    templates = Jinja2Templates(env=env)

    def visit(request: Request) -> _Visit:
        sid = request.cookies.get(SESSION_COOKIE)
        session = sessions.get(sid)
        if settings.trusted_user_header:
            name = request.headers.get(settings.trusted_user_header)
            if name:
                user = users.get(name)
                if user is None:
                    return _Visit()
                if session is not None and session.user == user.name and session.stamp == user.stamp:
                    return _Visit(session, user)
                sessions.end(sid)
                return _Visit(sessions.create(user.name, user.stamp), user, fresh=True)
        if session is None:
            return _Visit()
        user = users.get(session.user)
        if user is None or user.stamp != session.stamp:
            sessions.end(session.sid)  # removed, new password or new role: log in again
            return _Visit()
        return _Visit(session, user)

    def set_session_cookie(response: Response, session: Session) -> None:
        response.set_cookie(
            SESSION_COOKIE, session.sid, max_age=int(sessions.max_age), path="/",
            secure=secure, httponly=True, samesite="strict",
        )

    def render(
        request: Request, name: str, v: _Visit, status: int = 200, **ctx: Any
    ) -> Response:
        ctx["user"] = v.user
        ctx.setdefault("csrf", v.session.csrf if v.session else "")
        response: Response = templates.TemplateResponse(request, name, ctx, status_code=status)
        if v.fresh and v.session is not None:
            set_session_cookie(response, v.session)
        return response

    def guard(request: Request) -> tuple[_Visit, Response | None]:
        v = visit(request)
        if v.user is None or v.session is None:
            return v, RedirectResponse("/login", status_code=303)
        if not v.user.is_admin:
            return v, render(request, "forbidden.html", v, status=403)
        return v, None

    def forbidden_csrf() -> Response:
        return PlainTextResponse("Forbidden: missing or wrong CSRF token", status_code=403)

    async def login_form(request: Request) -> Response:
        v = visit(request)
        if v.user is not None:  # a link to /login never ends a live session
            return RedirectResponse("/", status_code=303)
        nonce = request.cookies.get(LOGIN_COOKIE, "")
        if not _TOKEN.match(nonce):
            nonce = new_token()
        response = render(request, "login.html", v, error=None, csrf=login_token(secret, nonce))
        response.set_cookie(
            LOGIN_COOKIE, nonce, max_age=3600, path="/login",
            secure=secure, httponly=True, samesite="strict",
        )
        return response

    async def login(request: Request) -> Response:
        form = await request.form()
        nonce = request.cookies.get(LOGIN_COOKIE, "")
        if not _TOKEN.match(nonce) or not same_token(login_token(secret, nonce), form.get("csrf")):
            return forbidden_csrf()  # and nothing changes: the current session stays
        v = visit(request)
        token = login_token(secret, nonce)
        name = str(form.get("username", ""))[:128]
        password = str(form.get("password", ""))[:1024]
        client = request.client.host if request.client else "?"
        device = login_token(secret, f"device\0{name}")
        known = same_token(device, request.cookies.get(DEVICE_COOKIE))
        wait = throttle.wait(name, client, known_device=known)
        if wait > 0:
            return render(
                request, "login.html", v, status=429, csrf=token,
                error=f"Too many failed logins: try again {throttle.describe(wait)}.",
            )
        stored = users.password_hash(name)
        ok = await asyncio.wrap_future(hashing.submit(verify_password, stored, password))
        user = users.get(name) if ok else None
        if user is None:
            throttle.failed(name, client)
            return render(
                request, "login.html", v, status=401, csrf=token, error="Wrong name or password."
            )
        throttle.succeeded(name, client)
        if v.session is not None:
            sessions.end(v.session.sid)  # a new session id on login: no fixation
        session = sessions.create(user.name, user.stamp)
        response = RedirectResponse("/", status_code=303)
        set_session_cookie(response, session)
        response.delete_cookie(
            LOGIN_COOKIE, path="/login", secure=secure, httponly=True, samesite="strict"
        )
        # proves this browser logged in as this name before: a stranger's failures as this name
        # (the name's backoff) do not keep it out
        response.set_cookie(
            DEVICE_COOKIE, device, max_age=_DEVICE_DAYS * 86400, path="/login",
            secure=secure, httponly=True, samesite="strict",
        )
        return response

    async def logout(request: Request) -> Response:
        form = await request.form()
        v = visit(request)
        if v.session is None or not same_token(v.session.csrf, form.get("csrf")):
            return forbidden_csrf()
        sessions.end(v.session.sid)
        response = RedirectResponse("/login", status_code=303)
        response.delete_cookie(
            SESSION_COOKIE, path="/", secure=secure, httponly=True, samesite="strict"
        )
        return response

    async def index(request: Request) -> Response:
        v, refused = guard(request)
        if refused is not None:
            return refused
        search = request.query_params.get("q", "").strip()[:200] or None
        try:
            page = max(0, int(request.query_params.get("page", "0")))
        except ValueError:
            page = 0
        listing = await run_in_threadpool(
            functools.partial(
                _service.list_entries, settings.log_paths, search=search, page=page,
                page_size=settings.page_size,
            )
        )
        return render(request, "index.html", v, listing=listing, q=search or "", page=page)

    async def hint(request: Request) -> Response:
        v, refused = guard(request)  # the hint action checks the administrator again
        if refused is not None:
            return refused
        assert v.session is not None
        form = await request.form()
        if not same_token(v.session.csrf, form.get("csrf")):
            return forbidden_csrf()
        key = str(form.get("key", ""))[:128]
        entry = await run_in_threadpool(_service.find_entry, settings.log_paths, key) if key else None
        if entry is None:
            result = _service.HintResult(
                entry=None, label="error", note="No entry has this key any more."
            )
            return render(request, "hint.html", v, status=404, result=result, pending=False)
        call = functools.partial(
            _service.explain_entry,
            entry,
            configuration=settings.configuration,
            config_path=settings.config_path,
            project_root=settings.project_root,
        )
        try:
            job = jobs.submit(key, v.session.sid, call, entry=_service.pending_view(entry))
        except Busy:
            result = _service.HintResult(
                entry=_service.pending_view(entry), label="error",
                note="Too many hints are being made right now: try again in a minute.",
            )
            return render(request, "hint.html", v, status=503, result=result, pending=False)
        return RedirectResponse(f"/hint/{job.id}", status_code=303)

    async def hint_page(request: Request) -> Response:
        v, refused = guard(request)
        if refused is not None:
            return refused
        assert v.session is not None
        job = jobs.get(str(request.path_params["job"]), v.session.sid)
        if job is None:
            result = _service.HintResult(
                entry=None, label="error",
                note="No such hint: it expired or belongs to another session. Ask again from the list.",
            )
            return render(request, "hint.html", v, status=404, result=result, pending=False)
        if not job.done:
            return render(
                request, "hint.html", v, result=None, entry=job.entry, pending=True,
                refresh=_REFRESH_SECONDS,
            )
        return render(request, "hint.html", v, result=job.future.result(), pending=False)

    async def usage(request: Request) -> Response:
        v, refused = guard(request)
        if refused is not None:
            return refused
        rows = await run_in_threadpool(
            functools.partial(_service.recent_usage, config_path=settings.config_path)
        )
        return render(request, "usage.html", v, rows=rows)

    async def health(request: Request) -> Response:
        return PlainTextResponse("ok")

    async def unusable_users_file(request: Request, exc: Exception) -> Response:
        print(f"hintline serve: {exc}", file=sys.stderr)
        return PlainTextResponse(
            "Service unavailable: the users file cannot be read (the server's log says why).",
            status_code=503,
        )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            jobs.shutdown()
            hashing.shutdown(wait=False, cancel_futures=True)

    routes = [
        Route("/", index, methods=["GET"]),
        Route("/login", login_form, methods=["GET"]),
        Route("/login", login, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/hint", hint, methods=["POST"]),
        Route("/hint/{job}", hint_page, methods=["GET"]),
        Route("/usage", usage, methods=["GET"]),
        Route("/healthz", health, methods=["GET"]),
        Mount("/static", StaticFiles(directory=str(_HERE / "static")), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={ConfigError: unusable_users_file},
        lifespan=lifespan,
    )
    # Outside Starlette's error handling, so a 500 and a refused Host carry the headers too.
    return SecurityHeaders(HostCheck(app, allowed=settings.allowed_hosts), hsts=secure)
