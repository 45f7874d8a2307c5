"""Cutting log files into chunks that start on record boundaries, and reading one chunk.

A plain file is cut into byte ranges of about ``chunk_bytes``, each moved forward to the next line
that opens a record of the file's format, so that every record belongs to exactly one chunk and
any number of workers read one file together. Compressed files and journald exports (whose
traces are merged across lines) are one chunk each.
"""

from __future__ import annotations

import gzip
import hashlib
import itertools
import os
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from hintline.logs._formats import (
    LogFormatError,
    build_entry,
    detect_format,
    parse_record,
    start_pattern,
    wanted_pattern,
)
from hintline.logs._levels import level_rank
from hintline.logs._model import Entry
from hintline.logs._reader import _decode, _reference, iter_entries, log_files
from hintline.logs._source import forward_block_records, is_gzip

__all__ = ["Chunk", "plan_chunks", "read_chunk"]

_ALIGN_WINDOW = 4 << 20
"""How far past a cut point a record start is looked for before the cut is dropped."""


@dataclass(frozen=True, slots=True)
class Chunk:
    """A byte range ``[start, end)`` of one file (``end == -1``: the whole file)."""

    path: str
    fmt: str
    start: int
    end: int
    size: int
    mtime_ns: int

    @property
    def ident(self) -> str:
        """Stable identity for checkpoints: the file as it is now and the range."""
        raw = f"{os.path.abspath(self.path)}|{self.size}|{self.mtime_ns}|{self.start}|{self.end}|{self.fmt}"
        return hashlib.sha256(raw.encode()).hexdigest()[:24]

    @property
    def length(self) -> int:
        """Bytes in the chunk."""
        return (self.size if self.end < 0 else self.end) - self.start


class _Window:
    """A read-only view of ``[start, end)`` of a binary file."""

    def __init__(self, f: BinaryIO, start: int, end: int) -> None:
        f.seek(start)
        self._f = f
        self._left = end - start

    def read(self, n: int = -1) -> bytes:
        if self._left <= 0:
            return b""
        n = self._left if n < 0 else min(n, self._left)
        data = self._f.read(n)
        self._left -= len(data)
        return data


def _align(f: BinaryIO, pos: int, fmt: str) -> int | None:
    """The first record start at or after ``pos``, or ``None`` within the window."""
    start = start_pattern(fmt)
    f.seek(pos - 1)
    block = f.read(_ALIGN_WINDOW)
    m = start.search(block, 1)  # `^` at 1 only if block[0] is a newline: pos is a line start
    return None if m is None else pos - 1 + m.start()


def _gzip_readable(path: Path) -> str | None:
    """Why a ``.gz`` file cannot be read (corrupt from its start), else ``None``."""
    got = 0
    try:
        with gzip.open(path, "rb") as f:
            while got < 1 << 16:
                data = f.read(4096)
                if not data:
                    break
                got += len(data)
    except (OSError, EOFError, zlib.error) as exc:
        if got == 0:
            return f"corrupt gzip data ({exc})"
    return None  # a break further on is found (and reported) while the file is read


def _file_format(path: Path, fmt: str | None, base: str | None) -> str:
    """The format of one file: given, detected, or (a rotated ``.gz`` sibling) the log's own.

    Raises:
        LogFormatError: binary data (text of no known layout falls back to ``plain``).
    """
    if fmt:
        return fmt
    if base is not None and is_gzip(path):
        return base
    kind = detect_format(path)
    return base if base is not None and kind == "text" else kind


