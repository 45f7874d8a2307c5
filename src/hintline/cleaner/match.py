"""The one-pass multi-pattern matcher: which rule of an ordered table claims a text.

``match(text)`` returns the *first-listed* rule of :data:`hintline.rules.RULES` whose pattern
matches anywhere in ``text`` (not the leftmost match in the text), with the named groups of
that rule's first Python ``re`` match.

Two engines give the same answers:

* ``hyperscan``: every pattern in one Hyperscan (Vectorscan) block-mode database, scanned once;
  each matching rule is reported once (``HS_FLAG_SINGLEMATCH``), the lowest index is verified
  and captured (see below). Patterns are widened for Hyperscan (see :mod:`hintline.cleaner._patterns`)
  so it can only over-report, never miss. Compiling the database takes a while, so it is
  cached on disk (``$HINTLINE_CACHE_DIR``, else ``$XDG_CACHE_HOME/hintline``, else
  ``~/.cache/hintline``; ``HINTLINE_CACHE_DIR=off`` disables it) and, on a cold cache, built in a
  background thread while the ``re`` engine answers.
* ``re``: the standard library only, for platforms without a Hyperscan wheel: a loop over the
  rules in order, each skipped unless one of its required literals occurs in the text.

Both verify and capture with :class:`hintline._linear.LinearPattern`: RE2 (``google-re2``) on
the rule's pattern translated to mean exactly what Python means, so a text built to make a
pattern backtrack costs linear time; where google-re2 has no wheel, Python's ``re`` inside a
bounded window. ``\\b`` and ``\\B`` are ASCII word boundaries on every engine.

``HINTLINE_ENGINE=re`` forces the stdlib engine; ``HINTLINE_ENGINE=hyperscan`` requires
Hyperscan and compiles it before the first answer.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from hintline import rules as _table
from hintline._linear import LinearPattern, LiteralSet
from hintline.exceptions import ConfigError
from hintline.rules._model import Rule

if TYPE_CHECKING:
    from hintline.cleaner._patterns import Guard

__all__ = [
    "ENGINE_ENV",
    "Match",
    "Matcher",
    "ReMatcher",
    "available_engines",
    "compile_rules",
    "engine_name",
    "match",
    "set_engine",
]

ENGINE_ENV = "HINTLINE_ENGINE"
"""Environment variable forcing an engine: ``re`` (stdlib) or ``hyperscan``."""


@dataclass(slots=True)
class Match:
    """The winning rule and its captures. (Not frozen: built on every call, and a frozen
    dataclass's ``__init__`` costs a microsecond; treat it as read-only.)

    Attributes:
        index: the rule's position in the table it was matched against.
        rule: the rule.
        groups: the named groups of the rule's first ``re`` match (``None`` for a group that
            did not participate).
    """

    index: int
    rule: Rule
    groups: Mapping[str, str | None]


class Matcher(Protocol):
    """A compiled rule table."""

    name: str
    rules: tuple[Rule, ...]

    def match(self, text: str) -> Match | None:
        """Return the first-listed rule that matches ``text``, with its captures, or ``None``."""
        ...


_Step = tuple[LinearPattern, tuple[str, ...] | None, bool]
"""What the stdlib engine keeps per rule: its linear-time pattern, its guard's literals
(``None``: no guard) and whether they are casefolded."""


def _step(rule: Rule) -> _Step:
    from hintline.cleaner._patterns import required_literals  # not needed by a warm Vectorscan

    guard = required_literals(rule.pattern)
    return (
        LinearPattern(rule.pattern),
        None if guard is None else guard.literals,
        guard is not None and guard.caseless,
    )


def passes_guard(guard: Guard | None, text: str, folded: list[str]) -> bool:
    """Whether ``text`` holds one of the guard's literals (``folded`` caches its casefold)."""
    if guard is None:
        return True
    if guard.caseless:
        if not folded:
            folded.append(text.casefold())
        haystack = folded[0]
    else:
        haystack = text
    return any(literal in haystack for literal in guard.literals)


