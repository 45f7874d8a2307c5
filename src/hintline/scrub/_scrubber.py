"""The scrubber: a Hyperscan prefilter in one pass, then ``re`` only where it fired.

Hyperscan scans every pattern's ``trigger`` over the UTF-8 bytes in a single pass. Text where
no trigger fires is returned as is. On each line where triggers fired, only those patterns'
``re`` regexes run, merged left to right: the leftmost match in the text wins and, among
matches starting at one position, the first listed pattern (the semantics of one combined
alternation). For masking, leftmost-in-text is the right order: nothing is skipped.

Without Hyperscan (no wheel for the platform) or when it cannot take the input (lone
surrogates), the same merge runs every pattern over the whole text: slower, same result. While
its database compiles (a cold cache), the triggers are searched with ``re`` and the merge runs
the patterns whose trigger occurs: same result again, and fewer patterns to compile.
"""

from __future__ import annotations

import functools
import json
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from hintline._vectorscan.cache import cached_database, database_path, in_background, load_database
from hintline.scrub._model import MASK, ScrubResult, SecretPattern
from hintline.scrub._names import KEY_NAMES, QUERY_NAMES
from hintline.scrub._patterns import SECRETS, build_secrets

_CACHE_FORMAT = 1
"""Bumped when the prefilter database is compiled differently."""

_hs: Any
try:  # the core dependency has wheels for the common platforms only
    import hyperscan as _hs
except ImportError:  # pragma: no cover - exercised on platforms without a wheel
    _hs = None

__all__ = ["Scrubber"]

_LOOKBACK = 4096  # how far before a trigger a match may start (long scheme://user: prefixes)


@dataclass(frozen=True)
class _Branch:
    index: int
    name: str
    groups: tuple[str, ...]
    multiline: bool
    reach: int | None
    pattern: str
    trigger: str
    lines: int = 1

    def end(self, text: str, stop: int) -> int:
        """How far a match starting before ``stop`` (a line's end) may run: the text's end
        for a multiline pattern, else the end of its ``lines``-th line."""
        if self.multiline:
            return len(text)
        for _ in range(self.lines - 1):
            if stop >= len(text):
                break
            nxt = text.find("\n", stop + 1)
            stop = len(text) if nxt < 0 else nxt
        return stop

    @functools.cached_property
    def regex(self) -> re.Pattern[str]:
        """The compiled pattern, on first use: most texts never need most patterns."""
        return re.compile(self.pattern)

    @functools.cached_property
    def screen(self) -> re.Pattern[str]:
        """The compiled trigger (the pattern itself when it has none), on first use."""
        return re.compile(self.trigger or self.pattern)


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

    .. versionadded:: 0.1.0
    """

    extra_patterns: tuple[SecretPattern, ...] = ()
    extra_key_names: tuple[str, ...] = ()
    builtin: bool = True
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
        branches = tuple(
            _Branch(i, p.name, p.groups, p.multiline, p.reach, p.pattern, p.trigger, p.lines)
            for i, p in enumerate(patterns)
        )
        object.__setattr__(self, "_branches", branches)
        object.__setattr__(self, "_prefilter", _Prefilter(patterns) if _hs is not None else None)

    def scrub(self, text: str | bytes) -> str:
        """Return ``text`` with every secret value replaced by ``***``. Never raises."""
        if text.__class__ is str and self._prefilter is not None:
            try:
                regions = self._prefilter.regions(text)  # type: ignore[arg-type]
                if regions == []:
                    return text  # type: ignore[return-value]
                if regions is not None:
                    kinds: dict[str, None] = {}
                    return self._pass(text, kinds, fast=True, regions=regions)[0]  # type: ignore[arg-type]
            except Exception:  # the full path below decides
                pass
        return self.report(text).text

    def report(self, text: str | bytes) -> ScrubResult:
        """Scrub ``text`` and say what was masked. Never raises.

        ``bytes`` are decoded as UTF-8 with replacement characters; any other object is
        scrubbed as its ``str()``.
        """
        try:
            value = text if text.__class__ is str else _as_text(text)
        except Exception:  # a hostile __str__; nothing readable to keep
            return ScrubResult(MASK, ("unreadable",), 1)
        try:
            return self._report(value, fast=True)
        except Exception:
            try:
                return self._report(value, fast=False)
            except Exception:  # fail closed: never hand back unscrubbed text
                return ScrubResult(MASK, ("unreadable",), 1)

    def _report(self, text: str, *, fast: bool) -> ScrubResult:
        # One pass is idempotent: a mask (***) never completes a new match and every value
        # pattern skips a value that is already all asterisks (tests/scrub check both).
        kinds: dict[str, None] = {}
        out, count = self._pass(text, kinds, fast=fast)
        if not count:
            return ScrubResult(text, (), 0)
        return ScrubResult(out, tuple(kinds), count)

    def _pass(
        self,
        text: str,
        kinds: dict[str, None],
        *,
        fast: bool,
        regions: list[tuple[int, int]] | None = None,
    ) -> tuple[str, int]:
        """One masking pass: ``(text, count)``; ``regions`` as the prefilter already gave them."""
        matches: Iterator[tuple[re.Match[str], _Branch]]
        if regions is None and fast and self._prefilter is not None:
            regions = self._prefilter.regions(text)
        if regions is None:
            branches = self._branches
            if fast and self._prefilter is not None and self._prefilter.compiling:
                # A cold cache, for the few calls until the database is ready: compiling the
                # triggers and running only the patterns whose trigger occurs is quicker than
                # compiling every pattern (5 vs 20 ms). Not for good: Python's re searches
                # triggers (written for Hyperscan) slower than the patterns themselves.
                branches = tuple(b for b in branches if b.screen.search(text))
                if not branches:
                    return text, 0
            matches = _merge(text, tuple((b, 0) for b in branches), len(text))
        elif not regions:
            return text, 0
        else:
            matches = self._windowed(text, regions)
        parts: list[str] = []
        last = 0
        count = 0
        for m, branch in matches:
            for group in branch.groups:
                start, end = m.span(group)
                if start < end:
                    break
            else:
                continue
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

    def _windowed(
        self, text: str, regions: list[tuple[int, int]]
    ) -> Iterator[tuple[re.Match[str], _Branch]]:
        """Merge the triggered patterns' matches on each line where a trigger ended."""
        pos = 0
        n = len(regions)
        i = 0
        branches = self._branches
        while i < n:
            end = regions[i][0]
            if end <= pos:
                i += 1
                continue
            line_start = text.rfind("\n", 0, end - 1) + 1
            start = max(pos, line_start, end - _LOOKBACK)
            line_end = text.find("\n", end)
            if line_end < 0:
                line_end = len(text)
            fired: dict[int, list[int]] = {}  # branch index -> its trigger ends on this line
            while i < n and regions[i][0] <= line_end:
                fired.setdefault(regions[i][1], []).append(regions[i][0])
                i += 1
            pos = line_end
            todo = []
            for k in sorted(fired):
                branch = branches[k]
                reach = branch.reach
                todo.append((branch, start if reach is None else max(start, fired[k][0] - reach)))
            last_end = {k: ends[-1] for k, ends in fired.items()}
            for m, branch in _merge(text, tuple(todo), line_end, last_end):
                yield m, branch
                pos = max(pos, m.end())


