"""Find the failure in a text: the block the rule table reads first.

A text that is one error (a trace, a message) is its own block (``locate`` returns ``None``).
A text whose first line opens with a level is a log (lines that open with a
level: ``2026-… ERROR app: …``, ``WARNING:urllib3…``, ``[error]``, ``level=warn``) is read as
records, and the block is the last failure in it:

* the last record logged at ERROR or above (its message, the header cut, and its lines), or
* the last exception or error text that follows a record without a header of its own (an
  uncaught trace printed between log lines, an exception logged with a WARNING's
  ``exc_info``, what a crashed child printed),

whichever comes last. A pytest report's block is the ``E`` lines of its last failure.
Records logged below ERROR (TRACE, DEBUG, INFO, NOTICE, WARNING) are left out of the block and
of the rest, so that a recovered retry or an INFO line never decides the hint while a failure
exists; a log of nothing but such records has no failure (``Located.failure`` is false).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

__all__ = ["Located", "locate"]

_TS = (
    r"(?:\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d)?(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?"
    r"|\d{4}/\d\d/\d\d[ ]\d\d:\d\d:\d\d(?:[.,]\d+)?"
    r"|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[ ][ \d]\d[ ]\d\d:\d\d:\d\d"
    r"|\d\d:\d\d:\d\d(?:[.,]\d+)?"
    r"|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[ ](?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[ ]"
    r"[ \d]\d[ ]\d\d:\d\d:\d\d(?:\.\d+)?[ ]\d{4}"  # Apache's error log
    r"|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),[ ]\d{1,2}[ ][A-Z][a-z]{2}[ ]\d{4}[ ]\d\d:\d\d:\d\d"
    r"[ ][+-]\d{4})"  # RFC 2822 (TYPO3)
)
_LEVEL_WORDS = "TRACE|DEBUG|INFO|NOTICE|WARNING|WARN|ERROR|ERR|SEVERE|CRITICAL|CRIT|FATAL|ALERT|EMERGENCY|EMERG"
# A record header: a timestamp, a thread/component in brackets or a ``name - `` / ``name.``
# before the level (logback, Python's formats, Monolog), then the level word.
_HEADER_PATTERN = (
    rf"""[ \t]*(?:(?:time|ts)=\S{{1,40}}[ ]+)?             # logfmt
    (?:\[?{_TS}\]?[ \t,|]*(?:-[ ])?)?
    (?:\[[^\]\n]{{1,60}}\][ \t]*)?
    (?:[\w.$/\-]{{1,80}}(?:[ ]-[ ]|\.|[ ]))??
    (?:\[?(?P<level>{_LEVEL_WORDS})\]?(?![\w.\-\[])
      | \[(?:\w{{1,40}}:)?(?P<lower>trace\d?|debug|info|notice|warn|warning|error|crit|critical
                          |fatal|alert|emerg)\]              # [error], Apache's [core:error]
      | level=(?P<kv>[A-Za-z]+)
    )[\]:|\- \t]*
    (?:\[[^\]\n]{{1,60}}\][ \t]+)?                 # [thread] after the level
    (?:(?![\w.$]*(?:Error|Exception|Warning|Violation|Failure|Fault)\b)
       [\w.$/\-]{{1,80}}(?::[ ]*|[ ]-[ ]+))?       # the logger's name"""
)


@functools.cache
def _header() -> re.Pattern[str]:
    """The record-header regex, compiled when a text first looks like a log (not at import)."""
    return re.compile(_HEADER_PATTERN, re.VERBOSE)
