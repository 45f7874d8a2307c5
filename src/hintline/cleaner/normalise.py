"""Normalise an error as it arrives, so that the rules read what a person reading it would.

* A JSON string, a JSON log record (python-json-logger, structlog, pino, ECS, Monolog…), JSON
  lines of them, or a JSON envelope of an error (a JSON-RPC ``error``, a tool result's
  ``content`` texts, ``{"error": {"message": …}}``, ``{"detail": …}``) becomes its text: the
  message and exception fields the log readers know, one or two levels deep (a JSON string
  inside a JSON field is decoded too). A record's level opens its line (``ERROR message``)
  so that the failure can be located.
* An HTML page becomes its text: the ``<title>`` and the ``<pre>`` blocks (else the whole
  body), tags dropped, ``<br>`` as a line break, entities decoded.
* CRLF and lone CR become LF; HTML entities and JSON escapes left in plain text (``&#x27;``,
  ``\\n``, ``\\"``) are decoded, so captured keys carry no escape residue.
* A prefix common to every line is cut: an ISO timestamp, a syslog header, a container
  runtime's (CRI ``… stdout F``, Compose ``web-1  | ``), pytest's ``E``, uniform indentation.

A text with none of these is returned as is (the same object), after a few checks that cost
well under a microsecond. Total: any input gives a ``str``.
"""

from __future__ import annotations

import html
import json
import json.scanner
import re
from typing import Any

__all__ = ["normalise"]

_MAX_DEPTH = 2
_ISO = r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?"
_SYSLOG_TS = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[ ][ \d]\d[ ]\d\d:\d\d:\d\d"
_LEVELS = r"(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|CRITICAL|FATAL)"
# Line prefixes, each tried on the first line; cut when every non-blank line has it.
_PREFIXES = (
    re.compile(rf"{_ISO}[ ](?:stdout|stderr)[ ][FP][ ]"),  # Kubernetes CRI log files
    re.compile(  # syslog (RFC 3164 and 5424 shapes), journalctl's short output
        rf"(?:<\d{{1,3}}>\d?[ ]?)?(?:{_SYSLOG_TS}|{_ISO})[ ](?!{_LEVELS}\b)[\w.\-]+[ ]"
        r"[\w./\-]+(?:\[\d+\])?:[ ]?"
    ),
    re.compile(r"[\w.\-]{1,64}[ ]*\|[ ]?"),  # docker compose ``web-1  | ``
    re.compile(rf"\[?{_ISO}\]?(?:[ ]|\t|:[ ])"),  # an ISO timestamp (docker logs -t, ts(1))
    re.compile(r"E(?=[ ]|$)"),  # pytest's failure lines (the spaces after it are indentation)
)
_GATE = re.compile(
    r"\[?\d{4}-|<\d|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[ ]|[\w.\-]{1,64}[ ]*\||E[ ]|[ \t]"
)
_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z]{2,8});")
_JSON_ESCAPE = re.compile(r"\\(?:n|t|r|\"|/|\\|u[0-9a-fA-F]{4})")
_TAG = re.compile(
    r"<(?:!DOCTYPE|/?(?:html|head|body|pre|p|br|h[1-6]|title|div|span|code|hr|center|table|"
    r"tr|td|ul|li|b|i|a|em|strong|address|main|section|article)\b)[^>]{0,2000}>",
    re.IGNORECASE,
)
_TITLE = re.compile(r"<title[^>]{0,200}>(.{0,500}?)</title\s*>", re.IGNORECASE | re.DOTALL)
_BREAK = re.compile(r"<br\s*/?>|</(?:p|div|h[1-6]|li|tr|pre|title|address|center)\s*>|<hr\b[^>]*>",
                    re.IGNORECASE)  # fmt: skip
_ANY_TAG = re.compile(r"</?[A-Za-z!][^<>]{0,2000}>")
_BLANKS = re.compile(r"\n[ \t]*(?:\n[ \t]*)+")


def normalise(text: str) -> str:
    """``text`` as a person would read it (see the module docstring). Never raises.

    Plain text (the common case) is recognised by a few character checks and returned as is.
    """
    try:
        return text if _plain(text) else _normalise(text, 0)
    except (ValueError, RecursionError, MemoryError):
        return text


def _plain(text: str) -> bool:
    """Whether there is nothing to normalise (a few character checks, no regex)."""
    if not text:
        return True
    first = text[0]
    return not (
        first in _FIRST_SPECIAL
        or "\r" in text
        or "\\" in text
        or "&" in text
        or (first in _MONTH_FIRST and text.startswith(_MONTHS))
        or (first == "E" and text[1:2] in _PYTEST_E_NEXT)
        or 0 < text.find("|", 0, 72) < text.find("\n", 0, 72) % 73
        or _is_html(text)
    )


