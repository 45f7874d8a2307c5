"""The log formats: detection from the first lines, record boundaries, and one record to an Entry."""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable
from datetime import date
from functools import cache, lru_cache
from pathlib import Path

from hintline.exceptions import HintlineError
from hintline.logs._container import CONTAINER_FORMATS
from hintline.logs._container import sniff as sniff_container
from hintline.logs._json import parse_json_record
from hintline.logs._levels import numbers_at_least, words_at_least
from hintline.logs._model import Entry
from hintline.logs._source import Prefilter, head_lines
from hintline.logs._system import SYSTEM_FORMATS, SYSTEM_START, parse_system_record, sniff_system
from hintline.logs._text import START, Parsed, parse_text_record
from hintline.traces import Trace, parse_trace

__all__ = ["FORMATS", "LogFormatError", "build_entry", "detect_format", "parse_record", "start_pattern", "wanted_pattern"]

FORMATS = (
    "python", "jsonl", "logback", "log4j", "journald", "monolog", "typo3", "plain", *SYSTEM_FORMATS,
    *CONTAINER_FORMATS,
)
"""Every format name that ``format=`` / ``--format`` accepts."""


class LogFormatError(HintlineError, ValueError):
    """The log's format is not one hintline reads, or ``format=`` names no known format."""


_JAVA_FRAME = re.compile(r"^\s+at [\w$.<>/]+\(")
# (a bracket's content stops at the next bracket and is bounded: ``[^\]]*`` searched over a
# line of ``[[[[`` backtracks quadratically, 0.1 s per 4 KiB line)
_JAVA_HEADER = re.compile(
    r"\[[^\[\]\n]{0,300}\]\s+(?:ERROR|WARN|INFO|DEBUG|TRACE|FATAL)\s+\S+\s+-"
    r"|(?:ERROR|WARN|INFO|DEBUG|TRACE|FATAL)\s+\[[^\[\]\n]{0,300}\]\s+\S+\s+-"
)
_LOG4J_FRAME = re.compile(r"\)\s+~?\[[^\[\]\n]{0,300}\]\s*$")
_PYTHON = re.compile(
    r"^(?:(?:CRITICAL|FATAL|ERROR|WARNING|INFO|DEBUG):[^:\s]*:|Traceback \(most recent call last\):"
    r"|\[?\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}(?! \[)"
    r"|(?:CRITICAL|ERROR|WARNING|INFO|DEBUG) \d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3})"
)


def _text_starts(fmt: str, lines: list[str]) -> int:
    pattern = re.compile(f"(?:{START[fmt]})")
    return sum(1 for line in lines if pattern.match(line))


def _sniff(lines: list[str]) -> str | None:
    lines = [ln for ln in lines if ln.strip()]
    if not lines:
        return "plain"
    if (container := sniff_container(lines)) is not None:
        return container
    objects = sum(ln.lstrip().startswith("{") for ln in lines)
    # JSON lines, or JSON lines each followed by a raw traceback (structlog over stdlib logging)
    if objects >= max(1, len(lines) * 0.6) or (lines[0].lstrip().startswith("{") and objects >= len(lines) * 0.15):
        for line in lines[:50]:
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if isinstance(obj, dict):
                return "journald" if "__REALTIME_TIMESTAMP" in obj or "__CURSOR" in obj else "jsonl"
        if not _text_starts("plain", lines):
            return None  # JSON-looking lines, none of them JSON, and no timestamped record
        # else: timestamped records whose messages run on over lines that open with "{" (a
        # payload printed after an error): read as text records below
    for fmt in ("typo3", "monolog"):
        if _text_starts(fmt, lines):
            return fmt
    java = any(_JAVA_FRAME.match(ln) for ln in lines) or any(_JAVA_HEADER.search(ln) for ln in lines)
    if java and _text_starts("logback", lines):
        return "log4j" if any(_LOG4J_FRAME.search(ln) for ln in lines if _JAVA_FRAME.match(ln)) else "logback"
    if any(_PYTHON.match(ln) for ln in lines) and _text_starts("python", lines):
        return "python"
    system = sniff_system(lines)
    if system is not None:
        return system
    if _text_starts("plain", lines):
        return "plain"
    return "text"  # a text log of a layout no reader knows: records split at non-continuation lines


