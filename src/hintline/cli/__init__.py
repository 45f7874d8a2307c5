"""The ``hintline`` command. Each subcommand lives in its own module ``hintline.cli._<name>``.

A subcommand module defines ``register(subparsers)`` that adds its parser and sets
``func=run`` with ``run(args) -> int``; heavy imports stay inside ``run`` so that
``hintline clean`` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

__all__ = ["main"]

# Order here is the order of `hintline --help`.
SUBCOMMANDS = (
    "clean",
    "rules",
    "scrub",
    "trace",
    "logs",
    "explain",
    "usage",
    "serve",
    "users",
    "mcp",
    "scan",
    "completion",
)

# The extra that brings each optional top-level module (pyproject.toml's
# [project.optional-dependencies]): a subcommand that meets one missing says which extra to
# install, in one line, with exit status 2.
EXTRA_OF_MODULE = {
    "httpx": "explain",
    "psycopg": "postgres",
    "psycopg_binary": "postgres",
    "starlette": "web",
    "jinja2": "web",
    "uvicorn": "web",
    "argon2": "web",
    "multipart": "web",
    "python_multipart": "web",
    "itsdangerous": "web",
    "tomli_w": "web",
    "pyarrow": "scan",
    "mcp": "mcp",
    "structlog": "structlog",
    "redis": "redis",
    "pyspark": "spark",
}


def _version() -> str:
    from hintline import __version__
    from hintline.cleaner.match import engine_name

    return f"hintline {__version__} (engine: {engine_name()})"


class _VersionAction(argparse.Action):
    """``--version``: the version and the engine, looked up only when asked for (reading the
    package metadata costs 25 ms that ``hintline clean`` should not pay)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(
            option_strings,
            dest=argparse.SUPPRESS,
            default=argparse.SUPPRESS,
            nargs=0,
            help="show the version and the matching engine, then exit",
        )

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        print(_version())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser with every installed subcommand."""
    parser = argparse.ArgumentParser(
        prog="hintline",
        description="Turn any failure into one actionable, secret-free line.",
    )
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        try:
            module = importlib.import_module(f"hintline.cli._{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"hintline.cli._{name}":
                continue  # not written yet
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    from hintline.cli._io import error
    from hintline.exceptions import MissingExtraError

    try:
        code: int = args.func(args)
    except KeyboardInterrupt:
        error(args.command, "interrupted")
        return 130
    except BrokenPipeError:
        return 0
    except MissingExtraError as exc:
        error(args.command, f"needs the {exc.extra!r} extra: pip install 'hintline[{exc.extra}]'")
        return 2
    except ModuleNotFoundError as exc:
        extra = EXTRA_OF_MODULE.get((exc.name or "").partition(".")[0])
        if extra is None:
            raise
        error(args.command, f"needs the {extra!r} extra ({exc.name} is not installed): "
              f"pip install 'hintline[{extra}]'")
        return 2
    return code
