"""Bytes from log files: rotated siblings, forward lines, and records read from the end.

Memory stays bounded whatever the file holds: a line or a record longer than ``MAX_RECORD``
bytes keeps its beginning and its end (the header and the exception line) and loses its middle.
"""

from __future__ import annotations

import gzip
import io
import logging
import os
import re
import stat
import tempfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

__all__ = [
    "BLOCK",
    "MAX_RECORD",
    "Prefilter",
    "forward_block_records",
    "forward_lines",
    "head_lines",
    "is_gzip",
    "is_special",
    "open_binary",
    "reverse_records",
    "rotated_siblings",
    "spool",
]

BLOCK = 1 << 20
MAX_RECORD = 1 << 20
_ELLIPSIS = b"\n[... hintline: cut ...]\n"

# app.log.1, app.log.2.gz, app.log.2026-11-29, app.log-20261129.gz, app.log.gz
_ROTATED = re.compile(
    r"^(?:\.(?P<n>\d{1,4})|[.-](?P<date>\d{4}-?\d\d-?\d\d(?:[_T.-]?\d\d(?:-?\d\d){0,2})?))?(?P<gz>\.gz)?$"
)

Progress = Callable[[int], None]
# A truncated or corrupt .gz ends the data where it breaks (what was read stays read), with a
# warning on the ``hintline.logs`` logger (which the command line prints on stderr).
_GZIP_ERRORS = (EOFError, gzip.BadGzipFile, zlib.error)
_log = logging.getLogger("hintline.logs")
SPOOL_LIMIT = 1 << 30
"""At most this much of a log that is not a regular file (a FIFO, a pipe) is read."""


def _broken(f: BinaryIO, exc: BaseException) -> None:
    """Say that a compressed file ends early: the rest of it is skipped, not read."""
    name = getattr(f, "name", None) or getattr(getattr(f, "fileobj", None), "name", "a log")
    _log.warning("hintline: %s: corrupt or truncated gzip data (%s); the rest is skipped",
                 name, str(exc) or exc.__class__.__name__)


