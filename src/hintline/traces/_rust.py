"""Rust panics: ``thread 'main' (TID) panicked at src/main.rs:L:C:`` then the message (Rust
≥ 1.73; older: ``panicked at 'msg', file:L:C``), with or without ``RUST_BACKTRACE`` frames
(``N: symbol`` / ``at file:L:C``, also the ``full`` form with addresses).

The throw site is the panic location. With a backtrace, the panic machinery printed before
it (``rust_begin_unwind``, ``core::panicking::…``) is dropped and counted in ``omitted``.
"""

from __future__ import annotations

import re

from hintline.traces._raw import MAX_LINE, RawException, RawFrame, RawTrace

__all__ = ["parse_rust"]

_HEAD = re.compile(r"thread '([^'\n]*)'(?: \((\d+)\))? panicked at (.*)$")
_OLD_MSG = re.compile(r"'(.*)', (\S+?):(\d+):(\d+)$")
_NEW_LOC = re.compile(r"(\S+?):(\d+):(\d+):?$")
_SYMBOL = re.compile(r"\s*(\d+):\s+(?:0x[0-9a-f]+ - )?(.*)$")
_AT = re.compile(r"\s+at (.+?):(\d+)(?::(\d+))?$")
_HASH = re.compile(r"\[[0-9a-f]{16}\]|::h[0-9a-f]{16}$")


def _split_symbol(sym: str) -> tuple[str | None, str | None]:
    """``core::result::Result<T,E>::unwrap`` → (``core::result::Result<T,E>``, ``unwrap``).

    ``::`` inside ``<…>`` does not split, and a trailing turbofish (``f::<T>``) is dropped.
    """
    sym = _HASH.sub("", sym)
    for _ in range(2):
        depth = 0
        last = -1
        i = 0
        n = len(sym)
        while i < n:
            ch = sym[i]
            if ch == "<":
                depth += 1
            elif ch == ">" and depth:
                depth -= 1
            elif ch == ":" and depth == 0 and sym.startswith("::", i):
                last = i
                i += 1
            i += 1
        if last < 0:
            return None, sym or None
        module, function = sym[:last], sym[last + 2 :]
        if function.startswith("<") and module:
            sym = module  # a turbofish: name the function, not its type arguments
            continue
        return module or None, function or None
    return None, sym or None


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
        at = _AT.match(line)
        if at and pending is not None:
            col = int(at[3]) if at[3] else None
            frames.append((at[1], int(at[2]), pending[1], pending[0], col))
            pending = None
            continue
        sym = _SYMBOL.match(line)
        if sym:
            if pending is not None:
                frames.append((None, None, pending[1], pending[0], None))
            pending = _split_symbol(sym[2])
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
