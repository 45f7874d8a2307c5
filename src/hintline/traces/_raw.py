"""What a language parser hands back before frames get their ``in_app`` decision."""

from __future__ import annotations

__all__ = [
    "MAX_EXCEPTIONS",
    "MAX_FRAMES",
    "MAX_LINE",
    "MAX_MESSAGE",
    "RawException",
    "RawFrame",
    "RawTrace",
    "looks_like_log_line",
]

import re

from hintline._text import cut_at_boundary

# (file, line, function, module, column)
RawFrame = tuple["str | None", "int | None", "str | None", "str | None", "int | None"]

MAX_LINE = 4096  # a longer line is never a frame: it is message text at most
MAX_FRAMES = 2000  # per exception; the rest are counted in ``omitted``
MAX_EXCEPTIONS = 200
MAX_MESSAGE = 8192

_LOG_START = re.compile(
    r"\s*(?:\[?\d{4}-\d\d-\d\d[T ]|\[?\d\d:\d\d:\d\d|(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|"
    r"CRITICAL|FATAL|SEVERE)\b|[A-Z][a-z]{2},? [ \d]?\d )"
)


def looks_like_log_line(line: str) -> bool:
    """Whether ``line`` starts like a new log record (a timestamp or a level word)."""
    return _LOG_START.match(line) is not None


class RawException:
    """A mutable exception under construction: ``frames`` are throw site first."""

    __slots__ = ("frames", "message", "omitted", "parent", "relation", "type")

    def __init__(self, type_: str, message: str = "", relation: str | None = None) -> None:
        self.type = type_
        self.message = message
        self.frames: list[RawFrame] = []
        self.relation = relation
        self.parent: int | None = None
        self.omitted = 0

    def add(self, frame: RawFrame) -> None:
        """Append a frame (the build step caps them at ``MAX_FRAMES``, counting the rest)."""
        self.frames.append(frame)

    def append_message(self, text: str) -> None:
        """Add a continuation line to the message (capped)."""
        if len(self.message) < MAX_MESSAGE:
            self.message = f"{self.message}\n{text}" if self.message else text
            if len(self.message) > MAX_MESSAGE:
                self.message = cut_at_boundary(self.message, MAX_MESSAGE)  # no half secret


class RawTrace:
    """The parser's result: exceptions outermost first (``parent`` set) and extra facts.

    ``long_lines`` is set when a frame was read from a line longer than MAX_LINE: its strings
    then stay out of the shared memos (whose entries must stay small).
    """

    __slots__ = ("exceptions", "extra", "language", "long_lines")

    def __init__(self, language: str) -> None:
        self.language = language
        self.exceptions: list[RawException] = []
        self.extra: dict[str, str] = {}
        self.long_lines = False

    def chain_parents(self) -> None:
        """Give every exception without a parent the previous one (a plain chain)."""
        for i, exc in enumerate(self.exceptions):
            if i and exc.parent is None:
                exc.parent = i - 1
                if exc.relation is None:
                    exc.relation = "cause"
            elif not i:
                exc.parent = None
                exc.relation = None