_IN_CHECKS = 1
"""``in`` checks of guard literals the stdlib engine makes, in rule order, before it screens
the remaining rules with one pass of the literal set. One check costs a sixth to a ninth of
that pass from 1 KiB to 64 KiB of text, so a text no early rule matches pays at most that
much more; a text the table's first guarded rule matches is answered after one check (a
64 KiB log ending in a PostgreSQL foreign-key error: 20 µs instead of a 120 µs pass). Budgets
of 2, 4 and 8 checks, measured on the bench rows and the hostile tier, cost the texts the set
answers best 10-50% more and answered no further bench row early."""


class ReMatcher:
    """The stdlib engine: rules in order, each guarded by its required literals.

    Args:
        rules: the ordered rule table.
        lazy: compile each rule when a text first reaches it rather than all of them now (for
            a stand-in that answers while Hyperscan compiles: a first call that matches the
            sixth rule compiles six, not the whole table).
    """

    name = "re"

    def __init__(self, rules: Sequence[Rule], *, lazy: bool = False) -> None:
        self.rules: tuple[Rule, ...] = tuple(rules)
        self._steps: list[_Step] = []
        self._lock = threading.Lock()
        self._plan: tuple[_Step, ...] | None = None
        self._literals: LiteralSet | None = None
        self._unguarded: frozenset[int] = frozenset()
        if not lazy:
            self._plan = tuple(_step(rule) for rule in self.rules)
            # every guard literal in one RE2 pass (where RE2 runs): the rules to verify
            self._literals = LiteralSet.build(
                [None if lits is None else (lits, ci) for _, lits, ci in self._plan]
            )
            self._unguarded = frozenset(i for i, step in enumerate(self._plan) if step[1] is None)

    def _lazy_plan(self) -> Iterator[_Step]:
        """The steps in order, each built when first reached; the whole plan once all are."""
        steps = self._steps
        for index, rule in enumerate(self.rules):
            if index == len(steps):
                with self._lock:
                    if index == len(steps):
                        steps.append(_step(rule))
            yield steps[index]
        self._plan = tuple(steps)

    def match(self, text: str) -> Match | None:
        """Return the first-listed rule that matches ``text``, with its captures, or ``None``.

        Rules are tried in order with one ``in`` check per guard literal until
        :data:`_IN_CHECKS` checks are spent (a text an early rule matches is answered at once);
        then the literal set screens the rest in one linear pass (391 ``in`` checks cost 6 ms
        on 64 KiB; the set 0.2 ms). Without the set (no RE2), every check is made in order.
        """
        plan = self._plan
        screen = self._literals
        if screen is None or plan is None:
            found = self._match_guarded(text)
        else:
            found = self._match_guarded(text, _IN_CHECKS)
            if isinstance(found, int):  # the checks are spent: the set screens the rest
                return self._match_screened(text, screen, plan, found)
        assert not isinstance(found, int)
        return found

    def _match_screened(
        self, text: str, screen: LiteralSet, plan: tuple[_Step, ...], start: int
    ) -> Match | None:
        """:meth:`match` from rule ``start`` on, verifying only the rules the set lets through."""
        data = text.encode("utf-8", "surrogatepass")
        ascii_text = len(data) == len(text)
        for index in sorted(screen.groups(data) | self._unguarded):
            if index < start:
                continue
            found = plan[index][0].searcher(ascii_text)(text, data, 0)
            if found is not None:
                return Match(index, self.rules[index], found)
        return None

    def _match_guarded(self, text: str, budget: float = math.inf) -> Match | int | None:
        """:meth:`match` with one ``in`` check per guard literal (and one per case fold): the
        match or ``None``, or the index of the rule reached when ``budget`` checks are spent."""
        folded: str | None = None
        data: bytes | None = None
        ascii_text = False
        index = 0
        for regex, literals, caseless in self._plan or self._lazy_plan():
            if literals is not None:
                if budget <= 0:
                    return index
                if caseless:
                    if folded is None:
                        folded = text.casefold()
                        budget -= 1
                    haystack = folded
                else:
                    haystack = text
                for literal in literals:
                    budget -= 1
                    if literal in haystack:
                        break
                else:
                    index += 1
                    continue
            if data is None:
                data = text.encode("utf-8", "surrogatepass")
                ascii_text = len(data) == len(text)
            found = regex.searcher(ascii_text)(text, data, 0)
            if found is not None:
                return Match(index, self.rules[index], found)
            index += 1
        return None


