"""Reading the input of a subcommand: a file or stdin, with a one-line error on failure."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import BinaryIO

from hintline.cli._stream import read_ends
from hintline.scrub import scrub

__all__ = ["CannotRead", "open_input", "read_input", "write_text"]


class CannotRead(Exception):
    """The input could not be read; the message is the one line to print."""


def read_input(path: str, *, bounded: bool) -> bytes:
    """The bytes of ``path`` (``-``: stdin), bounded to 64 KiB if ``bounded``.

    Raises:
        CannotRead: ``hintline: cannot read FILE: reason`` (scrubbed).
    """
    try:
        with open_input(path) as stream:
            return read_ends(stream, path) if bounded else stream.read()
    except OSError as exc:
        raise _cannot_read(path, exc) from exc


def _cannot_read(path: str, exc: OSError) -> CannotRead:
    reason = exc.strerror or exc.__class__.__name__
    return CannotRead(scrub(f"hintline: cannot read {path}: {reason}"))


@contextlib.contextmanager
def open_input(path: str) -> Iterator[BinaryIO]:
    """``path`` (``-``: stdin) open for reading bytes; a read error becomes :class:`CannotRead`."""
    try:
        stream: BinaryIO = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115
    except OSError as exc:
        raise _cannot_read(path, exc) from exc
    try:
        yield stream
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):  # the output's, not the input's
            raise
        raise _cannot_read(path, exc) from exc
    finally:
        if path != "-":
            stream.close()


def write_text(text: str) -> None:
    """Write ``text`` to stdout whatever its encoding (unencodable characters escaped)."""
    out = sys.stdout
    try:
        out.write(text)
    except UnicodeEncodeError:
        encoding = out.encoding or "ascii"
        out.write(text.encode(encoding, "backslashreplace").decode(encoding))
    out.flush()
