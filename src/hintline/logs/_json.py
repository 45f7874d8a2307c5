"""JSON-lines logs (python-json-logger, structlog, ECS, Monolog's JsonFormatter, pino…) and
``journalctl -o json`` exports, where one trace arrives split over several entries."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from datetime import date
from typing import Any

from hintline.logs._levels import SYSLOG_PRIORITIES, level_rank, normalise_level, numeric_level
from hintline.logs._text import Parsed, parse_text_record, split_trace
from hintline.logs._time import from_epoch, parse_timestamp

__all__ = ["merge_journal", "monolog_exception", "parse_json_record"]

_TIME_KEYS = ("@timestamp", "timestamp", "time", "asctime", "datetime", "ts", "date", "t")
_LEVEL_KEYS = ("level", "levelname", "level_name", "severity", "log.level", "loglevel", "lvl")
_COMPONENT_KEYS = ("logger", "name", "logger_name", "log.logger", "channel", "component")
_MESSAGE_KEYS = ("message", "msg", "event", "@message", "error.message")
_TRACE_KEYS = (
    "exc_info", "exception", "error.stack_trace", "stack_trace", "stacktrace", "exc_text",
    "traceback", "stack", "trace", "err.stack", "error.stack", "context.exception",
)
_TYPE_KEYS = ("error.type", "err.type", "exc_type", "exception.class", "error.kind")
_SKIP_EXTRA = {*_TIME_KEYS, *_LEVEL_KEYS, *_COMPONENT_KEYS, *_MESSAGE_KEYS, *_TRACE_KEYS, *_TYPE_KEYS}


def _flatten(obj: dict[str, Any], prefix: str = "", depth: int = 0) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in obj.items():
        name = f"{prefix}{key}"
        out[name] = value
        if isinstance(value, dict) and depth < 2:
            out.update(_flatten(value, name + ".", depth + 1))
    return out


def _first(flat: dict[str, Any], keys: Iterable[str]) -> Any:
    for key in keys:
        value = flat.get(key)
        if value not in (None, "", [], {}):
            return value
    return None


def monolog_exception(exc: dict[str, Any]) -> tuple[str, str | None]:
    """Render Monolog's normalised exception (``class``, ``message``, ``file``, ``trace``)."""
    cls = exc.get("class")
    lines = [f"{cls}: {exc.get('message', '')}" if cls else str(exc.get("message", ""))]
    if exc.get("file"):
        lines.append(f"  thrown in {exc['file']}")
    trace = exc.get("trace")
    if isinstance(trace, list):
        lines.append("Stack trace:")
        lines.extend(f"#{i} {frame}" for i, frame in enumerate(trace))
    root = cls if isinstance(cls, str) else None
    previous = exc.get("previous")
    if isinstance(previous, dict):
        text, inner = monolog_exception(previous)
        lines.append(f"Caused by: {text}")
        root = inner or root
    return "\n".join(lines), root


def _structlog_frames(chain: list[Any]) -> tuple[str, str | None]:
    """structlog's ``dict_tracebacks``: a list of exceptions with frames (their locals are dropped)."""
    blocks: list[str] = []
    root: str | None = None
    for exc in reversed(chain):
        if not isinstance(exc, dict):
            continue
        lines = ["Traceback (most recent call last):"]
        for frame in exc.get("frames") or []:
            if isinstance(frame, dict):
                lines.append(f'  File "{frame.get("filename")}", line {frame.get("lineno")}, in {frame.get("name")}')
        value = exc.get("exc_value", "")
        lines.append(f"{exc.get('exc_type')}: {value}" if value else str(exc.get("exc_type")))
        blocks.append("\n".join(lines))
        root = root or str(exc.get("exc_type"))
    joiner = "\n\nThe above exception was the direct cause of the following exception:\n\n"
    return joiner.join(blocks), root


_SLOG = re.compile(r"^(DEBUG|INFO|WARN|ERROR)([+-]\d{1,3})$", re.IGNORECASE)
_SLOG_BASE = {"DEBUG": -4, "INFO": 0, "WARN": 4, "ERROR": 8}


