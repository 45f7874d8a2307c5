"""The rule table is the source of truth: every rule's examples and near-misses, checked
through the *full* table under every engine (this is what catches shadowing)."""

from __future__ import annotations

import re

import pytest

import hintline
from hintline import RULES, Rule, _engine, scrub
from hintline._input import prepare

EXAMPLES = [
    pytest.param(rule, i, id=f"{rule.code}-{rule.name}-{i}")
    for rule in RULES
    for i in range(len(rule.examples))
]
NEAR_MISSES = [
    pytest.param(rule, i, id=f"{rule.code}-{rule.name}-near{i}")
    for rule in RULES
    for i in range(len(rule.near_misses))
]
BY_RULE = [pytest.param(rule, id=f"{rule.code}-{rule.name}") for rule in RULES]


@pytest.mark.parametrize(("rule", "i"), EXAMPLES)
def test_example_through_full_table(engine: str, rule: Rule, i: int) -> None:
    """Each example, cleaned with the whole table, gives exactly its hint, key and rule."""
    example = rule.examples[i]
    hint = hintline.clean(example.input)
    assert hint.rule == rule.name, f"claimed by {hint.rule} instead of {rule.name} ({engine})"
    assert hint.text == example.hint
    assert hint.key == example.key
    assert hint.category == rule.category
    assert hint.kind == rule.category.kind
    assert hint.retry == rule.category.retry


@pytest.mark.parametrize(("rule", "i"), NEAR_MISSES)
def test_near_miss_not_claimed_by_its_rule(engine: str, rule: Rule, i: int) -> None:
    """A near-miss is not claimed by the rule that lists it (neither alone nor in the table)."""
    text = rule.near_misses[i]
    assert re.search(rule.pattern, text) is None
    assert hintline.clean(text).rule != rule.name


@pytest.mark.parametrize("rule", BY_RULE)
def test_example_hints_are_one_scrubbed_line(rule: Rule) -> None:
    """Every expected hint is one line, starts with 'Hint: ', fits and is unchanged by scrub."""
    for example in rule.examples:
        assert example.hint.startswith("Hint: ")
        assert "\n" not in example.hint
        assert "\r" not in example.hint
        assert len(example.hint) <= 240
        assert scrub(example.hint) == example.hint
        if example.key is not None:
            assert scrub(example.key) == example.key


@pytest.mark.parametrize("rule", BY_RULE)
def test_rule_has_real_provenance(rule: Rule) -> None:
    """Every rule says why it exists and has at least one example."""
    assert rule.why.strip()
    assert "\n" not in rule.why
    assert rule.examples


def test_codes_and_names_unique() -> None:
    """No two rules share a code or a name."""
    codes = [r.code for r in RULES]
    names = [r.name for r in RULES]
    assert len(set(codes)) == len(codes), sorted({c for c in codes if codes.count(c) > 1})
    assert len(set(names)) == len(names), sorted({n for n in names if names.count(n) > 1})


def test_engines_agree_on_every_example() -> None:
    """Every available engine picks the same rule and groups for every example input."""
    matchers = [_engine.compile_rules(RULES, engine=name) for name in _engine.available_engines()]
    for rule in RULES:
        for example in rule.examples:
            text = prepare(example.input)
            results = {
                m.name: (None if (r := m.match(text)) is None else (r.index, dict(r.groups)))
                for m in matchers
            }
            assert len(set(map(repr, results.values()))) == 1, (rule.name, results)
