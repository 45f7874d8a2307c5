"""Text log formats: a header line opens a record, continuation lines (a traceback) follow.

Python ``logging``, logback and log4j2 patterns, Monolog's ``LineFormatter``, TYPO3's
``FileWriter`` and plain text whose lines start with a timestamp.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date, datetime

from hintline.logs._levels import LEVEL_RANKS, PHP_ERROR_LEVELS, PHP_ERROR_TYPES, normalise_level
from hintline.logs._time import parse_timestamp

__all__ = ["START", "Parsed", "parse_text_record", "split_trace"]

_LEVELS = "|".join(sorted(LEVEL_RANKS, key=len, reverse=True))
_ISO_TS = r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d)?(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?"
_TIME_TS = r"\d\d:\d\d:\d\d[.,]\d{3,6}"
_RFC_TS = r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{1,2} [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d [+-]\d{4}"
_SYSLOG_TS = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d\d:\d\d:\d\d"
# PHP's error log: "[30-Nov-2026 06:35:56 UTC]"
_PHPLOG_TS = r"\d\d-[A-Z][a-z]{2}-\d{4} \d\d:\d\d:\d\d(?: [A-Za-z_/+\-]+)?"
_PY_LEVELS = "CRITICAL|FATAL|ERROR|WARNING|WARN|INFO|DEBUG|NOTSET"

# What opens a record, per format (bytes, matched at a line start).
START: dict[str, str] = {
    # asctime first; BASIC_FORMAT "LEVEL:name:msg"; Django's verbose "LEVEL asctime module …"
    "python": rf"\[?{_ISO_TS}|(?:{_PY_LEVELS}):[^:\n]*:|(?:{_PY_LEVELS}) {_ISO_TS}",
    "logback": rf"\[?(?:{_ISO_TS}|{_TIME_TS})",
    "log4j": rf"\[?(?:{_ISO_TS}|{_TIME_TS})",
    "typo3": _RFC_TS + r" \[",
    "monolog": rf"\[{_ISO_TS}[^\]\n]*\] [\w.\-]+\.[A-Z]+: ",
    "plain": rf"\[?(?:{_ISO_TS}|{_RFC_TS}|{_SYSLOG_TS}|{_TIME_TS}|{_PHPLOG_TS}\])",
}
# Formats whose level words are upper case; plain text also accepts "[error]".
CASE_SENSITIVE = {"python", "logback", "log4j", "typo3", "monolog"}

_TS_AT_START = re.compile(rf"\[?(?:{_ISO_TS}|{_RFC_TS}|{_SYSLOG_TS}|{_TIME_TS}|{_PHPLOG_TS}(?=\]))\]?[ ,|]*")
_L = rf"(?P<level>{_LEVELS})"
_HEADERS = tuple(re.compile(p, re.IGNORECASE) for p in (
    # logging.BASIC_FORMAT "%(levelname)s:%(name)s:%(message)s"
    rf"^{_L}:(?P<component>[^:\s]*):(?P<message>.*)",
    # "%(asctime)s - %(name)s - %(levelname)s - %(message)s"
    rf"^-?\s*(?P<component>[\w.$\-]+) - {_L} - (?P<message>.*)",
    rf"^-?\s*{_L} - (?P<component>[\w.$\-]+) - (?P<message>.*)",
    # logback / log4j2 "%d [%thread] %-5level %logger{36} - %msg%n"
    rf"^\[(?P<thread>[^\]]*)\]\s+{_L}\s+(?P<component>\S+)\s+-\s?(?P<message>.*)",
    rf"^{_L}\s+\[(?P<thread>[^\]]*)\]\s+(?P<component>\S+)\s+-\s?(?P<message>.*)",
    # log4j "%d - %-5p [%t:%C{1}@%L] - %m" (ZooKeeper): the class is the logger
    rf"^-?\s*{_L}\s+\[(?P<thread>[^\n]*):(?P<component>[\w$.]+)@\d+\]\s+-\s?(?P<message>.*)",
    # log4j "%d %p [%t] %c: %m" (Hadoop)
    rf"^{_L}\s+\[(?P<thread>[^\]]*)\]\s+(?P<component>[\w$.]+):\s(?P<message>.*)",
    # Spring Boot "LEVEL PID --- [thread] logger : msg"
    rf"^{_L}\s+(?P<pid>\d+)\s+---\s+\[\s*(?P<thread>[^\]]*)\]\s+(?P<component>\S+)\s+:\s?(?P<message>.*)",
    # TYPO3 "[LEVEL] request="…" component="…": msg"
    rf'^\[{_L}\](?: request="(?P<request>[^"]*)")?(?: component="(?P<component>[^"]*)")?: (?P<message>.*)',
    # Flask "[ts] LEVEL in module: msg"
    rf"^\[?{_L}\]? in (?P<component>[\w.]+): (?P<message>.*)",
    # "%(asctime)s %(levelname)s [%(name)s] %(message)s"
    rf"^\[?{_L}\]?\s+\[(?P<component>[\w.$\-]+)\]:?\s(?P<message>.*)",
    # "ts LEVEL name: msg", "ts [LEVEL] name - msg", "ts LEVEL [thread] name - msg"
    rf"^\[?{_L}\]?\s+(?:\[(?P<thread>[^\]]*)\]\s+)?(?P<component>[\w.$/\-]+?)(?::| -)\s(?P<message>.*)",
    rf"^\[?{_L}\]?:?\s*(?P<message>.*)",
))
_MONOLOG = re.compile(
    r"^\[(?P<ts>[^\]]+)\] (?P<component>[\w.\-]+?)\.(?P<level>[A-Z]+): (?P<message>.*)", re.DOTALL
)
_PHP_LEVEL = re.compile(rf"PHP (?P<type>{PHP_ERROR_TYPES}): ")
_ANY_LEVEL = re.compile(rf"(?<![\w-])(?P<level>{_LEVELS})(?![\w-])", re.IGNORECASE)

# The first line of an exception inside a record's continuation lines.
_TRACE_START = re.compile(
    r"^(?:Traceback \(most recent call last\):|Exception in thread |Caused by: |Stack trace:"
    r"|PHP (?:Fatal|Warning|Parse) error:|panic: |goroutine \d+ \[|thread '.*' panicked"
    r"|(?:[a-zA-Z_$][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error|Throwable|Fault|Failure)\b"
    r"|[\w$.]*(?:Exception|Error)(?::\s|$)|\s+at [\w$.<>/]+\(|\s+File \".*\", line \d+)",
)


@dataclass(slots=True)
class Parsed:
    """The fields of a record before it becomes an :class:`~hintline.logs.Entry`."""

    timestamp: datetime | None = None
    level: str | None = None
    component: str | None = None
    message: str = ""
    trace_text: str = ""
    exception_type: str | None = None
    extra: dict[str, str] = field(default_factory=dict)


def split_trace(lines: list[str]) -> tuple[str, str]:
    """Split continuation lines into (more message, trace text) at the first exception line."""
    for i, line in enumerate(lines):
        if _TRACE_START.match(line):
            return "\n".join(lines[:i]), "\n".join(lines[i:]).rstrip("\n")
    return "\n".join(lines), ""


def _typo3_data(message: str, parsed: Parsed) -> str:
    """TYPO3 appends `` - {json}``; its ``exception`` holds the trace with ``\\n`` escapes."""
    cut = message.rfind(" - {")
    if cut < 0:
        return message
    try:
        data = json.loads(message[cut + 3:])
    except ValueError:
        return message
    if isinstance(data, dict):
        exc = data.get("exception")
        if isinstance(exc, str):
            parsed.trace_text = exc.strip()
        _typo3_handler_keys(data, parsed)
        return message[:cut]
    return message


def _typo3_handler_keys(data: dict[str, object], parsed: Parsed) -> None:
    """TYPO3's exception handlers log ``exception_class``, ``file`` and ``line`` (and no trace
    unless configured): the logged class wins over any the message quotes, and without a trace
    the throw site becomes one, written as PHP prints an exception."""
    cls = data.get("exception_class")
    if not isinstance(cls, str) or not cls.strip() or len(cls) > 300:
        return
    parsed.exception_type = cls.strip()
    if parsed.trace_text:
        return
    file, line = data.get("file"), data.get("line")
    text = data.get("message")
    text = " ".join(text.split()) if isinstance(text, str) else ""
    if isinstance(file, str) and file and isinstance(line, int) and not isinstance(line, bool):
        parsed.trace_text = f"{parsed.exception_type}: {text} in {file}:{line}\nStack trace:"


def _monolog_context(rest: str, parsed: Parsed) -> str:
    """Monolog's LineFormatter writes ``message {context} {extra}`` (``[]`` when empty)."""
    decoder = json.JSONDecoder(strict=False)  # inline line breaks leave raw newlines in strings
    for m in re.finditer(r" (?=[\[{])", rest):
        try:
            context, end = decoder.raw_decode(rest, m.end())
        except ValueError:
            continue
        tail = rest[end:].strip()
        if tail:
            try:
                _, used = decoder.raw_decode(tail)
            except ValueError:
                continue
            if tail[used:].strip():
                continue
        if isinstance(context, dict):
            exc = context.get("exception")
            if isinstance(exc, str):
                parsed.trace_text = exc.strip()
            elif isinstance(exc, dict):
                from hintline.logs._json import monolog_exception

                parsed.trace_text, parsed.exception_type = monolog_exception(exc)
        return rest[: m.start()]
    return rest


