"""A rule is documented data: what it matches, what it says, why it exists, and proof."""

from __future__ import annotations

import re
from dataclasses import dataclass

from hintline import _lazyre
from hintline._deferred import checks_deferred
from hintline.categories import Category
from hintline.exceptions import RuleError

__all__ = ["Example", "Rule"]

_CODE = _lazyre.compile(r"[A-Z]{1,6}\d{3,4}")  # both used by check() alone
_NAME = _lazyre.compile(r"[a-z][a-z0-9_]*(?:\.[a-z0-9]+(?:[-_][a-z0-9]+)*)+")


@dataclass(frozen=True, slots=True)
class Example:
    """A real input and the exact hint text and key the *full* rule table must give for it.

    Args:
        input: the error text, captured from a real run (see ``scripts/fixtures/``).
        hint: the exact expected ``Hint.text`` (with the ``Hint: `` prefix, after rendering,
            scrubbing and the 240-character cut).
        key: the expected ``Hint.key``.
        source: where the input came from (the fixture file or generator), for provenance.
    """

    input: str
    hint: str
    key: str | None = None
    source: str = ""


@dataclass(frozen=True, slots=True)
class Rule:
    """One entry of the ordered rule table. The first *listed* rule that matches wins.

    All rules are matched in one pass over the input; when several match, the rule listed
    first in ``hintline.rules.RULES`` wins, wherever its match sits in the text. The winner's
    pattern is then searched with Python ``re`` to get its named groups (the first match of
    the pattern in the text).

    RENDERING CONTRACT (``hintline.hint.clean`` implements it exactly):

    1. ``values`` = every named group of ``pattern``, each *normalised*:

       a. a group that did not participate in the match renders as ``unknown``;
       b. ANSI colour sequences and control characters are removed, whitespace (newlines
          included) is collapsed to single spaces, ends are stripped;
       c. surrounding quotes, backticks and brackets are stripped (matched pairs, repeatedly:
          ``'x'``, ``"x"``, ```x```, ``(x)``, ``[x]``, ``{x}``, ``<x>``, ``‘x’``, ``“x”``);
       d. a composite ``a, b`` (or ``(a, b)``) gives its first column ``a`` (quotes stripped
          again: ``("a", "b")`` gives ``a``), except in a rule with ``key_list=True``, whose
          key group is a key list: there every part is kept, each un-quoted (``('a', 'b')`` and
          ``(a, b)`` give ``a, b``): a multi-column key is all its columns;
       e. a value about to be cut (step d or e) is first passed whole through
          :func:`hintline.scrub.scrub`; then it is cut to 64 characters (never inside ``***``).

    2. ``text = "Hint: " + hint.format(**values)``. Whitespace (newlines included) is collapsed
       to single spaces, the text goes through :func:`hintline.scrub.scrub`, and it is cut to
       240 characters, ending with ``…`` when cut.
    3. ``key`` = the normalised value of ``key_group``, passed through ``scrub``; ``None``
       when the rule has no key group (``key_group=None``) or the group did not participate.
    4. ``category`` is the rule's; ``kind`` and ``retry`` follow from the category.

    Rendering is deterministic. Write templates that need no quoting from the value: the
    template adds the quotes (``"... for '{key}'."``). Capture identifiers and short,
    non-sensitive values only (names, codes, ports), never free-form messages that could hold
    secrets; the scrubber is a safety net, not a licence.

    Patterns are Python ``re`` syntax (inline flags like ``(?i)``, ``(?m)``, ``(?s)`` at the
    very start or scoped ``(?i:...)``). The multi-pattern engine compiles them too, and they are
    verified and captured with RE2 in linear time (:mod:`hintline._linear`), so look-arounds,
    backreferences, atomic groups and possessive quantifiers are not allowed
    (``tests/linear/test_translate.py`` fails on one); ``\\b`` and ``\\B`` are ASCII word
    boundaries. A pattern that starts with a literal is matched fastest. A pattern must not
    match the empty string.

    Args:
        code: stable identifier (``DB003``: 1-6 capitals and 3-4 digits); never reused.
        name: ``family.kebab-name`` naming the error, not the fix.
        category: the :class:`~hintline.Category` of what it matches.
        pattern: a Python ``re`` pattern (also compiled by the multi-pattern engine).
        hint: the hint template (without the ``Hint: `` prefix); ``{group}`` fields name
            named groups of ``pattern``; one line.
        why: one line on why the rule exists and what raises the error.
        examples: real inputs with the exact hint and key they must give through the *full*
            table (the tests check this, so shadowing by an earlier rule is caught).
        near_misses: inputs this rule must *not* claim.
        key_group: the named group holding the offending key, or ``None`` for no key.
        since: the version the rule appeared in.
        key_list: the key group holds a list (the columns of a multi-column key, a tuple
            key): it is kept whole, each part un-quoted, instead of cut to its first part.

    Raises:
        RuleError: at declaration, for a rule without examples, a pattern that does not
            compile or matches the empty string, a hint template that is not one line, names
            an unknown group or does not format, an unknown key group, or a malformed
            code or name. The built-in table is declared with the checks deferred (see
            :mod:`hintline._deferred`; ``import hintline`` runs none of them): :meth:`check`
            runs them all, and the test suite runs it on every built-in rule.
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
    key_list: bool = False

    def __post_init__(self) -> None:
        if not checks_deferred():
            self.check()

    def check(self) -> None:
        """Run every declaration check, the ones that compile the pattern included.

        Raises:
            RuleError: for the faults listed on the class, saying which rule and why.
        """
        import string  # only here: not needed to import hintline

        where = f"rule {self.code} ({self.name})"
        if not _CODE.fullmatch(self.code):
            raise RuleError(f"{where}: code must look like 'DB003'")
        if not _NAME.fullmatch(self.name):
            raise RuleError(f"{where}: name must look like 'family.kebab-name'")
        if not self.examples:
            raise RuleError(f"{where} has no example")
        if "\n" in self.hint or "\r" in self.hint:
            raise RuleError(f"{where}: hint template is not one line")
        try:
            compiled = re.compile(self.pattern)
        except re.error as exc:
            raise RuleError(f"{where}: pattern does not compile: {exc}") from exc
        if compiled.fullmatch(""):
            raise RuleError(f"{where}: pattern matches the empty string")
        try:
            fields = {f for _, f, _, _ in string.Formatter().parse(self.hint) if f is not None}
        except ValueError as exc:
            raise RuleError(f"{where}: hint template does not parse: {exc}") from exc
        unknown = fields - set(compiled.groupindex)
        if unknown:
            raise RuleError(f"{where}: hint names unknown groups {sorted(unknown)}")
        try:
            self.hint.format(**dict.fromkeys(compiled.groupindex, "x"))
        except (ValueError, KeyError, IndexError, AttributeError) as exc:
            raise RuleError(f"{where}: hint template does not format: {exc}") from exc
        if self.key_group is not None and self.key_group not in compiled.groupindex:
            # a rule without a key group says so with key_group=None
            raise RuleError(f"{where}: key group {self.key_group!r} is not in the pattern")
