"""A rule is documented data: what it matches, what it says, why it exists, and proof."""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field

from hintline.categories import Category
from hintline.exceptions import RuleError

__all__ = ["Example", "Rule"]


@dataclass(frozen=True, slots=True)
class Example:
    """A real input and the exact hint text and key the *full* rule table must give for it.

    Args:
        input: the error text, captured from a real run (see ``scripts/fixtures/``).
        hint: the exact expected ``Hint.text``.
        key: the expected ``Hint.key``.
        source: where the input came from (the fixture file or generator), for provenance.
    """

    input: str
    hint: str
    key: str | None = None
    source: str = ""


@dataclass(frozen=True, slots=True)
class Rule:
    """One entry of the ordered rule table. The first listed rule that matches wins.

    Args:
        code: stable identifier (``DB003``); never reused.
        name: ``family.kebab-name`` naming the error, not the fix.
        category: the :class:`~hintline.Category` of what it matches.
        pattern: a Python ``re`` pattern (also compiled by the multi-pattern engine).
        hint: the hint template (without the ``Hint: `` prefix); ``{group}`` fields name groups.
        why: one line on why the rule exists and what raises the error.
        examples: real inputs with the exact hint and key they must give.
        near_misses: inputs this rule must *not* claim.
        key_group: the named group holding the offending key, if any.
        since: the version the rule appeared in.
    """

    code: str
    name: str
    category: Category
    pattern: str
    hint: str
    why: str
    examples: tuple[Example, ...]
    near_misses: tuple[str, ...] = ()
    key_group: str | None = "key"
    since: str = "0.1.0"
    _fields: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.examples:
            raise RuleError(f"rule {self.code} ({self.name}) has no example")
        try:
            compiled = re.compile(self.pattern)
        except re.error as exc:
            raise RuleError(f"rule {self.code}: pattern does not compile: {exc}") from exc
        if "\n" in self.hint or "\r" in self.hint:
            raise RuleError(f"rule {self.code}: hint template is not one line")
        fields = {f for _, f, _, _ in string.Formatter().parse(self.hint) if f}
        unknown = fields - set(compiled.groupindex)
        if unknown:
            raise RuleError(f"rule {self.code}: hint names unknown groups {sorted(unknown)}")
        if self.key_group is not None and self.key_group not in compiled.groupindex:
            # a rule without a key group says so with key_group=None
            raise RuleError(f"rule {self.code}: key group {self.key_group!r} is not in the pattern")
        object.__setattr__(self, "_fields", frozenset(fields))
