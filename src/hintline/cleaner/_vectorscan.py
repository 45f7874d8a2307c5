"""The Hyperscan (Vectorscan) engine: one scan over the text finds every rule that matches.

Only :mod:`hintline.cleaner.match` uses this module. ``AVAILABLE`` is false where the ``hyperscan``
package has no wheel (or ``HINTLINE_ENGINE=re``); the stdlib engine is used there.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hintline._linear import LinearPattern, Search
from hintline._vectorscan.cache import (
    CACHE_ENV,
    cache_dir,
    digest,
    in_background,
    read_entry,
    write_entry,
)
from hintline._vectorscan.cache import machine as _machine
from hintline.cleaner.match import Match, passes_guard

if TYPE_CHECKING:
    from hintline.cleaner._patterns import Guard
    from hintline.cleaner.match import ReMatcher
    from hintline.rules._model import Rule

_hs: Any
try:
    import hyperscan as _hs
except ImportError:  # no wheel for this platform: the stdlib engine is used
    _hs = None

__all__ = ["AVAILABLE", "CACHE_ENV", "AutoMatcher", "HyperscanMatcher", "cache_dir", "describe"]

CASEFOLD_SPECIALS = ("\u212a", "\u017f", "\u0130", "\u0131")
"""Non-ASCII characters Python's ``(?i)`` matches as ASCII letters (KELVIN SIGN as ``k``,
LONG S as ``s``, dotted/dotless I as ``i``); Hyperscan without UCP does not, so a text holding
one makes every case-insensitive rule a candidate."""

AVAILABLE = _hs is not None
"""Whether the ``hyperscan`` package can be imported here."""

_FORMAT = 2


def describe() -> str:
    """``hyperscan <binding version> (<library version>)``."""
    version = "?"
    library = ""
    if _hs is not None:
        from hyperscan import _version

        version = str(getattr(_version, "__version__", "?"))
        try:
            probe = _hs.Database()
            probe.compile(expressions=[b"hintline"], ids=[0], elements=1, flags=0)
            info = probe.info()
            text = info.decode() if isinstance(info, bytes) else str(info)
            found = re.search(r"Version:\s*(\S+)", text)
            library = f"Vectorscan {found.group(1)}" if found else ""
        except Exception:
            library = ""
    return f"hyperscan {version}" + (f" ({library})" if library else "")


def _flags_for(caseless: bool, dotall: bool, multiline: bool) -> int:
    assert _hs is not None
    flags = _hs.HS_FLAG_SINGLEMATCH | _hs.HS_FLAG_UTF8
    if caseless:
        flags |= _hs.HS_FLAG_CASELESS
    if dotall:
        flags |= _hs.HS_FLAG_DOTALL
    if multiline:
        flags |= _hs.HS_FLAG_MULTILINE
    return int(flags)


def _try_compile(expressions: list[bytes], ids: list[int], flags: list[int]) -> Any:
    assert _hs is not None
    database = _hs.Database(mode=_hs.HS_MODE_BLOCK)
    database.compile(expressions=expressions, ids=ids, elements=len(expressions), flags=flags)
    return database


def _scan_pattern(pattern: str) -> str:
    """What Hyperscan scans for ``pattern``: the pattern itself or, for a pattern whose match
    may span lines (verified with ``re`` from the start of the text anyway), the literals of its
    error line. ``(?:[^\\n]*\\n){0,3}`` and the like are costly to scan for: rule
    ``python.syntax-error`` alone took 9 of the 14 µs of a 3 KB scan."""
    from hintline.cleaner._patterns import may_span_lines, required_literals

    if not may_span_lines(pattern):
        return pattern
    guard = required_literals(pattern, last=True)
    if guard is None:
        return pattern
    alternatives = "|".join(re.escape(literal) for literal in guard.literals)
    return f"(?i:{alternatives})" if guard.caseless else alternatives


class _Plan:
    """The expressions to compile and the rules Hyperscan cannot take (always verified)."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        from hintline.cleaner._patterns import to_hyperscan

        self.expressions: list[bytes] = []
        self.ids: list[int] = []
        self.flags: list[int] = []
        self.always: list[int] = []
        self.caseless: list[int] = []
        for index, rule in enumerate(rules):
            translated = to_hyperscan(_scan_pattern(rule.pattern))
            if translated is None:
                self.always.append(index)
                continue
            if translated.caseless_anywhere:
                self.caseless.append(index)
            self.expressions.append(translated.expression)
            self.ids.append(index)
            self.flags.append(
                _flags_for(translated.caseless, translated.dotall, translated.multiline)
            )

    def compile(self) -> Any:
        """Compile every expression; one Hyperscan rejects goes prefiltered, else to ``always``."""
        assert _hs is not None
        if not self.expressions:
            return None
        try:
            return _try_compile(self.expressions, self.ids, self.flags)
        except _hs.error:
            pass
        keep: list[int] = []
        for n, (expression, flags) in enumerate(zip(self.expressions, self.flags, strict=True)):
            for candidate in (flags, flags | _hs.HS_FLAG_PREFILTER):
                try:
                    _try_compile([expression], [0], [candidate])
                except _hs.error:
                    continue
                self.flags[n] = candidate
                keep.append(n)
                break
            else:
                self.always.append(self.ids[n])
        self.always.sort()
        self.expressions = [self.expressions[n] for n in keep]
        self.ids = [self.ids[n] for n in keep]
        self.flags = [self.flags[n] for n in keep]
        return _try_compile(self.expressions, self.ids, self.flags) if keep else None


