"""Find the failure in a text: the block the rule table reads first.

A text that is one error (a trace, a message) is its own block (``locate`` returns ``None``).
A text whose first line opens with a level is a log (lines that open with a
level: ``2026-… ERROR app: …``, ``WARNING:urllib3…``, ``[error]``, ``level=warn``, glog's
``E1202 02:16:48.123456 12345 file.cc:42]``, PHP's ``PHP Warning:`` / ``Fatal error:``) is read
as records, and the block is the last failure in it:

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

from collections.abc import Callable

from hintline import _lazyre as re  # patterns compiled on first use

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


# glog (C++ glog, absl, Kubernetes' klog): ``E1202 02:16:48.123456 12345 file.cc:42] msg``,
# the year in front of the month since glog 0.6 (``E20261202 …``).
_GLOG_HEADER = (
    r"(?P<glog>[IWEF])(?:\d{4})?\d{4}[ ]\d\d:\d\d:\d\d\.\d{6}[ ]{1,8}\d{1,10}[ ]"
    r"[^:\]\n]{1,200}:\d{1,9}\][ ]?"
)
# PHP's errors as its log writes them (``[02-Dec-2026 02:33:00 UTC] PHP Warning:  msg``, ``PHP
# Fatal error:  Uncaught …`` on stderr) and as it displays them (``Warning: msg in … on line 7``).
# A run-time ``Warning`` (E_WARNING) is a call that failed
# and returned false (``fopen(…): Failed to open stream``): it ranks as an error here, where the
# question is what failed (the log readers list it as PHP names it, WARNING).
# PHP's errors as its log writes them (``[02-Dec-2026 02:33:00 UTC] PHP Warning:  msg``, ``PHP
# Fatal error:  Uncaught …`` on stderr) and as it displays them (``Warning: msg in … on line 7``).
_PHP_TYPES = {
    "Fatal error": 50, "Core error": 50, "Compile error": 50, "Parse error": 40,
    "Recoverable fatal error": 40, "Catchable fatal error": 40, "User error": 40,
    "Unknown error": 40, "Warning": 40, "Core warning": 30, "Compile warning": 30,
    "User warning": 30, "Notice": 25, "User notice": 25, "Strict Standards": 25,
    "Deprecated": 20, "User deprecated": 20,
}  # fmt: skip
_PHP_HEADER = (
    r"(?:\[\d\d-[A-Z][a-z]{2}-\d{4}[ ]\d\d:\d\d:\d\d(?:[ ][\w/+\-]{1,40})?\][ ])?"
    r"(?P<phpline>(?:PHP[ ])?(?P<php>" + "|".join(sorted(_PHP_TYPES, key=len, reverse=True))
    + r"):[ ]{1,2})"
)
_GLOG_OR_PHP = re.compile(f"{_GLOG_HEADER}|{_PHP_HEADER}")
_GLOG_RANKS = {"I": 20, "W": 30, "E": 40, "F": 50}
_PHP_STARTS = ("PHP ", *(f"{word}: " for word in _PHP_TYPES))


_HEADER: re.Pattern[str] | None = None


def _header() -> re.Pattern[str]:
    """The record-header regex, compiled when a text first looks like a log (not at import)."""
    global _HEADER
    if _HEADER is None:
        _HEADER = re.compile(_HEADER_PATTERN, re.VERBOSE)
    return _HEADER
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
# A failure that only says a call before it returned nothing: a null, a false or None used as
# a value. When the record just before it is a failure too (PHP's ``Warning: fopen(…): Failed
# to open stream: Permission denied`` before ``fread(): Argument #1 ($stream) must be of type
# resource, bool given``), that one is the cause. Read in the block's first 1 KiB.
_CONSEQUENCE = re.compile(
    r"\b(?:bool|null|false) given\b|\bon (?:null|bool|false)\b|'NoneType' object"
    r"|properties of (?:null|undefined)\b|NullPointerException"
)


def _is_consequence(message: str) -> bool:
    """Whether ``message`` only says that a failed call's false/null was used.

    One of the words tested first is in every match of ``_CONSEQUENCE``: a few ``in`` tests
    spare the regex (its leading ``\\b`` alternation costs some 30 µs on a 1 KiB message).
    """
    return (
        "given" in message
        or "null" in message
        or "bool" in message
        or "false" in message
        or "NoneType" in message
        or "undefined" in message
        or "NullPointerException" in message
    ) and _CONSEQUENCE.search(message) is not None


# pytest's report: a section per failure (``____ test_x ____``), its ``E`` lines.
_PYTEST_SECTION = re.compile(r"_{3,} [^_\n].{0,300}? _{3,}$")
_PYTEST_E = re.compile(r"E(?: {1,8}|$)")


class Located:
    """Where the failure is.

    Attributes:
        block: the failing block (the whole text when it is one error).
        rest: the other failure text, records below ERROR left out; ``None`` when the block is
            the whole text. Worked out on first read (a long log's other records are read
            only when the block matches no rule).
        message: the message of the located ERROR record (its header cut), if the block is one.
        failure: whether a failure was found (false for a log of INFO/DEBUG/WARNING records
            only, or a test report without a failure).
        log: whether the text was read as a log or a test report.
    """

    __slots__ = ("_rest", "_rest_of", "block", "failure", "log", "message")

    def __init__(
        self,
        block: str,
        rest: str | None = None,
        message: str | None = None,
        failure: bool = True,
        log: bool = False,
        *,
        rest_of: Callable[[], str | None] | None = None,
    ) -> None:
        self.block = block
        self._rest = rest
        self._rest_of = rest_of
        self.message = message
        self.failure = failure
        self.log = log

    @property
    def rest(self) -> str | None:
        if self._rest_of is not None:
            self._rest, self._rest_of = self._rest_of(), None
        return self._rest

    def __repr__(self) -> str:
        return (
            f"Located(block={self.block!r}, rest={self.rest!r}, message={self.message!r}, "
            f"failure={self.failure!r}, log={self.log!r})"
        )


_MAX_HEADER_LINE = 1024
"""A header is read in the first 1 KiB of its line: the regex backtracks only within that."""


def _level(line: str) -> tuple[int, int] | None:
    """The rank of a header line's level and where its message starts, or ``None``."""
    line = line[:_MAX_HEADER_LINE]
    first = line[:1]
    if (first in _GLOG_FIRST and line[1:2].isdigit()) or (
        first in _PHP_FIRST and (line.startswith(_PHP_STARTS) or line[3:4] == "-")
    ):
        other = _GLOG_OR_PHP.match(line)
        if other is not None:
            glog = other["glog"]
            if glog:
                return _GLOG_RANKS[glog], other.end()
            # PHP's error type is part of its message, as an exception's class is
            return _PHP_TYPES[other["php"]], other.start("phpline")
    found = (_HEADER or _header()).match(line)
    if found is None:
        return None
    word = found[found.lastgroup or "level"]  # the one of level, lower, kv that matched
    known = _RANKS.get(word.upper())
    if known is None:
        return None
    return known, found.end()


