"""JVM traces (Java, Kotlin, Scala, Groovy): ``at pkg.Cls.m(File.java:N)``, ``Caused by:``,
``Suppressed:`` and ``... N more`` resolved against the enclosing trace.

The JVM prints the outermost exception first and each trace throw site first, so the order is
kept as printed. Logback's ``... N common frames omitted`` is read like ``... N more``.
"""

from __future__ import annotations

import re
from itertools import islice, takewhile
from operator import truth

from hintline.traces._memo import MEMO_SIZE, shared_dict
from hintline.traces._raw import MAX_EXCEPTIONS, MAX_LINE, RawException, RawFrame, RawTrace

__all__ = ["jvm_frame", "parse_jvm"]

# Any frame line, ``\s*at ([^\s(]+)\(([^()\n]*)\)``, matched as ``[^(]`` (a class excluding one
# character runs several times faster than ``[^\s(]``) and then the symbol checked for
# whitespace by :func:`_has_space` (lines hold no newline).
_FRAME = re.compile(r"\s*+at ([^(]++)\(([^()]*+)\)")
_SPACE = re.compile(r"\s")
# The common shape in one cheap match: ``at pkg.Cls.m(File.java:12)``, which is
# ``[ \t]*at ([^ (]*)\.([^ (.]+)\(([^:)]+):(\d+)\)``. Classes that exclude one character run
# about twice as fast in ``re``, so the symbol (up to the first ``(``) and the file (up to the
# first ``:``) are matched whole and :func:`_split_fast` rejects a space in the one and a ``)``
# in the other, and splits the symbol at its last dot.
_FAST = re.compile(r"[ \t]*+at ([^(]*+)\(([^:]++):(\d++)\)")
_MORE = re.compile(r"\s*\.\.\. (\d+) (?:more|common frames omitted)")
_HEADER = re.compile(
    r"(?:Exception in thread \"([^\"\n]*)\" )?"
    r"([A-Za-z_$][\w$]*+(?:\.[A-Za-z_$][\w$]*+)+|[A-Z][\w$]*(?:Exception|Error|Throwable))"
    r"(?:: ?(.*))?$"
)
_LINKED = re.compile(r"(\s*)(Caused by|Suppressed): ")


def jvm_frame(sym: str, loc: str) -> RawFrame:
    """Turn ``java.base/java.lang.Integer.parseInt`` and ``Integer.java:668`` into a frame."""
    if "/" in sym:  # (``in`` first: cheaper than ``rfind`` on the common line without one)
        sym = sym[sym.rfind("/") + 1 :]
    module, _, function = sym.rpartition(".")
    file: str | None = loc
    line: int | None = None
    if ":" in loc:
        head, _, num = loc.rpartition(":")
        if num.isdecimal():
            file, line = head, int(num)
    if file in ("Native Method", "Unknown Source", ""):
        file = None
    return (file, line, function or None, module or None, None)


def _fast_frame(line: str) -> RawFrame | None:
    """The frame of an ordinary ``at pkg.Cls.m(File.java:12)`` line, else ``None``."""
    fast = _FAST.match(line)
    return None if fast is None else _split_fast(*fast.groups())


def _split_fast(sym: str, file: str, num: str) -> RawFrame | None:
    """The frame of a :data:`_FAST` match, or ``None`` when it is not that shape after all."""
    module, dot, function = sym.rpartition(".")
    if not function or not dot or " " in sym or ")" in file:
        return None
    if "/" in module:
        module = module[module.rfind("/") + 1 :]
    return (file, int(num), function, module or None, None)


# Ordinary frame lines seen before (this trace or an earlier one) and their frames. Only frame
# lines enter it: message lines may hold secrets, and a process-wide memo must not keep them.
_FRAME_LINES: dict[str, RawFrame] = shared_dict()
_AT_LINES: dict[str, RawFrame] = shared_dict()  # the same for the wider ``at sym(loc)`` pattern


