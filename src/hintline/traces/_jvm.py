"""JVM traces (Java, Kotlin, Scala, Groovy): ``at pkg.Cls.m(File.java:N)``, ``Caused by:``,
``Suppressed:`` and ``... N more`` resolved against the enclosing trace.

The JVM prints the outermost exception first and each trace throw site first, so the order is
kept as printed. Logback's ``... N common frames omitted`` is read like ``... N more``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from hintline.traces._memo import line_memo
from hintline.traces._raw import MAX_EXCEPTIONS, MAX_LINE, RawException, RawFrame, RawTrace

__all__ = ["jvm_frame", "parse_jvm"]

_FRAME = re.compile(r"\s*at ([^\s(]+)\(([^()\n]*)\)")
# The common shape in one cheap match: ``at sym(File.java:12)``.
_FAST = re.compile(r"[ \t]*at ([^ (]*)\.([^ (.]+)\(([^:)]+):(\d+)\)")
_MORE = re.compile(r"\s*\.\.\. (\d+) (?:more|common frames omitted)")
_HEADER = re.compile(
    r"(?:Exception in thread \"([^\"\n]*)\" )?"
    r"((?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*|[A-Z][\w$]*(?:Exception|Error|Throwable))"
    r"(?:: ?(.*))?$"
)
_LINKED = re.compile(r"(\s*)(Caused by|Suppressed): ")


def jvm_frame(sym: str, loc: str) -> RawFrame:
    """Turn ``java.base/java.lang.Integer.parseInt`` and ``Integer.java:668`` into a frame."""
    slash = sym.rfind("/")
    if slash >= 0:
        sym = sym[slash + 1 :]
    module, _, function = sym.rpartition(".")
    file: str | None = loc
    line: int | None = None
    colon = loc.rfind(":")
    if colon >= 0 and loc[colon + 1 :].isdigit():
        file, line = loc[:colon], int(loc[colon + 1 :])
    if file in ("Native Method", "Unknown Source", ""):
        file = None
    return (file, line, function or None, module or None, None)


def _fast_frame(line: str) -> RawFrame | None:
    """The frame of an ordinary ``at pkg.Cls.m(File.java:12)`` line, else ``None``."""
    fast = _FAST.match(line)
    if fast is None:
        return None
    module, function, file, num = fast.groups()
    if "/" in module:
        module = module[module.rfind("/") + 1 :]
    return (file, int(num), function, module or None, None)


_fast_frame_memo = line_memo(_fast_frame)


class _Facts(NamedTuple):
    """What one line of a JVM trace is, read once (memoised) with every pattern it could match."""

    frame: RawFrame | None  # any ``at sym(loc)`` frame (native, unknown source, module paths)
    more: int | None  # ``... N more`` / ``... N common frames omitted``
    linked: int | None  # the depth of a ``Caused by:`` / ``Suppressed:`` line, else None
    suppressed: bool
    linked_header: tuple[str, str] | None  # its (type, message); None when it has none
    header: tuple[str | None, str, str] | None  # a header line: (thread, type, message)
    blank: bool


@line_memo
def _facts(line: str) -> _Facts:
    """Everything the parser asks about a line that is not an ordinary frame.

    Each pattern is tried only when the line holds its literal part (``at ``, ``... ``,
    ``Caused by: ``/``Suppressed: ``); a linked line never matches the header pattern (it
    starts with two words), so that one is not tried on it.
    """
    frame = _FRAME.match(line) if "at " in line else None
    if frame is not None:  # a frame line: nothing else is asked about it
        return _Facts(jvm_frame(frame[1], frame[2]), None, None, False, None, None, False)
    more = _MORE.match(line) if "... " in line else None
    linked = _LINKED.match(line) if "Caused by: " in line or "Suppressed: " in line else None
    linked_header: tuple[str, str] | None = None
    header = None
    if linked:
        head = _HEADER.match(line, linked.end())
        linked_header = None if head is None else (head[2], head[3] or "")
    else:
        header = _HEADER.match(line.lstrip())
    return _Facts(
        None,
        int(more[1]) if more else None,
        _depth(linked[1]) if linked else None,
        linked is not None and linked[2] == "Suppressed",
        linked_header,
        None if header is None else (header[1], header[2], header[3] or ""),
        not line.strip(),
    )


def parse_jvm(lines: list[str]) -> RawTrace:
    """Parse the first JVM trace found in ``lines`` (its whole chain)."""
    trace = RawTrace("java")
    out = trace.exceptions
    at_depth: dict[int, int] = {}
    cur: RawException | None = None
    in_frames = False
    candidate: RawException | None = None
    done = False
    awaiting = False  # after ``Caused by:``: message lines until the frames
    fast_frame = _fast_frame_memo
    n = len(lines)
    i = 0
    while i < n:
        line = lines[i]
        i += 1
        if len(line) > MAX_LINE:
            continue
        if in_frames and cur is not None:
            fast = fast_frame(line)
            if fast is not None:
                # a run of ordinary frames: consume it in a tight loop
                append = cur.frames.append
                while True:
                    append(fast)
                    if i >= n:
                        break
                    line = lines[i]
                    if len(line) <= MAX_LINE:
                        fast = fast_frame(line)
                    else:  # read (as the JVM prints no such line, it is a frame's junk tail)
                        fast = _fast_frame(line)
                        trace.long_lines = trace.long_lines or fast is not None
                    if fast is None:
                        break
                    i += 1
                continue
        facts = _facts(line)
        frame = facts.frame
        if frame is not None:
            if awaiting:
                awaiting, in_frames = False, True
            if cur is None or not in_frames:
                if candidate is None:
                    if cur is None:
                        candidate = RawException("")
                    else:
                        continue
                if done or len(out) >= MAX_EXCEPTIONS:
                    break
                cur = candidate
                candidate = None
                out.append(cur)
                at_depth = {0: len(out) - 1}
                in_frames = True
            cur.frames.append(frame)
            continue
        if facts.more is not None and cur is not None and (in_frames or awaiting):
            _resolve_more(out, cur, facts.more)
            continue
        depth = facts.linked
        if depth is not None and cur is not None and len(out) < MAX_EXCEPTIONS:
            if facts.linked_header is None:
                continue
            exc = RawException(*facts.linked_header)
            if facts.suppressed:
                exc.relation = "suppressed"
                exc.parent = at_depth.get(depth - 1, at_depth.get(0))
            else:
                exc.relation = "cause"
                exc.parent = at_depth.get(depth, len(out) - 1)
            out.append(exc)
            at_depth = {d: i for d, i in at_depth.items() if d < depth}
            at_depth[depth] = len(out) - 1
            cur = exc
            in_frames, awaiting = False, True
            continue
        if awaiting:
            if not facts.blank and cur is not None:
                cur.append_message(line)
            continue
        if in_frames:
            in_frames = False
            done = cur is not None and bool(cur.frames or len(out) > 1)
        if facts.blank:
            if candidate is not None and not candidate.type:
                candidate = None
            continue
        header = facts.header
        if header:
            thread, type_, message = header
            if thread is not None and done:
                break
            candidate = RawException(type_, message)
            if thread is not None:
                trace.extra["thread"] = thread
        elif candidate is not None and candidate.type and not done:
            candidate.append_message(line)
        elif cur is not None and not done and out:
            out[-1].append_message(line)
    return trace


def _depth(indent: str) -> int:
    tabs = indent.count("\t")
    return tabs if tabs else len(indent) // 4


def _resolve_more(out: list[RawException], cur: RawException, n: int) -> None:
    """Append the last ``n`` frames of the enclosing exception (``... n more``)."""
    if cur.parent is None or n <= 0:
        cur.omitted += max(n, 0)
        return
    enclosing = out[cur.parent].frames
    tail = enclosing[-n:] if n <= len(enclosing) else enclosing
    cur.frames.extend(tail)
    cur.omitted += n - len(tail)
