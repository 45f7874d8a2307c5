"""System log layouts: Apache and nginx error logs, Android logcat, OpenStack's oslo.log, syslog
(RFC 3164 and RFC 5424), glog (C++ glog, absl, klog), PHP's errors on stderr (``PHP Warning:
…`` without a timestamp; with one, PHP's error log is ``plain``), and ``text``, the fallback
for a text log of any other layout.

Each layout is a header regex with named groups (``ts``, ``level``, ``component``, ``message``,
…). Where the writer repeats the header on every line of a multi-line record (logcat and oslo.log
print a stack trace one header per line), a line whose message continues a trace does not open
a record: the record-start pattern refuses it, and the parser strips the repeated headers.

``text`` opens a record at every line that is not a continuation (indented, ``at …``,
``Caused by:``, ``Traceback …``, an exception line after a trace) and finds the level in the
first line: an upper-case level word (``ERROR``, ``FATAL``, ``SEVERE``, ``CRITICAL``…), or
``error:``/``[error]``/``<error>`` in any case; a record without one is INFO.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from hintline.logs._levels import (
    LEVEL_RANKS,
    PHP_ERROR_LEVELS,
    PHP_ERROR_TYPES,
    SYSLOG_PRIORITIES,
    normalise_level,
)
from hintline.logs._text import Parsed, split_trace
from hintline.logs._time import parse_timestamp

__all__ = ["SYSTEM_FORMATS", "SYSTEM_START", "parse_system_record", "sniff_system"]

_MON = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
_DAY = r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)"
# A message that continues a multi-line record rather than opening one.
_CONT = (
    r"(?:[ \t]|at |Caused by: |Suppressed: |\.\.\. \d+ (?:more|common)|Traceback \(most recent call"
    r"|During handling of the above|The above exception|Process: |[\w$.]+(?:Exception|Error)(?::|$))"
)

_HEADER: dict[str, str] = {
    # Apache httpd 2.2 "[Sun Dec 04 04:47:44 2005] [error] msg"; 2.4 adds module, pid/tid, client
    "apache": (
        rf"\[(?P<ts>{_DAY} {_MON} +\d{{1,2}} \d\d:\d\d:\d\d(?:\.\d+)? \d{{4}})\] "
        r"\[(?:(?P<component>[\w-]+):)?(?P<level>[a-z]+\d?)\]"
        r"(?: \[pid (?P<pid>\d+)(?::tid (?P<tid>\d+))?\])?(?: \[client (?P<client>[^\]]+)\])? ?"
    ),
    # nginx "2026/11/30 06:36:45 [error] 1234#1234: *5 msg"
    "nginx": r"(?P<ts>\d{4}/\d\d/\d\d \d\d:\d\d:\d\d) \[(?P<level>[a-z]+)\] (?P<pid>\d+)#(?P<tid>\d+): (?:\*\d+ )?",
    # logcat -v threadtime "03-17 16:13:38.811  1702  2395 E Tag: msg"
    "logcat": (
        r"(?P<ts>\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})\s+(?P<pid>\d+)\s+(?P<tid>\d+)\s+(?P<level>[VDIWEFA])"
        r" (?P<component>[^\n:]*?)\s*: "
    ),
    # oslo.log "2017-05-16 00:00:00.008 25746 INFO nova.api.server [req-… ] msg"
    "oslo": (
        r"(?P<ts>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) (?P<pid>\d+) (?P<level>[A-Z]+) "
        r"(?P<component>[\w.\-]+) (?:\[(?P<context>[^\]\n]*)\] )?"
    ),
    # glog "E20261202 02:16:48.123456 12345 file.cc:42] msg" (no year before glog 0.6, absl)
    "glog": (
        r"(?P<level>[IWEF])(?P<ts>(?:\d{4})?\d{4} \d\d:\d\d:\d\d\.\d{6}) {1,8}(?P<tid>\d{1,10}) "
        r"(?P<component>[^:\]\n]{1,200}:\d{1,9})\] ?"
    ),
    # PHP's errors logged to stderr: "PHP Warning:  msg in /app/x.php on line 7"
    "php": rf"PHP (?P<level>{PHP_ERROR_TYPES}):  ?",
    # RFC 5424 "<165>1 2026-11-30T06:36:45.123Z host app 123 ID47 [sd] msg"
    "syslog5424": (
        r"(?:<(?P<pri>\d{1,3})>)1 (?P<ts>\S+) (?P<host>\S+) (?P<component>\S+) (?P<pid>\S+) "
        r"(?P<msgid>\S+) (?:-|(?:\[(?:[^\]\\]|\\.)*\])+) ?"
    ),
    # RFC 3164 / rsyslog's traditional file format "Nov 30 06:36:45 host prog[123]: msg"
    "syslog": (
        rf"(?:<(?P<pri>\d{{1,3}})>)?(?P<ts>{_MON} [ \d]\d \d\d:\d\d:\d\d) (?P<host>\S+) "
        r"(?P<component>[^\s:\[]+)(?:\[(?P<pid>\d+)\])?: "
    ),
}
# What opens a record, per layout (text: matched at a line start).
SYSTEM_START: dict[str, str] = {
    "apache": rf"\[{_DAY} {_MON} ",
    "nginx": r"\d{4}/\d\d/\d\d \d\d:\d\d:\d\d \[",
    "logcat": _HEADER["logcat"] + rf"(?!{_CONT}|[\r\n]|$)",
    "oslo": _HEADER["oslo"].replace("(?:\\[(?P<context>", "(?>(?:\\[(?P<context>").replace("\\] )?", "\\] )?)") + rf"(?!{_CONT}|[\r\n]|$)",
    "glog": r"[IWEF](?:\d{4})?\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ ",
    "php": rf"PHP (?:{PHP_ERROR_TYPES}): ",
    "syslog": rf"(?:<\d{{1,3}}>1 |(?:<\d{{1,3}}>)?{_MON} [ \d]\d \d\d:\d\d:\d\d )",
    "text": rf"(?!{_CONT}|[\r\n])",
}
SYSTEM_FORMATS = tuple(SYSTEM_START)
"""The layouts of this module, as ``format=`` names (``syslog`` reads RFC 3164 and 5424)."""

_COMPILED = {name: re.compile(pattern) for name, pattern in _HEADER.items()}
_GLOG_LEVELS = {"I": "INFO", "W": "WARNING", "E": "ERROR", "F": "FATAL"}
_LOGCAT_LEVELS = {"V": "TRACE", "D": "DEBUG", "I": "INFO", "W": "WARNING", "E": "ERROR", "F": "FATAL", "A": "FATAL"}
_UPPER_LEVEL = re.compile(
    r"(?<![\w-])(?P<level>" + "|".join(sorted(LEVEL_RANKS, key=len, reverse=True)) + r")(?![\w-])"
)
_ERROR_WORD = re.compile(r"(?i)(?:\b(?P<a>error|fatal|panic|critical|severe)\b\s*:|[\[<](?P<b>error|fatal|crit|critical|emerg|alert)[\]>])")
_TS_SEARCH = re.compile(
    rf"\d{{4}}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d)?(?:[.,]\d{{1,9}})?(?:Z|[+-]\d\d:?\d\d)?"
    rf"|{_MON} [ \d]\d \d\d:\d\d:\d\d|\d{{4}}/\d\d/\d\d \d\d:\d\d:\d\d"
)


def _text_level(line: str) -> str | None:
    """The level of a free-text line: an upper-case level word, else ``error:``-like words."""
    m = _UPPER_LEVEL.search(line[:300])
    if m:
        return normalise_level(m["level"])
    m = _ERROR_WORD.search(line[:300])
    if m:
        word = (m["a"] or m["b"]).upper()
        return normalise_level({"PANIC": "FATAL", "SEVERE": "ERROR"}.get(word, word))
    return None


def _level_from_words(message: str) -> str:
    return _text_level(message) or "INFO"


def _strip_headers(lines: list[str], header: re.Pattern[str]) -> list[str]:
    """Continuation lines that repeat the record's header (logcat, oslo.log) without it."""
    out = []
    for line in lines:
        m = header.match(line)
        out.append(line[m.end():] if m else line)
    return out