def _level(value: Any) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return numeric_level(value)
    if isinstance(value, str) and value.strip():
        m = _SLOG.match(value.strip())
        if m:  # Go slog: "ERROR+4", "WARN-2" (DEBUG -4, INFO 0, WARN 4, ERROR 8)
            n = _SLOG_BASE[m[1].upper()] + int(m[2])
            return "ERROR" if n >= 8 else "WARNING" if n >= 4 else "INFO" if n >= 0 else "DEBUG"
        return normalise_level(value)
    return None


def parse_json_record(line: str, *, reference: date | None = None) -> Parsed | None:
    """Parse one JSON log line; ``None`` if the line is not a JSON object. Never raises.

    Lines after the JSON object (structlog rendering JSON over stdlib ``logging``, whose
    formatter appends the raw traceback) are the record's trace.
    """
    line, _, after = line.partition("\n")
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(obj, dict):
        return None
    flat = _flatten(obj)
    parsed = Parsed()
    ts = _first(flat, _TIME_KEYS)
    if isinstance(ts, str):
        parsed.timestamp = parse_timestamp(ts, reference=reference)
    elif isinstance(ts, (int, float)) and not isinstance(ts, bool):
        parsed.timestamp = from_epoch(float(ts))
    parsed.level = _level(_first(flat, _LEVEL_KEYS))
    component = _first(flat, _COMPONENT_KEYS)
    parsed.component = component if isinstance(component, str) else None
    message = _first(flat, _MESSAGE_KEYS)
    parsed.message = message if isinstance(message, str) else ("" if message is None else json.dumps(message))
    trace = _first(flat, _TRACE_KEYS)
    if isinstance(trace, str):
        parsed.trace_text = trace.strip()
    elif isinstance(trace, list) and trace and isinstance(trace[0], dict):
        parsed.trace_text, parsed.exception_type = _structlog_frames(trace)
    elif isinstance(trace, list):
        parsed.trace_text = "\n".join(str(x) for x in trace)
    elif isinstance(trace, dict):
        parsed.trace_text, parsed.exception_type = monolog_exception(trace)
    exc_type = _first(flat, _TYPE_KEYS)
    if isinstance(exc_type, str):
        parsed.exception_type = exc_type
        if parsed.trace_text and not re.search(rf"^(?:Caused by: )?{re.escape(exc_type)}\b", parsed.trace_text, re.M):
            # ecs-logging (Python) keeps only the frames: complete it into a traceback
            if parsed.trace_text.startswith("File "):
                parsed.trace_text = "Traceback (most recent call last):\n  " + parsed.trace_text
            text = _first(flat, ("error.message", "err.message", "exc_value"))
            parsed.trace_text += f"\n{exc_type}: {text}" if isinstance(text, str) else f"\n{exc_type}"
    if after.strip() and not parsed.trace_text:
        parsed.trace_text = after.strip("\n")
    if parsed.level is None and parsed.trace_text:
        parsed.level = "ERROR"
    for key, value in obj.items():
        if key not in _SKIP_EXTRA and isinstance(value, (str, int, float)) and len(parsed.extra) < 20:
            parsed.extra[key] = str(value)[:200]
    return parsed


# --- journald -----------------------------------------------------------------------------

# A journal entry continues the previous one of the same process when its text is a
# traceback/stack continuation line and it was logged right after it.
_CONTINUES = re.compile(
    r"^(?:\s|Traceback \(most recent call last\):|During handling of the above|The above exception"
    r"|Caused by: |Suppressed: |\.\.\. \d+ (?:more|common)|Stack trace:|#\d+ |\s*thrown in |\^|~|$"
    r"|Exception in thread |(?:[a-zA-Z_$][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error|Throwable)(?::|$))"
)
_EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.$]*(?::\s|$)")
_NEW_TRACE = "Traceback (most recent call last):"
_CHAINED = re.compile(r"^(?:During handling of the above|The above exception|\s*$)")
_GAP_US = 2_000_000


