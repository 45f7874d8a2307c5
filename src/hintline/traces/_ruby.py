"""Ruby traces: ``file:N:in 'meth': message (Class)`` then tab-``from file:N:in 'meth'``
lines; a cause follows as another such header (Ruby ≥ 3.1 prints causes after the error).

Both quoting styles are read: backtick-quote (Ruby ≤ 3.3) and ``'Class#meth'`` (Ruby 3.4).
error_highlight's echoed source line and caret are skipped.
"""

from __future__ import annotations

import re

from hintline.traces._memo import line_memo
from hintline.traces._raw import MAX_EXCEPTIONS, MAX_LINE, RawException, RawFrame, RawTrace

__all__ = ["parse_ruby"]

_HEAD = re.compile(r"([^\s:][^:]*):(\d+):in [`']([^`'\n]*)': (.*)$")
_FROM = re.compile(r"\s*from ([^:\n]+):(\d+):in [`']([^`'\n]*)'")
_CLASS = re.compile(r" \(([A-Z][\w:]*)\)$")


def _frame(file: str, line: str, method: str) -> RawFrame:
    module: str | None = None
    for sep in ("#", "."):
        pos = method.find(sep)
        if pos > 0 and method[:pos][:1].isupper():
            module, method = method[:pos], method[pos + 1 :]
            break
    return (file, int(line), method or None, module, None)


@line_memo
def _from_frame(line: str) -> RawFrame | None:
    """The frame of a tab-``from file:N:in 'meth'`` line, else ``None``."""
    f = _FROM.match(line)
    return None if f is None else _frame(f[1], f[2], f[3])


def parse_ruby(lines: list[str]) -> RawTrace:
    """Parse the first Ruby error (and its printed causes) in ``lines``."""
    trace = RawTrace("ruby")
    out = trace.exceptions
    cur: RawException | None = None
    for line in lines:
        if len(line) > MAX_LINE:
            continue
        # only frame lines reach the memo (``\s*from `` starts every one): a message line
        # that merely holds "from " may hold a secret too
        f = _from_frame(line) if line.lstrip().startswith("from ") else None
        if f is not None:
            if cur is not None:
                cur.frames.append(f)
            continue
        h = _HEAD.match(line)
        if h:
            if cur is not None and not cur.frames:
                break
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
            continue
        if cur is not None and line.strip() and not line.startswith((" ", "\t")) and len(out) == 1 and len(cur.frames) == 1:
            continue
    trace.chain_parents()
    return trace
