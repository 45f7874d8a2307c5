"""The signal layer (hintline.cleaner.signals): exception classes, codes and HTTP statuses decide
the category when no wording rule matches.

Every signal's examples go through the whole of ``clean()`` (rule table first) under every
engine; near misses are not claimed; every pattern (signals and key shapes) is RE2-compatible;
every capture in tests/rules/fixtures/signals/ (real runs by scripts/fixtures/gen_signal_errors.py,
or wordings of runtimes that cannot run here, labelled ``documented`` with their source) gives the
expectation written for it after reading it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import hintline
from hintline import RULES
from hintline.categories import Category
from hintline.cleaner import match as _engine
from hintline.cleaner import signals
from hintline.cleaner.signals import HINTS, KEY_SHAPES, SIGNALS, VOCABULARIES, Signal

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures" / "signals"
CAPTURES = sorted(FIXTURES.glob("*.txt"))
EXAMPLES = [
    pytest.param(s, i, id=f"{s.code}-{s.name}-{i}") for s in SIGNALS for i in range(len(s.examples))
]
NEAR = [
    pytest.param(s, i, id=f"{s.code}-near{i}") for s in SIGNALS for i in range(len(s.near_misses))
]

# RE2 (and so linear-time engines) refuses these constructs
_NOT_RE2 = re.compile(r"\(\?[=!]|\(\?<[=!]|\(\?P=|\\[1-9]|[*+?}][+]|\(\?>")


@pytest.mark.parametrize(("signal", "i"), EXAMPLES)
def test_signal_example_through_clean(engine: str, signal: Signal, i: int) -> None:
    """Each example, cleaned by the whole of clean() (no rule claims it), gives its hint and key."""
    example = signal.examples[i]
    hint = hintline.clean(example.input)
    assert hint.rule == signal.name, f"claimed by {hint.rule} ({engine})"
    assert hint.text == example.hint
    assert hint.key == example.key
    assert hint.kind == hint.category.kind
    assert hint.retry == hint.category.retry


@pytest.mark.parametrize(("signal", "i"), NEAR)
def test_signal_near_miss(engine: str, signal: Signal, i: int) -> None:
    """A near miss is not claimed by its signal."""
    text = signal.near_misses[i]
    assert re.search(signal.pattern, text) is None
    assert hintline.clean(text).rule != signal.name


@pytest.mark.parametrize("signal", SIGNALS, ids=[s.code for s in SIGNALS])
def test_signal_is_documented_data(signal: Signal) -> None:
    """Every signal has a why, real examples from a named capture, and one token group."""
    assert signal.why.strip()
    assert "\n" not in signal.why
    assert signal.examples
    for example in signal.examples:
        assert (ROOT / example.source).is_file(), example.source
        assert example.input in (ROOT / example.source).read_text(encoding="utf-8")
    assert signal.token_group in VOCABULARIES
    assert re.compile(signal.pattern).fullmatch("") is None


def test_codes_unique_and_apart_from_rules() -> None:
    codes = [s.code for s in SIGNALS] + [r.code for r in RULES]
    names = [s.name for s in SIGNALS] + [r.name for r in RULES]
    assert len(set(codes)) == len(codes)
    assert len(set(names)) == len(names)


def _all_patterns() -> list[str]:
    shapes = [shape.pattern for family in KEY_SHAPES.values() for shape in family]
    return [s.pattern for s in SIGNALS] + shapes


@pytest.mark.parametrize("pattern", _all_patterns())
def test_pattern_is_re2_compatible(pattern: str) -> None:
    """No look-around, backreference, possessive quantifier or atomic group."""
    assert _NOT_RE2.search(pattern) is None, pattern
    re.compile(pattern)


def test_re2_check_catches_what_it_should() -> None:
    """The check above is not vacuous."""
    for bad in (r"a(?=b)", r"(?<!x)y", r"(a)\1", r"a++", r"(?>ab)", r"(?P<n>a)(?P=n)"):
        assert _NOT_RE2.search(bad), bad


def test_every_category_a_signal_decides_has_a_hint() -> None:
    vocab = [
        signals.CLASSES, signals.API_ERROR_TYPES, signals.SQLSTATES, signals.ERRNO_NAMES,
        signals.ERRNO_NUMBERS, signals.WIN_ERRORS, signals.GRPC_CODES,
    ]  # fmt: skip
    categories = {c for table in vocab for c in table.values()}
    categories |= {Category.HTTP_CLIENT_ERROR, Category.HTTP_SERVER_ERROR, Category.TIMEOUT}
    assert categories <= set(HINTS)
    for with_key, without_key in HINTS.values():
        assert "{token}" in without_key
        assert not with_key or "'{key}'" in with_key


def test_engines_agree_on_signals() -> None:
    rules = signals.as_rules()
    matchers = [_engine.compile_rules(rules, engine=n) for n in _engine.available_engines()]
    for signal in SIGNALS:
        for example in signal.examples:
            found = {repr(None if (m := x.match(example.input)) is None else (m.index, dict(m.groups))) for x in matchers}
            assert len(found) == 1, (signal.code, found)


def test_signal_layer_only_after_the_table() -> None:
    """A text a wording rule claims keeps that rule, even when it names a class or code."""
    text = 'psycopg.errors.UniqueViolation: duplicate key value violates unique constraint "users_email_key"\nDETAIL:  Key (email)=(a@b.c) already exists.'
    assert hintline.clean(text).rule == "db.pg-unique-key"


def test_rate_limit_and_overload_are_transient_for_the_guard() -> None:
    """429 and 529 from the LLM SDKs back off (system, transient) rather than go to the model."""
    from hintline.agent import is_transient

    for name in ("llm-openai-429", "llm-anthropic-429", "llm-openai-529", "llm-anthropic-529"):
        assert is_transient((FIXTURES / f"{name}.txt").read_text(encoding="utf-8")), name
    for name in ("llm-openai-401", "llm-anthropic-403"):
        assert not is_transient((FIXTURES / f"{name}.txt").read_text(encoding="utf-8")), name


def test_key_is_every_column_of_a_composite_key() -> None:
    hint = hintline.clean((FIXTURES / "pg-fr-psycopg-unique-composite.txt").read_text(encoding="utf-8"))
    assert hint.key == "sku, region"


def test_http_key_drops_the_query() -> None:
    hint = hintline.clean((FIXTURES / "node-app-message-503.txt").read_text(encoding="utf-8"))
    assert hint.key == "/v2/invoices"
    assert "token" not in hint.text


@pytest.mark.parametrize("path", CAPTURES, ids=[p.stem for p in CAPTURES])
def test_capture_gives_expected_hint(engine: str, path: Path) -> None:
    """The whole capture cleans to its expectation (category, rule, key, hint)."""
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    hint = hintline.clean(path.read_text(encoding="utf-8"))
    assert (str(hint.category), hint.rule, hint.key) == (
        expected["category"], expected["rule"], expected["key"],
    )  # fmt: skip
    assert hint.text == expected["hint"]
    assert hint.rule is not None, "a capture here must be claimed by a rule or a signal"


@pytest.mark.parametrize("path", CAPTURES, ids=[p.stem for p in CAPTURES])
def test_capture_has_provenance(path: Path) -> None:
    """A capture names its generator, command and versions; a documented wording its source."""
    meta = json.loads(path.with_suffix(".meta.json").read_text(encoding="utf-8"))
    if meta["source"] == "documented":
        assert path.stem.startswith("doc-")
        assert meta["url"].startswith("https://")
        assert meta["runtime"]
        return
    assert meta["source"] == "captured"
    assert meta["generator"] in {
        "scripts/fixtures/gen_signal_errors.py",
        "scripts/fixtures/gen_http_401.py",
    }
    assert (ROOT / meta["generator"]).is_file()
    assert meta["command"].strip()
    assert meta["version"].strip()
