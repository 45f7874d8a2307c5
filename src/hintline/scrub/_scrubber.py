"""The scrubber: every pattern on a linear-time engine, one answer on every path.

Each secret pattern is searched over the whole text on RE2 (``google-re2``), spelt to mean
what Python means (:func:`hintline._linear.translate.to_re2_edges`: the look-behind of one
character at the start and the look-ahead at the end that most secret patterns have are
consumed instead). Six patterns keep look-arounds in their middle that RE2 cannot express
(:data:`RE_PATTERNS`); they run on Python's ``re``, one line at a time, only on lines where
their trigger (translated for RE2) occurs, each from its ``reach`` before the occurrence. The
trigger is searched from where the next match could start, never listed in full: a text of
thousands of triggers costs a few searches per line searched or match found.

The matches are merged left to right: the leftmost match in the text wins and, among matches
starting at one position, the first listed pattern (the semantics of one combined
alternation). A Hyperscan prefilter scans every pattern's ``trigger`` in one pass first: text
where no trigger fires is returned as is, and a pattern whose trigger does not fire is not
searched. That only saves work: a trigger fires wherever its pattern matches, so the answer
is the same with the prefilter, while its database compiles, and where Hyperscan has no wheel
(tests/scrub/test_differential.py checks it on fuzz and fixtures).

A pass is repeated on its own output until nothing changes (at most :data:`MAX_PASSES`), so
``scrub(scrub(x)) == scrub(x)``: a mask can leave text that another pattern then takes
(``AWS secret:***\\``).
"""

from __future__ import annotations

import bisect
import functools
import importlib
import json
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from hintline._linear import AVAILABLE as _RE2
from hintline._linear import WINDOW, bounded_search
from hintline._linear.translate import LEAD, TAIL, python_form, to_re2, to_re2_edges
from hintline._vectorscan.cache import cached_database, database_path, in_background, load_database
from hintline.scrub._model import MASK, ScrubResult, SecretPattern
from hintline.scrub._names import KEY_NAMES, QUERY_NAMES
from hintline.scrub._patterns import SECRETS, build_secrets

_CACHE_FORMAT = 2
"""Bumped when the prefilter database is compiled differently."""

_hs: Any
try:  # the core dependency has wheels for the common platforms only
    import hyperscan as _hs
except ImportError:  # pragma: no cover - exercised on platforms without a wheel
    _hs = None

_re2: Any
try:
    _re2 = importlib.import_module("re2._re2")
except ImportError:  # pragma: no cover - exercised where google-re2 has no wheel
    _re2 = None

__all__ = ["MAX_PASSES", "RE_PATTERNS", "Scrubber"]

MAX_PASSES = 4
"""Passes until the text no longer changes (two in practice)."""

RE_PATTERNS = {
    "authorization-header": "(?!\\[secure\\]…) after the scheme: a value other tools masked stays",
    "openai-key": "(?=…[0-9]) inside the key: a key holds a digit",
    "cli-credentials": "(?![A-Z_]+…) before the value: a placeholder is not a secret",
    "bearer-token": "(?=…[0-9]) inside the token: a token holds a digit",
    "key-value": "look-behinds inside the key name and (?!None|null|…) before the value",
    "key-value-pair": "the key-value name's look-behinds and the quoted value's look-aheads",
}
"""The built-in secret patterns RE2 cannot run, and the look-around that keeps them on ``re``.
They run one line at a time, from their trigger's reach (tests/linear checks that each stays
linear on hostile input; tests/scrub/test_table.py that this list is complete)."""

_LOOKBACK = 4096  # how far before its trigger a match of a pattern without ``reach`` may start
_LOOSE_READS = 4
_LOOSE_SLACK = 65536
"""The loosened pattern of a ``re`` pattern (:meth:`_Branch.earliest`) reads at most this many
times the text (plus the slack) per pass; the trigger-led search alone goes on after that."""
_STRADDLE = 256
"""How far past the start of a search a trigger occurrence that began before it is looked for,
when the trigger's own length has no bound. A match starts where its trigger does (the trigger
matches the start of every match), so this only widens the search in odd cases."""


_Hit = tuple[int, int, int, int]
"""A match: ``(start, end, secret start, secret end)`` in characters; the secret is the first
of the pattern's groups that took part and is not empty (``-1, -1``: none)."""
_NONE = (-1, -1)


class _Found:
    """A match of :attr:`_Branch.line_regex`, starting where its ``_AT`` group does (not where
    the lazy run before it does), answering like ``re.Match``."""

    __slots__ = ("_end", "_spans", "_start")

    def __init__(self, start: int, end: int, spans: dict[str, tuple[int, int]]) -> None:
        self._start = start
        self._end = end
        self._spans = spans

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end

    def span(self, group: str) -> tuple[int, int]:
        return self._spans.get(group, (-1, -1))


_AT = "_hl_at"  # where a match of a line regex starts


_SURROGATE = re.compile("[\ud800-\udfff]")
_sre_parse: Any = importlib.import_module("re._parser").parse


@functools.lru_cache(maxsize=512)
def parsed_trigger(trigger: str) -> Any:
    """``re``'s parse tree of ``trigger`` (read, never changed), parsed once in a process: the
    prefilter's trigger widths and the renderer's assertion check read the same trees (parsing
    the 31 triggers costs about a millisecond, paid by the first call)."""
    return _sre_parse(trigger)


