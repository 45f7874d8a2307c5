"""A logged error entry, as every log reader returns it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from hintline.hint import Hint
from hintline.traces import Trace

__all__ = ["Entry", "Group"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One error-level log record with its exception, if any.

    Attributes:
        key: the stable entry key, a hash of the entry's content and time (never its position);
            the same record read twice, or after new lines are logged, has the same key.
        timestamp: when it was logged (timezone-aware where the log says), or ``None``.
        level: ``ERROR``, ``CRITICAL``, ``FATAL``… as normalised upper case.
        component: the logger or component name, if any.
        message: the log message (not scrubbed: scrub before it leaves).
        exception_type: the exception class, if any.
        trace: the parsed exception chain (possibly empty).
        raw: the entry's raw text (all its lines).
        source: the file it came from.
        format: the detected log format (``python``, ``jsonl``, ``logback``, ``log4j``,
            ``journald``, ``monolog``, ``typo3``, ``plain``).
        extra: other fields the log carried (thread, pid, request id…), as text.
        trace_text: the exception text as logged (traceback, stack), unparsed; ``""`` if none.

    .. versionadded:: 0.1
    """

    key: str
    timestamp: datetime | None
    level: str
    component: str | None
    message: str
    exception_type: str | None
    trace: Trace
    raw: str
    source: str
    format: str
    extra: dict[str, str] = field(default_factory=dict)
    trace_text: str = ""

    @property
    def text(self) -> str:
        """The message followed by the exception text: what a hint is made from."""
        if not self.trace_text or self.trace_text in self.message:
            return self.message
        if not self.message or self.message in self.trace_text:
            return self.trace_text
        return f"{self.message}\n{self.trace_text}"


@dataclass(frozen=True, slots=True)
class Group:
    """Entries that are the same error, by :func:`hintline.fingerprint.fingerprint`.

    Attributes:
        fingerprint: the group's fingerprint (exception classes and in-app frames, or logger and message template).
        count: how many entries fell in the group.
        first_seen: the oldest entry's time (``None`` if no entry had one).
        last_seen: the newest entry's time.
        example: the newest entry of the group.
        hint: the deterministic hint of the example.

    .. versionadded:: 0.1
    """

    fingerprint: str
    count: int
    first_seen: datetime | None
    last_seen: datetime | None
    example: Entry
    hint: Hint
