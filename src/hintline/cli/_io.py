"""Reading the input of a subcommand (a file or stdin) and reporting errors, one line each."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Iterator
from typing import BinaryIO

from hintline.cli._stream import read_ends
from hintline.scrub import scrub

__all__ = [
    "STDIN_NAME",
    "CannotRead",
    "error",
    "open_input",
    "read_input",
    "spooled_stdin",
    "write_text",
]

STDIN_NAME = "<stdin>"


class CannotRead(Exception):
    """The input could not be read; the message is the one line to print."""


def error(command: str, message: str) -> None:
    """Print ``hintline COMMAND: message`` on stderr: one line, scrubbed.

    Every subcommand reports its errors this way (argparse's usage errors read the same:
    ``hintline COMMAND: error: …``).
    """
    from hintline.cli._style import Style, colour_enabled

    prefix = Style(colour_enabled(sys.stderr))(f"hintline {command}:", "red", "bold")
    print(f"{prefix} {scrub(' '.join(str(message).split()))}", file=sys.stderr)


def read_input(path: str, *, bounded: bool, command: str = "clean") -> bytes:
    """The bytes of ``path`` (``-``: stdin), bounded to 64 KiB if ``bounded``.

    Raises:
        CannotRead: ``hintline COMMAND: cannot read FILE: reason`` (scrubbed).
    """
    try:
        with open_input(path, command) as stream:
            return read_ends(stream, path) if bounded else stream.read()
    except OSError as exc:
        raise _cannot_read(path, exc, command) from exc


def _cannot_read(path: str, exc: OSError, command: str = "clean") -> CannotRead:
    reason = exc.strerror or exc.__class__.__name__
    return CannotRead(scrub(f"hintline {command}: cannot read {path}: {reason}"))


def stdin_bytes() -> BinaryIO:
    """Standard input as bytes.

    Raises:
        OSError: it is closed (``<&-``: ``sys.stdin`` is ``None``).
    """
    if sys.stdin is None:
        raise OSError(errno.EBADF, "standard input is closed")
    return sys.stdin.buffer


@contextlib.contextmanager
def open_input(path: str, command: str = "clean") -> Iterator[BinaryIO]:
    """``path`` (``-``: stdin) open for reading bytes; a read error becomes :class:`CannotRead`."""
    try:
        stream: BinaryIO = stdin_bytes() if path == "-" else open(path, "rb")  # noqa: SIM115
    except OSError as exc:
        raise _cannot_read(path, exc, command) from exc
    try:
        yield stream
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):  # the output's, not the input's
            raise
        raise _cannot_read(path, exc, command) from exc
    finally:
        if path != "-":
            stream.close()


@contextlib.contextmanager
def spooled_stdin(paths: list[str]) -> Iterator[tuple[list[str], dict[str, str]]]:
    """``paths`` with ``-`` replaced by a file holding standard input.

    The readers of ``logs`` and ``scan`` seek (newest entries first, chunks in parallel), which
    a pipe cannot, so stdin is copied to a private temporary folder first (alone there, so no
    rotated sibling is ever found). Yields the paths and ``{spooled path: "<stdin>"}`` for
    display; the copy is removed on exit.
    """
    if "-" not in paths:
        yield paths, {}
        return
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="hintline-stdin-")
    try:
        spooled = os.path.join(folder, "stdin.log")
        with open(spooled, "wb") as out:
            shutil.copyfileobj(stdin_bytes(), out, 1 << 20)
        yield [spooled if p == "-" else p for p in paths], {spooled: STDIN_NAME}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def write_text(text: str) -> None:
    """Write ``text`` to stdout whatever its encoding (unencodable characters escaped)."""
    out = sys.stdout
    try:
        out.write(text)
    except UnicodeEncodeError:
        encoding = out.encoding or "ascii"
        out.write(text.encode(encoding, "backslashreplace").decode(encoding))
    out.flush()
