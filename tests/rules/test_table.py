"""The rule table is the source of truth: every rule's examples and near-misses, checked
through the *full* table under every engine (this is what catches shadowing)."""

from __future__ import annotations

import re

import pytest

import hintline
from hintline import RULES, Category, Example, Rule, RuleError, scrub
from hintline._deferred import deferred_checks
from hintline.cleaner import match as _engine
from hintline.cleaner.bound import prepare

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


@pytest.mark.parametrize("rule", BY_RULE)
def test_rule_passes_every_declaration_check(rule: Rule) -> None:
    """The table is declared with the pattern checks deferred (importing hintline compiles no
    pattern); here every rule runs them: its pattern compiles and cannot match the empty
    string, its hint template names only its groups and formats, its key group exists."""
    rule.check()


def _rule(**kw: object) -> Rule:
    args: dict[str, object] = {
        "code": "TST001",
        "name": "test.demo-error",
        "category": Category.KEY_ERROR,
        "pattern": r"DemoError: (?P<key>\w+)",
        "hint": "Key '{key}' is missing.",
        "why": "A demo.",
        "examples": (Example("DemoError: x", "Hint: Key 'x' is missing.", "x"),),
    }
    args.update(kw)
    return Rule(**args)  # type: ignore[arg-type]


MALFORMED = [
    pytest.param({"code": "db3"}, "code must look like", id="code"),
    pytest.param({"name": "Demo Error"}, "name must look like", id="name"),
    pytest.param({"examples": ()}, "has no example", id="no-example"),
    pytest.param({"hint": "two\nlines"}, "not one line", id="two-lines"),
    pytest.param({"pattern": r"DemoError: (?P<key>\w+"}, "does not compile", id="no-compile"),
    pytest.param({"pattern": r"(?P<key>\w*)"}, "matches the empty string", id="empty-match"),
    pytest.param({"hint": "Key '{column}'."}, "unknown groups", id="unknown-group"),
    pytest.param({"hint": "Key '{key'."}, "does not (parse|format)", id="bad-template"),
    pytest.param({"hint": "Key '{key!z}'."}, "does not format", id="template-conversion"),
    pytest.param({"key_group": "column"}, "key group 'column'", id="key-group"),
]


@pytest.mark.parametrize(("kw", "message"), MALFORMED)
def test_malformed_rule_is_rejected_at_declaration(kw: dict[str, object], message: str) -> None:
    """A rule of one's own is checked when it is declared, with a RuleError saying why."""
    assert _rule().check() is None  # the base rule is well formed
    with pytest.raises(RuleError, match=message):
        _rule(**kw)


@pytest.mark.parametrize(("kw", "message"), MALFORMED)
def test_malformed_builtin_rule_is_caught_by_check(kw: dict[str, object], message: str) -> None:
    """Declared as the built-in table is (checks deferred), a malformed rule is still refused,
    at declaration for the cheap checks or by check(), which the test above runs on every rule."""
    def declare_and_check() -> None:
        with deferred_checks():
            rule = _rule(**kw)
        rule.check()

    with pytest.raises(RuleError, match=message):
        declare_and_check()


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
