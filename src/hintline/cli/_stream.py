"""Reading inputs of any size, endless ones included, in bounded memory and bounded time.

``hintline clean`` keeps the first 16 KiB and the last 48 KiB of its input: a regular file is
read at its two ends (a 2 GB log costs two reads, not 2 GB), any other stream (a pipe,
``/dev/zero``, a FIFO) is read to its end, but never more than :data:`STREAM_LIMIT` bytes; what
was cut is said on standard error. ``hintline scrub`` and ``hintline trace`` read in blocks.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import BinaryIO, TypeVar

from hintline.cleaner.bound import MAX_INPUT_BYTES, TAIL_BYTES, read_bounded

__all__ = ["STREAM_LIMIT", "first_found", "is_regular", "limited", "read_ends", "text_blocks"]

STREAM_LIMIT = 256 << 20
"""At most this many bytes are read from a stream that may never end (not a regular file)."""

_CHUNK = 1 << 16
T = TypeVar("T")


def is_regular(stream: BinaryIO) -> bool:
    """Whether ``stream`` is a regular file (seekable, with a size that means something)."""
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError, AttributeError):
        return False


class _Ends:
    """A regular file read as if whole, skipping what :func:`read_bounded` would drop."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._size = os.fstat(stream.fileno()).st_size
        self._skipped = False

    def read(self, n: int = -1) -> bytes:
        if not self._skipped and self._stream.tell() > 2 * MAX_INPUT_BYTES:
            # past the head: jump to the tail (a margin for a character cut in two)
            self._skipped = True
            target = self._size - TAIL_BYTES - 16
            if target > self._stream.tell():
                self._stream.seek(target)
        return self._stream.read(n)


class _Limited:
    """A stream that ends after ``limit`` bytes; ``cut`` says whether it ended there."""

    def __init__(self, stream: BinaryIO, limit: int) -> None:
        self._stream = stream
        self._left = limit
        self.cut = False

    def read(self, n: int = -1) -> bytes:
        if self._left <= 0:
            if self._stream.read(1):
                self.cut = True
            return b""
        want = self._left if n < 0 else min(n, self._left)
        data = self._stream.read(want)
        self._left -= len(data)
        return data


def read_ends(stream: BinaryIO, name: str) -> bytes:
    """What ``clean`` keeps of ``stream``: its first 16 KiB and last 48 KiB, in bounded time.

    A stream that is not a regular file is read up to :data:`STREAM_LIMIT` bytes; if it goes
    on, a line on standard error says where reading stopped.
    """
    if is_regular(stream):
        return read_bounded(_Ends(stream))  # type: ignore[arg-type]
    limited = _Limited(stream, STREAM_LIMIT)
    data = read_bounded(limited)  # type: ignore[arg-type]
    if limited.cut:
        print(
            f"hintline: stopped reading {name} after {STREAM_LIMIT >> 20} MiB (it may never "
            "end); the hint is from the first 16 KiB and the last 48 KiB read",
            file=sys.stderr,
        )
    return data


def text_blocks(stream: BinaryIO, size: int = 1 << 20) -> Iterator[str]:
    """The stream decoded as UTF-8 (invalid bytes replaced) in blocks of about ``size``
    characters that end at a line break when there is one; memory stays at a few blocks."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    pending = ""
    while True:
        data = stream.read(_CHUNK)
        pending += decoder.decode(data, final=not data)
        while len(pending) >= size:
            cut = pending.rfind("\n", 0, size) + 1 or size
            yield pending[:cut]
            pending = pending[cut:]
        if not data:
            break
    if pending:
        yield pending


@contextlib.contextmanager
def limited(stream: BinaryIO, name: str) -> Iterator[BinaryIO]:
    """``stream`` as is if it is a regular file, else ending after :data:`STREAM_LIMIT` bytes
    (a line on standard error says so if it went on)."""
    if is_regular(stream):
        yield stream
        return
    cut = _Limited(stream, STREAM_LIMIT)
    yield cut  # type: ignore[misc]
    if cut.cut:
        print(
            f"hintline: stopped reading {name} after {STREAM_LIMIT >> 20} MiB (it may never end)",
            file=sys.stderr,
        )


def first_found(
    blocks: Iterable[str],
    parse: Callable[[str], T],
    found: Callable[[T], bool],
    *,
    window: int = 8 << 20,
    overlap: int = 1 << 20,
    longest: int = 32 << 20,
) -> T:
    """``parse`` of the first find in the text, whole, in bounded memory.

    The text is parsed in windows of ``window`` characters that overlap by ``overlap`` (cut at
    a line break). ``parse`` answers the first find of its text, so a find is made whole at both
    ends: the text the last slide dropped is put back before the window (a find that began
    there, unseen because its end was not yet read: a Python traceback ends with its exception),
    and blocks are added after it for as long as the find still grows (it ran past the window's
    end), up to ``longest`` characters in all.
    """
    text = dropped = ""
    pieces = iter(blocks)
    for block in pieces:
        text += block
        if len(text) < window:
            continue
        result = parse(text)
        if found(result):
            return _whole(result, dropped, text, pieces, parse, found, longest)
        start = text.rfind("\n", 0, len(text) - overlap) + 1 or len(text) - overlap
        dropped, text = text[:start], text[start:]
    result = parse(text)
    return _whole(result, dropped, text, iter(()), parse, found, longest) if found(result) else result


def _whole(
    result: T,
    dropped: str,
    text: str,
    pieces: Iterator[str],
    parse: Callable[[str], T],
    found: Callable[[T], bool],
    longest: int,
) -> T:
    """``result`` (found in ``text``) with its start in ``dropped`` and its end in the blocks
    that follow, if it has them."""
    if dropped:
        earlier = parse(dropped + text)
        if found(earlier):  # the first find of the two: the same one, or the one it was part of
            result, text = earlier, dropped + text
    for block in pieces:
        if len(text) >= longest:
            break
        text += block
        grown = parse(text)
        if grown == result:
            break
        result = grown
    return result
