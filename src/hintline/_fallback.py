"""The fallback of ``clean()`` when no rule matches: pick the most useful line of the text.

In order: the root cause found by :func:`hintline.traces.parse_trace` (``Type: message``);
else the last ``Caused by:`` line (Java); else the last exception line (``Type: message`` in
Python, JavaScript, PHP, Go, ...); else the first line that is not a stack frame.
"""

from __future__ import annotations

import re

__all__ = ["pick_line"]

_CAUSED_BY = "Caused by:"

# An exception line: an (optionally dotted) exception type, then ": message".
_EXCEPTION_LINE = re.compile(
    r"""[ \t|]*
    (?:Uncaught[ ]|Unhandled(?:[ ]exception)?:?[ ]|PHP[ ]Fatal[ ]error:\s+(?:Uncaught[ ])?)?
    (?P<line>
        (?:
            (?:[A-Za-z_$][\w$]*(?:\.|::|\\))*                 # package / namespace
            [A-Za-z_$]?[\w$]*
            (?:Error|Exception|Exit|Interrupt|Warning|Fault|Failure|Rejection|Exceeded|Panic)
            (?:[ ]?\[[^\]\n]{1,80}\])?                        # node's TypeError [ERR_X]
          | (?:[a-z_][\w$]*\.)+[A-Z][\w$]*                    # zipfile.BadZipFile
          | panic | fatal[ ]error | error(?:\[\w+\])?
        )
        :[ \t]*\S.*
    )""",
    re.VERBOSE,
)

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
    while True:
        colon = text.rfind(":", 0, end)
        if colon < 0:
            return None
        start = text.rfind("\n", 0, colon) + 1
        line_end = text.find("\n", colon)
        line = text[start : len(text) if line_end < 0 else line_end]
        found = _EXCEPTION_LINE.match(line)
        if found is not None:
            return found.group("line").strip()
        end = start  # the previous line
        if end <= 0:
            return None


def _first_plain_line(text: str) -> str | None:
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not _FRAME.match(line):
            return stripped
    return None


def pick_line(text: str) -> str | None:
    """The most useful line of a text no rule claimed, or ``None`` for a blank text."""
    return _last_caused_by(text) or _last_exception_line(text) or _first_plain_line(text)