def detect_format(path_or_lines: str | os.PathLike[str] | Iterable[str | bytes]) -> str:
    """Detect a log's format from its first lines (a path, or the lines themselves).

    Returns:
        one of :data:`FORMATS`; an empty log is ``plain``; text of a layout no reader knows is
        ``text`` (the fallback reader).

    Raises:
        LogFormatError: binary data, or JSON lines that hold no JSON object.
        OSError: the file cannot be read.

    .. versionadded:: 0.1
    """
    if isinstance(path_or_lines, (str, os.PathLike)):
        raw: Iterable[str | bytes] = head_lines(Path(path_or_lines))
        where = os.fspath(path_or_lines)
    else:
        raw, where = list(path_or_lines)[:200], "the given lines"
    lines = [x.decode("utf-8", "replace") if isinstance(x, bytes) else x for x in raw]
    lines = [ln.rstrip("\r\n") for part in lines for ln in part.split("\n")][:200]
    if sum("\x00" in ln for ln in lines) > len(lines) // 10 and any("\x00" in ln for ln in lines):
        raise LogFormatError(f"{where}: binary data, not a log")
    fmt = _sniff(lines)
    if fmt is None:
        raise LogFormatError(f"{where}: unknown log format (use --format: {', '.join(FORMATS)})")
    return fmt


def check_format(fmt: str) -> str:
    """Return ``fmt`` if it names a format, else raise :class:`LogFormatError`."""
    if fmt not in FORMATS:
        raise LogFormatError(f"unknown log format {fmt!r} (known: {', '.join(FORMATS)})")
    return fmt


@cache
def start_pattern(fmt: str) -> re.Pattern[bytes]:
    """Matches at the start of a line that opens a record of ``fmt``."""
    if fmt == "journald":
        return re.compile(rb"(?m)^(?=[ \t]*[^\s])")
    if fmt == "jsonl":
        # a JSON object at the line start opens a record; other lines (a raw traceback, whose
        # indented source lines may start with "{") continue it
        return re.compile(rb"(?m)^(?=\{)")
    if fmt in SYSTEM_START:
        return re.compile(f"(?m)^(?:{SYSTEM_START[fmt]})".encode())
    return re.compile(f"(?m)^(?:{START[fmt]})".encode())


# The level words each text format's library prints. A custom level (logging.addLevelName) is
# not looked for by the pre-filter: read such a log with min_level=None and filter the entries.
_PSR3 = ("EMERGENCY", "ALERT", "CRITICAL", "ERROR", "WARNING", "NOTICE", "INFO", "DEBUG")
_VOCABULARY = {
    "python": ("CRITICAL", "FATAL", "ERROR", "WARNING", "WARN", "INFO", "DEBUG", "NOTSET"),
    "logback": ("ERROR", "WARN", "INFO", "DEBUG", "TRACE"),
    "log4j": ("FATAL", "ERROR", "WARN", "INFO", "DEBUG", "TRACE"),
    "monolog": _PSR3,
    "typo3": _PSR3,
}


@cache
def wanted_pattern(fmt: str, min_rank: int) -> Prefilter | None:
    """A permissive pre-filter for the first line of records at ``min_rank`` or above, or ``None``."""
    words = words_at_least(min_rank)
    alternation = "|".join(words)
    if fmt == "jsonl":
        nums = "|".join(str(n) for n in numbers_at_least(min_rank))
        level_keys = r'"(?:level|levelname|level_name|severity|log\.level|loglevel|lvl)"'
        trace_keys = r'"(?:exc_info|exception|stack_trace|stacktrace|exc_text|traceback|stack|error|err)"'
        pattern = rf'{level_keys}\s*:\s*(?:"(?i:{alternation})(?:[+-]\d+)?"|(?:{nums})\b)|{trace_keys}\s*:'
        return Prefilter(re.compile(pattern.encode()))
    if fmt in ("journald", "plain", *CONTAINER_FORMATS) or fmt in SYSTEM_START:
        return None  # journald merges entries; plain records may carry a trace without a level
    # Upper-case level words the library prints: found by bytes.find on the shortest spelling of
    # each (ERR finds ERROR). Fewer words, fewer passes over each block.
    words = tuple(w for w in words if w in _VOCABULARY[fmt]) or words
    alternation = "|".join(words)
    literals = sorted({w for w in words if not any(o != w and w.startswith(o) for o in words)})
    return Prefilter(
        re.compile(rf"(?:{alternation})(?![\w-])".encode()),
        tuple(w.encode() for w in literals),
        window=200,
    )