def parse_text_record(record: str, fmt: str, *, reference: date | None = None) -> Parsed:
    """Parse one text record (header line plus continuation lines). Never raises."""
    if "\r" in record:  # CRLF logs (Windows services, some appenders)
        record = record.replace("\r\n", "\n")
    header, _, more = record.partition("\n")
    header = header.rstrip("\r")
    parsed = Parsed()
    if fmt == "monolog":
        m = _MONOLOG.match(record.rstrip())
        if m:
            parsed.timestamp = parse_timestamp(m["ts"], reference=reference)
            parsed.level = normalise_level(m["level"])
            parsed.component = m["component"]
            message = _monolog_context(m["message"], parsed).strip()
            rest_msg, trace = split_trace(message.splitlines()[1:]) if "\n" in message else ("", "")
            parsed.message = "\n".join(x for x in (message.split("\n", 1)[0], rest_msg) if x).strip()
            parsed.trace_text = parsed.trace_text or trace
            return parsed
    ts = _TS_AT_START.match(header)
    body = header
    if ts:
        parsed.timestamp = parse_timestamp(ts.group(0), reference=reference)
        body = header[ts.end():]
    flags = 0 if fmt in CASE_SENSITIVE else re.IGNORECASE
    for pattern in _HEADERS:
        m = pattern.match(body)
        if m and (flags or m["level"].isupper()):
            groups = m.groupdict()
            parsed.level = normalise_level(m["level"])
            parsed.component = (groups.get("component") or "").strip() or None
            parsed.message = m["message"].strip()
            if parsed.timestamp is None:  # "LEVEL asctime …" (Django's verbose format)
                late = _TS_AT_START.match(parsed.message)
                if late:
                    parsed.timestamp = parse_timestamp(late.group(0), reference=reference)
                    parsed.message = parsed.message[late.end():]
            for name in ("thread", "pid", "request"):
                if groups.get(name):
                    parsed.extra[name] = groups[name]
            break
    else:
        php = _PHP_LEVEL.match(body)
        lm = None if php else _ANY_LEVEL.search(body[:80])
        if php:  # PHP's error log: its error type is the level ("PHP Deprecated:" is INFO)
            parsed.level = PHP_ERROR_LEVELS[php["type"]]
        elif lm and (flags or lm["level"].isupper()):
            parsed.level = normalise_level(lm["level"])
        parsed.message = body.strip()
    if fmt == "typo3":
        parsed.message = _typo3_data(parsed.message, parsed)
    if more:
        rest_msg, trace = split_trace(more.splitlines())
        if rest_msg.strip():
            parsed.message = f"{parsed.message}\n{rest_msg.rstrip()}"
        if trace:
            if trace.startswith("Stack trace:") or _TRACE_START.match(parsed.message):
                trace = f"{parsed.message}\n{trace}"  # PHP: "Uncaught X: msg" heads its stack
            parsed.trace_text = trace
    return parsed