_RANKS = {
    "TRACE": 5, "DEBUG": 10, "INFO": 20, "NOTICE": 25, "WARN": 30, "WARNING": 30,
    "ERROR": 40, "ERR": 40, "SEVERE": 40, "CRITICAL": 50, "CRIT": 50, "FATAL": 50,
    "ALERT": 55, "EMERGENCY": 60, "EMERG": 60,
}  # fmt: skip
_ERROR_RANK = 40
# An exception or an error in text that has no level of its own.
_FAILURE_WORDS = re.compile(
    r"Traceback \(most recent|Caused by:|Exception|Error|error|panic:|FAIL|Fatal|fatal"
    r"|refused|denied|[Ff]ailed|timed out|[Nn]ot found|No such|[Cc]annot|[Uu]nable"
    r"|[Ii]nvalid|Forbidden|Unauthori[sz]ed|[Aa]bort|[Kk]illed|Segmentation fault"
)
# pytest's report: a section per failure (``____ test_x ____``), its ``E`` lines.
_PYTEST_SECTION = re.compile(r"_{3,} [^_\n].{0,300}? _{3,}$")
_PYTEST_E = re.compile(r"E(?: {1,8}|$)")


@dataclass(frozen=True, slots=True)
class Located:
    """Where the failure is.

    Attributes:
        block: the failing block (the whole text when it is one error).
        rest: the other failure text, records below ERROR left out; ``None`` when the block is
            the whole text.
        message: the message of the located ERROR record (its header cut), if the block is one.
        failure: whether a failure was found (false for a log of INFO/DEBUG/WARNING records
            only, or a test report without a failure).
        log: whether the text was read as a log or a test report.
    """

    block: str
    rest: str | None = None
    message: str | None = None
    failure: bool = True
    log: bool = False


_MAX_HEADER_LINE = 1024
"""A header is read in the first 1 KiB of its line: the regex backtracks only within that."""


def _level(line: str) -> tuple[int, int] | None:
    """The rank of a header line's level and where its message starts, or ``None``."""
    found = _header().match(line[:_MAX_HEADER_LINE])
    if found is None:
        return None
    word = found["level"] or found["lower"] or found["kv"]
    rank = _RANKS.get(word.upper())
    if rank is None:
        return None
    return rank, found.end()