def parse_record(text: str, fmt: str, *, reference: date | None = None) -> Parsed | None:
    """Parse one record of ``fmt`` (JSON formats: one line). ``None`` when it is not a record."""
    if fmt == "jsonl":
        return parse_json_record(text, reference=reference)
    if fmt in SYSTEM_START:
        return parse_system_record(text, fmt, reference=reference)
    return parse_text_record(text, fmt, reference=reference)


_CAUSED_BY = re.compile(r"^Caused by: ([\w$.]+)", re.MULTILINE)
_PY_LAST = re.compile(r"^([A-Za-z_][\w.]*)(?::\s|:?$)", re.MULTILINE)
_CHAINING = re.compile(r"\n[ \t\r\n]{0,16}(?:The above exception|During handling)")
_PHP_OBJECT = re.compile(r"\[object\] \(([\w\\]+)\(code: ")
_PHP_UNCAUGHT = re.compile(r"Uncaught ([\w\\]+)")
_GENERIC = re.compile(
    r"(?<![\w\\.$])([A-Za-z_\\][\w\\.$]{0,200}?(?:Exception|Error|Throwable|Fault|Failure)\b[\w\\.$]{0,100})\s*[:(]"
    r"|^([A-Za-z_\\][\w\\.$]{0,200}?(?:Exception|Error))\s*$",
    re.MULTILINE,
)


def _fallback_type(trace_text: str, message: str) -> str | None:
    """The exception class from the text, when the trace parser found none."""
    text = trace_text or message
    if not text:
        return None
    if len(text) > 16384:  # the class sits near either end; keep the regexes linear on huge records
        text = text[:8192] + "\n" + text[-8192:]
    causes = _CAUSED_BY.findall(text)
    if causes:
        return str(causes[-1])
    if "Traceback (most recent call last):" in text:
        # Python prints the innermost cause first; its block ends at the chaining sentence.
        first = text.split("Traceback (most recent call last):", 1)[1]
        # the blank line before the chaining sentence: a bounded run (``\n\s*`` backtracks
        # quadratically over a run of blank lines)
        first = _CHAINING.split(first, maxsplit=1)[0]
        found = [m for m in _PY_LAST.findall(first) if m not in ("During", "The")]
        if found:
            return str(found[-1])
    objects = _PHP_OBJECT.findall(text)  # Monolog: the previous exceptions follow the outer one
    if objects:
        return str(objects[-1])
    m = _PHP_UNCAUGHT.search(text)
    if m:
        return m.group(1)
    m = _GENERIC.search(text)
    if m:
        return m.group(1) or m.group(2)
    return None


def entry_key(raw: str) -> str:
    """The stable entry key: a hash of the record's text (which holds its time), never its place."""
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:16]


_CACHED_TRACE_CHARS = 16_384  # the cache holds at most 1024 such texts (about 16 MB)


def _parse_trace_safely(text: str) -> Trace:
    try:
        return parse_trace(text)
    except Exception:
        return Trace()


_parse_trace_cached = lru_cache(maxsize=1024)(_parse_trace_safely)


def _trace_of(text: str) -> Trace:
    """``parse_trace`` of a trace text, remembered: a log repeats the same tracebacks."""
    if len(text) > _CACHED_TRACE_CHARS:
        return _parse_trace_safely(text)
    return _parse_trace_cached(text)


def build_entry(parsed: Parsed, raw: str, source: str, fmt: str) -> Entry:
    """Turn parsed fields into an :class:`Entry`, parsing its trace. Never raises."""
    trace = _trace_of(parsed.trace_text) if parsed.trace_text else Trace()
    root = trace.root_cause
    exc_type = root.type if root is not None and root.type else (
        parsed.exception_type or _fallback_type(parsed.trace_text, parsed.message)
    )
    raw = raw.rstrip()
    return Entry(
        key=entry_key(raw),
        timestamp=parsed.timestamp,
        level=parsed.level or "ERROR",
        component=parsed.component,
        message=parsed.message,
        exception_type=exc_type,
        trace=trace,
        raw=raw,
        source=source,
        format=fmt,
        extra=parsed.extra,
        trace_text=parsed.trace_text,
    )
