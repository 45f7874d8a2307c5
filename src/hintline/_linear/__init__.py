"""Patterns that run in time linear in the text: RE2 where it can mean what Python means.

:class:`LinearPattern` holds one Python ``re`` pattern. Its :meth:`~LinearPattern.search`
and :meth:`~LinearPattern.finditer` run the RE2 spelling
(:func:`hintline._linear.translate.to_re2`) on the UTF-8 bytes of the text when ``google-re2``
is installed and the pattern translates; otherwise Python's ``re`` on
:func:`~hintline._linear.translate.python_form` of the pattern, inside a window whose size is
bounded (:data:`WINDOW`), so that even a pattern built to backtrack cannot take long. Both give
a :class:`LinearMatch` with the spans and groups Python's match has (character offsets;
``pos``/``endpos`` as in ``re``), for every match that fits in the window.

Layers, each usable alone: :mod:`hintline._linear.translate` (the spelling),
:mod:`hintline._linear.matches` (byte offsets back to characters, the match object), this
module (compiling, choosing the engine, searching); the rule engines call
:meth:`~LinearPattern.searcher`, the groups only, with nothing to decide per call.
"""

from __future__ import annotations

import importlib
import os
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from hintline._linear.matches import LinearMatch, Piece
from hintline._linear.translate import python_form, to_re2, why_not

__all__ = [
    "AVAILABLE",
    "MATCH_SPAN",
    "RE2_ENV",
    "RE2_WINDOW",
    "WINDOW",
    "LinearMatch",
    "LinearPattern",
    "LiteralSet",
    "Search",
    "python_form",
    "re2_enabled",
    "set_re2",
    "to_re2",
    "why_not",
]

_re2: Any
try:  # google-re2 has wheels for the common platforms; elsewhere the bounded re path runs
    _re2 = importlib.import_module("re2._re2")
except ImportError:  # pragma: no cover - exercised where google-re2 has no wheel
    _re2 = None

AVAILABLE = _re2 is not None
"""Whether ``google-re2`` can be imported here."""

RE2_ENV = "HINTLINE_RE2"
"""Environment variable: ``off`` makes every new :class:`LinearPattern` take the bounded ``re``
path, as where google-re2 has no wheel (for tests and the hostile tier)."""

_re2_forced: bool | None = None


def set_re2(enabled: bool | None) -> None:
    """Force RE2 on (where installed) or off for patterns built from now on (``None``: from
    the environment). Rebuild the matchers afterwards (``hintline.cleaner.match.set_engine``)."""
    global _re2_forced
    _re2_forced = enabled


def re2_enabled() -> bool:
    """Whether a :class:`LinearPattern` built now may use RE2."""
    if not AVAILABLE:
        return False
    if _re2_forced is not None:
        return _re2_forced
    return os.environ.get(RE2_ENV, "").strip().lower() not in ("off", "0", "no", "false")


Search = Callable[[str, bytes, int], "dict[str, str | None] | None"]
"""``search(text, data, pos)``: the named groups of the first match at or after byte ``pos``
of ``data`` (``text`` encoded as UTF-8), or ``None``."""

WINDOW = 1024
"""Characters around a line that Python's ``re`` may look at where RE2 is not available (a
backtracking pattern's worst case grows with the window, not with the text)."""

_MAX_MEM = 64 << 20
_options: Any = None
_options_lock = threading.Lock()


def _re2_options() -> Any:
    global _options
    if _options is None:
        with _options_lock:
            if _options is None:
                options = _re2.RE2.Options()
                options.log_errors = False
                options.max_mem = _MAX_MEM
                _options = options
    return _options


def _compile(source: str | None) -> Any:
    if source is None:
        return None
    compiled = _re2.RE2(source.encode("utf-8"), _re2_options())
    return compiled if compiled.ok() else None