def _merge(
    text: str,
    branches: tuple[tuple[_Branch, int], ...],
    stop: int,
    last_end: dict[int, int] | None = None,
) -> Iterator[tuple[re.Match[str], _Branch]]:
    """Yield non-overlapping matches of ``branches``, each searched from its start, to ``stop``.

    Matches come leftmost first; among matches starting at one position the first listed
    branch wins, as in one combined alternation. A multiline branch may run past ``stop``.
    ``last_end`` (branch index -> the end of its last trigger on the line) spares searching
    again for a branch none of whose triggers lies past the text already consumed: a trigger
    ends inside every match of its pattern.
    """
    heads: list[tuple[re.Match[str] | None, _Branch]] = [
        (b.regex.search(text, start, b.end(text, stop)), b) for b, start in branches
    ]
    while True:
        best: tuple[re.Match[str], _Branch] | None = None
        for m, b in heads:
            if m is not None and (best is None or m.start() < best[0].start()):
                best = (m, b)
        if best is None:
            return
        yield best
        pos = best[0].end()
        heads = [
            (
                m
                if m is None or m.start() >= pos
                else None
                if last_end is not None and last_end[b.index] <= pos
                else b.regex.search(text, pos, b.end(text, max(stop, pos))),
                b,
            )
            for m, b in heads
        ]
        if pos >= stop:
            heads = [(m, b) for m, b in heads if m is not None and m.start() < stop]


class _Prefilter:
    """Hyperscan over every pattern's trigger; per-thread scratch space.

    The database loads from the disk cache (:mod:`hintline._vectorscan.cache`) in milliseconds. On a
    cold cache it compiles (some 300 ms) in a background thread, and :meth:`regions` answers
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
        """The database, or ``None`` while it compiles in the background."""
        with self._lock:
            if self._db is not None or self._broken:
                return self._db
            if self._builder is not None and self._builder.is_alive():
                return None
            assert _hs is not None
            expressions = [(p.trigger or p.pattern).encode() for p in self._patterns]
            flags = _hs.HS_FLAG_PREFILTER | _hs.HS_FLAG_UTF8 | _hs.HS_FLAG_UCP
            material = json.dumps([_CACHE_FORMAT, int(flags), [e.decode() for e in expressions]])
            self._db = load_database(_hs, database_path("scrub", material))
            if self._db is None:  # a cold cache (or a fork child of a process compiling it)

                def build() -> Any:
                    db = _hs.Database(mode=_hs.HS_MODE_BLOCK)
                    db.compile(
                        expressions=expressions,
                        ids=list(range(len(expressions))),
                        elements=len(expressions),
                        flags=flags,
                    )
                    return db

                self._builder = in_background(
                    functools.partial(self._build, material, build), "hintline-scrub-hyperscan"
                )
            return self._db

    def _build(self, material: str, build: Callable[[], Any]) -> None:
        try:
            self._db = cached_database(_hs, "scrub", material, build)
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

    def regions(self, text: str) -> list[tuple[int, int]] | None:
        """Return sorted ``(char offset where a trigger ended, pattern index)``.

        ``None`` means the prefilter cannot answer (no compile, unencodable text).
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
                scratch = local.scratch = _hs.Scratch(db)
            data = text.encode("utf-8")
        except Exception:
            if self._db is None:
                self._broken = True
            return None  # lone surrogates, a failed compile: the full pass handles it
        hits: list[tuple[int, int]] = []
        db.scan(data, _on_match, 0, hits, scratch)  # positional: keywords cost 0.6 µs a call
        if not hits:
            return []
        hits.sort()
        if len(data) == len(text):
            return hits
        out = []
        chars = 0
        prev = 0
        for end, pid in hits:
            chars += len(data[prev:end].decode("utf-8", "replace"))
            prev = end
            out.append((chars, pid))
        return out


def _on_match(pid: int, _start: int, end: int, _flags: int, hits: list[tuple[int, int]]) -> None:
    hits.append((end, pid))


def _as_text(text: object) -> str:
    if isinstance(text, str):
        return text
    if isinstance(text, (bytes, bytearray, memoryview)):
        return bytes(text).decode("utf-8", "replace")
    return str(text)