def plan_chunks(
    paths: list[str],
    *,
    fmt: str | None,
    chunk_bytes: int,
    skipped: list[str] | None = None,
    starts: Mapping[str, int] | None = None,
    rotated: bool = True,
) -> list[Chunk]:
    """All chunks of the given logs and their rotated files.

    Args:
        paths: log files or directories.
        fmt: the format of every file, else detected per file.
        chunk_bytes: about how many bytes one chunk holds.
        skipped: when given, a file that cannot be read as a log (binary data, a corrupt
            ``.gz``) is left out and ``"path: why"`` appended here, instead of raising.
        starts: per absolute path, the offset to start from (the end of an earlier scan of an
            appended log); the bytes before it are not planned.
        rotated: also the rotated files next to each log (``app.log.1``, ``app.log.2.gz``).

    Raises:
        FileNotFoundError, PermissionError: a path cannot be read.
        hintline.logs.LogFormatError: a file is binary data (without ``skipped``).
    """
    chunks: list[Chunk] = []
    for group in log_files(paths, rotated=rotated):
        base: str | None = None
        for path in group:
            try:
                st = path.stat()
                broken = _gzip_readable(path) if is_gzip(path) else None
                if broken is not None:
                    raise LogFormatError(f"{path}: {broken}")
                kind = _file_format(path, fmt, base)
            except (LogFormatError, OSError) as exc:
                if skipped is None:
                    raise
                skipped.append(str(exc) if str(path) in str(exc) else f"{path}: {exc}")
                continue
            base = base or kind
            first = (starts or {}).get(os.path.abspath(path), 0)
            if is_gzip(path) or kind == "journald" or (st.st_size <= chunk_bytes and first == 0):
                chunks.append(Chunk(str(path), kind, 0, -1, st.st_size, st.st_mtime_ns))
                continue
            cuts = [first]
            with path.open("rb") as f:
                pos = first + chunk_bytes
                while pos < st.st_size:
                    aligned = _align(f, pos, kind)
                    if aligned is None or aligned >= st.st_size:
                        break
                    if aligned > cuts[-1]:
                        cuts.append(aligned)
                    pos = max(aligned, pos) + chunk_bytes
            cuts.append(st.st_size)
            chunks.extend(
                Chunk(str(path), kind, a, b, st.st_size, st.st_mtime_ns)
                for a, b in itertools.pairwise(cuts)
                if b > a
            )
    return chunks


class _Inflate:
    """Decompresses a gzip stream (every member) piece by piece; a corrupt or truncated stream
    ends the data where it breaks, keeps everything before, and says so in ``error``."""

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self._d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self._buf = b""
        self._end = False
        self.error: str | None = None
        self.done = 0

    def _fill(self, want: int) -> None:
        while len(self._buf) < want and not self._end:
            raw = self._raw.read(1 << 16)
            if not raw:
                self._end = True
                if not self._d.eof:
                    self._buf += self._d.flush()
                    self.error = "truncated gzip data"
                return
            try:
                out = self._d.decompress(raw)
                while self._d.eof and self._d.unused_data:  # the next member of a multi-member file
                    rest = self._d.unused_data
                    self._d = zlib.decompressobj(16 + zlib.MAX_WBITS)
                    out += self._d.decompress(rest)
            except zlib.error as exc:
                self.error = f"corrupt gzip data ({exc})"
                self._end = True
                return
            self._buf += out

    def read(self, n: int = -1) -> bytes:
        self._fill(n if n >= 0 else 1 << 62)
        if n < 0:
            data, self._buf = self._buf, b""
        else:
            data, self._buf = self._buf[:n], self._buf[n:]
        self.done += len(data)
        return data


def read_chunk(
    chunk: Chunk, *, min_level: str = "ERROR", problems: list[str] | None = None
) -> Iterator[Entry]:
    """The entries at ``min_level`` or above whose record starts in the chunk, in file order.

    A ``.gz`` file that breaks part-way ends there; with ``problems`` the reason is appended to
    it (``"path: why"``).
    """
    path = Path(chunk.path)
    if chunk.end < 0 and chunk.fmt == "journald":
        yield from iter_entries(path, format=chunk.fmt, min_level=min_level)
        return
    rank = level_rank(min_level)
    reference = _reference(path)
    source = str(path)
    end = chunk.size if chunk.end < 0 else chunk.end
    compressed = chunk.end < 0 and is_gzip(path)
    with path.open("rb") as raw:
        broken: _Inflate | None = None
        if compressed:
            broken = _Inflate(raw)  # type: ignore[arg-type]
            stream: object = broken
        else:
            stream = _Window(raw, chunk.start, end)
        records = forward_block_records(
            stream,  # type: ignore[arg-type]  # reads like a BinaryIO
            start_pattern(chunk.fmt),
            wanted=wanted_pattern(chunk.fmt, rank),
        )
        for record in records:
            text = _decode(record)
            parsed = parse_record(
                text.strip("\r\n") if chunk.fmt == "jsonl" else text, chunk.fmt, reference=reference
            )
            if parsed is None or level_rank(parsed.level or "ERROR") < rank:
                continue
            if chunk.fmt != "jsonl" and parsed.level is None and not parsed.trace_text:
                continue  # plain text without a level word and without a trace
            yield build_entry(parsed, text, source, chunk.fmt)
        if broken is not None and broken.error is not None and problems is not None:
            problems.append(
                f"{source}: {broken.error} after {broken.done} bytes; the entries before it were kept"
            )