def _normalise(text: str, depth: int) -> str:
    if not text:
        return text
    first = text[0]
    if first in " \t\n\ufeff":
        stripped = text.strip()
        first = stripped[:1]
        if first in ("{", "[", '"', "<") and depth <= _MAX_DEPTH:
            text = stripped
    if depth <= _MAX_DEPTH:
        if first in ("{", "["):
            decoded = _json_text(text, depth)
            if decoded is not None:
                return decoded if _plain(decoded) else _normalise(decoded, depth + 1)
        elif first == '"':
            decoded = _json_string(text)
            if decoded is not None:
                return decoded if _plain(decoded) else _normalise(decoded, depth + 1)
        if _is_html(text):
            return _normalise(_html_text(text), _MAX_DEPTH + 1)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\\" in text and text.count("\\n") + text.count('\\"') > text.count("\n"):
        text = _unescape_json(text)
    if "&" in text and _ENTITY.search(text):
        text = html.unescape(text)
    if _may_be_prefixed(text) and _GATE.match(text):
        text = _cut_prefixes(text)
    return text


_MONTHS = ("Jan ", "Feb ", "Mar ", "Apr ", "May ", "Jun ", "Jul ", "Aug ", "Sep ", "Oct ", "Nov ",
           "Dec ")  # fmt: skip
_MONTH_FIRST = frozenset("JFMASOND")
# What a text's first character may be when there is something to do: JSON, HTML, indentation,
# a timestamp, a syslog priority, a bracket (pytest's E: with a space after it).
_FIRST_SPECIAL = frozenset(' \t\n\ufeff{["<0123456789')
_PYTEST_E_NEXT = frozenset((" ", "\n", ""))
_PREFIX_FIRST = frozenset("0123456789[< \tE")
# The letters a page's first tags start with (``<module>``, ``<init>``, ``<lambda>`` in traces
# are not tags, and are passed over without the regex).
_TAG_FIRST = frozenset("!/hHpPbBtTdDsScCaA")


def _may_be_prefixed(text: str) -> bool:
    """Cheap checks before the prefix regex: what the first character of a prefix can be."""
    return bool(text) and (
        text[0] in _PREFIX_FIRST
        or text.startswith(_MONTHS)
        or 0 < text.find("|", 0, 72) < text.find("\n", 0, 72) % 73
    )


def _is_html(text: str) -> bool:
    """Whether a known HTML tag opens in the first 512 characters (``<module>``, ``<init>`` in
    traces are not tags)."""
    at = text.find("<", 0, 512)
    tries = 0
    while at >= 0 and tries < 8:
        if text[at + 1 : at + 2] in _TAG_FIRST and _TAG.match(text, at):
            return True
        at = text.find("<", at + 1, 512)
        tries += 1
    return False


# --- JSON ------------------------------------------------------------------------------------

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


def _json_string(text: str) -> str | None:
    try:
        value = _loads(text)
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def _unescape_json(text: str) -> str:
    """Undo JSON string escapes in a text that holds an escaped string but is not JSON."""
    return _JSON_ESCAPE.sub(_unescape_one, text)


_SIMPLE = {"n": "\n", "t": "\t", "r": "", '"': '"', "/": "/", "\\": "\\"}


def _unescape_one(found: re.Match[str]) -> str:
    code = found[0][1:]
    if code[0] == "u":
        return chr(int(code[1:], 16))
    return _SIMPLE[code]


def _json_text(text: str, depth: int) -> str | None:
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


def _first(obj: dict[str, Any], names: set[str], paths: tuple[_Path, ...]) -> Any:
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
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return _NUMERIC_LEVELS.get(value)
    if isinstance(value, str) and value.strip().isalpha() and len(value) <= 12:
        return value.strip().upper()
    return None


def _maybe_json(text: str, depth: int) -> str:
    """A string field that is itself JSON (a tool result carrying a JSON-RPC error): its text."""
    stripped = text.strip()
    if depth < _MAX_DEPTH and stripped[:1] in ("{", "[") and stripped[-1:] in ("}", "]"):
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


_BELOW_ERROR = frozenset(("TRACE", "DEBUG", "INFO", "NOTICE", "WARN", "WARNING"))


