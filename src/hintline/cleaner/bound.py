"""Turn whatever ``clean()`` is given into bounded text: str, bytes, or an exception chain.

Everything here is total: any input gives a ``str`` of at most :data:`MAX_INPUT_BYTES` UTF-8
bytes, with no NUL and no ANSI colour sequence.

A longer input keeps its first 16 KiB and last 48 KiB, where failures usually are. When its
tail holds no failure (a failure word such as ``Traceback``, ``Caused by:``, ``ERROR``,
``panic:``, or, in a log whose records open with a timestamp or a bracket, a stray line that
opens no record: :mod:`hintline.cleaner._failures`), the rest of the input is screened the same
way, reversed, and a window around its last failure is kept between a shorter head and tail: an
exception or a crashed child's message in the middle of a long log is not lost.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from hintline import _lazyre as re  # patterns compiled on first use
from hintline.cleaner._failures import FAILURE_MARKERS, RECORD_LINE_REVERSED, SCREEN, record_shape

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

WINDOW_BEFORE = 32 * 1024
"""A failure found in the middle keeps this much text before its marker ..."""
WINDOW_AFTER = 8 * 1024
"""... and this much after it, ..."""
WINDOW_EDGE = 12 * 1024 - 16
"""... between this much of the input's head and of its tail."""
_FAILURES = SCREEN
_MAX_INDENTED = 256
_LOOK_ABOVE = 64 * 1024
_LAST_LINES = 4096

# CSI (colours, cursor), OSC up to BEL or ST (OSC 8 hyperlinks, window titles: their URL and
# title go too), then any other two-character escape
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]{0,4096}(?:\x07|\x1b\\)?|\x1b[@-_]")
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
    size = len(view)
    if size <= MAX_INPUT_BYTES:
        return bytes(view).decode("utf-8", "replace")
    head = bytes(view[: _head_cut(view, HEAD_BYTES)])
    tail_start = _tail_cut(view, size - TAIL_BYTES)
    tail = bytes(view[tail_start:])
    head_text = head.decode("utf-8", "replace")
    shape = record_shape(head_text)
    plain = head_text + SEPARATOR + tail.decode("utf-8", "replace")
    if _FAILURES.search(tail.decode("utf-8", "replace"), shape):
        return plain
    at = _last_failure_byte(view, len(head), tail_start, shape)
    if at < 0:
        return plain
    # what a stream keeps (read_bounded): the bytes about the failure between head and tail
    lo = max(len(head), at - 4 * WINDOW_BEFORE)
    hi = min(tail_start, at + 4 * WINDOW_AFTER)
    sep = SEPARATOR.encode()
    kept = (
        head
        + (b"" if lo == len(head) else sep)
        + bytes(view[lo:hi])
        + (b"" if hi == tail_start else sep)
        + tail
    )
    return bound(kept.decode("utf-8", "replace"))


def _last_failure_byte(
    view: bytes | bytearray | memoryview, start: int, end: int, shape: str | None
) -> int:
    """Where the last failure marker of ``view[start:end]`` starts (a byte offset), or -1:
    1 MiB decoded and screened at a time, from the end."""
    overlap = max(len(marker) for marker in FAILURE_MARKERS) * 4
    stop = end
    while stop > start:
        lo = max(start, stop - (1 << 20))
        piece = bytes(view[lo : min(end, stop + overlap)])
        text = piece.decode("utf-8", "replace")
        at = _FAILURES.last(text, shape=shape)
        if at >= 0:
            return lo + (at if text.isascii() else len(text[:at].encode("utf-8")))
        stop = lo
    return -1


