"""Rust panics: ``thread 'main' (TID) panicked at src/main.rs:L:C:`` then the message (Rust
≥ 1.73; older: ``panicked at 'msg', file:L:C``), with or without ``RUST_BACKTRACE`` frames
(``N: symbol`` / ``at file:L:C``, also the ``full`` form with addresses).

The throw site is the panic location. With a backtrace, the panic machinery printed before
it (``rust_begin_unwind``, ``core::panicking::…``) is dropped and counted in ``omitted``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from operator import itemgetter

from hintline.traces._memo import MEMO_SIZE, shared_dict
from hintline.traces._raw import MAX_LINE, RawException, RawFrame, RawTrace

__all__ = ["parse_rust"]

_HEAD = re.compile(r"thread '([^'\n]*)'(?: \((\d+)\))? panicked at (.*)$")
_OLD_MSG = re.compile(r"'(.*)', (\S+?):(\d+):(\d+)$")
_NEW_LOC = re.compile(r"(\S+?):(\d+):(\d+):?$")
# The legacy symbol hash (``::h0123…`` at the end) and crate hashes (``std[e28293b1aa0f68bd]``),
# taken out of many symbols joined by newlines at once (hence MULTILINE: ``$`` is a symbol's
# end). Two passes, each with a literal start ``re`` finds fast, take out what one pass of
# ``\[[0-9a-f]{16}\]|::h[0-9a-f]{16}$`` does: the two never overlap, and taking the end off
# first joins nothing new (it is followed by a newline or the end).
_LEGACY_HASH = re.compile(r"::h[0-9a-f]{16}$", re.MULTILINE)
_CRATE_HASH = re.compile(r"\[[0-9a-f]{16}\]")
_HEX = "0123456789abcdef"

_Names = tuple["str | None", "str | None"]  # (module, function)

# Raw symbols seen before and their (module, function): symbols of frame lines only.
_SYMBOLS: dict[str, _Names] = shared_dict()


def _last_top_level(sym: str) -> int:
    """The index of the last ``::`` outside ``<…>``, or -1: what a left-to-right scan of the
    ``::``, ``<`` and ``>`` tokens finds, a ``>`` with no ``<`` open being ignored.

    It walks the pieces between ``::`` (split in C, as the scan pairs colons) rather than the
    tokens: a piece without brackets (most of them) costs two ``in`` tests.
    """
    depth = 0
    last = -1
    at = -2  # where the ``::`` after the current piece starts
    for piece in sym.split("::")[:-1]:  # the last piece's brackets come after every ``::``
        if "<" in piece or ">" in piece:
            closes = piece.count(">")
            if closes <= depth:  # no ``>`` can find depth 0: counts are enough
                depth += piece.count("<") - closes
            else:
                for ch in piece:
                    if ch == "<":
                        depth += 1
                    elif ch == ">" and depth:
                        depth -= 1
        at += len(piece) + 2
        if not depth:
            last = at
    return last


# A ``<…>`` group nested at most four deep, and text whose brackets are such groups only (no
# ``<`` or ``>`` left over): there a left-to-right scan is at depth 0 exactly outside the groups.
_GROUP = r"<[^<>]*+>"
for _ in range(3):
    _GROUP = r"<(?:[^<>]++|" + _GROUP + r")*+>"
_ONE_GROUP = re.compile(_GROUP)
_GROUPED = re.compile(r"(?:[^<>]++|" + _GROUP + r")*+")


def _split_symbol(sym: str) -> _Names:
    """``core::result::Result<T,E>::unwrap`` → (``core::result::Result<T,E>``, ``unwrap``), for
    a symbol without hashes.

    ``::`` inside ``<…>`` does not split, and a trailing turbofish (``f::<T>``) is dropped.
    The common shapes are told by a few C calls (``path::<T>``, ``<A as B>::name``); any
    other takes the bracket scan of :func:`_last_top_level`.
    """
    for _ in range(2):
        if "<" not in sym:
            # no generics: the last ``::`` of a left-to-right scan (no function starts ``<``)
            parts = sym.split("::")
            if len(parts) == 1:
                return None, sym or None
            function = parts[-1]
            module = sym[: len(sym) - len(function) - 2]
            return module or None, function or None
        turbofish = sym.find("::<")
        head = sym[:turbofish]
        if turbofish >= 0 and head[-1:] != ":" and "<" not in head and ">" not in head and (
            _ONE_GROUP.fullmatch(sym, turbofish + 2)
        ):
            last = turbofish  # ``path::<T>``: the one ``::`` outside the group that ends it
        else:
            last = sym.rfind("::")
            name = sym[last + 2 :]
            if not (last > 0 and sym[last - 1] != ":" and "<" not in name and ">" not in name
                    and _GROUPED.fullmatch(sym, 0, last)):
                last = _last_top_level(sym)  # (``<A as B>::name`` passes the test above)
        if last < 0:
            return None, sym or None
        module, function = sym[:last], sym[last + 2 :]
        if function.startswith("<") and module:
            sym = module  # a turbofish: name the function, not its type arguments
            continue
        return module or None, function or None
    return None, sym or None


def _names(symbols: list[str]) -> list[_Names]:
    """The (module, function) of each raw symbol: the memo's, else hashes are taken out of all
    the new ones in one regex pass and each is split."""
    memo = _SYMBOLS
    names = list(map(memo.get, symbols))
    if None not in names:
        return names  # type: ignore[return-value]  # (no None left)
    # each new symbol once (a recursion repeats a few symbols hundreds of times)
    missing = list(dict.fromkeys([s for s, got in zip(symbols, names, strict=True) if got is None]))
    joined = "\n".join(missing)  # symbols hold no newline
    if "::h" in joined:
        joined = _LEGACY_HASH.sub("", joined)
    if "[" in joined:
        joined = _CRATE_HASH.sub("", joined)
    new: dict[str, _Names] = {}
    for raw, sym in zip(missing, joined.split("\n"), strict=True):
        if "<" in sym or ":::" in sym:
            new[raw] = _split_symbol(sym)
        else:  # no generics, no odd run of colons: the last ``::`` is the scan's
            module, _, function = sym.rpartition("::")
            new[raw] = (module or None, function or None)
    if len(memo) + len(new) > MEMO_SIZE:
        memo.clear()
    if len(new) <= MEMO_SIZE:
        memo.update(new)
    return [new[s] if got is None else got for s, got in zip(symbols, names, strict=True)]


# One frame of a backtrace as Rust prints it (indented with spaces): the symbol line and, when
# it has one, its ``at file:L[:C]`` line, whose location is kept as text (``.+:\d++`` is
# exactly what :func:`_at_body` accepts). On such lines it reads what :func:`_read` reads
# (``\s`` is only a space here: from a line with a tab or another space on, lines are read
# one by one).
_FRAME_PAIR = re.compile(r" *+\d++: ++(?![^\S\n])(?:0x[0-9a-f]++ - )?+(.*)\n(?: ++at (.+:\d++)\n)?")
# A frame as read from the backtrace: (raw symbol, ``file:L[:C]`` or None)
_Pair = tuple[str, "str | None"]

# Backtrace lines seen before (this trace or an earlier one) and their readings: a symbol
# line's raw symbol, an ``at`` line's location text, a location text's (file, line, column).
# Frame lines only: the line that ends a backtrace (a note, a log line…) is never kept.
_SYMBOL_LINES: dict[str, str] = shared_dict()
_AT_LINES: dict[str, str] = shared_dict()
_LOCATIONS: dict[str, tuple[str, int, int | None]] = shared_dict()


def _at_body(body: str) -> tuple[str, int, int | None] | None:
    r"""``file:L[:C]`` (what ``(.+?):(\d+)(?::(\d+))?$`` matches) → (file, line, column).

    The file is as short as it can be: the last two colons if both are followed by digits
    (and a file is left), else the last one (``isdecimal`` is ``\d``).
    """
    head, colon, last = body.rpartition(":")
    if colon and last.isdecimal():
        rest, colon, mid = head.rpartition(":")
        if colon and mid.isdecimal() and rest:
            return (rest, int(mid), int(last))
        if head:
            return (head, int(last), None)
    return None


def _read(line: str) -> str | None:
    r"""A backtrace line's reading: ``@`` + the location of an ``at file:L[:C]`` line
    (``\s+at (.+?):(\d+)(?::(\d+))?$``), ``#`` + the raw symbol of an ``N: [0xADDR - ]symbol``
    line (``\s*(\d+):\s+(?:0x[0-9a-f]+ - )?(.*)$``), else ``None``."""
    s = line.lstrip()
    if s.startswith("at "):
        return "@" + s[3:] if len(s) < len(line) and _at_body(s[3:]) is not None else None
    num, colon, rest = s.partition(":")
    if not colon or not num.isdecimal():
        return None
    sym = rest.lstrip()
    if len(sym) == len(rest):
        return None
    if sym.startswith("0x"):
        cut = sym.find(" - ", 2)
        if cut > 2 and not sym[2:cut].strip(_HEX):
            return "#" + sym[cut + 3 :]
    return "#" + sym


def _backtrace(lines: list[str], start: int) -> list[_Pair]:
    """Read the backtrace from ``lines[start]`` on: ``N: [0xADDR - ]symbol`` lines, each
    followed by its ``at file:L[:C]`` line when it has one, up to the first other line (a
    ``note:``, a blank…); ``stack backtrace:`` again and lines longer than MAX_LINE are skipped.

    Lines seen before cost a dict lookup or two each; new frame lines are read by :func:`_scan`.
    """
    symbol_of = _SYMBOL_LINES.get
    location_of = _AT_LINES.get
    pairs: list[_Pair] = []
    append = pairs.append
    pending: str | None = None  # the symbol waiting for its ``at`` line
    i, n = start, len(lines)
    while i < n:
        line = lines[i]
        sym = symbol_of(line)
        if sym is not None:
            if pending is not None:
                append((pending, None))
            pending = sym
            i += 1
            continue
        body = location_of(line)
        if body is None:
            if len(line) > MAX_LINE or _read(line) is not None:
                went_on = _scan(lines, i, pairs, pending)
                if went_on is None:
                    return pairs
                i, pending = went_on
                continue
            if line.strip() != "stack backtrace:":
                break  # a note, a blank or any other line ends the backtrace
            return _by_line(lines, i + 1, pairs, pending)
        if pending is None:
            break  # an ``at`` line with no symbol before it ends the backtrace
        append((pending, body))
        pending = None
        i += 1
    if pending is not None:
        append((pending, None))
    return pairs


_CHUNK = 256  # frames one scan reads at most (then lines seen before are looked up again)


def _scan(lines: list[str], start: int, pairs: list[_Pair], pending: str | None) -> tuple[int, str | None] | None:
    """Read the backtrace on from ``lines[start]`` (see :func:`_backtrace`) into ``pairs``,
    remembering the lines read: the index and pending symbol to go on from, or ``None`` when
    the backtrace is read to its end.

    The frames as Rust prints them are read from the joined lines by :data:`_FRAME_PAIR`, one
    match per frame and no Python work per line; from the first line it does not take on, the
    rest is read line by line (a long line in what it took sends it all to that slow path).
    At most _CHUNK frames are read so: a long run of lines seen before (a hostile input
    repeating one frame) goes back to the dict lookups.
    """
    if pending is not None:  # first the line after a symbol: its ``at`` line, or a new frame
        line = lines[start]
        got = _read(line) if len(line) <= MAX_LINE else None
        if got is None:
            _by_line(lines, start, pairs, pending)
            return None
        if got[0] == "@":
            _remember(_AT_LINES, {line: got[1:]})
            pairs.append((pending, got[1:]))
            start += 1
        else:
            pairs.append((pending, None))
    window = lines[start : start + 2 * _CHUNK]
    block = "\n".join(window) + "\n"
    # a scanner's ``match`` goes on where its last match ended: no position kept in Python
    scan = iter(_FRAME_PAIR.scanner(block).match, None)  # type: ignore[attr-defined]
    matches = list(itertools.islice(scan, _CHUNK))
    if not matches:
        _by_line(lines, start, pairs)
        return None
    taken = block.count("\n", 0, matches[-1].end())
    if max(map(len, itertools.islice(window, taken))) > MAX_LINE:
        _by_line(lines, start, pairs)
        return None
    new: list[_Pair] = list(map(re.Match.groups, matches))  # type: ignore[arg-type]
    symbol_lines: dict[str, str] = {}
    at_lines: dict[str, str] = {}
    i = start
    for sym, body in new:  # the lines it read, for the next trace
        symbol_lines[lines[i]] = sym
        i += 1
        if body is not None:
            at_lines[lines[i]] = body
            i += 1
    _remember(_SYMBOL_LINES, symbol_lines)
    _remember(_AT_LINES, at_lines)
    pairs += new
    pending = pairs.pop()[0] if new[-1][1] is None else None  # its ``at`` line may come later
    if len(matches) == _CHUNK or taken == len(window):
        return start + taken, pending  # more may follow: go on with the lookups
    _by_line(lines, start + taken, pairs, pending)
    return None


def _remember(memo: dict[str, str], new: dict[str, str]) -> None:
    """Add ``new`` to ``memo``, emptying it first when it would grow past MEMO_SIZE."""
    if len(memo) + len(new) > MEMO_SIZE:
        memo.clear()
    if len(new) <= MEMO_SIZE:
        memo.update(new)


def _by_line(lines: list[str], start: int, pairs: list[_Pair], pending: str | None = None) -> list[_Pair]:
    """Go on reading the backtrace line by line from ``lines[start]`` (see :func:`_backtrace`)."""
    append = pairs.append
    for line in itertools.islice(lines, start, None):
        if len(line) > MAX_LINE:
            continue
        got = _read(line)
        if got is None:
            if line.strip() == "stack backtrace:":
                continue
            break  # a note, a blank or any other line ends the backtrace
        if got[0] == "#":
            if pending is not None:
                append((pending, None))
            pending = got[1:]
        elif pending is None:
            break  # an ``at`` line with no symbol before it
        else:
            append((pending, got[1:]))
            pending = None
    if pending is not None:
        append((pending, None))
    return pairs


def parse_rust(lines: list[str]) -> RawTrace:
    """Parse the first Rust panic (and its backtrace, if printed) in ``lines``."""
    trace = RawTrace("rust")
    m = None
    for line in lines:  # (no index kept: the header is found again by ``index``)
        if len(line) <= MAX_LINE:
            m = _HEAD.search(line)
            if m:
                break
    if m is None:
        return trace
    trace.extra["thread"] = m[1]
    if m[2]:
        trace.extra["thread_id"] = m[2]
    rest = m[3]
    site: RawFrame | None = None
    old = _OLD_MSG.match(rest)
    if old:
        exc = RawException("panic", old[1])
        site = (old[2], int(old[3]), None, None, int(old[4]))
    else:
        loc = _NEW_LOC.match(rest)
        exc = RawException("panic", "")
        if loc:
            site = (loc[1], int(loc[2]), None, None, int(loc[3]))
    in_message = old is None
    frames: list[_Pair] = []
    # the header is the first line equal to it (an equal line before it would have matched)
    for i in range(lines.index(m.string) + 1, len(lines)):
        line = lines[i]
        if len(line) > MAX_LINE:
            continue
        s = line.strip()
        if s == "stack backtrace:":
            frames = _backtrace(lines, i + 1)
            break
        if s.startswith("note: "):
            in_message = False
            continue
        if in_message:
            exc.append_message(line)
            continue
        if s:
            break
    _place_frames(exc, site, frames)
    trace.exceptions.append(exc)
    return trace


def _place_frames(exc: RawException, site: RawFrame | None, pairs: list[_Pair]) -> None:
    """Add the frames from the one at the panic location on (the panic machinery printed
    before it is counted in ``omitted``), else the location and every frame."""
    if not pairs:
        if site is not None:
            exc.add(site)
        return
    start = -1
    if site is not None:
        want = site[0].removeprefix("./") if site[0] else ""
        for i, (_, body) in enumerate(pairs):
            if body is None or want not in body:  # (the file holds ``want``: cheap test first)
                continue
            file, line, _ = _LOCATIONS.get(body) or _at_body(body)  # type: ignore[misc]  # (checked)
            file = file.removeprefix("./")
            if file and line == site[1] and (file == want or file.endswith("/" + want)):
                start = i
                break
    if start >= 0:
        exc.omitted += start
        pairs = pairs[start:]
    elif site is not None:
        exc.add(site)
    names = _names(list(map(itemgetter(0), pairs)))
    bodies = list(map(itemgetter(1), pairs))
    seen = _LOCATIONS
    first = next(filter(None, bodies), None)
    if first is None or first in seen:  # (a trace seen before, as a rule: all its locations known)
        try:
            exc.frames += _frames(bodies, names, seen.get)
            return
        except TypeError:  # (a location not in the memo: its lookup gave None)
            pass
    get = seen.get
    distinct = [body for body in dict.fromkeys(bodies) if body is not None]
    missing = [body for body in distinct if body not in seen]
    # each new location read once (a recursion repeats a few of them)
    parsed: dict[str, tuple[str, int, int | None]] = {}
    for body in missing:  # (:func:`_at_body` inline: the reading checked each location)
        head, _, last = body.rpartition(":")
        rest, colon, mid = head.rpartition(":")
        parsed[body] = (rest, int(mid), int(last)) if colon and mid.isdecimal() and rest else (head, int(last), None)
    if len(seen) + len(parsed) > MEMO_SIZE:
        local = {body: seen[body] for body in distinct if body in seen}
        local.update(parsed)
        get = local.get
        seen.clear()
    if len(parsed) <= MEMO_SIZE:
        seen.update(parsed)
    exc.frames += _frames(bodies, names, get)


def _frames(
    bodies: list[str | None], names: list[_Names], get: Callable[[str], tuple[str, int, int | None] | None]
) -> list[RawFrame]:
    """The frames of a backtrace's locations and names (``TypeError`` when ``get`` misses one)."""
    return [
        (None, None, function, module, None) if body is None else ((at := get(body))[0], at[1], function, module, at[2])  # type: ignore[index]
        for body, (module, function) in zip(bodies, names, strict=True)
    ]
