"""Turn whatever ``clean()`` is given into bounded text: str, bytes, or an exception chain.

Everything here is total: any input gives a ``str`` of at most :data:`MAX_INPUT_BYTES` UTF-8
bytes, with no NUL and no ANSI colour sequence.
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Iterator

__all__ = ["HEAD_BYTES", "MAX_INPUT_BYTES", "SEPARATOR", "TAIL_BYTES", "bound", "prepare"]

MAX_INPUT_BYTES = 64 * 1024
"""Inputs are bounded to 64 KiB of UTF-8."""
HEAD_BYTES = 16 * 1024
"""A larger input keeps its first 16 KiB ..."""
SEPARATOR = "\n...\n"
"""... joined by this line ..."""
TAIL_BYTES = MAX_INPUT_BYTES - HEAD_BYTES - len(SEPARATOR)
"""... to its last 48 KiB (less the separator), where exceptions usually are."""

_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-_]")
_MAX_CHAIN = 64


def _head_cut(data: bytes, size: int) -> int:
    """Largest cut position <= size that is not inside a UTF-8 character."""
    cut = size
    while cut > 0 and (data[cut] & 0xC0) == 0x80:
        cut -= 1
    return cut


def _tail_cut(data: bytes, start: int) -> int:
    """Smallest cut position >= start that is not inside a UTF-8 character."""
    while start < len(data) and (data[start] & 0xC0) == 0x80:
        start += 1
    return start


def _bound_bytes(data: bytes) -> str:
    if len(data) <= MAX_INPUT_BYTES:
        return data.decode("utf-8", "replace")
    head = data[: _head_cut(data, HEAD_BYTES)].decode("utf-8", "replace")
    tail = data[_tail_cut(data, len(data) - TAIL_BYTES) :].decode("utf-8", "replace")
    return head + SEPARATOR + tail


def bound(text: str) -> str:
    """Bound ``text`` to 64 KiB of UTF-8: keep the first 16 KiB and the last 48 KiB.

    Cuts fall on character boundaries. Text that fits is returned unchanged (the same object).
    """
    size = len(text)
    if size <= MAX_INPUT_BYTES // 4:  # even 4-byte characters fit
        return text
    if text.isascii():
        if size <= MAX_INPUT_BYTES:
            return text
        return text[:HEAD_BYTES] + SEPARATOR + text[size - TAIL_BYTES :]
    if size <= MAX_INPUT_BYTES and len(text.encode("utf-8", "surrogatepass")) <= MAX_INPUT_BYTES:
        return text
    # Each character is at least one byte, so the byte-bounded head and tail lie within these
    # character slices; they cannot overlap because the whole text is over the bound.
    head = text[:HEAD_BYTES].encode("utf-8", "surrogatepass")
    tail = text[-TAIL_BYTES:].encode("utf-8", "surrogatepass")
    if len(head) > HEAD_BYTES:
        head = head[: _head_cut(head, HEAD_BYTES)]
    if len(tail) > TAIL_BYTES:
        tail = tail[_tail_cut(tail, len(tail) - TAIL_BYTES) :]
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


def _exception_line(exc: BaseException) -> str:
    try:
        lines = traceback.format_exception_only(type(exc), exc)
        text = " ".join(line.strip() for line in lines if line.strip())
    except Exception:  # a hostile __str__ must not break clean()
        text = f"{type(exc).__name__}: <unprintable>"
    return text


def exception_text(exc: BaseException) -> str:
    """The whole chain as text: the formatted traceback(s), then one ``Type: message`` line
    per exception, outermost first, so the innermost cause is the last line."""
    try:
        formatted = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    except Exception:  # formatting is best effort
        formatted = ""
    summary = "\n".join(_exception_line(e) for e in _chain(exc))
    return f"{formatted}\n{summary}" if formatted else summary


def prepare(error: object) -> str:
    """Any input as bounded text without NULs or ANSI colour sequences. Never raises."""
    if isinstance(error, str):
        text = bound(error)
    elif isinstance(error, (bytes, bytearray, memoryview)):
        text = _bound_bytes(bytes(error))
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
