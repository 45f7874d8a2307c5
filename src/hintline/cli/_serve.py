"""``hintline serve``: the administrator-only error hints page."""

from __future__ import annotations

import argparse
import errno
import sys

from hintline.cli._io import error

__all__ = ["register", "run", "startup_warnings"]

_WILDCARDS = ("0.0.0.0", "::", "")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``serve`` subcommand."""
    p = sub.add_parser(
        "serve",
        help="serve the administrator-only error hints page",
        description="Serve the error hints page for the given logs: their newest errors with "
        "hints, and a model's explanation on request, for the users of the users file (add one "
        "with `hintline users add NAME --role admin`). Needs the web extra: "
        "pip install 'hintline[web]'.",
    )
    p.add_argument("paths", nargs="+", metavar="LOG", help="log files to list errors from")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    p.add_argument("--users", help="users file (see `hintline users`)")
    p.add_argument("--config", help="model configuration file")
    p.add_argument("--configuration", help="configuration name (default: the default one)")
    p.add_argument("--project-root", help="the project's root, for anchored hints")
    p.add_argument(
        "--trusted-user-header",
        help="trust this header (e.g. X-Remote-User) set by an authenticating reverse proxy; off by default",
    )
    p.add_argument("--ssl-certfile", help="serve over TLS with this certificate")
    p.add_argument("--ssl-keyfile", help="the TLS key")
    p.add_argument(
        "--allowed-host", action="append", default=[], metavar="NAME",
        help="also answer requests for this host name (repeatable; loopback names always pass)",
    )
    p.add_argument(
        "--trusted-proxy", action="append", default=[], metavar="ADDRESS",
        help="believe X-Forwarded-For from this reverse proxy's address (repeatable; off by default)",
    )
    p.add_argument(
        "--secure-cookies", action="store_true",
        help="mark cookies Secure and send HSTS: the page is reached over HTTPS through a TLS proxy",
    )
    p.set_defaults(func=run)


def _port_free(host: str, port: int) -> str | None:
    import socket  # here, like every heavy import: `hintline clean` loads this module too

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return f"port {port} on {host} is already in use: choose another with --port"
            return f"cannot bind {host}:{port}: {exc.strerror}"
    return None


def startup_warnings(args: argparse.Namespace) -> list[str]:
    """What the administrator should know before the server starts (one line each)."""
    from hintline.web._security import is_loopback

    warnings = []
    if not is_loopback(args.host):
        if not (args.ssl_certfile or args.secure_cookies):
            warnings.append(
                f"warning: listening on {args.host}, beyond this machine, over plain HTTP: "
                "passwords and session cookies cross the network unencrypted. Serve TLS "
                "(--ssl-certfile/--ssl-keyfile) or put a TLS proxy in front (--secure-cookies)."
            )
        if not args.allowed_host and args.host in _WILDCARDS:
            warnings.append(
                "warning: only loopback host names are accepted: name the host clients use "
                "with --allowed-host"
            )
    return warnings


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    from pathlib import Path

    import uvicorn  # the `web` extra, like the imports below (cli.main says so when missing)

    from hintline.cli import output_not_used
    from hintline.exceptions import ConfigError
    from hintline.web import Settings, create_app
    from hintline.web._app import server_options
    from hintline.web._users import UserStore, default_users_path

    output_not_used()  # the page is the output; every message goes to standard error
    users_path = default_users_path(args.users)
    try:
        names = UserStore(users_path).check()
    except ConfigError as exc:
        error("serve", str(exc))
        return 2
    if not names and not args.trusted_user_header:
        error("serve", f"no users in {users_path}: add one with `hintline users add NAME --role admin`")
        return 2
    from hintline.web._service import readable_paths

    readable, unreadable = readable_paths(args.paths)
    for warning in unreadable:
        print(f"hintline serve: warning: {warning}", file=sys.stderr)
    if not readable:
        print("hintline serve: warning: no log can be read yet: the page will say so", file=sys.stderr)
    problem = _port_free(args.host, args.port)
    if problem:
        error("serve", problem)
        return 2
    https = bool(args.ssl_certfile)
    settings = Settings(
        log_paths=tuple(args.paths),
        users_path=Path(users_path),
        configuration=args.configuration,
        config_path=args.config,
        project_root=args.project_root,
        https=https,
        secure_cookies=args.secure_cookies,
        trusted_user_header=args.trusted_user_header,
        # the address it was started on is a name clients may use; a wildcard is not
        allowed_hosts=tuple(args.allowed_host) + (() if args.host in _WILDCARDS else (args.host,)),
        trusted_proxies=tuple(args.trusted_proxy),
    )
    for warning in startup_warnings(args):
        print(f"hintline serve: {warning}", file=sys.stderr)
    try:
        app = create_app(settings)
    except ConfigError as exc:
        error("serve", str(exc))
        return 2
    scheme = "https" if https else "http"
    print(f"hintline serve: serving error hints on {scheme}://{args.host}:{args.port}/", file=sys.stderr)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        ssl_certfile=args.ssl_certfile,
        ssl_keyfile=args.ssl_keyfile,
        **server_options(settings),
    )
    return 0
