"""JavaScript traces as V8/Node print them: ``at fn (file:line:col)``, ``at file:line:col``,
``async`` frames, ``{ [cause]: … }`` blocks, ``[errors]: [ … ]`` of an AggregateError, and
``... N lines matching cause stack trace ...`` filled in from the cause.

The uncaught-error preamble Node prints (``file:line``, the source line, a ``^``) is skipped:
source lines are never kept.
"""

from __future__ import annotations

import re
from itertools import islice, takewhile
from operator import truth

from hintline.traces._memo import MEMO_SIZE, line_memo, shared_dict
from hintline.traces._raw import MAX_EXCEPTIONS, MAX_LINE, RawException, RawFrame, RawTrace

__all__ = ["node_frame", "parse_node"]

# ``[cause]: Type [code]: message`` with an optional ``[`` … ``]``, ``] {`` or ``] [`` around
# it. The message is read greedily and its closing bracket split off by :func:`_header` (a lazy
# ``.*?`` before an optional tail tries the tail at every character: many times slower).
# ``\s*+`` and ``[\w$.]*+`` may be possessive: what follows them never starts with what they eat.
_HEADER = re.compile(
    r"\s*+(?:Uncaught )?(\[cause\]: )?(\[)?([A-Za-z_$][\w$.]*+)(?: \[([\w.-]+)\])?(?:: (.*))?(\] \{|\] \[|\])?$"
)
_CLOSES = ("] {", "] [")
# The common frame line in one match, on the line as printed: ``at fn (file:N:C)`` (``fn``
# without parentheses, no ``eval at`` location) or ``at file:N:C`` (not ``new …``), with an
# optional ``async``; the result is what :func:`node_frame` gives (its tests run on all others).
# :data:`_COMMON_REST` is the same for what follows ``at `` once a `` {`` or ``,`` is cut off.
_COMMON_BODY = (
    r"(?:async )?+(?:([^ (]++(?: [^ (]++)*+) \((?!eval at )([^()]*):(\d++):(\d++)\)"
    r"|(?!new )([^()]*):(\d++):(\d++))"
)
_COMMON = re.compile(rf"\s*+at {_COMMON_BODY}\s*+\Z")
_COMMON_REST = re.compile(rf"{_COMMON_BODY}\Z")
_MATCHING = re.compile(r"\s*\.\.\. (\d+) lines matching cause stack trace \.\.\.")
_CODE = re.compile(r"\s{2}code: '([\w.-]+)',?$")


def _drop_alias(func: str) -> str:
    """``obj.method [as alias]`` → ``obj.method``, for a name ending in ``]``: the leftmost
    `` [as `` with no ``]`` between it and the final one is cut with all that follows (what
    ``re.sub(r" \\[as [^\\]]*\\]$", "", func)`` does; that pattern tries every `` [as `` up to
    the end of a name without its closing ``]``, quadratic; this is two C scans)."""
    close = func.rfind("]", 0, len(func) - 1)  # the last ``]`` before the final one
    pos = func.find(" [as ", close + 1, len(func) - 1)
    return func[:pos] if pos >= 0 else func


def node_frame(rest: str) -> RawFrame:
    """Parse what follows ``at `` in a V8 frame line."""
    if rest.startswith("async "):
        rest = rest[6:]
    func: str | None = None
    loc = rest
    if rest.endswith(")"):
        open_ = rest.find(" (")
        if open_ > 0:
            func = rest[:open_]
            loc = rest[open_ + 2 : -1]
            if loc.startswith("eval at "):
                inner = loc.rfind(", ")
                loc = loc[inner + 2 :] if inner >= 0 else loc
    elif rest.startswith("new "):
        func = rest
        loc = ""
    if func is not None and func.endswith("]") and " [as " in func:
        func = _drop_alias(func)
    file: str | None = loc or None
    line = col = None
    parts = loc.rsplit(":", 2)
    if len(parts) == 3 and parts[1].isdecimal() and parts[2].isdecimal():
        file, line, col = parts[0], int(parts[1]), int(parts[2])
    elif len(parts) >= 2 and parts[-1].isdecimal():
        file, line = loc.rpartition(":")[0], int(parts[-1])
    if func is None and file is not None and line is None and " " in file:
        func, file = file, None  # e.g. "at async Promise.all (index 0)" without location
    return (file, line, func, None, col)


