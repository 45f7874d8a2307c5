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


@line_memo
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


@line_memo
def _location(line: str) -> tuple[str, int] | None:
    """The file and line of a tab-``file.go:N +0x..`` line, else ``None``."""
    loc = _LOC.match(line)
    return None if loc is None else (loc[1], int(loc[2]))


def parse_go(lines: list[str]) -> RawTrace:
    """Parse the first Go panic (or fatal error) and its goroutine's frames in ``lines``."""
    trace = RawTrace("go")
    panics: list[RawException] = []
    in_goroutine = False
    func: tuple[str | None, str | None] | None = None
    frames_owner: RawException | None = None
    for line in lines:
        if len(line) > MAX_LINE:
            continue
        if in_goroutine:
            loc = _location(line)
            if loc is not None and func is not None and frames_owner is not None:
                frames_owner.frames.append((loc[0], loc[1], func[1], func[0], None))
                func = None
                continue
            if not line.strip():
                break  # the next goroutine's block follows a blank line
            exit_ = _EXIT.match(line)
            if exit_:
                trace.extra["exit_status"] = exit_[1]
                break
            if line[0] != "\t":
                func = _split_func(line.strip())
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
