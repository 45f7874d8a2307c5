"""PHP traces: ``Uncaught X: msg in file:N``, ``Stack trace:``, ``#N file(line): call()``,
``Next X`` chains, ``thrown in … on line N``; Monolog's ``[object] (X(code: N): msg at f:N)``
with ``[stacktrace]`` and ``[previous exception]``; Monolog's JsonFormatter objects; and the
one-line JSON form with ``\\n`` escapes (TYPO3, Monolog), unescaped before it gets here.

PHP's ``#N file(line): f()`` row means *f was called from file:line*; the frames are shifted
so each frame's function is the one that line is in, and the throw site (from the header)
comes first. Call arguments are cut.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hintline.traces._memo import MEMO_SIZE, shared_dict
from hintline.traces._raw import (
    MAX_EXCEPTIONS,
    MAX_FRAMES,
    MAX_LINE,
    RawException,
    RawFrame,
    RawTrace,
)

__all__ = ["MAX_HEADER", "parse_php", "reading_text"]

MAX_HEADER = 50  # lines of an exception's header (message) before its stack: a longer one is dropped

_UNCAUGHT = re.compile(r"(?:PHP )?(?:Fatal error|Catchable fatal error|Warning|Notice):\s+Uncaught (.*)$")
_MONOLOG = re.compile(r"(\[previous exception\] )?\[object\] \(([\w\\]+)\(code: -?\d+\): (.*)$")
_TYPE = re.compile(r"([A-Za-z_\\][\w\\]*): ?(.*)$")
_THROWN = re.compile(r"\s*thrown in .* on line \d+\s*$")


def _location(text: str, sep: str) -> tuple[str, str | None, int | None]:
    """Split ``msg in /f.php:12`` (``sep`` = `` in ``) or ``msg at /f.php:12``."""
    head, found, loc = text.rpartition(sep)
    if found:
        file, colon, line = loc.rpartition(":")
        if colon and line.isdecimal() and file:
            return head, file, int(line)
    return text, None, None


def _split_call(call: str) -> tuple[str | None, str | None]:
    """``App\\Repo->find('x')`` → (``App\\Repo``, ``find``); arguments are cut."""
    paren = call.find("(")
    name = call[:paren] if paren > 0 else call
    for sep in ("->", "::"):
        pos = name.rfind(sep)
        if pos > 0:
            return name[:pos], name[pos + len(sep) :]
    slash = name.rfind("\\")
    if slash > 0:
        return name[:slash], name[slash + 1 :]
    return None, name or None


def _row(body: str) -> tuple[str | None, int | None, str] | None:
    if body.startswith("{main}"):
        return (None, None, "{main}")
    if body.startswith("[internal function]: "):
        return (None, None, body[21:])
    end = body.find("): ")
    if end <= 0:
        return None
    loc, call = body[:end], body[end + 3 :]
    open_ = loc.rfind("(")
    if open_ <= 0 or not loc[open_ + 1 :].isdecimal():
        return None
    return (loc[:open_], int(loc[open_ + 1 :]), call)


# The common row body, ``/app/src/a.php(12): App\\Repo->find('x')``, as :func:`_row` splits it:
# the file holds no parenthesis (so its ``(`` is the last one before the first ``): ``).
_ROW_SHAPE = re.compile(r"(?!\{main\}|\[internal function\]: )([^()]++)\((\d++)\): (.*)\Z")
# A stack row: file, line, (function, module) of its call, and the call as printed.
_Row = tuple["str | None", "int | None", "str | None", "str | None", str]
_UNPARSED: _Row = (None, None, None, None, "")  # a ``#N …`` line that is no row

# Rows by what follows ``#N ``: a recursion repeats a row at every depth (only N differs), and
# a service's rows recur from trace to trace. Only bodies of row lines enter it: message lines
# may hold secrets.
_ROW_BODIES: dict[str, _Row] = shared_dict()
# ``#0`` … ``#1023``: the head of a row line as PHP prints it (numbered in order, no spaces
# around), so one set lookup of the head tells a row line from any other.
_HEADS = frozenset(f"#{k}" for k in range(1024))
# The longest body stored: with the longest head of _HEADS its line is no longer than MAX_LINE,
# so a body found in the memo never belongs to an overlong line (those are skipped).
_MAX_BODY = MAX_LINE - len("#1023 ")


def _row_body(body: str) -> _Row | None:
    """The row of what follows ``#N `` (cut at the first space of the stripped line), or
    :data:`_UNPARSED` when that is no row, or ``None`` when it is only whitespace (the line
    then has no space after the number once stripped: no ``#N …`` line at all). A body with
    trailing whitespace gets the row of the stripped one."""
    row = _ROW_BODIES.get(body)
    if row is not None:
        return row
    stripped = body.rstrip()
    if not stripped:
        return None
    shape = _ROW_SHAPE.match(stripped)
    if shape is not None:  # (what _row gives, in one match)
        file, num, call = shape.groups()
        line: int | None = int(num)
    else:
        parsed = _row(stripped)
        if parsed is None:
            return _UNPARSED
        file, line, call = parsed
    if call == "{main}":
        row = (file, line, "{main}", None, call)
    else:
        module, function = _split_call(call)
        row = (file, line, function, module, call)
    if len(body) <= _MAX_BODY:
        if len(_ROW_BODIES) >= MEMO_SIZE:
            _ROW_BODIES.clear()
        _ROW_BODIES[body] = row
    return row


def _row_line(s: str) -> _Row | None:
    """For a stripped line: ``None`` unless it is a ``#N …`` row; then the row, or
    :data:`_UNPARSED` when its body is not one."""
    if not s.startswith("#"):
        return None
    head, sep, body = s.partition(" ")
    if not sep or not head[1:].isdecimal():  # isdecimal is what the regex's \d matches
        return None
    row = _row_body(body)
    return _UNPARSED if row is None else row  # (None only when ``s`` was not stripped)


def _row_run(lines: list[str], i: int, rows: list[_Row]) -> int:
    """Read the run of ``#N …`` rows from ``lines[i]`` on into ``rows``; return the index of
    the first line that is no row. ``#N`` lines that are no row are skipped, as are lines
    longer than MAX_LINE.

    A tight loop: a line split at its first space whose head is in :data:`_HEADS` costs one
    lookup of its body (no body of an overlong line is ever stored, see :func:`_row_body`).
    Only a new body calls :func:`_row_body`, and only another head (more than 1023, spaces
    around, no row at all) goes through :func:`_row_line`. A body that is no row is
    remembered for this run only (it may hold a secret): a run of one such line repeated is
    a set lookup a line.
    """
    heads = _HEADS
    body_get = _ROW_BODIES.get
    append = rows.append
    unparsed: set[str] = set()
    n = len(lines)
    while i < n:
        line = lines[i]
        head, _, body = line.partition(" ")
        row = body_get(body) if head in heads else None
        if row is None:
            if len(line) > MAX_LINE:
                i += 1
                continue
            if head in heads:
                if body in unparsed:
                    i += 1
                    continue
                row = _row_body(body)
                if row is _UNPARSED:
                    unparsed.add(body)
            else:
                s = line.strip()
                row = _row_line(s) if s.startswith("#") else None
            if row is None:
                break
            if row is _UNPARSED:
                i += 1
                continue
        append(row)
        i += 1
    if len(rows) > MAX_FRAMES:
        del rows[MAX_FRAMES:]  # (the rows past it are dropped, as they always were)
    return i


class _Block:
    __slots__ = ("exc", "file", "line", "rows")

    def __init__(self, exc: RawException, file: str | None, line: int | None) -> None:
        self.exc = exc
        self.file = file
        self.line = line
        self.rows: list[_Row] = []

    def frames(self) -> None:
        """Each row's location gets the function of the row after it (that line is in it):
        a location is written out when the next row is read (the throw site's with the first
        row's function); the rows stop at ``{main}``. A plain loop: cheaper than building
        the pairs with ``map`` and ``zip``, for two rows as for sixty."""
        out = self.exc.frames
        append = out.append
        loc: tuple[str | None, int | None] | _Row | None = None if self.file is None else (self.file, self.line)
        room = MAX_FRAMES - (loc is not None)  # row frames that fit
        rows = self.rows
        for row in rows[: room + 1]:
            if loc is not None:
                append((loc[0], loc[1], row[2], row[3], None))
            if row[4] == "{main}":
                return
            loc = row
        if loc is not None and len(rows) <= room:  # the last row has no row after it
            append((loc[0], loc[1], None, None, None))


# What a line must hold for parse_php to act on it outside a header (see :func:`reading_text`):
# a header may start there (_header_text: ``Next ``, ``Uncaught ``, ``[object] (``, a Monolog
# ``"exception":"``, `` in /`` or a Windows ``:\``), or the line ends the trace (_THROWN), is a
# JsonFormatter object, or may be a stack row (``#``, digits, a space and something that is not
# whitespace: the row readers split at the first space, want digits before it and a body).
_HEADER_MARKS = ("Next ", "Uncaught ", "[object] (", '"exception":"', " in /", ":\\")
_LINE_MARKS = ("thrown in", '"class":')
_ROW_MARK = re.compile(r"#\d++ [^\S\n]*+\S")


def _line_span(text: str, pos: int) -> tuple[int, int]:
    """The start and end (after its newline) of the line holding ``text[pos]``."""
    end = text.find("\n", pos)
    return text.rfind("\n", 0, pos) + 1, len(text) if end < 0 else end + 1


def _header_end(text: str, end: int) -> int:
    """Where a header starting on the line that ends at ``end`` is over at the latest: after
    MAX_HEADER more lines of at most MAX_LINE characters (longer ones are not counted)."""
    counted = 0
    n = len(text)
    while counted <= MAX_HEADER and end < n:
        nxt = text.find("\n", end)
        nxt = n if nxt < 0 else nxt + 1
        if nxt - end <= MAX_LINE + 1:
            counted += 1
        end = nxt
    return end


def reading_text(text: str) -> str:
    """``text`` without the lines :func:`parse_php` would pass over (for a text of many lines).

    Outside a header the reader acts only on a line holding one of the marks above (every
    other line, empty or not, changes nothing, also between stack rows); a header takes at
    most MAX_HEADER lines after its first. So every line holding a mark is kept, with the
    MAX_HEADER lines after a header mark, and the rest is dropped. The marks are found by C
    scans over the text (``find``, and a search for ``#N x``): Python steps once per
    marked line, not once per line, so a text of many short lines no reader can use
    (empty lines between junk) is not walked line by line.
    """
    spans: list[tuple[int, int]] = []
    heads: list[tuple[int, int]] = []
    for mark in _HEADER_MARKS:
        pos = text.find(mark)
        while pos >= 0:
            start, end = _line_span(text, pos)
            heads.append((start, end))
            pos = text.find(mark, end)
    # header marks a few lines apart share one window, from the first one's line to the end
    # of the last one's (computed once per such cluster: clusters are MAX_HEADER lines apart)
    heads.sort()
    first = last = -1
    for start, end in heads:
        if first >= 0 and (start < last or text.count("\n", last, start) <= MAX_HEADER or start < _header_end(text, last)):
            last = max(last, end)
            continue
        if first >= 0:
            spans.append((first, _header_end(text, last)))
        first, last = start, end
    if first >= 0:
        spans.append((first, _header_end(text, last)))
    for mark in _LINE_MARKS:
        pos = text.find(mark)
        while pos >= 0:
            span = _line_span(text, pos)
            spans.append(span)
            pos = text.find(mark, span[1])
    row = _ROW_MARK.search(text)
    while row is not None:
        start, end = _line_span(text, row.start())
        spans.append((start, end))
        row = _ROW_MARK.search(text, end)
    spans.sort()
    parts: list[str] = []
    kept_to = 0
    for start, end in spans:
        if end <= kept_to:
            continue
        parts.append(text[max(start, kept_to) : end])
        kept_to = end
    return "".join(parts)


def parse_php(lines: list[str]) -> RawTrace:
    """Parse the first PHP exception chain found in ``lines``.

    Runs of stack rows are read by :func:`_row_run`; the other lines one by one.
    """
    trace = RawTrace("php")
    blocks: list[_Block] = []
    outer_first = False  # Monolog prints the outer exception first, PHP itself the inner
    header: list[str] = []
    cur: _Block | None = None
    in_rows = False
    n = len(lines)
    i = 0
    while i < n:
        if in_rows and cur is not None and "#" in lines[i]:  # (in_rows: no header is collected)
            i = _row_run(lines, i, cur.rows)
            if i >= n:
                break
        line = lines[i]
        i += 1
        if len(line) > MAX_LINE:
            continue
        s = line.strip()
        if header:
            if s in ("Stack trace:", "[stacktrace]"):
                cur = _start(blocks, header, outer_first)
                header = []
                in_rows = True
                continue
            if s.startswith("#0 "):
                cur = _start(blocks, header, outer_first)
                header = []
                in_rows = True
                i -= 1  # the row run reads it
                continue
            header.append(line)
            if len(header) > MAX_HEADER:
                header = []
            continue
        if _THROWN.match(line):
            break
        text = _header_text(line)
        if text is not None:
            if len(blocks) >= MAX_EXCEPTIONS:
                break
            if text.startswith(("[object] ", "[previous exception] [object] ")):
                outer_first = True
            elif blocks and not line.lstrip().startswith("Next "):
                break
            header = [text]
            in_rows = False
            continue
        if s.startswith("{") and '"class":' in s and not blocks and _monolog_json(s, trace):
            return trace
    if header and not blocks:
        _start(blocks, header, outer_first)
    ordered = blocks if outer_first else blocks[::-1]
    for block in ordered:
        block.frames()
        trace.exceptions.append(block.exc)
    trace.chain_parents()
    return trace


def _header_text(line: str) -> str | None:
    """The ``Type: msg in file:N`` part of a line that starts an exception, if it does."""
    s = line.strip()
    if s.startswith("Next "):
        return s[5:]
    # (a search tries the pattern at every character: 25 µs on a 600-character log line, so
    # only a line holding its literal part is searched)
    m = _UNCAUGHT.search(line) if "Uncaught " in line else None
    if m:
        return m[1]
    pos = s.find("[object] (")
    if pos >= 0:
        return s[pos:]
    pos = s.rfind('"exception":"')
    if pos >= 0:
        return s[pos + 13 :]
    if (" in /" in s or (" in " in s and ":\\" in s)) and _TYPE.match(s):
        return s
    return None


def _start(blocks: list[_Block], header: list[str], outer_first: bool) -> _Block:
    text = "\n".join(header)
    monolog = _MONOLOG.match(text)
    if monolog:
        body = monolog[3].rstrip()
        body = body.removesuffix(")")
        msg, file, line = _location(body, " at ")
        exc = RawException(monolog[2], msg)
    else:
        m = _TYPE.match(text)
        type_, rest = (m[1], m[2]) if m else ("Exception", text)
        msg, file, line = _location(rest, " in ")
        exc = RawException(type_, msg)
    block = _Block(exc, file, line)
    blocks.append(block)
    return block


def _monolog_json(line: str, trace: RawTrace) -> bool:
    """Monolog's JsonFormatter: ``{"class": …, "file": "f:N", "trace": [...], "previous": …}``."""
    start, end = line.find("{"), line.rfind("}")
    if start < 0 or end <= start or end - start > 2_000_000:
        return False
    try:
        data = json.loads(line[start : end + 1])
    except ValueError:
        return False
    found = _find_exception(data, 0)
    while isinstance(found, dict) and len(trace.exceptions) < MAX_EXCEPTIONS:
        exc = RawException(str(found.get("class") or "Exception"), str(found.get("message") or ""))
        for i, item in enumerate([found.get("file"), *(found.get("trace") or [])]):
            if not isinstance(item, str) or i >= MAX_FRAMES:
                continue
            file, colon, num = item.rpartition(":")
            frame: RawFrame = (file, int(num), None, None, None) if colon and num.isdecimal() else (item, None, None, None, None)
            exc.add(frame)
        trace.exceptions.append(exc)
        found = found.get("previous")
    trace.chain_parents()
    return bool(trace.exceptions)


def _find_exception(data: Any, depth: int) -> dict[str, Any] | None:
    if depth > 6:
        return None
    if isinstance(data, dict):
        if "class" in data and "message" in data:
            return data
        for value in data.values():
            hit = _find_exception(value, depth + 1)
            if hit is not None:
                return hit
    return None