TRANSLATION = 3
"""Bumped whenever :func:`hintline.cleaner._patterns.to_hyperscan` changes what it produces."""


def cache_key(rules: Sequence[Rule]) -> str:
    """The cache file's key: the patterns, the translation, the library and the machine."""
    assert _hs is not None
    from hyperscan import _version

    header = [_FORMAT, TRANSLATION, str(getattr(_version, "__version__", "")), _machine()]
    patterns = (rule.pattern.encode("utf-8", "surrogatepass") for rule in rules)
    return digest(b"\0".join((json.dumps(header).encode(), *patterns)))


def _cache_path(rules: Sequence[Rule]) -> str | None:
    directory = cache_dir()
    return None if directory is None else os.path.join(directory, f"rules-{cache_key(rules)}.hsdb")


class _Layout:
    """What a matcher needs besides the database; stored in the cache file's header so that a
    warm start parses no pattern."""

    def __init__(self, always: list[int], caseless: list[int], spans: list[bool]) -> None:
        self.always = always
        self.caseless = caseless
        self.spans = spans


def _load(path: str, size: int) -> tuple[Any, _Layout] | None:
    """``(database, layout)`` from the cache file, or ``None`` if missing, stale or corrupt."""
    assert _hs is not None
    entry = read_entry(path)
    if entry is None:
        return None
    header, blob = entry
    try:
        if header.get("format") != _FORMAT:
            return None
        layout = _Layout(
            [int(i) for i in header["always"]],
            [int(i) for i in header["caseless"]],
            [bool(x) for x in header["spans"]],
        )
        if len(layout.spans) != size:
            return None
        database = _hs.loadb(blob, _hs.HS_MODE_BLOCK) if blob else None
    except Exception:
        return None
    return database, layout


def _save(path: str, database: Any, layout: _Layout) -> None:
    """Write the cache file atomically; any failure only means no cache."""
    assert _hs is not None
    try:
        blob = _hs.dumpb(database) if database is not None else b""
    except Exception:
        return
    header = {
        "format": _FORMAT,
        "always": layout.always,
        "caseless": layout.caseless,
        "spans": layout.spans,
    }
    write_entry(path, header, blob)


def _on_hit(index: int, _start: int, end: int, _flags: int, hits: list[tuple[int, int]]) -> None:
    hits.append((index, end))


