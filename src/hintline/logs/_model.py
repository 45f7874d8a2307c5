"""A logged error entry, as every log reader returns it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from hintline.traces import Trace

__all__ = ["Entry"]


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
        format: the detected log format (``python``, ``jsonl``, ``logback``, ``journald``,
            ``monolog``, ``typo3``, ``plain``).
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