def available_engines() -> list[str]:
    """The engines that can run here, the default first."""
    from hintline.cleaner import _vectorscan as _hyperscan

    return ["hyperscan", "re"] if _hyperscan.AVAILABLE else ["re"]


def compile_rules(rules: Sequence[Rule], *, engine: str | None = None) -> Matcher:
    """Compile an ordered rule table.

    Args:
        rules: the rules, highest priority first.
        engine: ``"hyperscan"`` (compiled now, blocking), ``"re"``, or ``None`` for the best
            available (Hyperscan from the disk cache or built in the background, answering
            with ``re`` meanwhile).

    Raises:
        ConfigError: for an unknown engine, or ``"hyperscan"`` where it is not installed.
    """
    from hintline.cleaner import _vectorscan as _hyperscan

    if engine == "re":
        return ReMatcher(rules)
    if engine == "hyperscan":
        if not _hyperscan.AVAILABLE:
            raise ConfigError(
                "HINTLINE_ENGINE=hyperscan but the hyperscan package is not installed"
            )
        return _hyperscan.HyperscanMatcher(rules)
    if engine not in (None, ""):
        raise ConfigError(f"unknown engine {engine!r}: use 're' or 'hyperscan'")
    if not _hyperscan.AVAILABLE:
        return ReMatcher(rules)
    return _hyperscan.AutoMatcher(rules)


_lock = threading.Lock()
_forced: str | None = None
_matcher: Matcher | None = None
_matcher_rules: tuple[Rule, ...] | None = None
_direct: tuple[tuple[Rule, ...], Callable[[str], Match | None]] | None = None
"""The rules and the ``match`` of the engine that answers for good (Hyperscan once its
database is ready, else the stdlib engine): :func:`match` calls it with no wrapper between."""


def set_engine(name: str | None) -> None:
    """Force ``"re"`` or ``"hyperscan"`` for :func:`match` (``None``: from the environment)."""
    global _forced, _matcher, _matcher_rules, _direct
    with _lock:
        _forced = name
        _matcher = None
        _matcher_rules = None
        _direct = None


def _requested() -> str | None:
    requested = _forced or os.environ.get(ENGINE_ENV, "").strip().lower()
    return requested if requested in ("re", "hyperscan") else None


def engine_name() -> str:
    """Name the active matching engine, e.g. ``hyperscan 0.9.1 (Vectorscan 5.4.11)`` or ``re``."""
    from hintline.cleaner import _vectorscan as _hyperscan

    requested = _requested()
    if requested == "re" or not _hyperscan.AVAILABLE:
        return "re"
    return _hyperscan.describe()


def _default() -> Matcher:
    global _matcher, _matcher_rules
    rules = _table.RULES
    matcher = _matcher
    if matcher is not None and _matcher_rules is rules:
        return matcher
    with _lock:
        if _matcher is None or _matcher_rules is not rules:
            _matcher = compile_rules(rules, engine=_requested())
            _matcher_rules = rules
        return _matcher


def match(text: str) -> Match | None:
    """Match ``text`` against :data:`hintline.rules.RULES` with the active engine."""
    direct = _direct
    if direct is not None and direct[0] is _table.RULES:
        return direct[1](text)
    return _settle().match(text)


def _settle() -> Matcher:
    """The active matcher; once it answers for good, its ``match`` becomes :data:`_direct`."""
    global _direct
    matcher = _default()
    ready = getattr(matcher, "ready", matcher)  # an AutoMatcher: its Hyperscan matcher, if built
    if ready is not None:
        with _lock:
            if matcher is _matcher and _matcher_rules is not None:  # not replaced meanwhile
                _direct = (_matcher_rules, ready.match)
    return matcher


def _reset_after_fork() -> None:
    global _lock, _matcher, _matcher_rules, _direct
    _lock = threading.Lock()
    _matcher = None  # a background compile does not survive fork
    _matcher_rules = None
    _direct = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_after_fork)