_GLOG_FIRST = frozenset("IWEF")
_DIGITS = frozenset("0123456789")  # no glog nor PHP header opens with one (see _level)
_PHP_FIRST = frozenset("[PFCRUWNSD")
_LOWER = ("trace", "debug", "info", "notice", "warn", "error", "crit", "fatal", "alert", "emerg")
_LEVEL_STARTS = (
    *_RANKS,
    *(f"[{word}" for word in (*_RANKS, *_LOWER)),
    *(f"[{digit}" for digit in "0123456789"),
    *(f"[{day} " for day in ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")),
    *(f"{day}, " for day in ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")),
    "level=", "time=", "ts=",
    *(f"{c}{d}" for c in "IWEF" for d in "012"),  # glog: a month (0, 1) or the year (20…)
    *_PHP_STARTS,
)  # fmt: skip
_MONTHS = ("Jan ", "Feb ", "Mar ", "Apr ", "May ", "Jun ", "Jul ", "Aug ", "Sep ", "Oct ", "Nov ",
           "Dec ")  # fmt: skip
# What a header can start with, by its first character.
_STARTS_BY_FIRST: dict[str, tuple[str, ...]] = {}
for _start in (*_LEVEL_STARTS, *_MONTHS):
    _STARTS_BY_FIRST[_start[0]] = (*_STARTS_BY_FIRST.get(_start[0], ()), _start)
for _digit in "0123456789":
    _STARTS_BY_FIRST[_digit] = (_digit,)
STARTS_BY_FIRST = _STARTS_BY_FIRST
"""What a record header can start with, by its first character (for the pipeline's front,
:func:`hintline.cleaner.normalise.normalise_and_locate`, which reads a text's start once)."""


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
    if not text:
        return None
    first = text[0]
    starts = _STARTS_BY_FIRST.get(first)
    if starts is None:
        if first == "=" and " test session starts " in text[:200]:
            return _locate_pytest(text)
        if first == "\n" and text.strip():  # PHP displays each error after an empty line
            stripped = text.lstrip("\n")
            located = locate(stripped)
            return None if located is None else located
        return None
    if text.startswith(starts):
        first_level = _level(text)
        if first_level is not None:
            return _locate_log(text, first_level)
    return None


def _header_at(lines: list[str], index: int) -> tuple[int, int] | None:
    """The rank and message start of line ``index`` when it opens a record, else ``None``."""
    line = lines[index]
    if not line or line[0] in " \t" or not _may_open_record(line, 0):
        return None  # continuation lines are indented; a header is not
    return _level(line)


def _locate_log(text: str, first_level: tuple[int, int]) -> Located:
    """The last failure of a log, its records read from the end: a long log's earlier records
    are parsed only when the rest is asked for. ``first_level``: the first line's level, as
    ``locate`` read it (a header does not run past its line: the same on the line alone)."""
    lines = text.split("\n")
    # spans from the end: (rank or None for text before the first header, first line, end line,
    # message start); only as many as it takes to find the failure
    spans: list[tuple[int | None, int, int, int]] = []
    end = len(lines)
    index = len(lines)
    found_header = False

    starts_by_first = _STARTS_BY_FIRST
    level_of = _level
    header = _header()
    ranks = _RANKS

    def previous_span() -> tuple[int | None, int, int, int] | None:
        nonlocal end, index
        while index > 0:
            index -= 1
            line = lines[index]  # _header_at(), inline: this loop runs once per line
            if not line:
                continue
            first = line[0]
            starts = starts_by_first.get(first)
            if starts is None or not line.startswith(starts):
                continue
            level: tuple[int, int] | None
            if index == 0:
                level = first_level
            elif first in _DIGITS:  # a timestamp: _level() without its glog and PHP checks
                found = header.match(line if len(line) <= _MAX_HEADER_LINE else line[:_MAX_HEADER_LINE])
                known = None if found is None else ranks.get(found[found.lastgroup or "level"].upper())
                level = None if found is None or known is None else (known, found.end())
            else:
                level = level_of(line)
            if level is not None:
                span: tuple[int | None, int, int, int] = (level[0], index, end, level[1])
                end = index
                return span
        if end > 0:  # the text before the first header
            span = (None, 0, end, 0)
            end = 0
            return span
        return None

    chosen: tuple[str, str | None] | None = None
    while (span := previous_span()) is not None:
        spans.append(span)
        rank, first, stop, start = span
        if rank is None and not found_header:
            return Located(text, log=True)  # no header at all: the text is one block
        found_header = True
        if rank is not None and rank >= _ERROR_RANK:
            message = lines[first][start:]
            chosen = ("\n".join([message, *lines[first + 1 : stop]]), message.strip() or None)
            break
        # below ERROR (or no header): only the lines after the header can hold a failure
        below = first + 1 if rank is not None else first
        if below < stop:  # (a one-line record has none)
            body = "\n".join(lines[below:stop])
            if _holds_failure(body):
                chosen = (body.strip("\n"), None)
                break
    if chosen is None:
        return Located(text, None, None, failure=False, log=True)
    chosen_at = spans[-1][1]  # the first line of the chosen span
    if _is_consequence(chosen[0][:_MAX_HEADER_LINE]):
        before = previous_span()
        if before is not None:
            spans.append(before)
            rank, first, stop, start = before
            if rank is not None and rank >= _ERROR_RANK:  # the failed call the null came from
                message = lines[first][start:]
                chosen = ("\n".join([message, *lines[first + 1 : stop]]), message.strip() or None)
                chosen_at = first

    def rest() -> str | None:
        every = list(spans)
        while (span := previous_span()) is not None:
            every.append(span)
        parts = []
        for rank, first, stop, _start in reversed(every):
            if rank is not None and rank < _ERROR_RANK:
                body = "\n".join(lines[first + 1 : stop])
                if first == chosen_at or _holds_failure(body):
                    parts.append(body)
                continue
            parts.append("\n".join(lines[first:stop]))  # the header too: a rule may read it
        joined = "\n".join(parts)
        return joined if joined.strip() else None

    return Located(chosen[0], None, chosen[1], failure=True, log=True, rest_of=rest)


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
        if lines[index].startswith("_") and _PYTEST_SECTION.match(lines[index][:_MAX_HEADER_LINE]):
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
