"""Go panics: ``panic: msg`` (``[recovered]`` chains), ``fatal error:``, ``[signal …]``, then
the first ``goroutine N [state]:`` block of ``func(args)`` / tab-``file.go:N +0x..`` pairs.

Go has no exception classes: the type is ``panic`` or ``fatal error``; the message is what
Go printed after it. The goroutine's frames belong to the last panic (the outermost).
"""

from __future__ import annotations

import itertools
import re

from hintline.traces._memo import MEMO_SIZE, shared_dict
from hintline.traces._raw import MAX_EXCEPTIONS, MAX_LINE, RawException, RawFrame, RawTrace

__all__ = ["parse_go"]

_PANIC = re.compile(r"\s*(panic|fatal error): (.*)$")
_GOROUTINE = re.compile(r"goroutine (\d+) \[([^\]]*)\]:$")
# A location line and an exit line. The goroutine loop reads location lines inline by
# ``rpartition`` (tests/traces/test_rust_go_readers.py checks it reads what _LOC reads).
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
    return _split_name(text)


def _split_name(text: str) -> tuple[str | None, str | None]:
    """``github.com/a/b.(*T).M`` → (``github.com/a/b``, ``(*T).M``): the package ends at the
    first dot after the last slash."""
    slash = text.rfind("/")
    dot = text.find(".", slash + 1)
    if dot <= 0:
        return None, text or None
    return text[:dot], text[dot + 1 :]


# Lines of goroutine blocks seen before (this trace or an earlier one): a location line's
# (file, line), a function line's (package, function), two lines in a row (function, then
# location) and their frame; and a function's name (its line without the arguments) and its
# (package, function), as deep recursion and other traces repeat it with other argument
# values. Frame lines only (a function line once a location follows it), and ``exit status N``.
_LOC_LINES: dict[str, tuple[str, int]] = shared_dict()
_FUNC_LINES: dict[str, tuple[str | None, str | None]] = shared_dict()
_FRAMES: dict[tuple[str, str], RawFrame] = shared_dict()
_NAMES: dict[str, tuple[str | None, str | None]] = shared_dict()
# ``exit status N`` lines (``go run`` prints one after the trace) and their N
_EXIT_LINES: dict[str, str] = shared_dict()
_HEX = "0123456789abcdef"


def _goroutine(lines: list[str], start: int, frames: list[RawFrame], trace: RawTrace) -> None:
    """Read the frames of the goroutine block from ``lines[start]`` into ``frames``: each
    location line (tab-``file.go:N [+0x..]``) with the function line before it, up to a blank
    line or ``exit status N``; other tab lines and lines longer than MAX_LINE are skipped.

    A trace seen before is looked up two lines at a time in C; a new one is read two lines at
    a time while it has the shape Go prints (:func:`_two_at_a_time`); the rest, one tight
    loop reads line by line: a line seen before costs a dict lookup or two, a new one is read
    inline (no Python call per line).
    """
    many = len(lines) - start > 16  # (a few lines are read faster one by one)
    append = frames.append
    loc_of = _LOC_LINES.get
    func_of = _FUNC_LINES.get
    new_frames: dict[tuple[str, str], RawFrame] = {}
    if many:
        # the frames seen before, up to the first that is not (``iter`` stops at a None)
        pairs = zip(itertools.islice(lines, start, None, 2), itertools.islice(lines, start + 1, None, 2), strict=False)
        known = list(iter(map(_FRAMES.get, pairs).__next__, None))
        frames += known
        start += 2 * len(known)
        if not known:  # a trace not seen before: the frames it prints, two lines at a time
            start = _two_at_a_time(lines, start, frames, new_frames)
    func: tuple[str | None, str | None] | None = None  # the function waiting for its location
    func_line = ""
    func_new = False  # its line is not in _FUNC_LINES yet
    # function lines read in this call that made no frame yet (none kept after it)
    here: dict[str, tuple[str | None, str | None]] | None = None
    for line in itertools.islice(lines, start, None):
        loc = loc_of(line)
        if loc is None:
            called = func_of(line)
            if called is not None:
                func, func_line, func_new = called, line, False
                continue
            status = _EXIT_LINES.get(line)  # ``go run``'s last line, as a rule
            if status is not None:
                trace.extra["exit_status"] = status
                break
            called = here.get(line) if here else None  # read before in this block
            if called is not None:
                func, func_line, func_new = called, line, True
                continue
            # a line not seen before, read inline: a location (_LOC), a blank, an exit
            # line (_EXIT), else a function line, as tested in that order
            if len(line) > MAX_LINE:
                continue
            if line[:1] == "\t":
                # _LOC (``\t(.+?):(\d+)(?: \+0x[0-9a-f]+)?$``): the digits after the last
                # colon, once an all-hex `` +0x`` tail is cut (``isdecimal`` is ``\d``)
                body = line
                tail = body.rfind(" +0x")
                if tail > 0 and len(body) > tail + 4 and not body[tail + 4 :].strip(_HEX):
                    body = body[:tail]
                file, colon, num = body.rpartition(":")
                if not colon or len(file) < 2 or not num.isdecimal():
                    if not line.strip():
                        break  # the next goroutine's block follows a blank line
                    continue  # another tab line
                loc = (file[1:], int(num))
                if len(_LOC_LINES) >= MEMO_SIZE:
                    _LOC_LINES.clear()
                _LOC_LINES[line] = loc
            else:
                text = line.strip()
                if not text:
                    break  # the next goroutine's block follows a blank line
                if text[-1] == ")" and not text.startswith("created by "):
                    # a function line with its arguments: what _split_func keeps of it, its
                    # split looked up by name (recursion repeats it with other arguments)
                    cut = text.rfind("(")
                    name = text[:cut] if cut > 0 else text
                    func = _NAMES.get(name)
                    if func is None:
                        func = _split_name(name)
                        if len(_NAMES) >= MEMO_SIZE:
                            _NAMES.clear()
                        _NAMES[name] = func
                else:
                    exit_ = _EXIT.match(line) if line.startswith("exit status ") else None
                    if exit_:
                        if len(_EXIT_LINES) >= MEMO_SIZE:
                            _EXIT_LINES.clear()
                        _EXIT_LINES[line] = trace.extra["exit_status"] = exit_[1]
                        break
                    func = _split_func(text)
                func_line, func_new = line, True
                if here is None:
                    here = {}
                here[line] = func
                continue
        if func is not None:
            frame = (loc[0], loc[1], func[1], func[0], None)
            append(frame)
            if func_new:  # kept once it has made a frame (a log line may follow a block)
                if len(_FUNC_LINES) >= MEMO_SIZE:
                    _FUNC_LINES.clear()
                _FUNC_LINES[func_line] = func
            if many:
                new_frames[func_line, line] = frame
            func = None
    if new_frames:
        if len(_FRAMES) + len(new_frames) > MEMO_SIZE:
            _FRAMES.clear()
        if len(new_frames) <= MEMO_SIZE:
            _FRAMES.update(new_frames)


