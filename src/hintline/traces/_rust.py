"""Rust panics: ``thread 'main' (TID) panicked at src/main.rs:L:C:`` then the message (Rust
≥ 1.73; older: ``panicked at 'msg', file:L:C``), with or without ``RUST_BACKTRACE`` frames
(``N: symbol`` / ``at file:L:C``, also the ``full`` form with addresses).

The throw site is the panic location. With a backtrace, the panic machinery printed before
it (``rust_begin_unwind``, ``core::panicking::…``) is dropped and counted in ``omitted``.
"""

from __future__ import annotations

import re

from hintline.traces._memo import line_memo
from hintline.traces._raw import MAX_LINE, RawException, RawFrame, RawTrace

__all__ = ["parse_rust"]

_HEAD = re.compile(r"thread '([^'\n]*)'(?: \((\d+)\))? panicked at (.*)$")
_OLD_MSG = re.compile(r"'(.*)', (\S+?):(\d+):(\d+)$")
_NEW_LOC = re.compile(r"(\S+?):(\d+):(\d+):?$")
_SYMBOL = re.compile(r"\s*(\d+):\s+(?:0x[0-9a-f]+ - )?(.*)$")
_AT = re.compile(r"\s+at (.+?):(\d+)(?::(\d+))?$")
_TOKENS = re.compile(r"::|[<>]")  # what the split looks at, left to right
_HASH = re.compile(r"\[[0-9a-f]{16}\]|::h[0-9a-f]{16}$")


def _split_symbol(sym: str) -> tuple[str | None, str | None]:
    """``core::result::Result<T,E>::unwrap`` → (``core::result::Result<T,E>``, ``unwrap``).

    ``::`` inside ``<…>`` does not split, and a trailing turbofish (``f::<T>``) is dropped.
    """
    sym = _HASH.sub("", sym)
    if "<" not in sym:
        # no generics: the last ``::`` of a left-to-right scan, as the loop below finds it
        parts = sym.split("::")
        if len(parts) == 1:
            return None, sym or None
        function = parts[-1]
        module = sym[: len(sym) - len(function) - 2]
        return module or None, function or None
    for _ in range(2):
        depth = 0
        last = -1
        for token in _TOKENS.finditer(sym):
            t = token[0]
            if t == "<":
                depth += 1
            elif t == ">":
                if depth:
                    depth -= 1
            elif depth == 0:
                last = token.start()
        if last < 0:
            return None, sym or None
        module, function = sym[:last], sym[last + 2 :]
        if function.startswith("<") and module:
            sym = module  # a turbofish: name the function, not its type arguments
            continue
        return module or None, function or None
    return None, sym or None


@line_memo
def _at(line: str) -> tuple[str, int, int | None] | None:
    """The file, line and column of a backtrace ``at file:L:C`` line, else ``None``."""
    at = _AT.match(line)
    return None if at is None else (at[1], int(at[2]), int(at[3]) if at[3] else None)


@line_memo
def _symbol(line: str) -> tuple[str | None, str | None] | None:
    """The (module, function) of a backtrace ``N: symbol`` line, else ``None``."""
    sym = _SYMBOL.match(line)
    return None if sym is None else _split_symbol(sym[2])


def parse_rust(lines: list[str]) -> RawTrace:
    """Parse the first Rust panic (and its backtrace, if printed) in ``lines``."""
    trace = RawTrace("rust")
    exc: RawException | None = None
    site: RawFrame | None = None
    in_message = in_backtrace = False
    frames: list[RawFrame] = []
    pending: tuple[str | None, str | None] | None = None
    for line in lines:
        if len(line) > MAX_LINE:
            continue
        if exc is None:
            m = _HEAD.search(line)
            if not m:
                continue
            trace.extra["thread"] = m[1]
            if m[2]:
                trace.extra["thread_id"] = m[2]
            rest = m[3]
            old = _OLD_MSG.match(rest)
            if old:
                exc = RawException("panic", old[1])
                site = (old[2], int(old[3]), None, None, int(old[4]))
            else:
                loc = _NEW_LOC.match(rest)
                exc = RawException("panic", "")
                if loc:
                    site = (loc[1], int(loc[2]), None, None, int(loc[3]))
                in_message = True
            continue
        s = line.strip()
        if s == "stack backtrace:":
            in_message, in_backtrace = False, True
            continue
        if s.startswith("note: "):
            if in_backtrace:
                break
            in_message = False
            continue
        if in_message:
            exc.append_message(line)
            continue
        if not in_backtrace:
            if s:
                break
            continue
        at = _at(line)
        if at is not None and pending is not None:
            frames.append((at[0], at[1], pending[1], pending[0], at[2]))
            pending = None
            continue
        sym = _symbol(line)
        if sym is not None:
            if pending is not None:
                frames.append((None, None, pending[1], pending[0], None))
            pending = sym
            continue
        break
    if exc is None:
        return trace
    if pending is not None:
        frames.append((None, None, pending[1], pending[0], None))
    _place_frames(exc, site, frames)
    trace.exceptions.append(exc)
    return trace


def _place_frames(exc: RawException, site: RawFrame | None, frames: list[RawFrame]) -> None:
    start = -1
    if site is not None:
        want = site[0].removeprefix("./") if site[0] else ""
        for i, frame in enumerate(frames):
            file = frame[0].removeprefix("./") if frame[0] else None
            if file and frame[1] == site[1] and (file == want or file.endswith("/" + want)):
                start = i
                break
    if start >= 0:
        exc.omitted += start
        for frame in frames[start:]:
            exc.add(frame)
        return
    if site is not None:
        exc.add(site)
    for frame in frames:
        exc.add(frame)
