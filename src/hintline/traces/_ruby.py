"""Ruby traces: ``file:N:in 'meth': message (Class)`` then tab-``from file:N:in 'meth'``
lines; a cause follows as another such header (Ruby ≥ 3.1 prints causes after the error).

Both quoting styles are read: backtick-quote (Ruby ≤ 3.3) and ``'Class#meth'`` (Ruby 3.4).
error_highlight's echoed source line and caret are skipped.
"""

from __future__ import annotations

import re

from hintline.traces._memo import MEMO_SIZE, shared_dict
from hintline.traces._raw import MAX_EXCEPTIONS, MAX_LINE, RawException, RawFrame, RawTrace

__all__ = ["parse_ruby"]

_HEAD = re.compile(r"([^\s:][^:]*):(\d+):in [`']([^`'\n]*)': (.*)$")
_FROM = re.compile(r"\s*from ([^:\n]+):(\d+):in [`']([^`'\n]*)'")
_CLASS = re.compile(r" \(([A-Z][\w:]*)\)$")

# ``from`` lines seen before (this trace's recursion or an earlier trace) and their frames.
# Only lines that matched :data:`_FROM` enter it: message lines may hold secrets.
_FROM_LINES: dict[str, RawFrame] = shared_dict()


def _frame(file: str, line: str, method: str) -> RawFrame:
    module: str | None = None
    for sep in ("#", "."):
        pos = method.find(sep)
        if pos > 0 and method[:pos][:1].isupper():
            module, method = method[:pos], method[pos + 1 :]
            break
    return (file, int(line), method or None, module, None)


def parse_ruby(lines: list[str]) -> RawTrace:
    """Parse the first Ruby error (and its printed causes) in ``lines``.

    One tight loop: a ``from`` line seen before costs one dict lookup and an append; only a
    line that misses is asked whether it is a new frame (``from `` in it) or a header (``:in ``
    in it), and any other line is skipped.
    """
    trace = RawTrace("ruby")
    out = trace.exceptions
    seen = _FROM_LINES
    get = seen.get
    frames: list[RawFrame] = []  # the current exception's (before any header: dropped ones)
    for line in lines:
        frame = get(line)
        if frame is None:
            if len(line) > MAX_LINE:
                continue
            if "from " in line and line.lstrip().startswith("from "):
                f = _FROM.match(line)
                if f is not None:
                    frame = _frame(f[1], f[2], f[3])
                    if len(seen) >= MEMO_SIZE:
                        seen.clear()
                    seen[line] = frame
            if frame is None:
                h = _HEAD.match(line) if ":in " in line else None
                if h is not None:
                    if len(out) >= MAX_EXCEPTIONS:
                        break
                    rest = h[4]
                    cls = _CLASS.search(rest)
                    if cls:
                        cur = RawException(cls[1], rest[: cls.start()])
                    else:
                        cur = RawException("RuntimeError" if rest == "unhandled exception" else "Exception", rest)
                    cur.add(_frame(h[1], h[2], h[3]))
                    out.append(cur)
                    frames = cur.frames
                continue
        frames.append(frame)
    trace.chain_parents()
    return trace