class LinearPattern:
    """One Python ``re`` pattern, searched in linear time (see the module docs).

    The RE2 programs are compiled on first use, one for ASCII text (small and fast) and one
    for any text, each when a text of its kind first comes.

    Args:
        pattern: the Python pattern.
        use_re2: ``False`` forces the bounded ``re`` path (what runs without google-re2).
    """

    __slots__ = (
        "_anchors",
        "_groupindex",
        "_names",
        "_programs",
        "_python",
        "_searchers",
        "engine",
        "pattern",
    )

    def __init__(self, pattern: str, *, use_re2: bool | None = None) -> None:
        self.pattern = pattern
        self._programs: list[Any] = [None, None]  # [any text, ASCII text]
        self._searchers: list[Search | None] = [None, None]
        self._names: tuple[tuple[str, int], ...] | None = None
        self._python: re.Pattern[str] | None = None
        self._groupindex: dict[str, int] | None = None
        self._anchors: tuple[tuple[tuple[str, ...], bool], ...] | None = None
        if use_re2 is None:
            use_re2 = re2_enabled()
        usable = AVAILABLE and use_re2 and to_re2(pattern) is not None
        self.engine = "re2" if usable else "re"

    @property
    def python(self) -> re.Pattern[str]:
        """The Python regex (ASCII word boundaries, as in RE2)."""
        if self._python is None:
            self._python = re.compile(python_form(self.pattern))
        return self._python

    def _program(self, ascii_text: bool) -> Any:
        program = self._programs[ascii_text]
        if program is None:
            program = _compile(to_re2(self.pattern, ascii_text=ascii_text))
            if program is None:  # RE2 refused it after all (too large): re from now on
                self.engine = "re"
                return None
            if self._names is None:
                self._names = tuple(
                    (name.decode() if isinstance(name, bytes) else name, index)
                    for name, index in program.NamedCapturingGroups()
                )
            self._programs[ascii_text] = program
        return program

    @property
    def names(self) -> Mapping[str, int]:
        """Group name -> group number (the same in the RE2 spelling as in Python)."""
        if self._groupindex is None:
            self._groupindex = dict(self.python.groupindex)
        return self._groupindex

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> LinearMatch | None:
        """The first match in ``text[pos:endpos]``, as ``re.Pattern.search`` finds it.

        Offsets are characters, as in Python: ``\\b`` and ``^`` see the character before
        ``pos``; the text ends at ``endpos`` (``$`` matches there, nothing after it is seen).
        On the ``re`` path the search is :func:`bounded_search` (a match longer than
        :data:`WINDOW` is not found).
        """
        return next(self.finditer(text, pos, endpos), None)

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None) -> Iterator[LinearMatch]:
        """Every match in ``text[pos:endpos]``, left to right and not overlapping, as
        ``re.Pattern.finditer`` gives them (after an empty match the next one is looked for
        from the next character on)."""
        n = len(text)
        endpos = n if endpos is None else max(0, min(endpos, n))
        pos = max(0, pos)
        if pos > endpos:
            return
        if self.engine == "re2":
            piece = Piece(text, pos, endpos)
            program = self._program(piece.ascii)
            if program is not None:
                yield from self._re2_matches(program, piece)
                return
        yield from self._python_matches(text, pos, endpos)

    def _re2_matches(self, program: Any, piece: Piece) -> Iterator[LinearMatch]:
        data = piece.data
        size = len(data)
        names = self.names
        run = program.Match
        at = piece.first
        while at <= size:
            spans = run(_UNANCHORED, data, at, size)
            start, end = spans[0]
            if start < 0:
                return
            yield LinearMatch(piece.text, spans, names, piece)
            if end > start:
                at = end
            elif end >= size:
                return
            else:  # past the character at ``end``
                lead = data[end]
                at = end + (1 if lead < 0xC0 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4)

    def _python_matches(self, text: str, pos: int, endpos: int) -> Iterator[LinearMatch]:
        regex = self.python
        names = self.names
        count = regex.groups + 1
        while pos <= endpos:
            found = bounded_search(regex, text, pos, endpos)
            if found is None:
                return
            yield LinearMatch(text, tuple(found.span(i) for i in range(count)), names)
            start, end = found.span()
            pos = end if end > start else end + 1

    def searcher(self, ascii_text: bool) -> Search:
        """The named groups of the first match (a :data:`Search`: from a byte offset of the
        UTF-8 text, as :meth:`search` finds it) for texts whose UTF-8 is ASCII (``ascii_text``)
        or not, as one callable with nothing left to decide per call (the engines keep one per
        rule). On the RE2 path a text longer than :data:`RE2_WINDOW` bytes is read window by
        window: the first match is Python's wherever it fits in :data:`MATCH_SPAN` bytes."""
        found = self._searchers[ascii_text]
        if found is not None:
            return found
        program = self._program(ascii_text) if self.engine == "re2" else None
        search: Search = (
            self._python_search
            if program is None
            else _re2_search(program.Match, self._names or (), ascii_text)
        )
        self._searchers[ascii_text] = search
        return search

    def _python_search(
        self, text: str, data: bytes | None, pos: int
    ) -> dict[str, str | None] | None:
        if pos and data is not None and len(data) != len(text):
            pos = len(data[:pos].decode("utf-8", "replace"))
        anchors = self._anchors if self._anchors is not None else self._guards()
        lowered = None
        if anchors and len(text) - pos > WINDOW and any(ci for _, ci in anchors):
            if text.isascii():
                lowered = text.lower()
            else:  # a case fold may change the length: the caseless ones are not used
                anchors = tuple(a for a in anchors if not a[1])
        found = bounded_search(self.python, text, pos, anchors=anchors, lowered=lowered)
        return None if found is None else found.groupdict()

    def _guards(self) -> tuple[tuple[tuple[str, ...], bool], ...]:
        """What every match holds: one literal of each group (lower-case if caseless), for
        :func:`bounded_search` to pass over the windows that miss a group."""
        from hintline.cleaner._patterns import every_required_literals

        self._anchors = tuple((g.literals, g.caseless) for g in every_required_literals(self.pattern))
        return self._anchors