def _frame_run(lines: list[str], i: int, frames: list[RawFrame], trace: RawTrace) -> int:
    """Read the run of frame lines from ``lines[i]`` on into ``frames``, in a tight loop
    without a Python call per ordinary line; return the index of the first line it leaves.

    A line seen before costs one dict lookup, and the lines seen before that follow it are
    taken by one C-level ``map`` of the memo's ``get`` (no Python step per line: recursion
    and traces logged again); a new ordinary line costs one regex match; other frame lines go
    through :func:`_at_frame`. A line longer than MAX_LINE is read as an ordinary
    frame only, without the memo (the JVM prints no such line: it is a frame's junk tail).

    New lines stay one match each (measured, issue 20): one ``findall`` over the run's lines
    joined costs about four times the per-line matches (``re`` scans the joined text character
    by character), and a run read column-wise (``map`` of the match, of ``groups``, of
    ``rpartition``, then ``zip``) costs more than this loop: the substrings and tuples, not the
    loop, are the cost of a new frame line.
    """
    seen = _FRAME_LINES
    get = seen.get
    match = _FAST.match
    append = frames.append
    max_line, memo_size = MAX_LINE, MEMO_SIZE
    n = len(lines)
    other = False  # the last line was another kind of frame (the next one starts a new run)
    while i < n:
        line = lines[i]
        frame = get(line)
        if frame is not None:
            append(frame)
            i += 1
            other = False
            if i < n and lines[i] in seen:
                # a run of lines seen before (recursion, a trace logged again): at C level
                hits = list(takewhile(truth, map(get, islice(lines, i, None))))
                frames.extend(hits)  # type: ignore[arg-type]  # (takewhile stopped at the first None)
                i += len(hits)
            continue
        if len(line) > max_line:
            if other:
                break  # (the first line of a run is never read when overlong)
            frame = _fast_frame(line)
            if frame is None:
                break
            trace.long_lines = True
            append(frame)
            i += 1
            continue
        m = match(line)
        if m is not None:
            sym, file, num = m.groups()
            module, dot, function = sym.rpartition(".")
            if dot and function and " " not in sym and ")" not in file:  # (see _FAST)
                if "/" in module:
                    module = module[module.rfind("/") + 1 :]
                frame = (file, int(num), function, module or None, None)
                if len(seen) >= memo_size:
                    seen.clear()
                seen[line] = frame
        if frame is None:
            # any other frame (native, unknown source…) continues the run as well
            frame = _at_frame(line) if "at " in line else None
            if frame is None:
                break
            other = True
            append(frame)
            i += 1
            continue
        other = False
        append(frame)
        i += 1
    return i


def _at_frame(line: str) -> RawFrame | None:
    """The frame of any ``at sym(loc)`` line (native, unknown source, module paths), else None."""
    frame = _AT_LINES.get(line)
    if frame is None:
        at = _FRAME.match(line)
        if at is None or _has_space(at[1]):
            return None
        frame = jvm_frame(at[1], at[2])
        if len(_AT_LINES) >= MEMO_SIZE:
            _AT_LINES.clear()
        _AT_LINES[line] = frame
    return frame


def _has_space(sym: str) -> bool:
    r"""Whether ``sym`` holds a character ``\s`` matches (every one but the space is unprintable)."""
    return " " in sym or (not sym.isprintable() and _SPACE.search(sym) is not None)


def parse_jvm(lines: list[str]) -> RawTrace:
    """Parse the first JVM trace found in ``lines`` (its whole chain).

    Runs of ordinary frames are read by :func:`_frame_run`; every other line is asked only
    the questions its state needs, each pattern tried only when the line holds its literal
    part (``at ``, ``... ``, ``Caused by: ``/``Suppressed: ``).
    """
    trace = RawTrace("java")
    out = trace.exceptions
    at_depth: dict[int, int] = {}
    cur: RawException | None = None
    in_frames = False
    candidate: RawException | None = None
    done = False
    awaiting = False  # after ``Caused by:``: message lines until the frames
    n = len(lines)
    i = 0
    while i < n:
        if in_frames and cur is not None and "at " in lines[i] and len(lines[i]) <= MAX_LINE:
            # (every frame line holds ``at ``: without it the run would stop at once)
            i = _frame_run(lines, i, cur.frames, trace)  # the line it stops at is no such frame
            if i >= n:
                break
        line = lines[i]
        i += 1
        if len(line) > MAX_LINE:
            continue
        frame = _at_frame(line) if "at " in line else None
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
        if cur is not None and (in_frames or awaiting) and "... " in line:
            more = _MORE.match(line)
            if more is not None:
                _resolve_more(out, cur, int(more[1]))
                continue
        linked = _LINKED.match(line) if "Caused by: " in line or "Suppressed: " in line else None
        if linked is not None and cur is not None and len(out) < MAX_EXCEPTIONS:
            head = _HEADER.match(line, linked.end())
            if head is None:
                continue
            exc = RawException(head[2], head[3] or "")
            depth = _depth(linked[1]) if linked[1] else 0
            if linked[2] == "Suppressed":
                exc.relation = "suppressed"
                exc.parent = at_depth.get(depth - 1, at_depth.get(0))
            else:
                exc.relation = "cause"
                exc.parent = at_depth.get(depth, len(out) - 1)
            out.append(exc)
            if depth:
                at_depth = {d: k for d, k in at_depth.items() if d < depth}
                at_depth[depth] = len(out) - 1
            else:  # (the common unindented ``Caused by:``: no deeper level is kept)
                at_depth = {0: len(out) - 1}
            cur = exc
            in_frames, awaiting = False, True
            continue
        blank = not line.strip()
        if awaiting:
            if not blank and cur is not None:
                cur.append_message(line)
            continue
        if in_frames:
            in_frames = False
            done = cur is not None and bool(cur.frames or len(out) > 1)
        if blank:
            if candidate is not None and not candidate.type:
                candidate = None
            continue
        header = _HEADER.match(line.lstrip()) if linked is None else None
        if header:
            thread, type_, message = header[1], header[2], header[3] or ""
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
