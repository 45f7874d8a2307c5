"""Python tracebacks: chains, exception groups (``|`` boxes), SyntaxError carets.

Python prints the root cause first and the exception finally raised last, each traceback
with the most recent call last. The parse is turned around: outermost first, throw site
first. Source lines and ``~~^^`` carets are skipped and never kept.
"""

from __future__ import annotations

import re

from hintline._text import cut_at_boundary
from hintline.traces._memo import MEMO_SIZE, shared_dict
from hintline.traces._raw import (
    MAX_EXCEPTIONS,
    MAX_LINE,
    RawException,
    RawFrame,
    RawTrace,
    looks_like_log_line,
)

__all__ = ["parse_python"]

_HEADER = re.compile(r"\s*(?:\+ )?(Exception Group )?Traceback \(most recent call last\):")
# (``[^"]`` rather than ``[^"\n]``: lines hold no newline, and a class excluding one character
# runs about twice as fast in ``re``; possessive: nothing to give back, so no backtracking)
_FRAME = re.compile(r'\s*+File "([^"]*+)", line (\d++)(?:, in (.++))?$')
_EXC = re.compile(r"([A-Za-z_][\w.]*+)(?:: ?(.*+))?$")
_CAUSE = "The above exception was the direct cause of the following exception:"
_CONTEXT = "During handling of the above exception, another exception occurred:"
_BOX_SEP = re.compile(r"( *)\+(-\+)?-+(?: (\d+|\.\.\.) -+)?$")
_BOX_LINE = re.compile(r"( *)[|+] ?")
_SUB_COUNT = re.compile(r" \(\d+ sub-exceptions?\)$")

_FRAMES, _MESSAGE, _IDLE = 0, 1, 2


class _Block:
    __slots__ = ("exc", "members", "rel_next")

    def __init__(self, exc: RawException) -> None:
        self.exc = exc
        self.members: list[list[_Block]] = []
        self.rel_next: str | None = None  # this block is the cause/context of the next one


def parse_python(lines: list[str]) -> RawTrace:
    """Parse the first Python traceback (with its chain and groups) found in ``lines``."""
    top: list[_Block] = []
    slots: dict[int, list[_Block]] = {}
    slot = top
    cur: _Block | None = None
    state = _IDLE
    pending_rel: str | None = None
    count = 0
    boxed = False
    source_indent = 0
    n = len(lines)
    i = 0
    while i < n:
        raw = lines[i]
        i += 1
        if len(raw) > MAX_LINE:
            if state == _MESSAGE and cur is not None:
                cur.exc.append_message(cut_at_boundary(raw, MAX_LINE))
            continue
        line = raw
        if boxed:
            sep = _BOX_SEP.match(line) if "+-" in line else None  # (every separator holds it)
            if sep:
                indent = len(sep[1]) + (2 if sep[2] else 0)
                if sep[3] is not None:
                    owner = slots.get(indent - 2, top)
                    member: list[_Block] = []
                    if owner and owner[-1].members is not None:
                        owner[-1].members.append(member)
                    slots[indent] = member
                    slot = member
                else:
                    slots.pop(indent, None)
                cur, state, pending_rel = None, _IDLE, None
                continue
            box = _BOX_LINE.match(line)
            if box:
                indent = len(box[1])
                if indent not in slots:
                    slots[indent] = top if not slots else []
                slot = slots[indent]
                line = line[box.end() :]
        if state == _FRAMES and "    " <= line < "   !" and not boxed and cur is not None:
            # the echoed source line or its carets (frames are indented by two): never kept
            frames = cur.exc.frames
            if frames and frames[-1][2] is None:
                source_indent = _syntax_caret(cur.exc, line, line.strip(), source_indent)
            continue
        header = _HEADER.match(line) if "Traceback" in line else None
        if header:
            if header[1] and not boxed:
                boxed = True
                if line.lstrip().startswith("+"):
                    indent = len(line) - len(line.lstrip())
                    slots[indent] = top
            count += 1
            if count > MAX_EXCEPTIONS:
                break
            cur = _Block(RawException(""))
            if slot and slot[-1].rel_next is None and pending_rel:
                slot[-1].rel_next = pending_rel
            slot.append(cur)
            pending_rel = None
            state = _FRAMES
            if not boxed:  # its frames, read as the main loop would (it gets the first non-frame)
                i, source_indent = _frame_run(lines, i, cur.exc, source_indent)
            continue
        frame = _frame_of(line) if 'File "' in line else None
        if frame is not None:
            if cur is None or state != _FRAMES:
                if top and not boxed and pending_rel is None:
                    break  # a second, unrelated traceback
                cur = _Block(RawException(""))
                slot.append(cur)
                state = _FRAMES
            frames = cur.exc.frames
            frames.append(frame)
            if not boxed:
                i, source_indent = _frame_run(lines, i, cur.exc, source_indent)
            continue
        stripped = line.strip()
        if state == _FRAMES:
            if not stripped or line[0] in " \t":
                if cur is not None and cur.exc.frames and cur.exc.frames[-1][2] is None:
                    source_indent = _syntax_caret(cur.exc, line, stripped, source_indent)
                continue  # source line or carets: never kept
            m = _EXC.match(line)
            if m is None:
                if cur is not None and cur.exc.frames:
                    cur.exc.type = line.strip()[:200]
                    state = _MESSAGE
                continue
            assert cur is not None
            cur.exc.type = m[1]
            cur.exc.message = m[2] or ""
            if header is None and boxed:
                cur.exc.message = _SUB_COUNT.sub("", cur.exc.message)
            state = _MESSAGE
            continue
        if stripped in (_CAUSE, _CONTEXT):
            pending_rel = "cause" if stripped == _CAUSE else "context"
            if slot:
                slot[-1].rel_next = pending_rel
            state = _IDLE
            continue
        if state == _MESSAGE:
            if not stripped:
                state = _IDLE
                continue
            if looks_like_log_line(line):
                if boxed or pending_rel is None:
                    state = _IDLE
                    if not boxed:
                        break
                continue
            assert cur is not None
            cur.exc.append_message(line)
            continue
        if boxed and cur is None and stripped:
            m = _EXC.match(stripped)
            if m and (m[2] is not None or "." in m[1] or m[1][:1].isupper()):
                cur = _Block(RawException(m[1], _SUB_COUNT.sub("", m[2] or "")))
                slot.append(cur)
                state = _MESSAGE
            continue
        if top and not boxed and pending_rel is None and stripped and any(b.exc.type for b in top):
            break
    return _flatten(top)


