"""The fallback of ``clean()`` when no rule matches: pick the most useful line of the text.

In order: the root cause found by :func:`hintline.traces.parse_trace` (``Type: message``);
else the last ``Caused by:`` line (Java); else the last exception line (``Type: message`` in
Python, JavaScript, PHP, Go, ...); else the first line that is not a stack frame.
"""

from __future__ import annotations

import re

__all__ = ["CAUSED_BY", "EXCEPTION", "PLAIN", "pick_line", "pick_line_with_strength"]

_CAUSED_BY = "Caused by:"

# The type of an exception line ``Type: message``: an (optionally qualified) exception type.
_EXCEPTION_TYPE = re.compile(
    r"""(?:[\w$]+(?:\.|::|\\))*[\w$]*
        (?:Error|Exception|Exit|Interrupt|Warning|Fault|Failure|Rejection|Exceeded|Panic)
        (?:[ ]?\[[^\]]{1,80}\])?                    # node's TypeError [ERR_X]
      | (?:[a-z_][\w$]*\.)+[A-Z][\w$]*               # zipfile.BadZipFile
      | panic | fatal[ ]error | error(?:\[\w+\])?
    """,
    re.VERBOSE,
)
# The common shape first, without backtracking: a dotted name whose last part ends with one of
# the suffixes above is what the first branch of _EXCEPTION_TYPE accepts (separators are not
# word characters, so the name splits one way only).
_DOTTED = re.compile(r"[\w$]+(?:(?:\.|::|\\)[\w$]+)*")
_SUFFIXES: tuple[str, ...] = ("Error", "Exception", "Exit", "Interrupt", "Warning", "Fault")
_SUFFIXES += ("Failure", "Rejection", "Exceeded", "Panic")
_PREFIXES = ("PHP Fatal error:", "Fatal error:", "Uncaught", "Unhandled exception:", "Unhandled")
_MAX_TYPE = 160


def _is_exception_type(line: str, end: int) -> bool:
    """Whether ``line[:end]`` is an exception type as ``_EXCEPTION_TYPE`` reads one."""
    if line.endswith(_SUFFIXES, 0, end) and _DOTTED.fullmatch(line, 0, end):
        return True
    return _EXCEPTION_TYPE.fullmatch(line, 0, end) is not None


def _exception_line(line: str) -> str | None:
    """``line`` (stripped of prefixes) if it reads ``Type: message``."""
    line = line.strip()
    if line.startswith("|"):
        line = line.lstrip("|").strip()
    if line.startswith(_PREFIXES):
        for prefix in _PREFIXES:
            if line.startswith(prefix) and len(line) > len(prefix):
                line = line[len(prefix) :].strip()
    colon = line.find(": ", 0, _MAX_TYPE)
    if colon <= 0 or not line[colon + 1 :].strip():
        return None
    return line if _is_exception_type(line, colon) else None


_FRAME = re.compile(
    r"""[ \t]*(?:
        at[ ] | File[ ]" | \#\d+[ ] | \.\.\.[ ]\d+[ ]more | Traceback[ ]\(most[ ]recent
      | goroutine[ ]\d+ | \[(?:Previous[ ]line|\d+[ ]more) | \^+\s*$ | ~*\^[~^]*\s*$
      | (?:\w+/)*[\w.-]+\.(?:go|rs|py|js|ts|java|php):\d+ | -{3,} | ={3,} | \|
      | During[ ]handling[ ]of | The[ ]above[ ]exception
    )""",
    re.VERBOSE,
)


def _line_at(text: str, index: int) -> str:
    start = text.rfind("\n", 0, index) + 1
    end = text.find("\n", index)
    return text[start : len(text) if end < 0 else end]


def _last_caused_by(text: str) -> str | None:
    index = text.rfind(_CAUSED_BY)
    while index >= 0:
        line = _line_at(text, index).strip()
        if line.startswith(_CAUSED_BY):
            rest = line[len(_CAUSED_BY) :].strip()
            if rest:
                return rest
        index = text.rfind(_CAUSED_BY, 0, index)
    return None


def _last_exception_line(text: str) -> str | None:
    end = len(text)
    while end > 0:
        colon = text.rfind(": ", 0, end)  # frames have no ": ", exception lines do
        if colon < 0:
            return None
        start = text.rfind("\n", 0, colon) + 1
        line_end = text.find("\n", colon)
        found = _exception_line(text[start : len(text) if line_end < 0 else line_end])
        if found is not None:
            return found
        end = start
    return None


def _first_plain_line(text: str) -> str | None:
    start = 0
    size = len(text)
    while start < size:
        end = text.find("\n", start)
        if end < 0:
            end = size
        line = text[start:end]
        start = end + 1
        if line.strip() and not _FRAME.match(line):
            return line.strip()
    return None


CAUSED_BY = 3
"""Strength of a pick: the last ``Caused by:`` line."""
EXCEPTION = 2
"""Strength of a pick: the last ``Type: message`` line."""
PLAIN = 1
"""Strength of a pick: the first line that is not a stack frame."""


def pick_line_with_strength(text: str) -> tuple[str | None, int]:
    """The most useful line of a text no rule claimed and how it was found (0: blank text)."""
    line = _last_caused_by(text)
    if line:
        return line, CAUSED_BY
    line = _last_exception_line(text)
    if line:
        return line, EXCEPTION
    line = _first_plain_line(text)
    return (line, PLAIN) if line else (None, 0)


def pick_line(text: str) -> str | None:
    """The most useful line of a text no rule claimed, or ``None`` for a blank text."""
    return pick_line_with_strength(text)[0]
