"""Every pattern that sees untrusted text runs on RE2 or is on the documented ``re`` list,
and RE2 gives Python's answer (issue 14, section 1)."""

from __future__ import annotations

import re

import pytest

from hintline._linear import LinearPattern, python_form, to_re2, why_not
from hintline._linear.translate import to_re2_edges
from hintline.rules import RULES
from hintline.scrub import SECRETS
from hintline.scrub._scrubber import RE_PATTERNS
from tests.linear.shapes import pattern_shapes

pytest.importorskip("re2")


def test_every_rule_runs_on_re2() -> None:
    """The rule table has no pattern RE2 cannot mean (a new one must be rewritten)."""
    assert {r.name: why_not(r.pattern) for r in RULES if to_re2(r.pattern) is None} == {}


def test_every_secret_pattern_runs_on_re2_or_is_listed() -> None:
    """A secret pattern RE2 cannot take is in RE_PATTERNS with its reason, and only then."""
    on_re = {p.name for p in SECRETS if to_re2_edges(p.pattern) is None}
    assert on_re == set(RE_PATTERNS)
    assert [p.name for p in SECRETS if p.trigger and to_re2(p.trigger) is None] == []


def _mutations(texts: list[str]) -> list[str]:
    """Non-ASCII variants: Python's Unicode classes and (?i) folding must survive."""
    swaps = (("i", "\u0130"), ("I", "\u0131"), ("e", "\u00e9"), ("1", "\u0661"), (" ", "\u00a0"), ("k", "\u212a"))
    return [t.replace(a, b) for t in texts for a, b in swaps if a in t]


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_re2_gives_python_groups(rule: object) -> None:
    """On the rule's examples, near misses, generated shapes and their non-ASCII variants, the
    RE2 spelling finds the same first match and groups as Python."""
    pattern = rule.pattern  # type: ignore[attr-defined]
    linear = LinearPattern(pattern)
    assert linear.engine == "re2"
    python = re.compile(python_form(pattern))
    texts = [e.input for e in rule.examples] + list(rule.near_misses)  # type: ignore[attr-defined]
    texts += [s.text for s in pattern_shapes(rule.name, pattern, 200)]  # type: ignore[attr-defined]
    texts += _mutations(texts)
    for text in texts:
        found = python.search(text)
        expected = None if found is None else found.groupdict()
        got = linear.search(text)
        assert (None if got is None else got.groupdict()) == expected, text
        data = text.encode("utf-8", "surrogatepass")
        assert linear.searcher(len(data) == len(text))(text, data, 0) == expected, text