class _Text:
    """One text being scrubbed: its UTF-8 bytes and offset conversion (RE2 works on bytes)."""

    __slots__ = ("_bytes_at", "_chars_at", "_newlines", "ascii", "data", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._newlines: dict[int, _Newlines] = {}  # per pattern (each walks forward)
        try:
            self.data = text.encode("utf-8")
        except UnicodeEncodeError:
            # Lone surrogates: U+FFFD stands in for each (one character for one, and like a
            # surrogate it is no word, digit or space character to any pattern).
            self.data = _SURROGATE.sub("\ufffd", text).encode("utf-8")
        self.ascii = len(self.data) == len(text)
        self._chars_at = 0  # a known (char, byte) pair: conversions walk from it
        self._bytes_at = 0

    def to_byte(self, char: int) -> int:
        if self.ascii:
            return char
        if char >= self._chars_at:
            b = self._bytes_at + _re2.CharLenToBytes(self.data, self._bytes_at, char - self._chars_at)
        else:  # back from the known pair, not from the start: a step back costs its length
            b = self._bytes_at - len(self.text[char : self._chars_at].encode("utf-8", "surrogatepass"))
        self._chars_at, self._bytes_at = char, b
        return int(b)

    def lines_on(self, key: int, stop: int, lines: int) -> int:
        """The end of the ``lines``-th line after the line that ends at ``stop`` (a line's end),
        or the text's end; for the pattern ``key`` (whose questions move forward: each line
        break is looked for once, not once for every match starting above it)."""
        if stop >= len(self.text) or lines <= 0:
            return stop
        walker = self._newlines.get(key)
        if walker is None:
            walker = self._newlines[key] = _Newlines(self.text)
        return walker.after(stop, lines)

    def to_char(self, byte: int) -> int:
        if self.ascii:
            return byte
        if byte >= self._bytes_at:
            c = self._chars_at + _re2.BytesToCharLen(self.data, self._bytes_at, byte)
        else:
            c = self._chars_at - _re2.BytesToCharLen(self.data, byte, self._bytes_at)
        self._chars_at, self._bytes_at = c, byte
        return int(c)


class _Newlines:
    """The line breaks of a text from some line's end on, found as far as asked for."""

    __slots__ = ("found", "scanned", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.found: list[int] = []  # every line break in [found[0], scanned), in order
        self.scanned = 0

    def after(self, stop: int, lines: int) -> int:
        """The ``lines``-th line break after ``stop`` (a line break), or the text's end."""
        found = self.found
        if not found or not found[0] <= stop < self.scanned:
            found.clear()  # a question behind the walk (or the first): walk from stop
            found.append(stop)
            self.scanned = stop + 1
            at = 0
        else:
            at = bisect.bisect_left(found, stop)
            if at > 4096 and at > len(found) // 2:  # keep the list short on a long walk
                del found[:at]
                at = 0
        want = at + lines
        text = self.text
        while len(found) <= want:
            if self.scanned >= len(text):
                return len(text)
            nxt = text.find("\n", self.scanned)
            if nxt < 0:
                self.scanned = len(text)
                return len(text)
            found.append(nxt)
            self.scanned = nxt + 1
        return found[want]


def _compile_re2(source: str | None) -> Any:
    if source is None or _re2 is None:
        return None
    from hintline._linear import _re2_options

    compiled = _re2.RE2(source.encode("utf-8"), _re2_options())
    return compiled if compiled.ok() else None


_UNANCHORED: Any = _re2.RE2.Anchor.UNANCHORED if _re2 is not None else None


@dataclass(frozen=True)
class _Branch:
    index: int
    name: str
    groups: tuple[str, ...]
    multiline: bool
    reach: int | None
    pattern: str
    trigger: str
    use_re2: bool = True
    lines: int = 1

    def end(self, t: _Text, stop: int) -> int:
        """How far a match starting before ``stop`` (a line's end) may run: the text's end
        for a multiline pattern, else the end of its ``lines``-th line."""
        if self.multiline:
            return len(t.text)
        # each line break looked for once per text, not once for every match above it (a
        # header per line, each matched over the 20 lines a wrapped token may span)
        return t.lines_on(self.index, stop, self.lines - 1)

    @functools.cached_property
    def regex(self) -> re.Pattern[str]:
        """The compiled pattern, on first use: most texts never need most patterns. ``\\b`` is
        an ASCII word boundary, as on RE2 and Vectorscan (one answer on every path)."""
        return re.compile(python_form(self.pattern))

    @functools.cached_property
    def exact(self) -> bool:
        """Whether RE2 can run the pattern: with engines it is searched over the whole text."""
        return to_re2_edges(self.pattern) is not None

    @functools.cached_property
    def line_regex(self) -> re.Pattern[str]:
        """:attr:`regex` after a lazy run of one line: matched at a position, the first match
        that starts on that line at or after it, however many lines it spans."""
        return re.compile(rf"[^\n]*?(?P<{_AT}>)(?:{python_form(self.pattern)})")

    @functools.cached_property
    def linear(self) -> list[Any] | None:
        """RE2 programs ``[for any text, for ASCII text]`` (each compiled on first use), or
        ``None``: the pattern runs on ``re``."""
        if not (_RE2 and self.use_re2) or to_re2_edges(self.pattern) is None:
            return None
        return [None, None]

    def _program(self, ascii_text: bool) -> tuple[Any, int, int, tuple[int, ...]]:
        """``(program, LEAD's group index or 0, TAIL's or 0, the secret groups' indexes)``."""
        programs = self.linear
        assert programs is not None
        found = programs[ascii_text]
        if found is None:
            compiled = _compile_re2(to_re2_edges(self.pattern, ascii_text=ascii_text))
            if compiled is None:
                raise RuntimeError(f"RE2 refused secret pattern {self.name}")
            names = {
                (n.decode() if isinstance(n, bytes) else n): i for n, i in compiled.NamedCapturingGroups()
            }
            wanted = tuple(names[g] for g in self.groups if g in names)
            found = programs[ascii_text] = (compiled, names.get(LEAD, 0), names.get(TAIL, 0), wanted)
        return found  # type: ignore[no-any-return]

    @functools.cached_property
    def screen(self) -> Any:
        """The trigger for RE2 (where a ``re`` pattern may match), or its Python regex."""
        source = self.trigger or self.pattern
        compiled = _compile_re2(to_re2(source)) if _RE2 and self.use_re2 else None
        return compiled if compiled is not None else re.compile(python_form(source))

    def re2_search(self, t: _Text, pos: int) -> _Hit | None:
        """The first match at or after character ``pos``, by RE2 on the whole text."""
        found = self.linear[t.ascii]  # type: ignore[index]
        if found is None:
            found = self._program(t.ascii)
        compiled, lead_at, tail_at, wanted = found
        lead = pos > 0 and lead_at > 0
        byte = pos - 1 if lead else pos  # from the character the look-behind sees
        if not t.ascii:
            byte = t.to_byte(byte)
        spans = compiled.Match(_UNANCHORED, t.data, byte, len(t.data))
        start, end = spans[0]
        if start < 0:
            return None
        if lead_at:
            start = spans[lead_at][0]
        if tail_at:
            end = spans[tail_at][0]
        secret = _NONE
        for index in wanted:  # the first secret group that took part, not empty
            s, e = spans[index]
            if s < e:
                secret = (s, e)
                break
        if not t.ascii:
            start = t.to_char(start)
            if secret is not _NONE:
                secret = (t.to_char(secret[0]), t.to_char(secret[1]))
            end = t.to_char(end)
        if lead and start < pos:  # \A at the text's start, before pos: ask re (rare)
            return self._hit(self.regex.search(t.text, pos))
        return start, end, secret[0], secret[1]

    def _hit(self, found: re.Match[str] | _Found | None) -> _Hit | None:
        """A match of Python's ``re`` (or of a line regex, :class:`_Found`) as a hit."""
        if found is None:
            return None
        for group in self.groups:
            s, e = found.span(group)
            if s < e:
                return found.start(), found.end(), s, e
        return found.start(), found.end(), -1, -1

    @functools.cached_property
    def loose(self) -> list[Any] | None:
        """RE2 programs of :func:`_superset` ``[for any text, for ASCII text]`` (each compiled
        on first use), or ``None``. For a pattern on RE2 itself, a program without groups that
        RE2 runs on its DFAs alone: a cheap look at where the next match can start."""
        if not (_RE2 and self.use_re2) or _superset(self.pattern) is None:
            return None
        return [None, None]

    def earliest(self, t: _Text, pos: int) -> tuple[int, int]:
        """``(where a match from pos on can start at the earliest, bytes searched)``: the
        leftmost match of :func:`_superset` from ``pos`` on (``len(text) + 1``: none)."""
        programs = self.loose
        assert programs is not None
        found = programs[t.ascii]
        if found is None:
            # no group: RE2 answers from its DFAs alone. A leading look-behind's character is
            # consumed: the match starts a character later (at the text's start, perhaps not)
            loose = _superset(self.pattern) or ""
            source = to_re2_edges(loose, ascii_text=t.ascii) or ""
            source = source.replace(f"(?P<{LEAD}>)", "").replace(f"(?P<{TAIL}>)", "")
            compiled = _compile_re2(source)
            if compiled is None or compiled.NumberOfCapturingGroups():
                raise RuntimeError(f"RE2 refused the loosened secret pattern {self.name}")
            found = programs[t.ascii] = (compiled, _LEAD_AROUND.match(loose) is not None)
        compiled, lead = found
        byte = pos - 1 if pos > 0 else pos  # from the character a look-behind sees
        if not t.ascii:
            byte = t.to_byte(byte)
        start, end_b = compiled.Match(_UNANCHORED, t.data, byte, len(t.data))[0]
        if start < 0:
            return len(t.text) + 1, len(t.data) - byte
        if lead and start > 0:
            start = (start if t.ascii else t.to_char(start)) + 1
        elif not t.ascii:
            start = t.to_char(start)
        return (start if start > pos else pos), end_b - byte

    def lower_bound(self, t: _Text, pos: int, state: list[int]) -> int:
        """Where a match from ``pos`` on can start at the earliest (``len(text) + 1``: nowhere),
        by :meth:`earliest`, its answer kept in ``state`` (:meth:`re_search`'s) while ``pos``
        stays before it. Its searches stop once they have read the text ``_LOOSE_READS`` times
        in one pass (a loosened match may run on far past the next ``pos``: re-read for each,
        a line of them would cost its length squared); ``pos`` itself from then on."""
        if state[6] <= pos <= state[7]:
            return state[7]
        if state[8] < 0:
            return pos
        since = pos
        if pos == 0 and self.linear is None:
            # from the text's start, the trigger (a lighter search, kept in state for
            # re_search) says where the first match can start: nowhere without one
            if not state[0] <= 0 <= state[1]:
                hit = self.trigger_at(t, 0)
                n = len(t.text)
                state[:3] = (0, n + 1, n + 1) if hit is None else (0, *hit)
            if state[1] > len(t.text):
                return len(t.text) + 1
            back = _LOOKBACK if self.reach is None else self.reach
            floor = max(0, state[1] - back)
            found_nl = t.text.rfind("\n", floor, state[1])
            since = floor if found_nl < 0 else found_nl + 1
        at, read = self.earliest(t, since)
        state[6], state[7] = pos, at
        state[8] += read
        if state[8] > _LOOSE_READS * len(t.data) + _LOOSE_SLACK:
            state[8] = -1
        return at

    @functools.cached_property
    def trigger_width(self) -> int | None:
        """The longest text the trigger can match, or ``None`` (no bound)."""
        return _trigger_width(self.trigger or self.pattern)

    def trigger_at(self, t: _Text, pos: int, end: int | None = None) -> tuple[int, int] | None:
        """The first occurrence of the trigger starting at or after ``pos`` (and ending by
        ``end``)."""
        screen = self.screen
        if isinstance(screen, re.Pattern):
            found = bounded_search(screen, t.text, pos, end)
            return None if found is None else found.span()
        if t.ascii:
            s, e = screen.Match(_UNANCHORED, t.data, pos, len(t.data) if end is None else end)[0]
            return None if s < 0 else (s, e)
        stop = len(t.data) if end is None else t.to_byte(end)
        s, e = screen.Match(_UNANCHORED, t.data, t.to_byte(pos), stop)[0]
        return None if s < 0 else (t.to_char(s), t.to_char(e))

    def re_search(self, t: _Text, pos: int, state: list[int]) -> re.Match[str] | _Found | None:
        """The first match starting at or after ``pos``, searched one line at a time on the
        lines where the trigger occurs, each from ``reach`` before the trigger on.

        A match holds the end of a trigger occurrence and starts at most ``reach`` before that
        occurrence, on its line. So the search starts at ``pos`` if an occurrence starts before
        ``pos`` and ends after it, else at the first occurrence from ``pos`` on (less its
        reach), and runs to the end of the line (or of the pattern's ``lines``-th line). A
        text holding thousands of triggers costs a few trigger searches per line searched,
        not one per trigger. ``state`` (per text) keeps the last occurrence and line end found
        (``[searched from, start, end, line from, line end, end of the match's last line]``):
        a long line holding many matches is not walked again for each.
        """
        text = t.text
        n = len(text)
        back = _LOOKBACK if self.reach is None else self.reach
        while pos < n:
            if self.loose is not None:
                at = self.lower_bound(t, pos, state)
                if at > n:
                    return None
                if at > pos:
                    # no match starts before ``at``; a search window that can hold one starts
                    # on its line, or lines - 1 lines above it
                    if not self.multiline:
                        edge = at
                        for _ in range(self.lines):
                            nl = text.rfind("\n", pos, edge)
                            if nl < 0:
                                edge = pos
                                break
                            edge = nl
                        else:
                            edge += 1
                        at = edge
                    pos = max(pos, at)
            if not state[0] <= pos <= state[1]:  # else: the same first occurrence from pos
                hit = self.trigger_at(t, pos)
                state[:3] = (pos, n + 1, n + 1) if hit is None else (pos, *hit)
            lo = -1
            if state[1] <= n:
                s = state[1]
                floor = max(0, s - back)
                found_nl = text.rfind("\n", floor, s)
                lo = max(pos, floor if found_nl < 0 else found_nl + 1)
            if lo != pos and pos > 0 and not state[6] <= pos < state[7]:
                # an occurrence across pos opens a match from pos on (unless the loosened
                # pattern says none starts before state[7])
                floor = max(0, pos - back)
                found_nl = text.rfind("\n", floor, pos)
                at = floor if found_nl < 0 else found_nl + 1
                # it ends within the trigger's width after pos (a trigger without a bound:
                # _STRADDLE), and by the end of the next occurrence (known): look no further
                # (the gap to the next occurrence is not scanned twice)
                bound = pos + (_STRADDLE if self.trigger_width is None else self.trigger_width)
                if state[1] <= n:
                    bound = min(bound, state[2])
                while at < pos:
                    before = self.trigger_at(t, at, bound)
                    if before is None or before[0] >= pos:
                        break
                    at = max(before[1], before[0] + 1)
                    if at > pos:
                        lo = pos
                        break
            if lo < 0:
                return None
            if state[3] <= lo <= state[4]:
                line_stop, stop = state[4], state[5]
            else:
                line_stop = n if self.multiline else _line_end(text, lo)
                stop = self.end(t, line_stop)  # a match may run on to its ``lines``-th line
                state[3:6] = (lo, line_stop, stop)
            spans = self.lines > 1 and not self.multiline
            if spans and self.exact and line_stop - lo <= WINDOW:
                # a pattern RE2 runs on the whole text, here on re (no engines): the first match
                # that starts on this line, over all the lines it may span, as RE2 finds it
                end = min(stop, line_stop + 4 * WINDOW)
                first = self.line_regex.match(text, lo, end)
                if first is not None:
                    return _Found(first.start(_AT), first.end(), {g: first.span(g) for g in self.groups})
                pos = line_stop + 1
                continue
            # a pattern spanning many lines (a wrapped token) is searched for a start over two
            # lines, then matched again from that start over all its lines: searching them all
            # would scan every line below each trigger for a start
            near = min(stop, _line_end(text, line_stop + 1)) if spans else stop
            found: re.Match[str] | _Found | None
            if self.use_re2 and _RE2:  # these few stay linear on the hostile tier
                if near - line_stop > 2 * (line_stop - lo) + 256 and self.loose is not None:
                    # a long next line: the search's first start on this line, else on the next,
                    # searched there only if the loosened pattern (RE2) says a match can start
                    # there (not scanned by re, position by position). The same answer as the
                    # search below, which is quicker where the next line is short (re skips to a
                    # start by the pattern's first characters; the lazy run tries each position)
                    first = self.line_regex.match(text, lo, near)
                    if first is not None:
                        found = _Found(first.start(_AT), first.end(), {g: first.span(g) for g in self.groups})
                    elif self.lower_bound(t, line_stop + 1, state) >= near:
                        found = None
                    else:
                        found = self.regex.search(text, line_stop + 1, near)
                else:
                    found = self.regex.search(text, lo, near)
            else:  # no RE2: every pattern is here, each in bounded windows
                found = bounded_search(self.regex, text, lo, near)
            if found is not None:
                # a match ending before its line's end runs on no further
                if near < stop and (found.end() >= near or text[found.end()] in "\r\n"):
                    at = found.start()
                    end = stop if at <= line_stop else self.end(t, _line_end(text, at))
                    if not (self.use_re2 and _RE2):
                        end = min(end, at + 4 * WINDOW)
                    return self.regex.match(text, at, end) or found
                return found
            pos = line_stop + 1
        return None


def _line_end(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    return len(text) if end < 0 else end


_LEAD_AROUND = re.compile(r"\(\?<[!=](?:\[(?:\\.|[^\]\\])+\]|\\[^\d]|[^\\()\[\]|*+?{}.^$])\)")


def _class_end(pattern: str, i: int) -> int:
    """The index after the character class that opens at ``i``."""
    j = i + 1
    if pattern.startswith("^", j):
        j += 1
    if pattern.startswith("]", j):
        j += 1
    while j < len(pattern) and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return j + 1


def _group_end(pattern: str, i: int) -> int:
    """The index of the parenthesis that closes the group opening at ``i``."""
    depth = 0
    j = i
    while j < len(pattern):
        c = pattern[j]
        if c == "\\":
            j += 2
            continue
        if c == "[":
            j = _class_end(pattern, j)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j
        j += 1
    return j


def _cut_at_lookahead(pattern: str) -> str:
    """``pattern`` up to its first look-ahead ``(?=X)`` at the top level, then ``X`` itself
    (``pattern`` when it has none, or an alternation at the top level). Where ``pattern``
    matches, this matches from the same place: what comes before the look-ahead, then what
    the look-ahead saw. Unlike dropping it, a look-ahead kept so still rules places out
    (``bearer`` before a token without a digit)."""
    i = 0
    cut = -1
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
        elif c == "[":
            i = _class_end(pattern, i)
        elif c == "|":
            return pattern
        elif c == "(":
            if pattern.startswith("(?=", i) and cut < 0:
                cut = i
            i = _group_end(pattern, i) + 1
        else:
            i += 1
    if cut < 0:
        return pattern
    return f"{pattern[:cut]}(?:{pattern[cut + 3 : _group_end(pattern, cut)]})"


def _superset(pattern: str) -> str | None:
    """``pattern`` loosened into one RE2 can run: cut at its first look-ahead at the top level
    (:func:`_cut_at_lookahead`), then every look-around but a leading one-character look-behind
    (which :func:`~hintline._linear.translate.to_re2_edges` consumes) becomes empty, ``$`` and
    ``\\Z`` also match before any line break, possessive quantifiers are greedy ones, a
    backreference is its group's pattern, and groups capture nothing.

    It matches wherever ``pattern`` matches, also when ``pattern`` runs on a window of the
    text that ends at a line break (what :meth:`_Branch.re_search` does): dropping a
    look-around only removes a condition, and a window's end is a line's end. So where it finds
    nothing, ``pattern`` finds nothing, and the leftmost place it matches from ``pos`` on is
    where a match of ``pattern`` from ``pos`` on can start at the earliest. ``None`` when the
    result does not compile.
    """
    pattern = _cut_at_lookahead(pattern)
    out: list[str] = []
    i = 0
    n = len(pattern)
    lead = _LEAD_AROUND.match(pattern)
    if lead:
        out.append(lead.group())
        i = lead.end()
    while i < n:
        c = pattern[i]
        if c == "\\":
            pair = pattern[i : i + 2]
            out.append("(?m:$)" if pair == "\\Z" else pair)
            i += 2
        elif c == "[":
            j = _class_end(pattern, i)
            out.append(pattern[i:j])
            i = j
        elif c == "$":
            out.append("(?m:$)")
            i += 1
        elif pattern.startswith(("(?=", "(?!", "(?<=", "(?<!"), i):
            out.append("(?:)")
            i = _group_end(pattern, i) + 1
        elif pattern.startswith("(?P<", i):
            out.append("(?:")
            i = pattern.index(">", i) + 1
        elif pattern.startswith("(?P=", i):  # a backreference: what its group's body matches
            close = pattern.index(")", i)
            opening = pattern.index(f"(?P<{pattern[i + 4 : close]}>")
            body = _superset(pattern[opening : _group_end(pattern, opening) + 1])
            if body is None:
                return None
            out.append(body)
            i = close + 1
        elif c in "*+?}" and pattern.startswith("+", i + 1):
            out.append(c)  # a possessive quantifier: the greedy one matches wherever it does
            i += 2
        else:
            out.append(c)
            i += 1
    source = "".join(out)
    try:
        re.compile(source)
    except re.error:
        return None
    return source if to_re2_edges(source) is not None else None


@dataclass(frozen=True, slots=True)
class Scrubber:
    """A configured scrubber: the built-in table plus the caller's own patterns and key names.

    The module-level :func:`~hintline.scrub.scrub` and :func:`~hintline.scrub.scrub_report`
    use ``Scrubber()``. Build one of your own once and reuse it (each pattern compiles on first
    use).

    Args:
        extra_patterns: your own :class:`SecretPattern` entries; at one position they take
            precedence over the built-in ones.
        extra_key_names: more key names whose values are secrets, as lowercase words
            (``"license key"`` also matches ``license_key``, ``licenseKey``, ``LICENSE-KEY``).
        builtin: include the built-in table (``False`` keeps only your own patterns).
        engines: ``"auto"`` (Hyperscan prefilter and RE2 where installed) or ``"re"`` (neither:
            what runs where they have no wheel; the answers are the same).

    .. versionadded:: 0.1.0
    """

    extra_patterns: tuple[SecretPattern, ...] = ()
    extra_key_names: tuple[str, ...] = ()
    builtin: bool = True
    engines: str = "auto"
    patterns: tuple[SecretPattern, ...] = field(init=False, repr=False, compare=False)
    _branches: tuple[_Branch, ...] = field(init=False, repr=False, compare=False)
    _prefilter: _Prefilter | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "extra_patterns", tuple(self.extra_patterns))
        object.__setattr__(self, "extra_key_names", tuple(self.extra_key_names))
        table: tuple[SecretPattern, ...] = ()
        if self.builtin:
            if self.extra_key_names:
                names = tuple(n.lower() for n in self.extra_key_names)
                table = build_secrets(KEY_NAMES + names, QUERY_NAMES + names)
            else:
                table = SECRETS
        patterns = (*self.extra_patterns, *table)
        object.__setattr__(self, "patterns", patterns)
        native = self.engines != "re"
        branches = tuple(
            _Branch(i, p.name, p.groups, p.multiline, p.reach, p.pattern, p.trigger, native, p.lines)
            for i, p in enumerate(patterns)
        )
        object.__setattr__(self, "_branches", branches)
        prefilter = _Prefilter(patterns) if _hs is not None and native else None
        object.__setattr__(self, "_prefilter", prefilter)

    def scrub(self, text: str | bytes) -> str:
        """Return ``text`` with every secret value replaced by ``***``. Never raises."""
        fired: frozenset[int] | None = None
        if type(text) is str and self._prefilter is not None:
            try:
                fired = self._prefilter.fired(text)
            except Exception:  # the full path below decides
                fired = None
            if fired is not None and not fired:
                return text
        return self._answer(text, fired).text

    def report(self, text: str | bytes) -> ScrubResult:
        """Scrub ``text`` and say what was masked. Never raises.

        ``bytes`` are decoded as UTF-8 with replacement characters; any other object is
        scrubbed as its ``str()``.
        """
        return self._answer(text, None)

    def _answer(self, text: str | bytes, fired: frozenset[int] | None) -> ScrubResult:
        """:meth:`report`, told which triggers fired in ``text`` if that is known."""
        try:
            value = text if type(text) is str else _as_text(text)
        except Exception:  # a hostile __str__; nothing readable to keep
            return ScrubResult(MASK, ("unreadable",), 1)
        try:
            return self._report(value, fast=True, fired=fired)
        except Exception:
            try:
                return self._report(value, fast=False)
            except Exception:  # fail closed: never hand back unscrubbed text
                return ScrubResult(MASK, ("unreadable",), 1)

    def _report(self, text: str, *, fast: bool, fired: frozenset[int] | None = None) -> ScrubResult:
        kinds: dict[str, None] = {}
        total = 0
        out = text
        for _ in range(MAX_PASSES):
            out, count = self._pass(out, kinds, fast=fast, fired=fired)
            fired = None  # the next pass screens its own text
            if not count:
                break
            total += count
        if not total:
            return ScrubResult(text, (), 0)
        return ScrubResult(out, tuple(kinds), total)

    def _pass(
        self, text: str, kinds: dict[str, None], *, fast: bool, fired: frozenset[int] | None = None
    ) -> tuple[str, int]:
        """One masking pass: ``(text, count)``; ``fired``: the prefilter's answer for ``text``."""
        branches = self._branches
        if fast and self._prefilter is not None:
            if fired is None:
                fired = self._prefilter.fired(text)
            if fired is not None:
                if not fired:
                    return text, 0
                branches = tuple(b for b in branches if b.index in fired)
        t = _Text(text)
        parts: list[str] = []
        last = 0
        count = 0
        for start, end, branch in _merge(t, branches):
            if start < last or not text[start:end].strip("*"):
                continue  # already masked
            parts.append(text[last:start])
            parts.append(MASK)
            last = end
            count += 1
            kinds[branch.name] = None
        if not count:
            return text, 0
        parts.append(text[last:])
        return "".join(parts), count


def _merge(t: _Text, branches: tuple[_Branch, ...]) -> Iterator[tuple[int, int, _Branch]]:
    """Yield the secrets ``(start, end, branch)`` of non-overlapping matches of ``branches``
    over the whole text (a match whose secret groups are all empty yields nothing).

    Matches come leftmost first; among matches starting at one position the first listed
    branch wins, as in one combined alternation.
    """
    states: dict[int, list[int]] = {}
    n = len(t.text)

    def state_of(b: _Branch) -> list[int]:
        state = states.get(b.index)
        if state is None:
            state = states[b.index] = [1, 0, 0, 1, 0, 0, 1, 0, 0]
        return state

    def search(b: _Branch, pos: int) -> _Hit | None:
        if b.linear is not None:
            return b.re2_search(t, pos)
        return b._hit(b.re_search(t, pos, state_of(b)))

    # (start, index, match, branch, from): the smallest is the leftmost match, the first
    # listed among those starting at one position; a branch without a match from here is
    # dropped. A pattern on re whose loosened pattern says where its match can start at the
    # earliest is searched (from ``from``) only once that place comes first: a match that
    # another one covers is never looked for (nor its groups taken by Python's re)
    heads: list[tuple[int, int, _Hit | None, _Branch, int]] = []

    # patterns on RE2 whose last match was covered by another's: looked at by their
    # loosened form first (most of the time covered again: a DSN's host:password@host inside
    # its URL's match), searched with their groups when that place comes first
    covered: set[int] = set()

    def advance(b: _Branch, pos: int) -> None:
        if b.linear is not None:
            if b.index in covered and b.loose is not None:
                at = b.lower_bound(t, pos, state_of(b))
                if at <= n:
                    heads.append((at, b.index, None, b, pos))
                return
            m = b.re2_search(t, pos)
        elif b.loose is not None:
            at = b.lower_bound(t, pos, state_of(b))
            if at <= n:
                heads.append((at, b.index, None, b, pos))
            return
        else:
            m = b._hit(b.re_search(t, pos, state_of(b)))
        if m is not None:
            heads.append((m[0], b.index, m, b, pos))

    for b in branches:
        advance(b, 0)
    while heads:
        head = min(heads) if len(heads) > 1 else heads[0]
        start, index, found, branch, since = head
        if found is None:  # only a lower bound: search now
            heads.remove(head)
            covered.discard(index)
            # RE2's first match from ``since`` is its first from the bound (none starts
            # between): the text up to it is not read twice
            m = search(branch, start if branch.linear is not None else since)
            if m is not None:
                heads.append((m[0], index, m, branch, since))
            continue
        if found[2] >= 0:
            yield found[2], found[3], branch
        pos = found[1]
        if pos == start:
            pos += 1
        if len(heads) == 1:
            heads.clear()
            advance(branch, pos)
            continue
        moved = [h for h in heads if h[0] < pos]
        if len(moved) < len(heads):
            heads = [h for h in heads if h[0] >= pos]
        else:
            heads.clear()
        for h in moved:
            if h is not head:
                covered.add(h[1])
            advance(h[3], pos)


class _Prefilter:
    """Hyperscan over every pattern's trigger; per-thread scratch space.

    The database loads from the disk cache (:mod:`hintline._vectorscan.cache`) in milliseconds. On a
    cold cache it compiles (some 300 ms) in a background thread, and :meth:`fired` answers
    ``None`` until it is ready, so the full ``re`` pass scrubs meanwhile, with the same result.
    The thread (:func:`hintline._vectorscan.cache.in_background`) is not a daemon: a short-lived process
    (the CLI) finishes the compile and writes the cache before it exits.
    """

    def __init__(self, patterns: tuple[SecretPattern, ...]) -> None:
        self._db: Any = None
        self._patterns = patterns
        self._lock = threading.Lock()
        self._local = threading.local()
        self._broken = False
        self._builder: threading.Thread | None = None

    def _database(self) -> Any:
        """The databases, or ``None`` while they compile in the background. A warm start loads
        the long triggers' database (which choosing the long triggers, parsing every trigger,
        keys) only for the first text that needs it (:meth:`_long`)."""
        with self._lock:
            if self._db is not None or self._broken:
                return self._db
            if self._builder is not None and self._builder.is_alive():
                return None
            assert _hs is not None
            expressions = [(p.trigger or p.pattern).encode() for p in self._patterns]
            # one report per trigger is all the scrubber needs: which patterns to search
            every = _hs.HS_FLAG_PREFILTER | _hs.HS_FLAG_UTF8 | _hs.HS_FLAG_UCP
            flags = every | _hs.HS_FLAG_SINGLEMATCH
            all_ids = list(range(len(expressions)))
            short = (("scrub", all_ids, flags), ("scrub-every", all_ids, every))
            loaded = [
                load_database(_hs, database_path(kind, _material(expressions, ids, f)))
                for kind, ids, f in short
            ]
            if all(db is not None for db in loaded):  # the long triggers' when a text needs it
                self._db = (loaded[0], _LATER, loaded[1])
                return self._db
            plans = (short[0], ("scrub-long", self._long_ids(), flags), short[1])
            materials = tuple(_material(expressions, ids, f) for _kind, ids, f in plans)
            # a cold cache (or a fork child of a process compiling it)
            builds = tuple(
                (kind, material, functools.partial(_compile, expressions, ids, f) if ids else None)
                for (kind, ids, f), material in zip(plans, materials, strict=True)
            )
            self._builder = in_background(
                functools.partial(self._build, builds), "hintline-scrub-hyperscan"
            )
            return self._db

    def _long_ids(self) -> list[int]:
        """The patterns whose trigger is unbounded or longer than a quarter of the overlap
        (choosing them parses every trigger)."""
        return [
            n
            for n, p in enumerate(self._patterns)
            if (width := _trigger_width(p.trigger or p.pattern)) is None or width > _OVERLAP // 4
        ]

    def _long(self) -> Any:
        """The long triggers' database, loaded (or compiled) for the first text that needs it:
        a text over :data:`_BLOCK` bytes with more than :data:`_MANY` trigger matches."""
        with self._lock:
            single, long, every = self._db
            if long is _LATER:
                assert _hs is not None
                ids = self._long_ids()
                long = None
                if ids:
                    expressions = [(p.trigger or p.pattern).encode() for p in self._patterns]
                    flags = _hs.HS_FLAG_PREFILTER | _hs.HS_FLAG_UTF8 | _hs.HS_FLAG_UCP
                    flags |= _hs.HS_FLAG_SINGLEMATCH
                    build = functools.partial(_compile, expressions, ids, flags)
                    long = cached_database(_hs, "scrub-long", _material(expressions, ids, flags), build)
                self._db = (single, long, every)
            return long

    def _build(self, builds: tuple[tuple[str, str, Callable[[], Any] | None], ...]) -> None:
        try:
            self._db = tuple(
                None if build is None else cached_database(_hs, kind, material, build)
                for kind, material, build in builds
            )
        except Exception:
            self._broken = True  # the full re pass answers from now on

    @property
    def compiling(self) -> bool:
        """Whether the database is being compiled in the background."""
        builder = self._builder
        return self._db is None and builder is not None and builder.is_alive()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for a background compile; ``True`` if the database is ready."""
        if self._db is None and not self._broken:
            self._database()
        builder = self._builder
        if builder is not None:
            builder.join(timeout)
        return self._db is not None

    def fired(self, text: str) -> frozenset[int] | None:
        """The indexes of the patterns whose trigger fires somewhere in ``text``.

        ``None`` means the prefilter cannot answer (no compile, unencodable text). Only which
        patterns fired counts: no positions are kept, sorted or converted to characters.
        """
        if self._broken:
            return None
        try:
            db = self._db if self._db is not None else self._database()
            if db is None:
                return None  # compiling in the background: the full pass answers
            local = self._local
            try:
                scratch = local.scratch
            except AttributeError:
                scratch = local.scratch = [None if d is None or d is _LATER else _hs.Scratch(d) for d in db]
            data = text.encode("utf-8")
        except Exception:
            if self._db is None:
                self._broken = True
            return None  # lone surrogates, a failed compile: the full pass handles it
        hits: set[int] = set()
        single, long, every = db
        size = len(data)
        if size <= _BLOCK:
            single.scan(data, _on_match, 0, hits, scratch[0])  # positional: keywords cost 0.6 µs a call
            return frozenset(hits)
        # A long text: every match reported, until there are too many. Vectorscan's single-match
        # mode costs more than linear time on a long run of overlapping triggers (``AIza``
        # glued: 3 ms for 64 KiB, 13 ms for 128 KiB), so such a text is screened in blocks
        # that overlap by more than any bounded trigger is long, and the triggers without a
        # bound over the whole text on their own (linear: no bounded repeat among them).
        count = [0]
        try:
            every.scan(data, _on_any_match, 0, (hits, count), scratch[2])
            return frozenset(hits)
        except _hs.ScanTerminated:
            pass
        start = 0
        while True:
            end = min(start + _BLOCK, size)
            while end < size and data[end] & 0xC0 == 0x80:  # a block ends between characters
                end -= 1
            single.scan(data[start:end], _on_match, 0, hits, scratch[0])
            if end >= size:
                break
            start = end - _OVERLAP
            while data[start] & 0xC0 == 0x80:
                start -= 1
        if long is _LATER:
            try:
                long = self._long()
            except Exception:
                return None  # the full pass answers
        if long is not None:
            if scratch[1] is None:
                scratch[1] = _hs.Scratch(long)
            long.scan(data, _on_match, 0, hits, scratch[1])
        return frozenset(hits)


_LATER = object()
"""Stands for the long triggers' database in a warm start until a text needs it."""


def _material(expressions: list[bytes], ids: list[int], flags: int) -> str:
    """What a trigger database is compiled from (its cache key)."""
    return json.dumps([_CACHE_FORMAT, int(flags), [expressions[n].decode() for n in ids], ids])


def _compile(expressions: list[bytes], ids: list[int], flags: int) -> Any:
    assert _hs is not None
    db = _hs.Database(mode=_hs.HS_MODE_BLOCK)
    db.compile(
        expressions=[expressions[n] for n in ids],
        ids=ids,
        elements=len(ids),
        flags=[flags] * len(ids),
    )
    return db


_BLOCK = 4096
"""Texts longer than this (in UTF-8 bytes) are screened in blocks."""
_OVERLAP = 1152
"""How far consecutive blocks overlap, in bytes: a trigger at most ``_OVERLAP // 4`` characters
long lies whole in one block; the longer ones (or unbounded) are screened over the whole text."""


def _trigger_width(trigger: str) -> int | None:
    """The most characters ``trigger`` can match, or ``None`` (no bound)."""
    try:
        width = int(parsed_trigger(trigger).getwidth()[1])
    except Exception:
        return None
    return width if width < 1 << 16 else None


_MANY = 256
"""A long text's screen stops reporting every match after this many (and goes by blocks)."""


def _on_any_match(pid: int, _start: int, _end: int, _flags: int, state: tuple[set[int], list[int]]) -> bool:
    state[0].add(pid)
    state[1][0] += 1
    return state[1][0] > _MANY


def _on_match(pid: int, _start: int, _end: int, _flags: int, hits: set[int]) -> None:
    hits.add(pid)


def _as_text(text: object) -> str:
    kind = type(text)  # not isinstance: a proxy's __class__ may raise (werkzeug LocalProxy)
    if kind is str or issubclass(kind, str):
        return str.__str__(text)  # type: ignore[arg-type]
    if issubclass(kind, (bytes, bytearray, memoryview)):
        return bytes(text).decode("utf-8", "replace")  # type: ignore[call-overload,no-any-return]
    return str(text)
