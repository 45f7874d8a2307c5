"""Read application logs: the newest error entries, their hints, repeated errors grouped.

>>> from hintline import logs
>>> entries = logs.read("var/log/app.log", limit=5, since="2h")  # doctest: +SKIP
>>> [logs.hint_for(e).text for e in entries]  # doctest: +SKIP

Formats (detected from the first lines, or named with ``format=``): ``python`` (``logging``
text with tracebacks), ``jsonl`` (python-json-logger, structlog, ECS, Monolog JSON, pino…),
``logback`` and ``log4j`` (default patterns with stack lines), ``journald`` (``journalctl -o
json``, split traces merged), ``monolog`` (LineFormatter), ``typo3`` (FileWriter) and ``plain``
(a timestamp starts a record).
"""

from __future__ import annotations

from hintline.logs._formats import FORMATS, LogFormatError, detect_format
from hintline.logs._group import entry_fingerprint, group, hint_for
from hintline.logs._model import Entry, Group
from hintline.logs._reader import find, iter_entries, iter_newest, read

__all__ = [
    "FORMATS",
    "Entry",
    "Group",
    "LogFormatError",
    "detect_format",
    "entry_fingerprint",
    "find",
    "group",
    "hint_for",
    "iter_entries",
    "iter_newest",
    "read",
]