def _record_text(
    obj: dict[str, Any], depth: int, nest: int, *, top: bool, lines: bool = False
) -> str:
    """A JSON object's error text: a log record's message and trace, else an envelope's.

    A top-level record's level opens its text (``INFO message``) when it is below ERROR, or
    always among JSON lines (``lines``), so that the failure can be located.
    """
    parts: list[str] = []
    names = obj.keys() & _KNOWN
    message = _first(obj, names, _MESSAGE_KEYS)
    if message is not None:
        _add(parts, _value_text(message, depth, nest + 1, top=False))
    trace = _first(obj, names, _TRACE_KEYS)
    if trace is not None:
        _add(parts, _trace_text(trace, depth, nest))
    if parts and not names.isdisjoint(_MORE_FIRSTS):
        for role in _MORE:
            item = _first(obj, names, role)
            if isinstance(item, (str, dict, list)) and item:
                _add(parts, _value_text(item, depth, nest + 1, top=False))
    else:
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
    level = _level(_first(obj, names, _LEVEL_KEYS))
    if level and (lines or level in _BELOW_ERROR):
        return f"{level} {text}"
    return text


# --- HTML ------------------------------------------------------------------------------------


def _html_text(text: str) -> str:
    """The text of an HTML page or fragment: its ``<pre>`` blocks, else its title and body text;
    tags dropped, entities decoded."""
    title_found = _TITLE.search(text)
    title = _tags_out(title_found[1]).strip() if title_found else ""
    lower = text.lower()
    pres = _elements(text, lower, "pre")
    if pres:
        body = "\n".join(_tags_out(text[start:end]) for start, end in pres)
    else:
        visible = []
        at = 0
        for start, end in sorted(
            span for name in ("script", "style", "head") for span in _elements(text, lower, name)
        ):
            if start >= at:
                visible.append(text[at : text.rfind("<", at, start) if start > at else at])
                at = lower.find(">", end) + 1 or len(text)
        visible.append(text[at:])
        body = _tags_out("".join(visible))
    body = _BLANKS.sub("\n", body).strip("\n")
    if title and title not in body:
        if pres:  # the page's status after the error it shows
            return f"{body}\n{title}" if body else title
        return f"{title}\n{body}" if body else title
    return body or title


def _elements(text: str, lower: str, name: str) -> list[tuple[int, int]]:
    """The content spans of every ``<name …>…</name>`` element, found in one pass (an element
    left open runs to the end of the text)."""
    spans: list[tuple[int, int]] = []
    at = 0
    while len(spans) < _MAX_PARTS:
        start = lower.find(f"<{name}", at)
        if start < 0:
            break
        after = lower[start + len(name) + 1 : start + len(name) + 2]
        opened = lower.find(">", start)
        if opened < 0:
            break
        if after not in (">", " ", "\t", "\n", "/"):
            at = opened + 1
            continue  # <prefix…>, not <pre>
        close = lower.find(f"</{name}", opened)
        end = len(text) if close < 0 else close
        spans.append((opened + 1, end))
        at = end + 1
    return spans


def _tags_out(fragment: str) -> str:
    fragment = _BREAK.sub("\n", fragment)
    fragment = _ANY_TAG.sub("", fragment)
    return html.unescape(fragment)


# --- line prefixes ---------------------------------------------------------------------------


def _cut_prefixes(text: str, rounds: int = 2) -> str:
    """Cut a prefix that every non-blank line carries (tried in the order of ``_PREFIXES``)."""
    lines = text.split("\n")
    first = next((line for line in lines if line.strip()), "")
    for prefix in _PREFIXES:
        if prefix.match(first) is None:
            continue
        cut = []
        for line in lines:
            if not line.strip():
                cut.append("")
                continue
            found = prefix.match(line)
            if found is None:
                break
            cut.append(line[found.end() :])
        else:
            if prefix.pattern.startswith("E"):
                return _dedent("\n".join(cut))
            cut_text = "\n".join(cut)
            # a CRI prefix then the program's own timestamp: cut once more, not without end
            if rounds > 1 and _may_be_prefixed(cut_text) and _GATE.match(cut_text):
                return _cut_prefixes(cut_text, rounds - 1)
            return cut_text
    return _dedent(text)


def _dedent(text: str) -> str:
    lines = text.split("\n")
    indent = None
    for line in lines:
        stripped = line.lstrip(" \t")
        if stripped:
            size = len(line) - len(stripped)
            if size == 0:
                return text
            if indent is None or size < indent:
                indent = size
    if not indent:
        return text
    return "\n".join(line[indent:] for line in lines)