def read_bounded(stream: BinaryIO, chunk: int = 1 << 16) -> bytes:
    """Read a binary stream to its end keeping only what :func:`bound` would keep: its head,
    its tail, and the bytes around the last failure marker of what lies between.

    Memory stays at a few hundred KiB however long the stream is (``yes | hintline clean``).
    """
    head = bytearray()
    tail = bytearray()
    middle = _Middle()
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
                middle.shape = record_shape(bytes(head).decode("utf-8", "replace"))
        if len(tail) > 4 * TAIL_BYTES:
            drop = _head_cut(tail, len(tail) - TAIL_BYTES)
            middle.add(bytes(tail[:drop]))
            del tail[:drop]
    if not split:
        return bytes(head)
    start = _tail_cut(tail, max(0, len(tail) - TAIL_BYTES))
    plain = bytes(head) + SEPARATOR.encode() + bytes(tail[start:])
    middle.add(bytes(tail[:start]))
    tail_text = bytes(tail[start:]).decode("utf-8", "replace")
    if not middle.failure or _FAILURES.search(tail_text, middle.shape):
        return plain
    text = (bytes(head) + middle.joined() + bytes(tail[start:])).decode("utf-8", "replace")
    return bound(text).encode("utf-8", "surrogatepass")


class _Middle:
    """What a stream drops between its head and its tail, screened as it passes: the bytes
    around the last failure marker (enough for :func:`bound`'s window), nothing else."""

    def __init__(self) -> None:
        self.recent = bytearray()  # the last bytes dropped: the context before a marker
        self.failure = bytearray()  # the bytes around the last marker, or empty
        self.after = 0  # bytes still wanted after the marker
        self.reaches_head = True  # nothing was lost between the head and the failure
        self.reaches_tail = True  # nothing was lost between the failure and the tail
        self.total = 0  # bytes dropped so far
        self.shape: str | None = None  # the log's record shape, read from the head

    def add(self, dropped: bytes) -> None:
        if not dropped:
            return
        text = dropped.decode("utf-8", "replace")
        at = _FAILURES.last(text, shape=self.shape)
        if at >= 0:
            at_byte = at if text.isascii() else len(text[:at].encode("utf-8"))
            at_byte = min(at_byte, len(dropped))
            context = bytes(self.recent) + dropped[:at_byte]
            before = context[-4 * WINDOW_BEFORE :]
            self.reaches_head = len(before) == self.total + at_byte
            after = dropped[at_byte : at_byte + 4 * WINDOW_AFTER]
            self.failure = bytearray(before + after)
            self.after = 4 * WINDOW_AFTER - len(after)
            self.reaches_tail = len(after) == len(dropped) - at_byte
        elif self.failure:
            if self.after > 0 and self.reaches_tail:
                taken = dropped[: self.after]
                self.failure += taken
                self.after -= len(taken)
                self.reaches_tail = len(taken) == len(dropped)
            else:
                self.reaches_tail = False
        self.recent += dropped
        if len(self.recent) > 4 * WINDOW_BEFORE:
            del self.recent[: len(self.recent) - 4 * WINDOW_BEFORE]
        self.total += len(dropped)

    def joined(self) -> bytes:
        """The failure's bytes, a separator line where bytes were left out on either side."""
        sep = SEPARATOR.encode()
        return (
            (b"" if self.reaches_head else sep)
            + bytes(self.failure)
            + (b"" if self.reaches_tail else sep)
        )