class HyperscanMatcher:
    """Every rule in one Hyperscan database; the lowest matching index is verified with RE2.

    Args:
        rules: the ordered rule table.
        use_cache: read and write the compiled database in :func:`cache_dir`.
    """

    name = "hyperscan"

    def __init__(self, rules: Sequence[Rule], *, use_cache: bool = True) -> None:
        assert _hs is not None
        self.rules: tuple[Rule, ...] = tuple(rules)
        path = _cache_path(self.rules) if use_cache else None
        loaded = None if path is None else _load(path, len(self.rules))
        if loaded is None:
            from hintline.cleaner._patterns import may_span_lines

            plan = _Plan(self.rules)
            database = plan.compile()
            layout = _Layout(
                plan.always, plan.caseless, [may_span_lines(r.pattern) for r in self.rules]
            )
            if path is not None:
                _save(path, database, layout)
        else:
            database, layout = loaded
        self._database = database
        # compiled on first use: a text is verified against one or two rules, and compiling
        # all of them would cost 30 ms of the first clean()
        self._regex: list[LinearPattern | None] = [None] * len(self.rules)
        # per rule, its search for any text (2 * index) and for ASCII text (2 * index + 1)
        self._search: list[Search | None] = [None] * (2 * len(self.rules))
        self._spans = tuple(layout.spans)
        self._guards: dict[int, Guard | None] = {}
        if layout.always:  # a warm start with none imports no pattern analysis
            from hintline.cleaner._patterns import required_literals

            self._guards = {i: required_literals(self.rules[i].pattern) for i in layout.always}
        self._always = tuple((index, -1) for index in layout.always)
        self._caseless = tuple((index, -1) for index in layout.caseless)
        self._local = threading.local()
        self._fallback: ReMatcher | None = None

    @property
    def always(self) -> tuple[int, ...]:
        """Indices of rules Hyperscan could not take: verified with ``re`` on every text."""
        return tuple(index for index, _ in self._always)

    def _scratch(self) -> Any:
        scratch = getattr(self._local, "scratch", None)
        if scratch is None:
            assert _hs is not None
            scratch = _hs.Scratch(self._database)
            self._local.scratch = scratch
        return scratch

    def candidates(self, text: str, data: bytes) -> list[tuple[int, int]]:
        """(rule index, match end in bytes or -1) for each rule that may match, in order."""
        hits: list[tuple[int, int]] = []
        if self._database is not None:
            # positional arguments: keyword parsing costs the binding 0.6 µs per call
            scratch = getattr(self._local, "scratch", None) or self._scratch()
            self._database.scan(data, _on_hit, 0, hits, scratch)
        if self._always:
            hits.extend(self._always)
        if self._caseless and not text.isascii() and any(c in text for c in CASEFOLD_SPECIALS):
            hits.extend(self._caseless)
        if len(hits) > 1:
            hits.sort()
        return hits

    def _searcher(self, index: int, ascii_text: bool) -> Search:
        regex = self._regex[index]
        if regex is None:
            regex = self._regex[index] = LinearPattern(self.rules[index].pattern)
        search = self._search[2 * index + ascii_text] = regex.searcher(ascii_text)
        return search

    @property
    def fallback(self) -> ReMatcher:
        """The ``re`` engine over the same rules, for a call the scan cannot serve."""
        if self._fallback is None:
            from hintline.cleaner.match import ReMatcher

            self._fallback = ReMatcher(self.rules, lazy=True)
        return self._fallback

    def match(self, text: str) -> Match | None:
        """Return the first-listed rule that matches ``text``, with its captures, or ``None``."""
        data = text.encode("utf-8")  # valid UTF-8: clean() replaced lone surrogates
        hits: list[tuple[int, int]] = []
        if self._database is not None:  # candidates(), inlined: one frame less per call
            try:
                scratch = getattr(self._local, "scratch", None) or self._scratch()
                self._database.scan(data, _on_hit, 0, hits, scratch)
            except Exception:  # e.g. ScratchInUseError from a re-entrant call (signal handler)
                return self.fallback.match(text)
        if self._always:
            hits.extend(self._always)
        if self._caseless and not text.isascii() and any(c in text for c in CASEFOLD_SPECIALS):
            hits.extend(self._caseless)
        if not hits:
            return None
        if len(hits) > 1:
            hits.sort()
        ascii_text = len(data) == len(text)
        folded: list[str] = []
        seen = -1
        for index, end in hits:
            if index == seen:
                continue
            seen = index
            if end < 0:
                if not passes_guard(self._guards.get(index), text, folded):
                    continue
                pos = 0
            elif self._spans[index]:
                pos = 0
            else:
                # The match lies on the line of its last byte: search from that line's start.
                pos = data.rfind(b"\n", 0, end - 1) + 1
            search = self._search[2 * index + ascii_text] or self._searcher(index, ascii_text)
            found = search(text, data, pos)
            if found is None and pos:
                found = search(text, data, 0)
            if found is not None:
                return Match(index, self.rules[index], found)
        return None


class AutoMatcher:
    """Hyperscan when its database is ready (from the disk cache, or compiled in a background
    thread on a cold cache); the ``re`` engine answers until then. Both give the same answers.

    Args:
        rules: the ordered rule table.
    """

    name = "hyperscan"

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.rules: tuple[Rule, ...] = tuple(rules)
        self.ready: HyperscanMatcher | None = None
        self.failed = False
        self._fallback: ReMatcher | None = None
        self._done = threading.Event()
        path = _cache_path(self.rules)
        if path is not None and os.path.exists(path):
            self._build()  # a warm cache loads in milliseconds
        else:
            in_background(self._build, "hintline-hyperscan")  # cached before the process exits

    @property
    def fallback(self) -> ReMatcher:
        """The ``re`` engine over the same rules (built on first use)."""
        if self._fallback is None:
            from hintline.cleaner.match import ReMatcher

            self._fallback = ReMatcher(self.rules, lazy=True)
        return self._fallback

    def _build(self) -> None:
        try:
            self.ready = HyperscanMatcher(self.rules)
        except Exception:
            self.failed = True  # keep answering with re
        finally:
            self._done.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the Hyperscan database is ready; ``True`` if it is."""
        self._done.wait(timeout)
        return self.ready is not None

    def match(self, text: str) -> Match | None:
        """Return the first-listed rule that matches ``text``, with its captures, or ``None``."""
        ready = self.ready
        if ready is None:
            return self.fallback.match(text)
        try:
            return ready.match(text)
        except Exception:  # e.g. ScratchInUseError from a re-entrant call in a signal handler
            return self.fallback.match(text)
