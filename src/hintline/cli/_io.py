"""Reading the input of a subcommand: a file or stdin, with a one-line error on failure."""

from __future__ import annotations

import sys

from hintline.cleaner.bound import read_bounded
from hintline.scrub import scrub

__all__ = ["CannotRead", "read_input", "write_text"]


class CannotRead(Exception):
    """The input could not be read; the message is the one line to print."""


def read_input(path: str, *, bounded: bool) -> bytes:
    """The bytes of ``path`` (``-``: stdin), bounded to 64 KiB if ``bounded``.

    Raises:
        CannotRead: ``hintline: cannot read FILE: reason`` (scrubbed).
    """
    try:
        if path == "-":
            stream = sys.stdin.buffer
            return read_bounded(stream) if bounded else stream.read()
        with open(path, "rb") as fh:
            return read_bounded(fh) if bounded else fh.read()
    except OSError as exc:
        reason = exc.strerror or exc.__class__.__name__
        raise CannotRead(scrub(f"hintline: cannot read {path}: {reason}")) from exc


def write_text(text: str) -> None:
    """Write ``text`` to stdout whatever its encoding (unencodable characters escaped)."""
    out = sys.stdout
    try:
        out.write(text)
    except UnicodeEncodeError:
        encoding = out.encoding or "ascii"
        out.write(text.encode(encoding, "backslashreplace").decode(encoding))
    out.flush()
