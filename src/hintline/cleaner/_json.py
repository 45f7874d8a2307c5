"""JSON as an error arrives in it: a JSON string, a log record (python-json-logger, structlog,
pino, ECS, Monolog, journald), JSON lines of records, or an error envelope (a JSON-RPC
``error``, a tool result's ``content`` texts, ``{"error": {"message": …}}``, ``{"detail": …}``),
as the text a person would read: the message and exception fields the log readers know, a JSON
string inside a field decoded once more (JSON inside JSON). Part of
:mod:`hintline.cleaner.normalise`.
"""

from __future__ import annotations

import json
import json.scanner
from typing import Any

__all__ = ["MAX_DEPTH", "json_string", "json_text"]

MAX_DEPTH = 2
"""JSON inside a JSON string is decoded this many levels deep."""


# the C scanner, without loads()'s checks
_SCAN = json.scanner.make_scanner(json.JSONDecoder())  # type: ignore[arg-type]


def _loads(text: str) -> Any:
    """``json.loads`` for a text that starts with its value (the caller stripped it)."""
    try:
        value, end = _SCAN(text, 0)
    except StopIteration as stop:  # the scanner's way of saying "no JSON value here"
        raise ValueError("not JSON") from stop
    if end != len(text) and text[end:].strip():
        raise ValueError("extra data")
    return value


def json_text(text: str, depth: int) -> str | None:
    """The text of a JSON document or of JSON lines, or ``None`` when it is not JSON."""
    try:
        value = _loads(text)
    except ValueError:
        return _json_lines(text, depth)
    out = _value_text(value, depth, 0, top=True)
    return out if out else None


def _json_lines(text: str, depth: int) -> str | None:
    """JSON lines (a log file of JSON records): each record as ``LEVEL message`` + its trace."""
    parts: list[str] = []
    decoded = 0
    for line in text.split("\n"):
        line = line.strip()
        if line.startswith("{"):
            try:
                value = _loads(line)
            except ValueError:
                parts.append(line)
                continue
            if isinstance(value, dict):
                decoded += 1
                parts.append(_record_text(value, depth, 0, top=True, lines=True) or line)
                continue
        parts.append(line)
    return "\n".join(parts) if decoded else None


_Path = tuple[str, "str | None", str]


def _paths(keys: tuple[str, ...]) -> tuple[_Path, ...]:
    """Field names as (first, second, dotted): ``error.message`` is ``message`` inside
    ``error``, or a flat ``"error.message"`` field (ECS writes both)."""
    out: list[_Path] = []
    for key in keys:
        first, _, second = key.partition(".")
        out.append((first, second or None, key) if not key.startswith("@") else (key, None, key))
    return tuple(out)


# Field names the log readers know (hintline.logs), and those of error envelopes.
_MESSAGE_KEYS = _paths(
    ("message", "msg", "event", "@message", "error.message", "err.message", "MESSAGE")
)
_TRACE_KEYS = _paths((
    "exc_info", "exception", "error.stack_trace", "stack_trace", "stacktrace", "exc_text",
    "traceback", "stack", "trace", "err.stack", "error.stack", "context.exception",
))  # fmt: skip
_LEVEL_KEYS = _paths(
    ("level", "levelname", "level_name", "severity", "log.level", "loglevel", "lvl")
)
_MORE_KEYS = _paths(("error.data", "data", "detail", "details", "cause", "errors", "error.details"))
_ENVELOPE_KEYS = (
    "error", "errors", "detail", "details", "description", "reason", "cause", "data",
    "result", "content", "text", "stderr", "output", "title", "err",
)  # fmt: skip
_ENVELOPE_SET = frozenset(_ENVELOPE_KEYS)
_NUMERIC_LEVELS = {
    10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARNING", 50: "ERROR", 60: "FATAL",  # pino
    100: "DEBUG", 200: "INFO", 250: "NOTICE", 300: "WARNING", 400: "ERROR",  # Monolog
    500: "CRITICAL", 550: "ALERT", 600: "EMERGENCY",
}  # fmt: skip
_KNOWN = frozenset(
    name
    for paths in (_MESSAGE_KEYS, _TRACE_KEYS, _LEVEL_KEYS, _MORE_KEYS)
    for first, _, dotted in paths
    for name in (first, dotted)
)
_MORE_FIRSTS = frozenset(name for first, _, dotted in _MORE_KEYS for name in (first, dotted))
# The names each path tuple can be found under (a record without any of them is passed over).
_MORE = tuple((path,) for path in _MORE_KEYS)
_ROLES = (_MESSAGE_KEYS, _TRACE_KEYS, _LEVEL_KEYS, *_MORE)
# The names each role's paths can be found under, by the role's identity (a tuple's hash is
# not cached: looking it up by value would hash every path on every call).
_NAMES: dict[int, frozenset[str]] = {
    id(paths): frozenset(name for first, _, dotted in paths for name in (first, dotted))
    for paths in _ROLES
}
_MAX_PARTS = 64
_MAX_NEST = 6


def _first(obj: dict[str, Any], names: frozenset[str], paths: tuple[_Path, ...]) -> Any:
    """The first non-empty value at one of ``paths``; ``names``: the known keys ``obj`` has."""
    if names.isdisjoint(_NAMES[id(paths)]):
        return None
    for first, second, dotted in paths:
        if second is None:
            value = obj.get(first) if first in names else None
        else:
            inner = obj.get(first) if first in names else None
            value = inner.get(second) if isinstance(inner, dict) else None
            if value is None and dotted in names:
                value = obj.get(dotted)
        if value:
            return value
    return None