def _journal_message(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # non-UTF-8 text is exported as an array of bytes
        try:
            return bytes(int(b) & 0xFF for b in value).decode("utf-8", "replace")
        except (TypeError, ValueError):
            return ""
    return ""


def _journal_fields(line: str) -> dict[str, Any] | None:
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


def merge_journal(lines: Iterator[str], *, reference: date | None = None) -> Iterator[tuple[Parsed, str]]:
    """Journal entries merged into records, oldest first, with their raw JSON lines.

    Entries of the same process (``_PID`` and ``SYSLOG_IDENTIFIER``) are merged while each
    next text is a continuation line and follows within two seconds. A Python traceback that
    starts at another timestamp than the entry before it (and is not chained to it) opens its
    own record: a logged record reaches the journal in one write, an uncaught traceback later.
    """
    pending: dict[tuple[str, str], tuple[list[str], list[str], int, int]] = {}
    for line in lines:
        obj = _journal_fields(line)
        if obj is None:
            continue
        stream = (str(obj.get("_PID", "")), str(obj.get("SYSLOG_IDENTIFIER") or obj.get("_COMM") or ""))
        text = _journal_message(obj.get("MESSAGE")).rstrip("\n")
        try:
            when = int(obj.get("__REALTIME_TIMESTAMP", 0))
        except (TypeError, ValueError):
            when = 0
        try:
            priority = int(obj.get("PRIORITY", 6))
        except (TypeError, ValueError):
            priority = 6
        held = pending.get(stream)
        if held is not None:
            texts, raws, last, prio = held
            in_trace = any(t.startswith(("Traceback", "  File ")) for t in texts[-3:])
            continues = bool(_CONTINUES.match(text) or (in_trace and _EXCEPTION_LINE.match(text)))
            if continues and when != last and text.startswith(_NEW_TRACE) and not _CHAINED.match(texts[-1]):
                # logging writes a record and its traceback at once (one journal timestamp); a
                # traceback that arrives later, not chained, is the interpreter's uncaught one
                continues = False
            if continues and 0 <= when - last <= _GAP_US and len(texts) < 5000:
                texts.append(text)
                raws.append(line.rstrip("\n"))
                pending[stream] = (texts, raws, when, min(prio, priority))
                continue
            yield _journal_record(pending.pop(stream), stream, reference)
        pending[stream] = ([text], [line.rstrip("\n")], when, priority)
        if len(pending) > 64:  # bounded memory: finish the records of quiet processes
            for key in [k for k, v in pending.items() if when - v[2] > _GAP_US]:
                yield _journal_record(pending.pop(key), key, reference)
    for stream, held in list(pending.items()):
        yield _journal_record(held, stream, reference)


def _journal_record(
    held: tuple[list[str], list[str], int, int], stream: tuple[str, str], reference: date | None
) -> tuple[Parsed, str]:
    texts, raws, _, priority = held
    first = from_epoch(float(json.loads(raws[0]).get("__REALTIME_TIMESTAMP", 0) or 0))
    inner = parse_text_record("\n".join(texts), "python", reference=reference)
    parsed = Parsed(timestamp=first, component=stream[1] or None, extra={"pid": stream[0]} if stream[0] else {})
    level = SYSLOG_PRIORITIES[priority] if 0 <= priority < len(SYSLOG_PRIORITIES) else "INFO"
    if inner.level:
        level = inner.level  # the text's own level beats the stream's priority (--stderr-priority)
    if inner.level and inner.component:
        parsed.component = inner.component
        parsed.message, parsed.trace_text = inner.message, inner.trace_text
    else:
        parsed.message, parsed.trace_text = split_trace(texts)
        if not parsed.message and parsed.trace_text:
            parsed.message = texts[-1]
    if parsed.trace_text and not inner.level and level_rank(level) < level_rank("ERROR"):
        level = "ERROR"  # a unit's stderr is logged at info; an uncaught trace is an error
    parsed.level = level
    return parsed, "\n".join(raws)