_UNANCHORED: Any = _re2.RE2.Anchor.UNANCHORED if _re2 is not None else None


class LiteralSet:
    """Which groups of literals occur in a text, in one linear RE2 pass (an RE2 set of the
    literals) instead of one ``in`` check per literal (391 of them cost the rule table's stdlib
    engine 6 ms on a 64 KiB text; the set costs a pass of its DFA). Build it with
    :meth:`build`, which gives ``None`` where RE2 is not installed or turned off.

    A caseless group's literals match as Python's ``(?i)`` matches them (spelt by
    :func:`to_re2`: RE2's own folding lacks Python's dotted and dotless I), so the set never
    refuses a text a caseless guard lets through.
    """

    __slots__ = ("_owner", "_set")

    def __init__(self, compiled: Any, owner: tuple[int, ...]) -> None:
        self._set = compiled
        self._owner = owner

    @classmethod
    def build(cls, groups: list[tuple[tuple[str, ...], bool] | None]) -> LiteralSet | None:
        """One group per entry (``(literals, caseless)``; ``None``: no literals)."""
        if not re2_enabled():
            return None
        compiled = _re2.Set(_UNANCHORED, _re2_options())
        owner: list[int] = []
        for number, group in enumerate(groups):
            if group is None:
                continue
            literals, caseless = group
            for literal in literals:
                source = to_re2(f"(?i:{re.escape(literal)})" if caseless else re.escape(literal))
                if source is None or compiled.Add(source.encode("utf-8")) != len(owner):
                    return None
                owner.append(number)
        if not owner or not compiled.Compile():
            return None
        return cls(compiled, tuple(owner))

    def groups(self, data: bytes) -> set[int]:
        """The groups one of whose literals occurs in ``data`` (UTF-8)."""
        owner = self._owner
        return {owner[found] for found in self._set.Match(data)}


MATCH_SPAN = 2048
"""Bytes of UTF-8 text within which a rule's first match is found exactly on the RE2 path of
:meth:`LinearPattern.searcher`. A text longer than :data:`RE2_WINDOW` is searched in windows
of that many bytes, each starting this much before the previous one ends, so a first match of
at most this many bytes lies whole in a window and is the one Python finds (RE2 sees the text
around a window: ``\\b``, ``$`` and ``^`` read the characters beyond it, so a window never
finds a match the whole text does not have). For a longer first match, the first window where
the pattern matches at all answers (a shorter reading of it, at the same start with the groups
that fit, or a later match); where none does, the pattern does not match. Values are cut to 64
characters when rendered, and no rule example's match comes near 2 KiB (the longest: 413
bytes). What the bound buys is time: RE2 pays 100-150 ns a byte to place a match tens of KiB
long (its automaton gives way to the NFA), 10 ms at 64 KiB, where a window costs at most
~1 ms."""

RE2_WINDOW = 8192
"""Bytes of text one RE2 call of :meth:`LinearPattern.searcher` looks at (see
:data:`MATCH_SPAN`)."""

_STEP = RE2_WINDOW - MATCH_SPAN