def _header(line: str) -> tuple[str | None, str | None, str, str | None, str | None, str | None] | None:
    """The groups of :data:`_HEADER` as the lazy pattern gave them: (``[cause]: ``, ``[``,
    type, code, message, closing ``]``/``] {``/``] [``), else ``None``."""
    m = _HEADER.match(line)
    if m is None:
        return None
    cause, open_, type_, code, message, close = m.groups()
    if message is not None:  # (then close is None: the message ate it)
        if message.endswith(_CLOSES):
            message, close = message[:-3], message[-3:]
        elif message.endswith("]"):
            message, close = message[:-1], "]"
    return cause, open_, type_, code, message, close


def _common_frame(m: re.Match[str]) -> RawFrame:
    """The frame of a match of :data:`_COMMON` or :data:`_COMMON_REST`."""
    func, file, num, col, file2, num2, col2 = m.groups()
    if func is None:
        return (file2, int(num2), None, None, int(col2))
    if func.endswith("]") and " [as " in func:
        func = _drop_alias(func)
    return (file, int(num), func, None, int(col))


@line_memo
def _at_line(s: str) -> tuple[RawFrame, bool] | None:
    """A stripped ``at …`` line's frame and whether it opens a ``{ … }`` block, else ``None``."""
    if not s.startswith("at ") or len(s) <= 3:
        return None
    rest = s[3:]
    opens = rest.endswith(" {")
    if opens:
        rest = rest[:-2]
    elif rest.endswith(","):
        rest = rest[:-1]
    m = _COMMON_REST.match(rest)
    return (node_frame(rest) if m is None else _common_frame(m)), opens


# Frame lines (as printed, indentation and all) seen before and their frames, for the tight
# loop of :func:`_frame_run`. Only frame lines that open no ``{`` block enter it: message lines
# may hold secrets.
_FRAME_LINES: dict[str, RawFrame] = shared_dict()


def _frame_run(lines: list[str], i: int, frames: list[RawFrame]) -> int:
    """Read the run of ``at …`` lines from ``lines[i]`` on into ``frames``; return the index
    of the first line it leaves: no frame, or a frame that opens a ``{`` block (the caller
    reads that one). Overlong lines are skipped, as the caller would.

    A tight loop: a line seen before costs one dict lookup and no Python call, and the lines
    seen before that follow it are taken by one C-level ``map`` of the memo's ``get`` (no
    Python step per line: recursion, a trace logged again).
    """
    seen = _FRAME_LINES
    get = seen.get
    append = frames.append
    n = len(lines)
    while i < n:
        line = lines[i]
        frame = get(line)
        if frame is not None:
            append(frame)
            i += 1
            if i < n and lines[i] in seen:
                # a run of lines seen before (recursion, a trace logged again): at C level
                hits = list(takewhile(truth, map(get, islice(lines, i, None))))
                frames.extend(hits)  # type: ignore[arg-type]  # (takewhile stopped at the first None)
                i += len(hits)
            continue
        if len(line) > MAX_LINE:
            i += 1
            continue
        m = _COMMON.match(line)
        if m is not None:
            frame = _common_frame(m)
        elif line.endswith(" {"):
            break  # a frame that opens a block, or no frame: the caller reads it either way
        else:
            s = line.strip()
            at_frame = _at_line(s) if s.startswith("at ") else None
            if at_frame is None or at_frame[1]:
                break
            frame = at_frame[0]
        if len(seen) >= MEMO_SIZE:
            seen.clear()
        seen[line] = frame
        append(frame)
        i += 1
    return i


