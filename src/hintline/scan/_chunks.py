"""Cutting log files into chunks that start on record boundaries, and reading one chunk.

A plain file is cut into byte ranges of about ``chunk_bytes``, each moved forward to the next line
that opens a record of the file's format, so that every record belongs to exactly one chunk and
any number of workers read one file together. Compressed files and journald exports (whose
traces are merged across lines) are one chunk each.
"""

from __future__ import annotations

import hashlib
import itertools
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from hintline.logs._container import CONTAINER_FORMATS
from hintline.logs._formats import (
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

# read whole, forward: their records span lines the chunk aligner cannot see
STREAMED = frozenset({"journald", *CONTAINER_FORMATS})
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


def plan_chunks(paths: list[str], *, fmt: str | None, chunk_bytes: int) -> list[Chunk]:
    """All chunks of the given logs and their rotated files.

    Raises:
        FileNotFoundError, PermissionError: a path cannot be read.
        hintline.logs.LogFormatError: a format cannot be detected.
    """
    chunks: list[Chunk] = []
    for group in log_files(paths):
        base = fmt or detect_format(group[0])
        for path in group:
            st = path.stat()
            kind = fmt or (base if path is not group[0] and is_gzip(path) else detect_format(path))
            if is_gzip(path) or kind in STREAMED or st.st_size <= chunk_bytes:
                chunks.append(Chunk(str(path), kind, 0, -1, st.st_size, st.st_mtime_ns))
                continue
            cuts = [0]
            with path.open("rb") as f:
                pos = chunk_bytes
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
            )
    return chunks


def read_chunk(chunk: Chunk, *, min_level: str = "ERROR") -> Iterator[Entry]:
    """The entries at ``min_level`` or above whose record starts in the chunk, in file order."""
    path = Path(chunk.path)
    if chunk.end < 0 and (is_gzip(path) or chunk.fmt in STREAMED):
        yield from iter_entries(path, format=chunk.fmt, min_level=min_level)
        return
    rank = level_rank(min_level)
    reference = _reference(path)
    source = str(path)
    end = chunk.size if chunk.end < 0 else chunk.end
    with path.open("rb") as f:
        window = _Window(f, chunk.start, end)
        records = forward_block_records(
            window,  # type: ignore[arg-type]  # reads like a BinaryIO
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