# Frame lines seen before (this trace or an earlier one) and their frames. Only frame lines
# that a run of frames may take as they are enter it (no ``Traceback``, not indented like a
# source line): echoed source lines and messages, which may hold secrets, are never kept.
_FRAME_LINES: dict[str, RawFrame] = shared_dict()
_py_frame = _FRAME_LINES  # (the tests' name for it)


def _frame_of(line: str) -> RawFrame | None:
    """The frame of a line holding ``File "`` (at most MAX_LINE long), else ``None``."""
    frame = _FRAME_LINES.get(line)
    if frame is None:
        m = _FRAME.match(line)
        if m is None:
            return None
        file, num, function = m.groups()
        frame = (file, int(num), function, None, None)
        if "Traceback" not in line and not "    " <= line < "   !":  # (not a source line)
            if len(_FRAME_LINES) >= MEMO_SIZE:
                _FRAME_LINES.clear()
            _FRAME_LINES[line] = frame
    return frame


def _frame_run(lines: list[str], i: int, exc: RawException, source_indent: int) -> tuple[int, int]:
    """Consume the frame and source lines after a frame or a ``Traceback`` header (outside
    boxes) in a tight loop, without a Python call per line (a line seen before is one dict
    lookup); it reads every line it takes exactly as the main loop would.

    Returns the index of the first line it leaves to the main loop and the source indent.
    Lines of other kinds, and any line naming a ``Traceback``, go back to the main loop.
    """
    frames = exc.frames
    append = frames.append
    seen = _FRAME_LINES
    get = seen.get
    match = _FRAME.match
    max_line, memo_size = MAX_LINE, MEMO_SIZE
    n = len(lines)
    while i < n:
        line = lines[i]
        frame = get(line)  # first: a frame line seen before is never overlong nor a source line
        if frame is None:
            if "    " <= line < "   !":  # ``line.startswith("    ")`` in two C compares
                # the echoed source line or its carets (frames are indented by two): never kept
                # (and never memoised: source lines vary and may hold secrets)
                if frames and frames[-1][2] is None and len(line) <= max_line:
                    source_indent = _syntax_caret(exc, line, line.strip(), source_indent)
                i += 1
                continue
            if len(line) > max_line:
                i += 1
                continue
            if "Traceback" in line or 'File "' not in line:
                break
            m = match(line)
            if m is None:
                break
            file, num, function = m.groups()
            frame = (file, int(num), function, None, None)
            if len(seen) >= memo_size:
                seen.clear()
            seen[line] = frame
        append(frame)
        i += 1
    return i, source_indent


def _syntax_caret(exc: RawException, line: str, stripped: str, source_indent: int) -> int:
    """Record a SyntaxError's caret column (1-based, in the printed source line)."""
    indent = len(line) - len(line.lstrip(" "))
    if stripped.strip("^~") or not stripped.startswith(("^", "~")):
        return indent  # the source line itself: remember where it starts
    file, lineno, func, module, _ = exc.frames[-1]
    exc.frames[-1] = (file, lineno, func, module, indent - source_indent + 1)
    return source_indent


def _flatten(top: list[_Block]) -> RawTrace:
    trace = RawTrace("python")
    out = trace.exceptions

    def emit(slot: list[_Block], parent: int | None, relation: str | None) -> None:
        blocks = [b for b in slot if b.exc.type]
        prev_parent, prev_rel = parent, relation
        for i in range(len(blocks) - 1, -1, -1):
            block = blocks[i]
            exc = block.exc
            exc.frames.reverse()
            exc.parent, exc.relation = prev_parent, prev_rel
            out.append(exc)
            here = len(out) - 1
            for member in block.members:
                emit(member, here, "group")
            prev_parent = here
            prev_rel = blocks[i - 1].rel_next or "context" if i else None

    emit(top, None, None)
    if out:
        out[0].parent = None
        out[0].relation = None
    return trace