_LOWER = ("trace", "debug", "info", "notice", "warn", "error", "crit", "fatal", "alert", "emerg")
_LEVEL_STARTS = (
    *_RANKS,
    *(f"[{word}" for word in (*_RANKS, *_LOWER)),
    *(f"[{digit}" for digit in "0123456789"),
    *(f"[{day} " for day in ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")),
    *(f"{day}, " for day in ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")),
    "level=", "time=", "ts=",
)  # fmt: skip
_MONTHS = ("Jan ", "Feb ", "Mar ", "Apr ", "May ", "Jun ", "Jul ", "Aug ", "Sep ", "Oct ", "Nov ",
           "Dec ")  # fmt: skip
# What a header can start with, by its first character.
_STARTS_BY_FIRST: dict[str, tuple[str, ...]] = {}
for _start in (*_LEVEL_STARTS, *_MONTHS):
    _STARTS_BY_FIRST[_start[0]] = (*_STARTS_BY_FIRST.get(_start[0], ()), _start)
for _digit in "0123456789":
    _STARTS_BY_FIRST[_digit] = (_digit,)


def _may_open_record(text: str, start: int) -> bool:
    """Whether the line at ``start`` may be a record header (cheap checks before the regex):
    it starts with a timestamp, a bracket, a level word, ``level=`` or a syslog month."""
    starts = _STARTS_BY_FIRST.get(text[start : start + 1])
    return starts is not None and text.startswith(starts, start)


def is_record_header(line: str) -> bool:
    """Whether ``line`` (one line) opens a log record: a level after an optional timestamp,
    thread and logger name."""
    return _may_open_record(line, 0) and _level(line) is not None


def locate(text: str) -> Located | None:
    """Find the failing block of ``text`` (see the module docstring). Never raises.

    Returns ``None`` when the whole text is the block (one error, not a log): the common case
    costs one dict lookup and one ``startswith``.
    """
    starts = _STARTS_BY_FIRST.get(text[:1])
    if starts is None:
        if text.startswith("=") and " test session starts " in text[:200]:
            return _locate_pytest(text)
        return None
    if text.startswith(starts) and _header().match(text) is not None:
        return _locate_log(text)
    return None


def _locate_log(text: str) -> Located:
    lines = text.split("\n")
    # records: (rank or None for text before the first header, header line index, message start)
    records: list[tuple[int | None, int, int]] = []
    for index, line in enumerate(lines):
        if not line or line[0] in " \t" or not _may_open_record(line, 0):
            continue  # continuation lines are indented; a header is not
        level = _level(line)
        if level is not None:
            records.append((level[0], index, level[1]))
    if not records:
        return Located(text, log=True)
    if records[0][1] != 0:
        records.insert(0, (None, 0, 0))
    spans: list[tuple[int | None, int, int, int]] = []  # rank, first line, end line, msg start
    for n, (rank, first, start) in enumerate(records):
        end = records[n + 1][1] if n + 1 < len(records) else len(lines)
        spans.append((rank, first, end, start))
    chosen: tuple[str, str | None] | None = None
    chosen_at = -1
    for n in range(len(spans) - 1, -1, -1):
        rank, first, end, start = spans[n]
        if rank is not None and rank >= _ERROR_RANK:
            message = lines[first][start:]
            chosen = ("\n".join([message, *lines[first + 1 : end]]), message.strip() or None)
            chosen_at = n
            break
        # below ERROR (or no header): only the lines after the header can hold a failure
        body_from = first + 1 if rank is not None else first
        body = "\n".join(lines[body_from:end])
        if _holds_failure(body):
            chosen = (body.strip("\n"), None)
            chosen_at = n
            break
    if chosen is None:
        return Located(text, None, None, failure=False, log=True)
    rest_parts = []
    for n, (rank, first, end, _start) in enumerate(spans):
        if rank is not None and rank < _ERROR_RANK:
            body = "\n".join(lines[first + 1 : end])
            if n == chosen_at or _holds_failure(body):
                rest_parts.append(body)
            continue
        rest_parts.append("\n".join(lines[first:end]))  # the header too: a rule may read it
    rest = "\n".join(rest_parts)
    return Located(chosen[0], rest if rest.strip() else None, chosen[1], failure=True, log=True)


def _holds_failure(body: str) -> bool:
    """Whether the lines after a record below ERROR are a failure of their own: an exception
    or error words, or any line that is not indented under the record (what another writer,
    an uncaught trace or a crashed child, printed between its records)."""
    after_cut = False
    for line in body.split("\n"):
        if line and line[0] not in " \t" and line != _CUT and not after_cut:
            return True
        after_cut = line == _CUT  # the line after a cut starts in the middle
    return _FAILURE_WORDS.search(body) is not None


_CUT = "..."  # the line bound() puts where it cut the input


def _locate_pytest(text: str) -> Located:
    """pytest's report: the ``E`` lines of the last failure section (``____ name ____``)."""
    lines = text.split("\n")
    last_e = next((i for i in range(len(lines) - 1, -1, -1) if _PYTEST_E.match(lines[i])), -1)
    start = 0
    for index in range(last_e - 1, -1, -1):
        if lines[index].startswith("_") and _PYTEST_SECTION.match(lines[index]):
            start = index + 1
            break
    block: list[str] = []
    for line in lines[start:]:
        if _PYTEST_E.match(line):
            block.append(line[1:])
        elif block and not line.startswith("E"):
            if line.strip():
                block.append(line)  # ``test_x.py:12: ForeignKeyViolation``
            break
    if not block:
        failed = [line for line in lines if line.startswith(("FAILED ", "ERROR "))]
        if not failed:
            return Located(text, None, None, failure=False, log=True)
        return Located("\n".join(failed), None, None, log=True)
    return Located(_dedent("\n".join(block)), text, None, log=True)


def _dedent(text: str) -> str:
    lines = text.split("\n")
    indent = min((len(line) - len(line.lstrip(" ")) for line in lines if line.strip()), default=0)
    return "\n".join(line[indent:] for line in lines) if indent else text
