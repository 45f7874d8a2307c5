"""Go panics: ``panic: msg`` (``[recovered]`` chains), ``fatal error:``, ``[signal …]``, then
the first ``goroutine N [state]:`` block of ``func(args)`` / tab-``file.go:N +0x..`` pairs.

Go has no exception classes: the type is ``panic`` or ``fatal error``; the message is what
Go printed after it. The goroutine's frames belong to the last panic (the outermost).
"""

from __future__ import annotations

import re

from hintline.traces._memo import line_memo
from hintline.traces._raw import MAX_EXCEPTIONS, MAX_LINE, RawException, RawTrace

__all__ = ["parse_go"]

_PANIC = re.compile(r"\s*(panic|fatal error): (.*)$")
_GOROUTINE = re.compile(r"goroutine (\d+) \[([^\]]*)\]:$")
_LOC = re.compile(r"\t(.+?):(\d+)(?: \+0x[0-9a-f]+)?$")
_EXIT = re.compile(r"exit status (\d+)$")


def _split_func(text: str) -> tuple[str | None, str | None]:
    """``github.com/a/b.(*T).M(0x1, ...)`` → (``github.com/a/b``, ``(*T).M``)."""
    if text.startswith("created by "):
        text = text[11:]
        cut = text.find(" in goroutine ")
        if cut > 0:
            text = text[:cut]
    elif text.endswith(")"):
        open_ = text.rfind("(")
        if open_ > 0:
            text = text[:open_]
    slash = text.rfind("/")
    dot = text.find(".", slash + 1)
    if dot <= 0:
        return None, text or None
    return text[:dot], text[dot + 1 :]


# What a line inside a goroutine block is: (kind, location, function, exit status).
_Line = tuple[int, "tuple[str, int] | None", "tuple[str | None, str | None] | None", "str | None"]
_LOCATION, _FUNCTION, _END, _EXIT_STATUS, _OTHER = range(5)


@line_memo
def _goroutine_line(line: str) -> _Line:
    """Classify a line of a goroutine block (tab-``file.go:N``, ``func(args)``, blank, exit)."""
    loc = _LOC.match(line)
    if loc:
        return (_LOCATION, (loc[1], int(loc[2])), None, None)
    if not line.strip():
        return (_END, None, None, None)  # the next goroutine's block follows a blank line
    exit_ = _EXIT.match(line)
    if exit_:
        return (_EXIT_STATUS, None, None, exit_[1])
    if line[0] != "\t":
        return (_FUNCTION, None, _split_func(line.strip()), None)
    return (_OTHER, None, None, None)


def parse_go(lines: list[str]) -> RawTrace:
    """Parse the first Go panic (or fatal error) and its goroutine's frames in ``lines``."""
    trace = RawTrace("go")
    panics: list[RawException] = []
    in_goroutine = False
    func: tuple[str | None, str | None] | None = None
    frames_owner: RawException | None = None
    goroutine_line = _goroutine_line
    for line in lines:
        if len(line) > MAX_LINE:
            continue
        if in_goroutine:
            kind, loc, called, status = goroutine_line(line)
            if kind == _LOCATION:
                if loc is not None and func is not None and frames_owner is not None:
                    frames_owner.frames.append((loc[0], loc[1], func[1], func[0], None))
                    func = None
            elif kind == _FUNCTION:
                func = called
            elif kind == _END:
                break
            elif kind == _EXIT_STATUS:
                trace.extra["exit_status"] = status or ""
                break
            continue
        m = _PANIC.match(line)
        if m and not in_goroutine:
            if len(panics) >= MAX_EXCEPTIONS:
                continue
            msg = m[2]
            recovered = msg.endswith(" [recovered]")
            if recovered:
                msg = msg[:-12]
            panics.append(RawException(m[1], msg))
            continue
        if line.startswith("[signal ") and panics:
            trace.extra["signal"] = line.strip()[1:-1]
            continue
        g = _GOROUTINE.match(line)
        if g and panics:
            trace.extra["goroutine"] = g[1]
            trace.extra["goroutine_state"] = g[2]
            in_goroutine = True
            frames_owner = panics[-1]
            continue
        if panics and line.strip() and not in_goroutine and line[0] not in " \t":
            panics[-1].append_message(line.strip())
    # Go prints the first panic first; the last one is what finally crashed the program.
    for i, exc in enumerate(reversed(panics)):
        if i:
            exc.relation = "context"
        trace.exceptions.append(exc)
    trace.chain_parents()
    return trace