def _pri_level(pri: str | None) -> str | None:
    if not pri:
        return None
    try:
        return SYSLOG_PRIORITIES[int(pri) % 8]
    except (ValueError, IndexError):
        return None


def _year_less(value: datetime | None, reference: date | None) -> datetime | None:
    """A date printed without its year lies in the most recent past, never in the future."""
    if value is None:
        return None
    ref = reference or date.today()
    if value.date() > ref:  # "Dec 10" read on 1 December: December of last year
        try:
            return value.replace(year=value.year - 1)
        except ValueError:  # 29 February
            return value.replace(year=value.year - 1, day=28)
    return value


def parse_system_record(record: str, fmt: str, *, reference: date | None = None) -> Parsed:
    """Parse one record of a layout of this module. Never raises."""
    if "\r" in record:
        record = record.replace("\r\n", "\n")
    header, _, more = record.partition("\n")
    parsed = Parsed()
    rest = more.splitlines() if more else []
    if fmt == "syslog" and header.startswith("<") and ">1 " in header[:6]:
        fmt = "syslog5424"
    pattern = _COMPILED.get(fmt)
    m = pattern.match(header) if pattern is not None else None
    if m is None:
        ts = _TS_SEARCH.search(header[:80])
        if ts is not None:
            parsed.timestamp = parse_timestamp(ts.group(0), reference=reference)
            if not re.match(r"\d{4}", ts.group(0)):
                parsed.timestamp = _year_less(parsed.timestamp, reference)
        parsed.level = _text_level(header)
        parsed.message = header.strip()
    else:
        g = m.groupdict()
        text_ts = g.get("ts") or ""  # PHP on stderr prints no time
        if fmt == "apache":
            text_ts = re.sub(rf"^{_DAY} ({_MON}) +(\d{{1,2}}) (\S+) (\d{{4}})", r"\2 \1 \4 \3", text_ts)
        elif fmt == "nginx":
            text_ts = text_ts.replace("/", "-")
        elif fmt == "logcat":
            text_ts = f"{(reference or date.today()).year}-{text_ts}"
        elif fmt == "glog":
            day, clock = text_ts.split(" ", 1)
            year = day[:-4] or str((reference or date.today()).year)
            text_ts = f"{year}-{day[-4:-2]}-{day[-2:]} {clock}"
        parsed.timestamp = parse_timestamp(text_ts, reference=reference) if text_ts else None
        if fmt in ("syslog", "logcat") or (fmt == "glog" and g["ts"].index(" ") == 4):
            parsed.timestamp = _year_less(parsed.timestamp, reference)
        parsed.component = (g.get("component") or "").strip() or None
        if parsed.component == "-":
            parsed.component = None
        message = header[m.end():].strip()
        level = g.get("level")
        if fmt == "logcat":
            parsed.level = _LOGCAT_LEVELS.get(level or "", "INFO")
            rest = _strip_headers(rest, pattern)  # type: ignore[arg-type]
        elif fmt == "oslo":
            parsed.level = normalise_level(level or "INFO")
            rest = _strip_headers(rest, _COMPILED["oslo"])
        elif fmt == "glog":
            parsed.level = _GLOG_LEVELS[level or "I"]
            parsed.extra["source"] = parsed.component or ""
        elif fmt == "php":
            parsed.level = PHP_ERROR_LEVELS.get(level or "", "ERROR")
        elif fmt in ("apache", "nginx"):
            word = (level or "").upper().rstrip("0123456789")
            parsed.level = normalise_level(word) if word in LEVEL_RANKS else "INFO"
        else:  # syslog: the priority when printed, else the message's words
            parsed.level = _pri_level(g.get("pri")) or _level_from_words(message)
        for name in ("pid", "tid", "host", "client", "context", "msgid"):
            if g.get(name) and g[name] != "-":
                parsed.extra[name] = g[name]
        parsed.message = message
    if rest:
        rest_msg, trace = split_trace(rest)
        if rest_msg.strip():
            parsed.message = f"{parsed.message}\n{rest_msg.rstrip()}"
        if fmt == "php" and trace.startswith("Stack trace:"):
            trace = f"{parsed.message}\n{trace}"  # "Uncaught X: msg" heads its stack
        parsed.trace_text = trace
    if fmt == "text" and parsed.level is None and parsed.trace_text:
        parsed.level = "ERROR"
    return parsed


def sniff_system(lines: list[str]) -> str | None:
    """The layout of this module most of ``lines`` follow (at least half), else ``None``."""
    if not lines:
        return None
    best, hits = None, 0
    for name in ("apache", "nginx", "logcat", "oslo", "glog", "php", "syslog5424", "syslog"):
        pattern = _COMPILED[name]
        n = sum(1 for ln in lines if pattern.match(ln))
        if n > hits:
            best, hits = name, n
    # continuation lines (indented: a stack's frames) open no record of any layout
    records = sum(1 for ln in lines if ln[:1] not in (" ", "\t"))
    if best is None or hits < max(1, records // 2):
        return None
    return "syslog" if best == "syslog5424" else best
