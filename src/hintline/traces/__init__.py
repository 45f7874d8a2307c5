"""Parse any language's stack trace into an exception chain with frames.

``parse_trace(text)`` detects the language (or takes the caller's hint), runs that language's
parser and decides ``in_app`` for every frame. ``Trace.exceptions`` is ordered **outermost
first**; ``Trace.root_cause`` is the innermost exception. Frames are **throw site first**.
Parsing is total: any input (empty, binary, huge, hostile) returns a possibly empty
:class:`Trace` and never raises, in time linear in the input.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from hintline._text import valid_text
from hintline.traces._build import build_trace
from hintline.traces._detect import LANGUAGES, detect_language, may_hold_trace, normalize_language
from hintline.traces._dotnet import parse_dotnet
from hintline.traces._go import parse_go
from hintline.traces._jvm import parse_jvm
from hintline.traces._live import trace_from_exception
from hintline.traces._model import ExceptionInfo, Frame, Trace
from hintline.traces._node import parse_node
from hintline.traces._php import MAX_HEADER, parse_php, reading_text
from hintline.traces._python import parse_python
from hintline.traces._raw import MAX_MESSAGE, RawTrace
from hintline.traces._ruby import parse_ruby
from hintline.traces._rust import parse_rust
from hintline.traces._select import DEFAULT_FRAME_LIMIT, select_frames

__all__ = [
    "DEFAULT_FRAME_LIMIT",
    "LANGUAGES",
    "ExceptionInfo",
    "Frame",
    "Trace",
    "detect_language",
    "parse_trace",
    "select_frames",
]

_PARSERS: dict[str, Callable[[list[str]], RawTrace]] = {
    "python": parse_python,
    "java": parse_jvm,
    "javascript": parse_node,
    "php": parse_php,
    "go": parse_go,
    "rust": parse_rust,
    "dotnet": parse_dotnet,
    "ruby": parse_ruby,
}

_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|([\\nrt\"/]))")
_PLAIN = {"\\": "\\", "n": "\n", "t": "\t", "r": "", '"': '"', "/": "/"}
_SIMPLE_ESCAPES = tuple((f"\\{k}", v) for k, v in _PLAIN.items() if k != "\\")


def _unescaped(m: re.Match[str]) -> str:
    if m[1] is None:
        return _PLAIN[m[2]]
    code = int(m[1], 16)
    # U+0000 becomes U+FFFD, as the log readers decode a NUL byte: a NUL cuts C strings and
    # terminals, and every later step would have to drop it
    return chr(code) if code else "\ufffd"


def _unescape(text: str) -> str:
    """Undo JSON string escapes (a trace logged as one line with ``\\n``), in linear time.

    ``\\ud83d\\ude00`` gives two halves of a surrogate pair: :func:`valid_text` joins them
    (a lone half becomes U+FFFD); ``\\u0000`` gives U+FFFD.
    """
    if "\\u" in text or "\x00" in text:
        return valid_text(_ESCAPE.sub(_unescaped, text))
    # the common case, faster as a few replaces: `\\` held as a NUL the text does not have
    text = text.replace("\\\\", "\x00")
    for escaped, plain in _SIMPLE_ESCAPES:
        text = text.replace(escaped, plain)
    return text.replace("\x00", "\\")


def _to_text(source: str | bytes | bytearray | memoryview) -> str:
    if isinstance(source, str):
        return valid_text(source)  # lone surrogates would reach every printed field
    return bytes(source).decode("utf-8", "replace")


# Empty lines of one run that can change a parse: every reader does the same for an empty line
# as for the one before it, but for a message that takes one more newline per empty line (up to
# MAX_MESSAGE characters) and a PHP header that counts its lines (up to 50). A longer run is cut
# to this many: a text of empty lines (one per byte) is not read line by line to its end.
_KEPT_BLANKS = MAX_MESSAGE + 64
_LONG_RUN = "\n" * (_KEPT_BLANKS + 2)  # a run of more empty lines than that
_NEWLINES = re.compile(r"\n*")


def _cut_blank_runs(text: str) -> str:
    """``text`` with every run of more than _KEPT_BLANKS empty lines cut to that many, in
    linear time (``find`` of the long run, then one anchored match over the run's newlines)."""
    parts = []
    start = 0
    while (pos := text.find(_LONG_RUN, start)) >= 0:
        parts.append(text[start : pos + _KEPT_BLANKS + 1])
        start = _NEWLINES.match(text, pos).end()  # type: ignore[union-attr]  # (\n* always matches)
    if not parts:
        return text
    parts.append(text[start:])
    return "".join(parts)


def _split(text: str, lines: list[str] | None = None) -> list[str]:
    """The lines of ``text`` (``lines``: ``text.split("\\n")`` when the caller has it)."""
    if lines is None:
        lines = text.split("\n")
    if len(lines) > _KEPT_BLANKS and lines.count("") > _KEPT_BLANKS:  # (then only: a C scan)
        text = _cut_blank_runs(text)
        lines = text.split("\n")
    if "\r" in text:
        lines = [line.rstrip("\r") for line in lines]
    return lines


# How many empty lines in a row each reader tells apart: a longer run reads as this many. The
# language vote skips empty lines, and most readers do for a second empty line what they did
# for the first (each keeps this true; tests/traces/test_blank_runs.py checks it on every
# fixture with runs of every length around the bound):
# - python: ends a message (state idle), or is a source line after a frame (caret column 0);
# - java: ends a frame run and drops an untyped candidate, or is skipped while a ``Caused by:``
#   awaits its frames;
# - javascript: ends a frame run, drops a candidate outside a ``{`` block;
# - go: no message or frame is read from it; it ends a goroutine block;
# - dotnet: ends the frames, else it is skipped; ruby: skipped;
# - php: taken into a header of at most MAX_HEADER lines (a longer one is dropped), else skipped;
# - rust: a panic message takes every empty line up to MAX_MESSAGE: the general cut.
_PHP_BLANKS = MAX_HEADER
_BLANK_RUNS = {
    "python": 1, "java": 1, "javascript": 1, "go": 1, "dotnet": 1, "ruby": 1, "php": _PHP_BLANKS, "rust": _KEPT_BLANKS,
}
_RUNS = re.compile(r"\n\n\n+")  # two or more empty lines (``\n{3,}``; a single character repeated)
# more than _PHP_BLANKS empty lines, taken only from a run's first newline (an attempt inside a
# short run would read to its end again: quadratic in the bound); the leading newline lets the
# engine skip to the next newline between attempts
_PHP_RUNS = re.compile(rf"\n(?<!\n\n)\n{{{_PHP_BLANKS + 1},}}")


# The readers that pass over most lines outside a window, with what they can read of a text
# (the text without the lines they would pass over). Its C scans cost about what reading 100
# lines does, so a text is screened only when it has many lines, and short ones (a real stack
# row is longer: a text of them is read faster as it is)
_READING = {"php": reading_text}
_MANY_LINES = 512
_SHORT_LINES = 24  # characters a line on average


def _lines(text: str, hint: str | None) -> tuple[list[str], str | None]:
    """The lines of ``text`` a reader gets, and its language.

    In a text of short lines (a trace's are longer: it is read as it is, with no scan more),
    every run of empty lines is cut to what the language's reader tells apart
    (:data:`_BLANK_RUNS`), so the lines are not read one by one in Python: a run is cut by
    one C-level ``sub`` over the text, the vote runs on the text with each run cut to one
    empty line (it skips empty lines), and the reader on the text cut to its own bound. A
    reader of :data:`_READING` then gets only the lines it can use.
    """
    # split up to the lines a text of this size has when they are as long as a trace's: a
    # text of more (short ones) is not split whole before its runs are cut
    limit = len(text) // _SHORT_LINES + 1
    lines = text.split("\n", limit)
    if len(lines) <= limit:  # (the whole text: ``limit`` splits at most)
        lines = _split(text, lines)
        return lines, hint or detect_language(lines)
    short, runs = _RUNS.subn("\n\n", text)
    lines = _split(short if runs else text)
    lang = hint or detect_language(lines)
    keep = _BLANK_RUNS.get(lang or "", 1)
    reading = _READING.get(lang or "")
    if reading is None or (not runs and len(lines) < _MANY_LINES):
        if not runs or keep == 1:
            return lines, lang  # (they are its lines)
        return _split(_PHP_RUNS.sub("\n" * (_PHP_BLANKS + 1), text) if keep == _PHP_BLANKS else text), lang
    if runs:
        if keep == 1:
            text = short
        elif keep == _PHP_BLANKS:
            text = _PHP_RUNS.sub("\n" * (_PHP_BLANKS + 1), text)
    count = text.count("\n")
    if count >= _MANY_LINES and len(text) < _SHORT_LINES * count:
        text = reading(text)
    elif not runs or text is short:
        return lines, lang  # (they are its lines)
    return _split(text), lang


def parse_trace(
    source: str | bytes | BaseException,
    *,
    project_root: str | None = None,
    language: str | None = None,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
) -> Trace:
    """Parse a trace from text, bytes or a live exception. Never raises.

    Args:
        source: the trace text (a log entry may hold other lines around it; a JSON-escaped
            one-line trace with ``\\n`` escapes is unescaped), bytes (decoded as UTF-8 with
            replacement) or a live Python exception (its chain and ``__traceback__``).
        project_root: frames whose file lies inside this folder (or is relative) are in app
            (not JVM frames: they name a file, never a path; their packages decide).
        language: a hint that overrides detection: one of :data:`LANGUAGES` or an alias
            (``js``, ``kotlin``, ``c#``, ``golang``…).
        include: module prefixes or path fragments always in app (decided first).
        exclude: module prefixes or path fragments never in app (decided second).

    Returns:
        The first trace found, outermost exception first; an empty :class:`Trace` when the
        input holds none.
    """
    try:
        return _parse(source, project_root, language, include, exclude)
    except Exception:
        return Trace()
    except RecursionError:  # pragma: no cover - subclass of Exception, kept for clarity
        return Trace()


def _parse(
    source: str | bytes | BaseException,
    project_root: str | None,
    language: str | None,
    include: Sequence[str],
    exclude: Sequence[str],
) -> Trace:
    if isinstance(source, BaseException):
        raw = trace_from_exception(source)
        return build_trace(raw, project_root=project_root, include=include, exclude=exclude, memo=not raw.long_lines)
    if not isinstance(source, (str, bytes, bytearray, memoryview)):
        return Trace()
    text = _to_text(source)
    if not text or not may_hold_trace(text):
        return Trace()
    hint = normalize_language(language)
    if "\\" in text and "\\n" in text and text.count("\\n") > text.count("\n"):
        text = _unescape(text)  # a trace logged as one JSON string (Monolog, TYPO3, JSON logs)
    lines, lang = _lines(text, hint)
    if lang is None or lang not in _PARSERS:
        return Trace()
    raw = _PARSERS[lang](lines)
    return build_trace(raw, project_root=project_root, include=include, exclude=exclude, memo=not raw.long_lines)
