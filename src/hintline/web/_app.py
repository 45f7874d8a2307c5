"""The Starlette application: login, the error list, per-entry hints by POST, usage.

Every route but ``/login`` and ``/static`` needs a logged-in administrator; a viewer gets 403.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hintline.exceptions import MissingExtraError

try:
    import jinja2
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.sessions import SessionMiddleware
    from starlette.requests import Request
    from starlette.responses import PlainTextResponse, RedirectResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles
    from starlette.templating import Jinja2Templates
except ImportError as exc:  # pragma: no cover
    raise MissingExtraError("web", exc.name or "starlette") from exc

from hintline.web import _service
from hintline.web._security import LoginThrottle, SecurityHeaders, check_csrf, csrf_token
from hintline.web._users import User, UserStore

__all__ = ["Settings", "create_app"]

_HERE = Path(__file__).parent


@dataclass(frozen=True)
class Settings:
    """What the page serves and how.

    Attributes:
        log_paths: the log files to list errors from.
        users_path: the users file (see :mod:`hintline.web._users`).
        configuration: the model configuration name (``None``: the default one).
        config_path: an explicit configuration file, else the usual search order.
        project_root: the project's root, for anchored/guess.
        secret_key: signs the session cookie; random per start when not given.
        https: served over TLS: the cookie gets ``Secure`` and HSTS is sent.
        trusted_user_header: a header set by an authenticating reverse proxy
            (``X-Remote-User``); ``None`` (the default) ignores such headers.
        page_size: entries per page.
    """

    log_paths: tuple[str, ...]
    users_path: Path
    configuration: str | None = None
    config_path: str | None = None
    project_root: str | None = None
    secret_key: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    https: bool = False
    trusted_user_header: str | None = None
    page_size: int = 10


def create_app(settings: Settings, *, throttle: LoginThrottle | None = None) -> Starlette:
    """Build the ASGI app for ``settings``."""
    users = UserStore(settings.users_path)
    throttle = throttle or LoginThrottle()
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(_HERE / "templates")), autoescape=True
    )
    templates = Jinja2Templates(env=env)

    def current_user(request: Request) -> User | None:
        if settings.trusted_user_header:
            name = request.headers.get(settings.trusted_user_header)
            if name:
                return users.get(name)
        name = request.session.get("user")
        return users.get(name) if isinstance(name, str) else None

    def render(request: Request, name: str, status: int = 200, **ctx: Any) -> Response:
        ctx.setdefault("user", current_user(request))
        ctx["csrf"] = csrf_token(request.session)
        response: Response = templates.TemplateResponse(request, name, ctx, status_code=status)
        return response

    def guard(request: Request) -> User | Response:
        user = current_user(request)
        if user is None:
            return RedirectResponse("/login", status_code=303)
        if not user.is_admin:
            return render(request, "forbidden.html", status=403, user=user)
        return user

    async def login_form(request: Request) -> Response:
        return render(request, "login.html", error=None)

    async def login(request: Request) -> Response:
        form = await request.form()
        if not check_csrf(request.session, form.get("csrf")):
            return PlainTextResponse("Forbidden: missing or wrong CSRF token", status_code=403)
        name = str(form.get("username", ""))[:128]
        password = str(form.get("password", ""))[:1024]
        client = request.client.host if request.client else "?"
        keys = (f"user:{name}", f"addr:{client}")
        if throttle.locked(*keys):
            return render(
                request, "login.html", status=429,
                error="Too many failed logins: try again in a few minutes.",
            )
        user = users.authenticate(name, password)
        if user is None:
            throttle.failed(*keys)
            return render(request, "login.html", status=401, error="Wrong name or password.")
        throttle.succeeded(*keys)
        request.session.clear()  # a new session on login: no fixation
        request.session["user"] = user.name
        return RedirectResponse("/", status_code=303)

    async def logout(request: Request) -> Response:
        form = await request.form()
        if not check_csrf(request.session, form.get("csrf")):
            return PlainTextResponse("Forbidden: missing or wrong CSRF token", status_code=403)
        request.session.clear()
        return RedirectResponse("/login", status_code=303)

    async def index(request: Request) -> Response:
        user = guard(request)
        if isinstance(user, Response):
            return user
        search = request.query_params.get("q", "").strip()[:200] or None
        try:
            page = max(0, int(request.query_params.get("page", "0")))
        except ValueError:
            page = 0
        listing = _service.list_entries(
            settings.log_paths, search=search, page=page, page_size=settings.page_size
        )
        return render(request, "index.html", user=user, listing=listing, q=search or "", page=page)

    async def hint(request: Request) -> Response:
        user = guard(request)  # the hint action checks the administrator again
        if isinstance(user, Response):
            return user
        form = await request.form()
        if not check_csrf(request.session, form.get("csrf")):
            return PlainTextResponse("Forbidden: missing or wrong CSRF token", status_code=403)
        key = str(form.get("key", ""))[:128]
        result = _service.explain_key(
            settings.log_paths,
            key,
            configuration=settings.configuration,
            config_path=settings.config_path,
            project_root=settings.project_root,
        )
        status = 404 if result.entry is None else 200
        return render(request, "hint.html", status=status, user=user, result=result)

    async def usage(request: Request) -> Response:
        user = guard(request)
        if isinstance(user, Response):
            return user
        rows = _service.recent_usage(config_path=settings.config_path)
        return render(request, "usage.html", user=user, rows=rows)

    async def health(request: Request) -> Response:
        return PlainTextResponse("ok")

    routes = [
        Route("/", index, methods=["GET"]),
        Route("/login", login_form, methods=["GET"]),
        Route("/login", login, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/hint", hint, methods=["POST"]),
        Route("/usage", usage, methods=["GET"]),
        Route("/healthz", health, methods=["GET"]),
        Mount("/static", StaticFiles(directory=str(_HERE / "static")), name="static"),
    ]
    middleware = [
        Middleware(SecurityHeaders, hsts=settings.https),
        Middleware(
            SessionMiddleware,
            secret_key=settings.secret_key,
            session_cookie="hintline_session",
            same_site="strict",
            https_only=settings.https,
            max_age=8 * 3600,
        ),
    ]
    return Starlette(routes=routes, middleware=middleware)
