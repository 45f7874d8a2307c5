"""The rendering hot path answers exactly as the rendering contract's plain reading.

``render`` takes shortcuts on a first-seen hint (a plain value is kept as it is, whitespace that
needs no collapsing is not collapsed, one prefilter scan answers for the hint and its key, the
``Hint`` is built without the dataclass's ``__init__``). The reference below is the contract
step by step (the code before the shortcuts); every rule and adversarial templates, with hostile
captured values (secrets whole, secrets split between a value and the template's text, values
that complete a secret the template starts), must give the same :class:`~hintline.Hint`.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import re
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hintline import RULES, Hint
from hintline._text import valid_text
from hintline.categories import Category
from hintline.cleaner import caches, render
from hintline.scrub import cut_scrubbed, scrub

# --- the reference: the rendering contract read step by step ---------------------------------


def _ref_normalise(value: str | None, *, split: bool = True) -> str:
    if value is None:
        return render.UNKNOWN
    if not value.isascii() or not value.isprintable():
        value = render._CONTROL.sub("", value)
    value = render._strip_pairs(" ".join(value.split()))
    if "," in value or len(value) > render.MAX_VALUE_CHARS:
        value = scrub(value)
    if split and "," in value:
        value = render._strip_pairs(value.split(",", 1)[0].strip())
    return cut_scrubbed(value, render.MAX_VALUE_CHARS, "")


def _ref_key_list(value: str | None) -> str:
    if value is None:
        return render.UNKNOWN
    whole = _ref_normalise(value, split=False)
    joined = ", ".join(_ref_normalise(part, split=False) for part in whole.split(","))
    return cut_scrubbed(scrub(joined), render.MAX_VALUE_CHARS, "")


def _ref_finish(text: str) -> str:
    text = " ".join(scrub(valid_text(text)).split())
    if not text.startswith(render.PREFIX):
        text = render.PREFIX + text
    return cut_scrubbed(text, render.MAX_HINT_CHARS, "…")


def _reference(rule: Any, groups: Mapping[str, str | None]) -> Hint:
    values = {group: _ref_normalise(value) for group, value in groups.items()}
    if rule.key_list and rule.key_group is not None:
        values[rule.key_group] = _ref_key_list(groups.get(rule.key_group))
    text = _ref_finish(render.PREFIX + rule.hint.format(**values))
    key = None
    if rule.key_group is not None and groups.get(rule.key_group) is not None:
        key = scrub(values[rule.key_group])
    category = rule.category
    return Hint(text, category, rule.name, key, category.kind, category.retry)


def _rendered(rule: Any, groups: Mapping[str, str | None]) -> Hint:
    caches.clear()
    first = render.render(rule, groups)
    assert render.render(rule, groups) == first  # and from the cache
    return first


# --- hostile values --------------------------------------------------------------------------

SECRETS = (
    "AKIAIOSFODNN7EXAMPLE",
    "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
    "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "postgresql://app:S3cretPassw0rd@db.internal:5432/app",
    "password=hunter2hunter2",
    "Bearer abcdefghijklmnop0123",
    "xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOp",
    "AIzaSyA1234567890abcdefghijklmnopqrstuv",
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
    "Authorization: Basic dXNlcjpwYXNz",
    "--password hunter2",
    "IDENTIFIED BY 'hunter2'",
)
# every way to split each secret in two: a value ends one, the template (or the next value)
# holds the other half, or the reverse
_HALVES = sorted({part for s in SECRETS for i in range(1, len(s)) for part in (s[:i], s[i:])})
_PLAIN = ("user_id", "users", "orders_sku_region_key", "/v1/orders", "db:5432", "", " ", "a, b")
_ODD = (
    "'",
    '"',
    "`",
    "(",
    ")",
    "[",
    "]",
    "«",
    "»",
    ",",
    "\n",
    "\t",
    "\x1b[31m",
    "\u200b",
    "é",
    "列",
)

_fragments = (
    st.sampled_from(SECRETS + _PLAIN + _ODD) | st.sampled_from(_HALVES) | st.text(max_size=6)
)
_values = st.none() | st.lists(_fragments, max_size=5).map("".join)


def _named(rule: Any) -> list[str]:
    return list(re.compile(rule.pattern).groupindex)


_RULES = [rule for rule in RULES if _named(rule)]


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(_RULES), st.data())
def test_every_rule_renders_as_the_contract_reads(rule: Any, data: st.DataObject) -> None:
    groups = {name: data.draw(_values, label=name) for name in _named(rule)}
    assert _rendered(rule, groups) == _reference(rule, groups)


# templates that start, end or surround a secret with their own text: a value completes it
_TEMPLATES = (
    "password '{key}' rejected",
    "Connect to postgresql://app:{key}@db.internal:5432/app failed for '{other}'.",
    "token AKIAIOSFODNN7{key}",
    "{key}IOSFODNN7EXAMPLE in '{other}'",
    "Bearer {key}",
    "ghp_{key}{other}",
    "{other}={key}",
    "Authorization: {key}",
    "sk-{key}",
    "Column '{key}' of '{other}' --password {other}",
    "The key is not in this text, only '{other}'.",
)


@settings(max_examples=1500, deadline=None)
@given(
    st.sampled_from(_TEMPLATES),
    st.booleans(),
    st.sampled_from(list(Category)),
    _values,
    _values,
)
def test_templates_that_meet_a_value_into_a_secret(
    template: str, key_list: bool, category: Category, key: str | None, other: str | None
) -> None:
    rule = SimpleNamespace(
        code="T001",
        name="test.template",
        category=category,
        hint=template,
        key_group="key",
        key_list=key_list,
    )
    groups = {"key": key, "other": other}
    assert _rendered(rule, groups) == _reference(rule, groups)


@pytest.mark.parametrize(
    ("template", "key", "other"),
    [
        ("token AKIAIOSFODNN7{key}", "EXAMPLE", "x"),
        ("{key}IOSFODNN7EXAMPLE in '{other}'", "AKIA", "x"),
        ("Connect to postgresql://app:{key}@db.internal:5432/app failed for '{other}'.", "pw", "x"),
        ("ghp_{key}{other}", "A1b2C3d4E5f6G7h8I9j0", "K1l2M3n4O5p6Q7r8"),
        ("The key is not in this text, only '{other}'.", "AKIAIOSFODNN7EXAMPLE", "x"),
    ],
)
def test_a_secret_made_of_template_and_value_is_masked(template: str, key: str, other: str) -> None:
    """The cases the shortcut must not take: the rendered hint holds a secret no value holds,
    or the key is not in the rendered hint (its scan says nothing about the key)."""
    rule = SimpleNamespace(
        code="T001",
        name="test.template",
        category=Category.OTHER,
        hint=template,
        key_group="key",
        key_list=False,
    )
    hint = _rendered(rule, {"key": key, "other": other})
    assert "***" in hint.text or hint.key == "***"
    assert hint == _reference(rule, {"key": key, "other": other})


def test_the_fast_hint_is_a_hint_in_every_way() -> None:
    """``Hint``s built on the hot path equal, hash, print, copy and pickle as constructed ones."""
    category = Category.FOREIGN_KEY_VIOLATION
    args = ("Hint: x", category, "db.x", "user_id", category.kind, category.retry)
    fast = render._new_hint(*args)
    slow = Hint(*args)
    assert type(fast) is Hint
    assert fast == slow
    assert hash(fast) == hash(slow)
    assert repr(fast) == repr(slow)
    assert pickle.loads(pickle.dumps(fast)) == slow
    assert dataclasses.replace(fast, key="k") == Hint(*args[:3], "k", *args[4:])
    assert copy.copy(fast) == slow
    with pytest.raises(AttributeError):
        fast.text = "changed"  # type: ignore[misc]


def test_triggers_are_checked_for_assertions() -> None:
    """The one-scan shortcut relies on triggers without anchors or boundaries; the check that
    decides it recognises each kind."""
    assert render._no_assertion(r"(?i)bearer\s+[A-Za-z0-9._~+/-]")
    assert render._no_assertion(r"[^\s$^]x")
    for pattern in (r"\bAKIA", r"^x", r"x$", r"a(?=b)", r"(?<!a)b", r"(a)\1", r"x\Z"):
        assert not render._no_assertion(pattern), pattern


def test_the_one_scan_shortcut_is_on() -> None:
    """With Vectorscan the shortcut is taken: a change of the scrubber's prefilter that turned
    it off (a renamed scan, a trigger with an anchor) shows here, not only in the benchmark."""
    pytest.importorskip("hyperscan")
    from hintline import scrub as package

    package.scrub("wait for the prefilter")
    package._DEFAULT._prefilter.wait(600)
    assert render._prefilter_scan(package._DEFAULT) is not None
    assert render._quiet("Hint: Column 'user_id' does not exist.")
    assert not render._quiet("Hint: token AKIAIOSFODNN7EXAMPLE")


# --- the plain-value path (issue 20): plain values fill the template as they are -------------

# values the plain path takes (printable ASCII, single spaces, no comma) or just misses, and
# secrets or halves of one that only the whole filled template shows: a value ending where the
# template's text goes on (`postgres://u:` + `S3cret@db…`), a template ending where a value
# goes on
_BOUNDARY = (
    "postgres://u:",
    "postgresql://app:",
    "S3cretPassw0rd@db.internal:5432/app",
    "AKIAIOSFODNN7",
    "EXAMPLE",
    "ghp_",
    "sk-proj-",
    "--password",
    "hunter2hunter2",
    "password=",
    "Bearer",
    "lock timeout",
    "user_id",
    "a  b",
    "a ",
    " a",
    "'users'",
    '"emial"',
    "(x)",
    "a(",
    ")x",
    "x" * 64,
    "x" * 65,
    "100%",
    "%s",
    "{key}",
    "a\x00b",
    "sku, region",
)
_HOSTILE_PLAIN = _BOUNDARY + SECRETS[:9] + ("", None)
_plainish = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=70)
_near_plain = st.none() | _plainish | st.sampled_from(_HOSTILE_PLAIN) | st.sampled_from(_HALVES)


@pytest.mark.parametrize("rule", _RULES, ids=lambda rule: rule.name)
def test_every_rule_with_plain_and_hostile_values(rule: Any) -> None:
    """Every rule × each hostile value in each group (the others plain), and in all at once."""
    names = _named(rule)
    for value in _HOSTILE_PLAIN:
        cases = [{n: (value if n == name else "users") for n in names} for name in names]
        cases.append(dict.fromkeys(names, value))
        for groups in cases:
            assert _rendered(rule, groups) == _reference(rule, groups), groups


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(_RULES), st.data())
def test_every_rule_with_near_plain_values(rule: Any, data: st.DataObject) -> None:
    groups = {name: data.draw(_near_plain, label=name) for name in _named(rule)}
    assert _rendered(rule, groups) == _reference(rule, groups)


_BOUNDARY_TEMPLATES = (
    *_TEMPLATES,
    "Connect to {key}S3cretPassw0rd@db.internal:5432/app failed for '{other}'.",
    "{key} hunter2hunter2 was rejected ({other})",
    "{other}IOSFODNN7{key}",
    "100% of '{key}' in {other}%s",
    "{key}",
    "{key}{other}",
)


@settings(max_examples=1500, deadline=None)
@given(
    st.sampled_from(_BOUNDARY_TEMPLATES),
    st.booleans(),
    st.sampled_from(list(Category)),
    _near_plain,
    _near_plain,
)
def test_templates_that_meet_a_plain_value_into_a_secret(
    template: str, key_list: bool, category: Category, key: str | None, other: str | None
) -> None:
    rule = SimpleNamespace(
        code="T001",
        name="test.template",
        category=category,
        hint=template,
        key_group="key",
        key_list=key_list,
    )
    groups = {"key": key, "other": other}
    assert _rendered(rule, groups) == _reference(rule, groups)


@pytest.mark.parametrize(
    ("template", "key", "other"),
    [
        (
            "Connect to {key}S3cretPassw0rd@db.internal:5432/app failed for '{other}'.",
            "postgresql://app:",
            "x",
        ),
        ("{key} hunter2hunter2 was rejected ({other})", "--password", "x"),
        ("{other}IOSFODNN7{key}", "EXAMPLE", "AKIA"),
    ],
)
def test_a_secret_across_the_template_boundary_is_masked(template: str, key: str, other: str) -> None:
    """Each plain value is harmless alone; the filled template holds a secret: masked."""
    rule = SimpleNamespace(
        code="T001",
        name="test.template",
        category=Category.OTHER,
        hint=template,
        key_group="key",
        key_list=False,
    )
    groups = {"key": key, "other": other}
    hint = _rendered(rule, groups)
    assert hint == _reference(rule, groups)
    assert "***" in hint.text, hint.text


def test_the_plain_path_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """Plain values render without the general path (so the tests above compare the plain
    path, not the general one twice); a quoted value is normalised, then plain; a secret in
    the filled template sends it to the general path."""
    pytest.importorskip("hyperscan")
    from hintline import scrub as package

    package.scrub("wait for the prefilter")
    package._DEFAULT._prefilter.wait(600)
    rule = next(r for r in RULES if r.name == "db.pg-foreign-key-missing")
    general: list[object] = []
    real = render._render_general
    monkeypatch.setattr(render, "_render_general", lambda *a: general.append(a) or real(*a))
    for groups in ({"key": "user_id", "table": "users"}, {"key": "'user_id'", "table": None}):
        caches.clear()
        assert render.render(rule, groups) == _reference(rule, groups)
    assert not general
    caches.clear()
    render.render(rule, {"key": "AKIAIOSFODNN7EXAMPLE", "table": "users"})
    assert len(general) == 1


@pytest.mark.parametrize(
    "template",
    ["{key!r}", "{key:>9}", "{key.real}", "{key[0]}", "{0}", "a  {key}", "{key} ", "a\n{key}", " {key}"],
)
def test_templates_the_plain_path_leaves_to_the_general_one(template: str) -> None:
    assert render._plan(template) is None


def test_a_percent_in_a_template_is_text() -> None:
    plan = render._plan("100% of {key} (%s, %%)")
    assert plan is not None
    assert plan.form % ("k",) == "Hint: 100% of k (%s, %%)"


# --- key completion (signals._complete): the one-scan shortcut against the plain reading ----


def _ref_complete(hint: Hint, raw: str) -> Hint:
    """Key completion as it read before the shortcut: scrub the key, make the hint anew, keep
    the hint's kind and retry."""
    key = scrub(render.normalise(raw.replace("\\\\", "\\"), split=False))
    if not key or key == "/":
        return hint
    done = render.make_hint(
        hint.category, f"[{key}] " + hint.text.removeprefix(render.PREFIX), hint.rule, key
    )
    return dataclasses.replace(done, kind=hint.kind, retry=hint.retry)


_RAW_KEYS = (
    "/v1/reports",
    "db.internal:5432",
    "C:\\\\data\\\\in.csv",
    "",
    "/",
    "'/v1/x'",
    "é/列",
    "\x1b[31m/x",
    "/" + "a" * 300,
    "] token AKIA",
    "a  b",
    *_BOUNDARY,
    *SECRETS,
)


@settings(max_examples=1500, deadline=None)
@given(
    st.sampled_from(list(Category)),
    st.sampled_from(_RAW_KEYS) | st.sampled_from(_HALVES) | _plainish | st.text(max_size=20),
    st.sampled_from(("IOSFODNN7EXAMPLE is the token", "S3cret@db.internal/app down", "x" * 236))
    | _plainish,
)
def test_key_completion_answers_as_it_read(category: Category, raw: str, rest: str) -> None:
    from hintline.cleaner import signals

    hint = render.make_hint(category, rest, "test.rule", None)
    assert signals._complete(hint, raw) == _ref_complete(hint, raw)