def _level(value: Any) -> str | None:
    if isinstance(value, str):  # the common case first (a bool is an int, never a str)
        if len(value) <= 12:
            word: str = value.strip()
            if word.isalpha():
                return word.upper()
        return None
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return _NUMERIC_LEVELS.get(value)
    return None


def _maybe_json(text: str, depth: int) -> str:
    """A string field that is itself JSON (a tool result carrying a JSON-RPC error): its text."""
    stripped = text.strip()
    if depth < MAX_DEPTH and stripped[:1] in ("{", "[") and stripped[-1:] in ("}", "]"):
        try:
            inner = _loads(stripped)
        except ValueError:
            return text
        decoded = _value_text(inner, depth + 1, 0, top=False)
        if decoded:
            return decoded
    return text


def _value_text(value: Any, depth: int, nest: int, *, top: bool) -> str:
    if nest > _MAX_NEST:
        return ""
    if isinstance(value, str):
        return _maybe_json(value, depth)
    if isinstance(value, dict):
        return _record_text(value, depth, nest, top=top)
    if isinstance(value, list):
        parts = [_value_text(item, depth, nest + 1, top=False) for item in value[:_MAX_PARTS]]
        return "\n".join(part for part in parts if part)
    return ""


def _trace_text(trace: Any, depth: int, nest: int) -> str:
    if isinstance(trace, str):
        return trace
    if isinstance(trace, list) and trace and isinstance(trace[0], dict) and "frames" in trace[0]:
        from hintline.logs._json import _structlog_frames  # structlog's dict_tracebacks

        return _structlog_frames(trace)[0]
    if isinstance(trace, dict) and "class" in trace:
        from hintline.logs._json import monolog_exception  # Monolog's normalised exception

        return monolog_exception(trace)[0]
    return _value_text(trace, depth, nest + 1, top=False)


def _add(parts: list[str], text: str) -> None:
    text = text.strip("\n")
    if not text.strip():
        return
    for n, part in enumerate(parts):
        if text in part:
            return
        if part in text:  # the trace repeats the message (pino's err.stack)
            parts[n] = text
            return
    parts.append(text)


_ERROR_OBJECT_KEYS = frozenset(("code", "message", "data"))


def _error_code(obj: dict[str, Any], message: str) -> int | None:
    """The numeric ``code`` of the error object whose ``message`` is ``message``: a JSON-RPC
    error (``{"code": -32601, "message": …}``), alone or as an envelope's ``error``/``err``
    (a log record's own fields are not an error object: its ``code`` is left alone)."""
    for holder in (obj.get("error"), obj.get("err"), obj):
        if not isinstance(holder, dict) or holder.get("message") is not message:
            continue
        if holder is obj and not obj.keys() <= _ERROR_OBJECT_KEYS:
            return None
        code = holder.get("code")
        if isinstance(code, int) and not isinstance(code, bool):
            return code
    return None


_BELOW_ERROR = frozenset(("TRACE", "DEBUG", "INFO", "NOTICE", "WARN", "WARNING"))


def _record_text(
    obj: dict[str, Any], depth: int, nest: int, *, top: bool, lines: bool = False
) -> str:
    """A JSON object's error text: a log record's message and trace, else an envelope's.

    A top-level record's level opens its text (``INFO message``) when it is below ERROR, or
    always among JSON lines (``lines``), so that the failure can be located.
    """
    parts: list[str] = []
    names = _KNOWN.intersection(obj)  # (a frozenset's intersection with a dict: 4x keys() &)
    # an envelope without a known field (a JSON-RPC response, a tool result) has no message,
    # trace nor level to look for
    message = _first(obj, names, _MESSAGE_KEYS) if names else None
    if message is not None:
        text = _value_text(message, depth, nest + 1, top=False)
        if isinstance(message, str) and "\n" not in text:
            code = _error_code(obj, message)
            if code is not None:  # a line as JSON-RPC clients print it (``-32601: Method …``)
                text = f"{text}\n{code}: {text}"
        _add(parts, text)
    trace = _first(obj, names, _TRACE_KEYS) if names else None
    if trace is not None:
        _add(parts, _trace_text(trace, depth, nest))
    if parts and not names.isdisjoint(_MORE_FIRSTS):
        for role in _MORE:
            item = _first(obj, names, role)
            if isinstance(item, (str, dict, list)) and item:
                _add(parts, _value_text(item, depth, nest + 1, top=False))
    else:
        if not _ENVELOPE_SET.isdisjoint(obj):  # (most records have none of them)
            for key in _ENVELOPE_KEYS:
                if key in obj:
                    _add(parts, _value_text(obj[key], depth, nest + 1, top=False))
        if not parts:
            for key in ("code", "status", "type", "name"):
                item = obj.get(key)
                if isinstance(item, (str, int)) and not isinstance(item, bool):
                    parts.append(f"{key}: {item}")
    text = "\n".join(parts[:_MAX_PARTS])
    if not top or not text:
        return text
    level = _level(_first(obj, names, _LEVEL_KEYS)) if names else None
    if level and (lines or level in _BELOW_ERROR):
        return f"{level} {text}"
    return text


def json_string(text: str) -> str | None:
    try:
        value = _loads(text)
    except ValueError:
        return None
    return value if isinstance(value, str) else None