def _two_at_a_time(
    lines: list[str], start: int, frames: list[RawFrame], new_frames: dict[tuple[str, str], RawFrame]
) -> int:
    """Read frames as Go prints them, two lines at a time from ``lines[start]``: a function
    line with its arguments, then its location line (what :func:`_goroutine`'s loop reads of
    them one at a time); return the index of the first pair of another shape, from which
    that loop goes on (with no function waiting, as here)."""
    append = frames.append
    loc_of = _LOC_LINES.get
    func_of = _FUNC_LINES.get
    names_of = _NAMES.get
    two_at_a_time = zip(itertools.islice(lines, start, None, 2), itertools.islice(lines, start + 1, None, 2), strict=False)
    for func_line, line in two_at_a_time:
        func = func_of(func_line)
        if func is None:
            cut = func_line.rfind("(")
            if cut <= 0 or func_line[-1:] != ")" or len(func_line) > MAX_LINE:
                break  # (also a blank, a tab line or ``exit status``: none ends with ``)``)
            name = func_line[:cut]
            func = names_of(name)
            if func is None:
                # a name seen before comes from such a line: no space around, no ``created by``
                if func_line.strip() is not func_line or func_line.startswith("created by "):
                    break
                func = _split_name(name)
                if len(_NAMES) >= MEMO_SIZE:
                    _NAMES.clear()
                _NAMES[name] = func
            func_new = True
        else:
            func_new = False
        loc = loc_of(line)
        if loc is None:
            if len(line) > MAX_LINE or line[:1] != "\t":
                break
            body = line  # _LOC read as in the loop below
            tail = body.rfind(" +0x")
            if tail > 0 and len(body) > tail + 4 and not body[tail + 4 :].strip(_HEX):
                body = body[:tail]
            file, colon, num = body.rpartition(":")
            if not colon or len(file) < 2 or not num.isdecimal():
                break
            loc = (file[1:], int(num))
            if len(_LOC_LINES) >= MEMO_SIZE:
                _LOC_LINES.clear()
            _LOC_LINES[line] = loc
        frame = (loc[0], loc[1], func[1], func[0], None)
        append(frame)
        if func_new:
            if len(_FUNC_LINES) >= MEMO_SIZE:
                _FUNC_LINES.clear()
            _FUNC_LINES[func_line] = func
        new_frames[func_line, line] = frame
        start += 2
    return start


def parse_go(lines: list[str]) -> RawTrace:
    """Parse the first Go panic (or fatal error) and its goroutine's frames in ``lines``."""
    trace = RawTrace("go")
    panics: list[RawException] = []
    for i, line in enumerate(lines):
        if len(line) > MAX_LINE:
            continue
        m = _PANIC.match(line)
        if m:
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
            _goroutine(lines, i + 1, panics[-1].frames, trace)
            break
        if panics and line.strip() and line[0] not in " \t":
            panics[-1].append_message(line.strip())
    # Go prints the first panic first; the last one is what finally crashed the program.
    for i, exc in enumerate(reversed(panics)):
        if i:
            exc.relation = "context"
        trace.exceptions.append(exc)
    trace.chain_parents()
    return trace
