"""Turn whatever ``clean()`` is given into bounded text: str, bytes, or an exception chain.

Everything here is total: any input gives a ``str`` of at most :data:`MAX_INPUT_BYTES` UTF-8
bytes, with no NUL and no ANSI colour sequence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import BinaryIO

__all__ = [
    "HEAD_BYTES",
    "MAX_INPUT_BYTES",
    "SEPARATOR",
    "TAIL_BYTES",
    "bound",
    "prepare",
    "read_bounded",
]

MAX_INPUT_BYTES = 64 * 1024
"""Inputs are bounded to 64 KiB of UTF-8."""
HEAD_BYTES = 16 * 1024
"""A larger input keeps its first 16 KiB ..."""
SEPARATOR = "\n...\n"
"""... joined by this line ..."""
TAIL_BYTES = MAX_INPUT_BYTES - HEAD_BYTES - len(SEPARATOR)
"""... to its last 48 KiB (less the separator), where exceptions usually are."""

_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-_]")
_MAX_CHAIN = 10_000
_KEEP_ENDS = 32


_NEAR = 1024
"""How far a cut moves to fall at whitespace, so that it splits no token (a secret the
scrubber recognises only whole: ``postgresql://app:S3c`` has lost its ``@host``)."""
_SPACES = (" ", "\n", "\t", "\r")
_BYTE_SPACES = tuple(c.encode() for c in _SPACES)


def _after_space(data: str | bytes | bytearray | memoryview, cut: int) -> int:
    """The position just after the last whitespace in the ``_NEAR`` characters before ``cut``
    (``cut`` itself when there is none)."""
    lo = max(0, cut - _NEAR)
    if isinstance(data, str):
        window: str | bytes = data[lo:cut]
        found = max(window.rfind(c) for c in _SPACES)  # type: ignore[arg-type]
    else:
        window = bytes(data[lo:cut])
        found = max(window.rfind(c) for c in _BYTE_SPACES)
    return lo + found + 1 if found >= 0 else cut


def _at_space(data: str | bytes | bytearray | memoryview, start: int) -> int:
    """The position of the first whitespace in the ``_NEAR`` characters from ``start``
    (``start`` itself when there is none)."""
    hi = min(len(data), start + _NEAR)
    if isinstance(data, str):
        window: str | bytes = data[start:hi]
        hits = [window.find(c) for c in _SPACES]  # type: ignore[arg-type]
    else:
        window = bytes(data[start:hi])
        hits = [window.find(c) for c in _BYTE_SPACES]
    found = [h for h in hits if h >= 0]
    return start + min(found) if found else start


def _head_cut(data: bytes | bytearray | memoryview, size: int) -> int:
    """Largest cut position <= size that is not inside a UTF-8 character, moved back to
    whitespace when there is some near (whitespace is ASCII: a character boundary)."""
    cut = size
    while cut > 0 and (data[cut] & 0xC0) == 0x80:
        cut -= 1
    return _after_space(data, cut)


def _tail_cut(data: bytes | bytearray | memoryview, start: int) -> int:
    """Smallest cut position >= start that is not inside a UTF-8 character, moved on to
    whitespace when there is some near."""
    while start < len(data) and (data[start] & 0xC0) == 0x80:
        start += 1
    return _at_space(data, start)


def _bound_bytes(data: bytes | bytearray | memoryview) -> str:
    """Bound binary data before decoding it (a 1 GB object is never copied whole)."""
    view = memoryview(data).cast("B") if isinstance(data, memoryview) else data
    if len(view) <= MAX_INPUT_BYTES:
        return bytes(view).decode("utf-8", "replace")
    head = bytes(view[: _head_cut(view, HEAD_BYTES)]).decode("utf-8", "replace")
    tail = bytes(view[_tail_cut(view, len(view) - TAIL_BYTES) :]).decode("utf-8", "replace")
    return head + SEPARATOR + tail


def read_bounded(stream: BinaryIO, chunk: int = 1 << 16) -> bytes:
    """Read a binary stream to its end keeping only what :func:`bound` would keep.

    Memory stays at a few hundred KiB however long the stream is (``yes | hintline clean``).
    """
    head = bytearray()
    tail = bytearray()
    split = False
    while True:
        block = stream.read(chunk)
        if not block:
            break
        if split:
            tail += block
        else:
            head += block
            if len(head) > MAX_INPUT_BYTES:
                cut = _head_cut(head, HEAD_BYTES)
                tail += head[cut:]
                del head[cut:]
                split = True
        if len(tail) > 4 * TAIL_BYTES:
            del tail[: len(tail) - TAIL_BYTES]
    if not split:
        return bytes(head)
    start = _tail_cut(tail, max(0, len(tail) - TAIL_BYTES))
    return bytes(head) + SEPARATOR.encode() + bytes(tail[start:])


def bound(text: str) -> str:
    """Bound ``text`` to 64 KiB of UTF-8: keep the first 16 KiB and the last 48 KiB.

    Cuts fall on character boundaries, and at whitespace when there is some within 1 KiB: a cut
    inside a token would leave a piece of a secret the scrubber cannot recognise. Text that
    fits is returned unchanged (the same object).
    """
    size = len(text)
    if size <= MAX_INPUT_BYTES // 4:  # even 4-byte characters fit
        return text
    if text.isascii():
        if size <= MAX_INPUT_BYTES:
            return text
        cut = _after_space(text, HEAD_BYTES)
        return text[:cut] + SEPARATOR + text[_at_space(text, size - TAIL_BYTES) :]
    if size <= MAX_INPUT_BYTES and len(text.encode("utf-8", "surrogatepass")) <= MAX_INPUT_BYTES:
        return text
    # Each character is at least one byte, so the byte-bounded head and tail lie within these
    # character slices; they cannot overlap because the whole text is over the bound.
    head = text[:HEAD_BYTES].encode("utf-8", "surrogatepass")
    tail = text[-TAIL_BYTES:].encode("utf-8", "surrogatepass")
    end = _head_cut(head, HEAD_BYTES) if len(head) > HEAD_BYTES else _after_space(head, len(head))
    start = _tail_cut(tail, len(tail) - TAIL_BYTES) if len(tail) > TAIL_BYTES else _at_space(tail, 0)
    head, tail = head[:end], tail[start:]
    return head.decode("utf-8", "surrogatepass") + SEPARATOR + tail.decode("utf-8", "surrogatepass")


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """The exception, its causes/contexts and group members: outermost first, depth first."""
    seen: set[int] = set()
    stack = [exc]
    while stack and len(seen) < _MAX_CHAIN:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        nxt: list[BaseException] = []
        members = getattr(current, "exceptions", None)
        if isinstance(members, (tuple, list)):
            nxt.extend(m for m in members if isinstance(m, BaseException))
        if current.__cause__ is not None:
            nxt.append(current.__cause__)
        elif current.__context__ is not None and not current.__suppress_context__:
            nxt.append(current.__context__)
        stack.extend(reversed(nxt))


_MAX_FRAMES = 200


def _exception_line(exc: BaseException) -> str:
    """``module.Type: message`` as Python prints it (without building a TracebackException,
    which walks the whole chain every time)."""
    cls = type(exc)
    name = getattr(cls, "__qualname__", None) or getattr(cls, "__name__", "Exception")
    module = getattr(cls, "__module__", None)
    if module and module not in ("__main__", "builtins"):
        name = f"{module}.{name}"
    try:
        message = str(exc)
    except Exception:  # a hostile __str__ must not break clean()
        message = "<exception str() failed>"
    return f"{name}: {message}" if message else str(name)


def _traceback_text(exc: BaseException) -> str:
    """The frames of one exception (the innermost 200), as Python prints them."""
    if exc.__traceback__ is None:
        return ""
    import traceback  # here: only exception objects need it, and it costs 2 ms of start-up

    try:
        frames = traceback.extract_tb(exc.__traceback__, limit=-_MAX_FRAMES)
        return "Traceback (most recent call last):\n" + "".join(frames.format())
    except Exception:  # formatting is best effort
        return ""


def exception_text(exc: BaseException) -> str:
    """The whole chain as text: each exception's frames and ``Type: message`` line, innermost
    cause first as Python prints it, then one ``Type: message`` line per exception, outermost
    first, so that the innermost cause is the last line. A chain of more than 64 keeps its 32 outermost and 32 innermost exceptions."""
    chain = list(_chain(exc))
    if len(chain) > 2 * _KEEP_ENDS:  # a runaway chain: its outermost and innermost ends
        chain = chain[:_KEEP_ENDS] + chain[-_KEEP_ENDS:]
    lines = [_exception_line(e) for e in chain]
    parts = [
        _traceback_text(e) + line for e, line in zip(reversed(chain), reversed(lines), strict=True)
    ]
    return "\n\n".join(parts) + "\n\n" + "\n".join(lines)


def prepare(error: object) -> str:
    """Any input as bounded text without NULs or ANSI colour sequences. Never raises."""
    if isinstance(error, str):
        text = bound(error)
    elif isinstance(error, (bytes, bytearray, memoryview)):
        text = _bound_bytes(error)
    elif isinstance(error, BaseException):
        text = bound(exception_text(error))
    else:
        try:
            text = bound(str(error))
        except Exception:
            text = f"<{type(error).__name__} object>"
    if "\x00" in text:
        text = text.replace("\x00", "")
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates
            text = text.encode("utf-8", "replace").decode("utf-8")
    return text