def bound(text: str) -> str:
    """Bound ``text`` to 64 KiB of UTF-8: keep the first 16 KiB and the last 48 KiB, or, when
    the tail holds no failure marker and the middle does, the first and last 12 KiB around a
    window of 40 KiB about the last failure.

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
        window = _failure_window(text)
        if window is not None:
            return window
        cut = _after_space(text, HEAD_BYTES)
        return text[:cut] + SEPARATOR + text[_at_space(text, size - TAIL_BYTES) :]
    if size <= MAX_INPUT_BYTES and len(text.encode("utf-8", "surrogatepass")) <= MAX_INPUT_BYTES:
        return text
    window = _failure_window(text)
    if window is not None:
        return window
    # Each character is at least one byte, so the byte-bounded head and tail lie within these
    # character slices; they cannot overlap because the whole text is over the bound.
    head = text[:HEAD_BYTES].encode("utf-8", "surrogatepass")
    tail = text[-TAIL_BYTES:].encode("utf-8", "surrogatepass")
    end = _head_cut(head, HEAD_BYTES) if len(head) > HEAD_BYTES else _after_space(head, len(head))
    start = _tail_cut(tail, len(tail) - TAIL_BYTES) if len(tail) > TAIL_BYTES else _at_space(tail, 0)
    head, tail = head[:end], tail[start:]
    return head.decode("utf-8", "surrogatepass") + SEPARATOR + tail.decode("utf-8", "surrogatepass")


def _utf8_head(text: str, size: int) -> str:
    """The longest start of ``text`` of at most ``size`` UTF-8 bytes."""
    if text.isascii():
        return text[:size]
    data = text[:size].encode("utf-8", "surrogatepass")
    if len(data) > size:
        data = data[: _head_cut(data, size)]
    return data.decode("utf-8", "surrogatepass")


def _utf8_tail(text: str, size: int) -> str:
    """The longest end of ``text`` of at most ``size`` UTF-8 bytes."""
    if text.isascii():
        return text[-size:]
    data = text[-size:].encode("utf-8", "surrogatepass")
    if len(data) > size:
        data = data[_tail_cut(data, len(data) - size) :]
    return data.decode("utf-8", "surrogatepass")


def _block_start(text: str, at: int, shape: str) -> int:
    """Where the run of lines that are not records, holding ``at``, starts: the line after the
    last record line above it (within ``_LOOK_ABOVE``). A crashed child's trace printed
    between log records is read from its first line (``AxiosError: …``), not its last."""
    line_start = text.rfind("\n", 0, at) + 1
    lo = max(HEAD_BYTES, line_start - _LOOK_ABOVE)
    if lo >= line_start:
        return at
    found = RECORD_LINE_REVERSED[shape].search(text[lo:line_start][::-1])
    if found is None:
        newline = text.find("\n", lo, line_start)
        return line_start if newline < 0 else newline + 1
    record = line_start - 1 - found.start()  # the first character of the record line
    return min(line_start, text.find("\n", record, line_start) + 1 or line_start)


def _failure_window(text: str) -> str | None:
    """Head, a window around the last failure, tail: when the failure lies in the middle."""
    size = len(text)
    tail_start = max(0, size - TAIL_BYTES)
    shape = record_shape(text)
    if _FAILURES.search(text[-_LAST_LINES:], shape) or _FAILURES.search(text[tail_start:], shape):
        return None  # the usual cut keeps the last failure (most often in the last lines)
    at = _FAILURES.last(text, HEAD_BYTES, tail_start + len(FAILURE_MARKERS[0]), shape)
    if at < 0:
        return None
    if shape is not None:  # a log: the failure starts where its run of non-record lines does
        at = _block_start(text, at, shape)
    for _ in range(_MAX_INDENTED if shape is None else 0):
        # a marker on an indented line is inside a dump: look above
        line_start = text.rfind("\n", 0, at) + 1
        if text[line_start : line_start + 1] not in (" ", "\t"):
            break
        above = _FAILURES.last(text, max(HEAD_BYTES, line_start - _LOOK_ABOVE), line_start, shape)
        if above < 0:
            break
        at = above
    # whole lines on every side of a cut: a line cut in two reads as noise
    before = _utf8_tail(text[max(WINDOW_EDGE, at - WINDOW_BEFORE) : at], WINDOW_BEFORE)
    if "\n" in before:
        before = before[before.find("\n") + 1 :]
    after = _utf8_head(text[at : at + WINDOW_AFTER], WINDOW_AFTER)
    if "\n" in after and at + len(after) < size:
        after = after[: after.rfind("\n")]
    head = _utf8_head(text, WINDOW_EDGE)
    # _utf8_tail reads only the last characters: the slice starts there, not at the window (a
    # copy of the whole rest of a 10 MB input otherwise)
    tail_size = WINDOW_EDGE - 2 * len(SEPARATOR)
    tail = _utf8_tail(text[max(at + len(after), size - tail_size) :], tail_size)
    return (
        head[: head.rfind("\n") + 1 or len(head)].rstrip("\n")
        + SEPARATOR
        + before
        + after
        + SEPARATOR
        + tail[tail.find("\n") + 1 :]
    )


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