def parse_node(lines: list[str]) -> RawTrace:
    """Parse the first JavaScript error (with its causes and aggregated errors) in ``lines``.

    Runs of frame lines are read by :func:`_frame_run`; every other line goes through the
    state machine below.
    """
    trace = RawTrace("javascript")
    out = trace.exceptions
    stack: list[int] = []  # exceptions whose { … } property block is open
    errors_of: int | None = None  # the AggregateError whose [errors]: [ … ] list is open
    candidate: RawException | None = None
    cur: RawException | None = None
    in_frames = False
    finished = False
    awaiting: RawException | None = None  # attached already, its frames may follow
    placeholders: list[tuple[int, int, int]] = []  # (exception, insert index, count)
    at_line = _at_line
    n = len(lines)
    i = 0
    while i < n:
        if in_frames and cur is not None:
            i = _frame_run(lines, i, cur.frames)
            if i >= n:
                break
        line = lines[i]
        i += 1
        if len(line) > MAX_LINE:
            continue
        s = line.strip()
        at_frame = at_line(s) if s.startswith("at ") else None  # only frame lines are memoised
        if at_frame is not None:
            if not in_frames and awaiting is not None:
                cur, awaiting, in_frames = awaiting, None, True
            elif not in_frames:
                if candidate is None or finished or len(out) >= MAX_EXCEPTIONS:
                    if finished:
                        break
                    continue
                cur = candidate
                candidate = None
                _attach(out, cur, stack, errors_of)
                in_frames = True
            assert cur is not None
            frame, opens = at_frame
            cur.frames.append(frame)
            if opens:
                stack.append(len(out) - 1)
                in_frames = False
            continue
        more = _MATCHING.match(line) if in_frames and "... " in line else None
        if more and cur is not None:
            placeholders.append((len(out) - 1, len(cur.frames), int(more[1])))
            continue
        if in_frames:
            in_frames = False
            awaiting = None
            if not stack:
                finished = True
        if s == "}" or s == "},":
            awaiting = None
            if stack:
                stack.pop()
            if not stack:
                finished = True
            continue
        if s in ("]", "],") and errors_of is not None:
            errors_of = None
            continue
        if s == "[errors]: [" and stack:
            errors_of = stack[-1]
            continue
        if stack and not finished and (code := _CODE.match(line)) and stack[-1] == 0:
            trace.extra.setdefault("code", code[1])
            continue
        if not s:
            if candidate is not None and not stack:
                candidate = None
            continue
        header = _header(line)
        if header is not None and (header[1] is None) == (header[5] is None):
            cause, _, type_, err_code, message, close = header
            if finished and not stack and out:
                break
            exc = RawException(type_, message or "")
            if err_code:
                exc.type = f"{type_} [{err_code}]"
            if cause or close or (stack and errors_of is not None):
                if len(out) >= MAX_EXCEPTIONS:
                    break
                if cause:
                    exc.relation = "cause"
                _attach(out, exc, stack, errors_of)
                cur = awaiting = exc
                candidate = None
                if close == "] {":
                    stack.append(len(out) - 1)
                elif close == "] [":
                    errors_of = len(out) - 1
            else:
                candidate = exc
            continue
        if awaiting is not None:
            awaiting.append_message(s)
        elif candidate is not None and not finished:
            candidate.append_message(s)
    for owner, at, count in reversed(placeholders):
        _fill_from_cause(out, owner, at, count)
    return trace


def _attach(out: list[RawException], exc: RawException, stack: list[int], errors_of: int | None) -> None:
    if out:
        if exc.relation == "cause" and stack:
            exc.parent = stack[-1]
        elif errors_of is not None:
            exc.relation, exc.parent = "group", errors_of
        elif stack:
            exc.relation, exc.parent = exc.relation or "cause", stack[-1]
        else:
            exc.relation, exc.parent = exc.relation or "cause", len(out) - 1
    out.append(exc)


def _fill_from_cause(out: list[RawException], owner: int, at: int, count: int) -> None:
    """Node hid ``count`` frames it shares with the cause after frame ``at - 1``: restore them."""
    outer = out[owner]
    cause = next((e for e in out if e.parent == owner and e.relation == "cause"), None)
    if cause is None or at == 0:
        outer.omitted += count
        return
    anchor = outer.frames[at - 1]
    try:
        pos = cause.frames.index(anchor)
    except ValueError:
        outer.omitted += count
        return
    hidden = cause.frames[pos + 1 : pos + 1 + count]
    outer.frames[at:at] = hidden
    outer.omitted += count - len(hidden)