def _boundary(data: bytes, at: int) -> int:
    """``at`` moved back to the start of the UTF-8 character it falls in."""
    while at > 0 and (data[at] & 0xC0) == 0x80:
        at -= 1
    return at


def _windowed(run: Any, anchor: Any, data: bytes, pos: int) -> Any:
    """RE2's spans of the first match from byte ``pos`` that fits in a window (see
    :data:`MATCH_SPAN`), or ``None``."""
    size = len(data)
    start = pos
    while True:
        end = start + RE2_WINDOW
        if end >= size:
            spans = run(anchor, data, start, size)
            return spans if spans[0][0] >= 0 else None
        end = _boundary(data, end)
        after = _boundary(data, start + _STEP)  # where the next window starts
        spans = run(anchor, data, start, end)
        # one that starts in the next window is taken from there: a match starting before
        # it that did not fit here would fit there, and comes first
        if 0 <= spans[0][0] < after:
            return spans
        start = after


def _re2_search(run: Any, names: tuple[tuple[str, int], ...], ascii_text: bool) -> Search:
    """A search calling one RE2 program's ``Match`` directly, window by window on a long text
    (:data:`MATCH_SPAN`); on ASCII text the byte offsets are character offsets, so groups are
    sliced from the text with no decoding."""
    anchor = _UNANCHORED
    window = RE2_WINDOW
    if ascii_text:

        def search(text: str, data: bytes, pos: int) -> dict[str, str | None] | None:
            spans = (
                run(anchor, data, pos, len(data))
                if len(data) - pos <= window
                else _windowed(run, anchor, data, pos)
            )
            if spans is None or spans[0][0] < 0:
                return None
            out: dict[str, str | None] = {}
            for name, index in names:
                start, end = spans[index]
                out[name] = None if start < 0 else text[start:end]
            return out

        return search

    def search_utf8(text: str, data: bytes, pos: int) -> dict[str, str | None] | None:
        spans = (
            run(anchor, data, pos, len(data))
            if len(data) - pos <= window
            else _windowed(run, anchor, data, pos)
        )
        if spans is None or spans[0][0] < 0:
            return None
        out: dict[str, str | None] = {}
        for name, index in names:
            start, end = spans[index]
            out[name] = None if start < 0 else data[start:end].decode("utf-8", "replace")
        return out

    return search_utf8


def bounded_search(
    regex: re.Pattern[str],
    text: str,
    pos: int = 0,
    endpos: int | None = None,
    *,
    anchors: tuple[tuple[tuple[str, ...], bool], ...] = (),
    lowered: str | None = None,
) -> re.Match[str] | None:
    """``regex.search(text, pos)`` where the text is short; else searched window by window.

    A window is at most :data:`WINDOW` characters of whole lines (a longer line is cut into
    overlapping windows), so Python's backtracking costs at most a constant per character.
    A match longer than a window is not found: the price of running without RE2.

    ``anchors``: groups of strings, every match holding one string of each group (a caseless
    group's strings are found in ``lowered``, ``text.lower()`` of the same length): a window
    that misses a group is not searched, and the search ends where a group has no string left
    (the same answer: a match lies in its window).
    """
    n = len(text) if endpos is None else endpos
    if n - pos <= WINDOW:
        return regex.search(text, pos, n)
    # per group, its strings, where they are looked for, and each one's next occurrence at or
    # after the window's start (-1: none left)
    groups = [
        (strings, lowered if caseless and lowered is not None else text)
        for strings, caseless in anchors
    ]
    ahead = [[seek.find(s, pos, n) for s in strings] for strings, seek in groups]
    start = pos
    while start < n:
        end = min(n, start + WINDOW)
        if end < n:
            cut = text.rfind("\n", start + WINDOW // 2, end)
            if cut > start:
                end = cut + 1
        inside = True
        for (strings, seek), next_at in zip(groups, ahead, strict=True):
            held = False
            left = False
            for i, string in enumerate(strings):
                at = next_at[i]
                if 0 <= at < start:
                    at = next_at[i] = seek.find(string, start, n)
                if at >= 0:
                    left = True
                    if at + len(string) <= end:
                        held = True
                        break
            if not left:
                return None
            if not held:
                inside = False
                break
        if inside:
            found = regex.search(text, start, end)
            if found is not None:
                return found
        if end >= n:
            return None
        start = end if text[end - 1] == "\n" else end - WINDOW // 4
    return None
