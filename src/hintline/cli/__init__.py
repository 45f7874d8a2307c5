"""The ``hintline`` command. Each subcommand lives in its own module ``hintline.cli._<name>``.

A subcommand module defines ``register(subparsers)`` that adds its parser and sets
``func=run`` with ``run(args) -> int``; heavy imports stay inside ``run`` so that
``hintline clean`` starts fast.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import os
import sys
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

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


EXIT_OUTPUT = 74
"""Exit status when the output cannot be written (``EX_IOERR``: stdout closed, disk full)."""


class _OutputError(Exception):
    """Writing to standard output failed; ``args[0]`` is the ``OSError``."""


class _Output:
    """Standard output whose write failures are told apart from every other ``OSError``.

    A closed standard output (``>&-``: ``sys.stdout`` is ``None``) fails on the first write,
    as a full disk (``>/dev/full``) does on a flush.
    """

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream

    def _target(self) -> TextIO:
        if self._stream is None:
            raise _OutputError(OSError(errno.EBADF, "standard output is closed"))
        return self._stream

    def write(self, text: str) -> int:
        try:
            return self._target().write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _OutputError(exc) from exc

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _OutputError(exc) from exc

    def __getattr__(self, name: str) -> Any:
        return getattr(self._target(), name)


def output_not_used() -> None:
    """For a command that writes nothing on standard output (``serve``: its page is its output,
    its messages go to standard error): a closed standard output is no error for it.

    ``sys.stdout`` and file descriptor 1 then point at the null device, so that libraries that
    look at standard output (uvicorn's log formatter) work, and no file or socket the server opens
    becomes descriptor 1. A full disk behind standard output needs nothing: nothing is written.
    """
    out = sys.stdout
    if not isinstance(out, _Output) or out._stream is not None:
        return
    with contextlib.suppress(OSError):
        fd = os.open(os.devnull, os.O_WRONLY)
        if fd != 1:
            os.dup2(fd, 1)
            os.close(fd)
    out._stream = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives as long as the process


def write_failure(group: BaseExceptionGroup) -> OSError | None:
    """The failed write to standard output inside ``group`` (the errors of an asyncio task
    group), or ``None``.

    A server on stdio (``mcp``) writes its answers from a task; a write that fails there arrives
    as an exception group. It is told from a failed read of standard input by the write or flush
    in its traceback (the only writing stream of a stdio transport is standard output).
    """
    for exc in _leaves(group):
        if not isinstance(exc, OSError):
            continue
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_name in ("write", "flush", "writelines"):
                return exc
            tb = tb.tb_next
    return None


def _leaves(group: BaseExceptionGroup) -> Iterator[BaseException]:
    for exc in group.exceptions:
        if isinstance(exc, BaseExceptionGroup):
            yield from _leaves(exc)
        else:
            yield exc


def raise_write_failure(group: BaseExceptionGroup) -> None:
    """Re-raise the failed write to standard output in ``group`` as :func:`main` reports it
    (a broken pipe: the reader left, status 0; any other: one line, status 74); else ``group``."""
    failed = write_failure(group)
    if failed is None:
        raise group
    if isinstance(failed, BrokenPipeError):
        raise failed from None
    raise _OutputError(failed) from None


def _drop_pending_output() -> None:
    """Point file descriptor 1 at /dev/null, so that the interpreter's last flush of what is
    still buffered cannot fail again (and print a traceback) after the error was reported."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except OSError:
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code.

    Whatever the subcommand, a failure to write the output (standard output closed, a full
    disk, a broken pipe) ends with one line on standard error and a non-zero status, never a
    traceback; a missing extra is one line naming the extra, with status 2.
    """
    from hintline.cli._io import error
    from hintline.exceptions import MissingExtraError

    parser = build_parser()
    real = sys.stdout
    output = _Output(real if not isinstance(real, _Output) else real._stream)
    sys.stdout = output  # type: ignore[assignment]
    command = "hintline"
    try:
        try:
            args = parser.parse_args(argv)  # --help, --version and usage errors exit here
        except SystemExit:
            output.flush()
            raise
        if not getattr(args, "func", None):
            parser.print_help(sys.stderr)
            return 2
        command = args.command
        code: int = args.func(args)
        output.flush()  # buffered output reaches its target now, where a failure is reported
    except KeyboardInterrupt:
        error(command, "interrupted")
        return 130
    except BrokenPipeError:  # `hintline logs | head`: the reader has what it wanted
        _drop_pending_output()
        return 0
    except MissingExtraError as exc:
        error(command, f"needs the {exc.extra!r} extra: pip install 'hintline[{exc.extra}]'")
        return 2
    except ModuleNotFoundError as exc:
        extra = EXTRA_OF_MODULE.get((exc.name or "").partition(".")[0])
        if extra is None:
            raise
        error(command, f"needs the {extra!r} extra ({exc.name} is not installed): "
              f"pip install 'hintline[{extra}]'")
        return 2
    except _OutputError as exc:
        reason = exc.args[0].strerror or str(exc.args[0])
        with contextlib.suppress(Exception):
            print(f"hintline: cannot write the output: {reason}", file=sys.stderr)
        if real is not None:
            _drop_pending_output()
        return EXIT_OUTPUT
    finally:
        sys.stdout = real
    return code