def is_special(path: Path) -> bool:
    """Whether ``path`` is neither a regular file nor a directory (a FIFO, a character device,
    a process substitution): it can be read once only, from the start."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def spool(path: Path) -> Path:
    """Copy a log that can be read only once into a temporary file (the caller deletes it).

    A FIFO is opened once and read until its writer closes it (at most :data:`SPOOL_LIMIT`
    bytes, with a warning when it goes on); every later read of the log reads the copy.
    """
    fd, name = tempfile.mkstemp(prefix="hintline-", suffix=".log")
    copied = 0
    with os.fdopen(fd, "wb") as out, path.open("rb") as src:
        while copied < SPOOL_LIMIT:
            block = src.read(min(BLOCK, SPOOL_LIMIT - copied))
            if not block:
                break
            out.write(block)
            copied += len(block)
        else:
            if src.read(1):
                _log.warning("hintline: %s: read the first %d MiB only (it may never end)",
                             path, SPOOL_LIMIT >> 20)
    return Path(name)


def is_gzip(path: Path) -> bool:
    """Whether the file starts with the gzip magic number."""
    with path.open("rb") as f:
        return f.read(2) == b"\x1f\x8b"


def open_binary(path: Path) -> BinaryIO:
    """Open a log for reading bytes, decompressing ``.gz`` (by content, not by name)."""
    if is_gzip(path):
        return io.BufferedReader(_Gunzip(path), BLOCK)  # type: ignore[return-value]
    return path.open("rb")


class _Gunzip(io.RawIOBase):
    """A ``.gz`` file decompressed member after member, that keeps what precedes a break.

    Where the data is corrupt or ends early, everything decompressed before that point is
    read (:mod:`gzip` drops the block it was decompressing and what its buffer held), a warning
    says so, and the data ends there. Zero padding after the last member is allowed, as
    ``gzip`` allows it.
    """

    _IN = 1 << 16
    _STEP = 1 << 12

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.name = str(path)
        self._raw = path.open("rb")
        self._zip = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self._fed = False  # the current member has begun
        self._input = b""  # read, not yet decompressed (the start of a next member)
        self._out = b""
        self._at = 0
        self._ended = False

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        self._raw.close()
        super().close()

    def readinto(self, buffer: Any) -> int:
        while self._at >= len(self._out) and not self._ended:
            self._out, self._at = self._more(), 0
        n = min(len(buffer), len(self._out) - self._at)
        buffer[:n] = self._out[self._at : self._at + n]
        self._at += n
        return n

    def _more(self) -> bytes:
        data, self._input = self._input or self._raw.read(self._IN), b""
        if not data:
            self._ended = True
            if self._fed and not self._zip.eof:
                self._broken("Compressed file ended before the end-of-stream marker was reached")
            return b""
        if not self._fed and not data.strip(b"\0"):
            return b""  # padding after the last member
        self._fed = True
        out: list[bytes] = []
        for i in range(0, len(data), self._STEP):  # a copy every few KiB, to fall back on
            piece = data[i : i + self._STEP]
            saved = self._zip.copy()
            try:
                out.append(self._zip.decompress(piece))
            except zlib.error as exc:
                out.append(self._salvage(saved, piece))
                self._ended = True
                self._broken(str(exc))
                break
            if self._zip.eof:  # a member ends: the next one starts with what is left
                self._input = self._zip.unused_data + data[i + self._STEP :]
                self._zip = zlib.decompressobj(16 + zlib.MAX_WBITS)
                self._fed = False
                break
        return b"".join(out)

    @staticmethod
    def _salvage(saved: Any, piece: bytes) -> bytes:
        """What ``piece`` decompresses to up to its first bad byte."""
        out = []
        for k in range(len(piece)):
            try:
                out.append(saved.decompress(piece[k : k + 1]))
            except zlib.error:
                break
        return b"".join(out)

    def _broken(self, why: str) -> None:
        _log.warning("hintline: %s: corrupt or truncated gzip data (%s); the rest is skipped",
                     self.name, why)


def rotated_siblings(path: Path) -> list[Path]:
    """``path`` and its rotated files, newest first: ``app.log``, ``app.log.1``, ``app.log.2.gz``…

    Numbered files count up into the past; dated ones (``app.log.2026-11-29``) are newest by date.
    """
    found: list[tuple[int, str, Path]] = []
    try:
        names = os.listdir(path.parent)
    except OSError:
        return [path]
    base = path.name
    for name in names:
        if not name.startswith(base) or name == base:
            continue
        m = _ROTATED.match(name[len(base):])
        if not m or not (m["n"] or m["date"] or m["gz"]):
            continue
        sibling = path.parent / name
        if not sibling.is_file():
            continue
        if m["n"]:
            found.append((1, f"{int(m['n']):08d}", sibling))
        elif m["date"]:
            # newest date first: invert the digits so that ascending sort is newest first
            digits = re.sub(r"\D", "", m["date"]).ljust(14, "0")
            found.append((2, "".join(str(9 - int(c)) for c in digits), sibling))
        else:
            found.append((0, "", sibling))
    found.sort(key=lambda t: (t[0], t[1]))
    return [path, *(p for _, _, p in found)]


def _cut(data: bytes) -> bytes:
    half = MAX_RECORD // 2
    if len(data) <= MAX_RECORD:
        return data
    return data[:half] + _ELLIPSIS + data[-half:]


def forward_lines(f: BinaryIO) -> Iterator[bytes]:
    """Lines (with their newline) from the current position; over-long lines are cut."""
    while True:
        try:
            line = f.readline(MAX_RECORD)
        except _GZIP_ERRORS as exc:
            _broken(f, exc)
            return
        if not line:
            return
        if not line.endswith(b"\n") and len(line) >= MAX_RECORD:
            rest_tail = b""
            while True:  # skip the rest of the over-long line, keeping its end
                try:
                    more = f.readline(MAX_RECORD)
                except _GZIP_ERRORS as exc:
                    _broken(f, exc)
                    more = b""
                if not more:
                    break
                rest_tail = (rest_tail + more)[-MAX_RECORD // 2:]
                if more.endswith(b"\n"):
                    break
            line = line[: MAX_RECORD // 2] + _ELLIPSIS + rest_tail
        yield line


def head_lines(path: Path, *, max_lines: int = 200, max_bytes: int = 1 << 16) -> list[bytes]:
    """The first lines of a log (decompressed), for format detection."""
    lines: list[bytes] = []
    with open_binary(path) as f:
        try:
            data = f.read(max_bytes)
        except _GZIP_ERRORS:
            data = b""
    for line in data.splitlines()[:max_lines]:
        lines.append(line[:4096])
    return lines


@dataclass(frozen=True, slots=True)
class Prefilter:
    """What the first line of a wanted record contains.

    Attributes:
        pattern: matches the wanted text (at a position, with ``literals``; else searched).
        literals: byte strings one of which starts every match, found with ``bytes.find``
            (much faster than a regex search); empty to search ``pattern`` instead.
        window: how far into the line the match may start (``None``: anywhere).
    """

    pattern: re.Pattern[bytes]
    literals: tuple[bytes, ...] = ()
    window: int | None = None


def _matches(data: bytes, pre: Prefilter) -> list[int]:
    if not pre.literals:
        return [m.start() for m in pre.pattern.finditer(data)]
    found: list[int] = []
    for literal in pre.literals:
        pos = data.find(literal)
        while pos >= 0:
            before = data[pos - 1: pos]
            if not (before.isalnum() or before in (b"_", b"-")) and pre.pattern.match(data, pos):
                found.append(pos)
            pos = data.find(literal, pos + 1)
    found.sort()
    return found


def _wanted_starts(data: bytes, start: re.Pattern[bytes], pre: Prefilter) -> list[int]:
    """Offsets of the record-opening lines of ``data`` whose first line matches ``pre``."""
    hits: list[int] = []
    last = -1
    for pos in _matches(data, pre):
        line = data.rfind(b"\n", 0, pos) + 1
        if line == last or (pre.window is not None and pos - line > pre.window):
            continue
        last = line
        if start.match(data, line):
            hits.append(line)
    return hits


def _last_start(data: bytes, start: re.Pattern[bytes]) -> int | None:
    """Offset of the last line of ``data`` (whole lines) that opens a record, or ``None``."""
    end = len(data)
    while end > 0:
        line = data.rfind(b"\n", 0, end - 1) + 1
        if start.match(data, line):
            return line
        end = line
    return None


def _records_in(data: bytes, start: re.Pattern[bytes], wanted: Prefilter | None) -> Iterator[bytes]:
    """The (wanted) records of ``data``, whole lines ending at a record boundary, in order."""
    if wanted is None:
        hits = [m.start() for m in start.finditer(data)]
    else:
        hits = _wanted_starts(data, start, wanted)
    for s in hits:
        nxt = start.search(data, s + 1)
        yield _cut(data[s: nxt.start() if nxt else len(data)])


def forward_block_records(
    f: BinaryIO,
    start: re.Pattern[bytes],
    *,
    wanted: Prefilter | None = None,
    progress: Progress | None = None,
) -> Iterator[bytes]:
    """Records of a stream (plain or decompressing), oldest first, read forward in ``BLOCK`` chunks.

    A line matching ``start`` opens a record; other lines continue it; lines before the first
    record start (the end of a record rotated into the previous file) are dropped. Records are
    found with block-wide searches, not a Python loop over lines; with ``wanted`` the others are
    skipped unbuilt.
    """
    buf = b""
    while True:
        try:
            chunk = f.read(BLOCK)
        except _GZIP_ERRORS as exc:
            _broken(f, exc)
            chunk = b""
        if progress is not None and chunk:
            progress(len(chunk))
        if not chunk:
            if buf:
                yield from _records_in(buf if buf.endswith(b"\n") else buf + b"\n", start, wanted)
            return
        buf += chunk
        whole = buf.rfind(b"\n") + 1
        last = _last_start(buf[:whole], start) if whole else None
        if last is None or last == 0:
            if len(buf) > 4 * MAX_RECORD:  # one record (or line) without end: keep its ends
                buf = buf[:MAX_RECORD] + _ELLIPSIS + buf[-MAX_RECORD:]
            continue
        yield from _records_in(buf[:last], start, wanted)
        buf = buf[last:]


def reverse_records(
    f: BinaryIO,
    start: re.Pattern[bytes],
    *,
    wanted: Prefilter | None = None,
    progress: Progress | None = None,
) -> Iterator[bytes]:
    """Records of a seekable file, newest (last) first, read backwards in ``BLOCK`` chunks.

    Args:
        f: the open file (not compressed).
        start: matches at the beginning of a line that opens a record (``(?m)^…``).
        wanted: optional, matches somewhere in the first line of the records worth yielding
            (a cheap, permissive pre-filter such as an error level word); other records are
            skipped without being split out, which keeps full scans fast.
        progress: called with the number of bytes consumed.
    """
    pos = f.seek(0, os.SEEK_END)
    carry = b""  # the start of a line whose beginning lies before `pos`
    tail = b""  # lines after the data in hand that belong to a record starting earlier
    while pos > 0:
        size = min(BLOCK, pos)
        pos -= size
        f.seek(pos)
        block = f.read(size)
        if progress is not None:
            progress(size)
        data = block + carry
        if pos > 0:
            cut = data.find(b"\n")
            if cut < 0:
                carry = _cut(data)
                continue
            carry, data = data[: cut + 1], data[cut + 1:]
        else:
            carry = b""
        if wanted is None:
            starts = [m.start() for m in start.finditer(data)]
            if not starts:
                tail = _cut(data + tail)
                continue
            ends = [*starts[1:], None]
            last = len(starts) - 1
            for i in range(last, -1, -1):
                s, e = starts[i], ends[i]
                yield _cut(data[s:] + tail) if i == last else _cut(data[s:e])
            tail = data[: starts[0]]
        else:
            hits = _wanted_starts(data, start, wanted)
            first = start.search(data)
            if first is None:
                tail = _cut(data + tail)
                continue
            for s in reversed(hits):
                nxt = start.search(data, s + 1)
                yield _cut(data[s:] + tail) if nxt is None else _cut(data[s: nxt.start()])
            tail = data[: first.start()]
    # lines before the first record start are the end of a record from the previous file
