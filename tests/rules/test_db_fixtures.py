"""Every captured database error (tests/rules/fixtures/db/*.txt, from real servers and clients)
gives the hint written down for it in its ``.expected.json``, through the full rule table.

The fixtures come from ``scripts/fixtures/gen_db_errors.py``; ``.meta.json`` records the client and
server versions. An expectation with ``"rule": "*"`` marks an error with nothing database-specific in
it (a bare ``ECONNREFUSED``): no database rule may claim it, and any rule that does must give the
expected category.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import hintline
from hintline.rules import RULES, Rule, db

FIXTURES = Path(__file__).parent / "fixtures" / "db"
CAPTURES = sorted(FIXTURES.glob("*.txt"))
DB_RULES = {r.name: r for r in db.RULES}


def _expected(path: Path) -> dict[str, str | None]:
    data: dict[str, str | None] = json.loads(path.with_suffix(".expected.json").read_text())
    return data


def test_every_capture_has_metadata_and_expectation() -> None:
    """Each fixture has its generator metadata (with versions) and a hand-written expectation."""
    assert len(CAPTURES) >= 150
    for path in CAPTURES:
        meta = json.loads(path.with_suffix(".meta.json").read_text())
        assert meta["generator"] == "scripts/fixtures/gen_db_errors.py"
        assert meta["client_version"]
        assert meta["server_version"]
        assert path.with_suffix(".expected.json").exists(), path.name


@pytest.mark.parametrize("path", CAPTURES, ids=[p.stem for p in CAPTURES])
def test_capture_gives_expected_hint(path: Path) -> None:
    """The full capture (traceback, stack, node's error dump) gives the expected rule and hint."""
    want = _expected(path)
    hint = hintline.clean(path.read_text())
    if want["rule"] == "*":
        assert hint.rule not in DB_RULES, f"{hint.rule} claimed a non-database error"
        if hint.rule is not None:
            assert hint.category == want["category"]
        return
    assert hint.rule == want["rule"]
    assert hint.category == want["category"]
    assert hint.key == want["key"]
    assert hint.text == want["hint"]


@pytest.mark.parametrize("path", CAPTURES, ids=[p.stem for p in CAPTURES])
def test_capture_hint_echoes_no_row_value(path: Path) -> None:
    """Hints name identifiers only: the seeded row values never appear in them."""
    text = hintline.clean(path.read_text()).text
    values = ["ada@example.com", "SKU-1", "abc", "north-east-1", "cy@example.com", "yesterday"]
    values += ["wrong-password", "app-password"]  # printed in tracebacks of the auth cases
    if "refused" not in path.name:  # a refused port may contain these digits
        values.append("999")
    for value in values:
        assert value not in text


def test_every_db_rule_is_exercised_by_a_capture() -> None:
    """Each database rule claims at least one full capture, or at least its own examples come
    from a fixture file that exists (for rules matching only an excerpt, such as a lone message line)."""
    claimed = {hintline.clean(p.read_text()).rule for p in CAPTURES}
    for rule in db.RULES:
        sources = [e.source.split(" ")[0] for e in rule.examples]
        assert all((FIXTURES.parents[2] / s.removeprefix("tests/")).exists() for s in sources), (
            rule.name
        )
        if rule.name not in claimed:
            assert rule.name in {
                "db.pg-foreign-key",
                "db.pg-foreign-key-referenced-key",
                "db.pg-unique-constraint",
                "db.pg-undefined-column",
                "db.pg-undefined-function",  # its full capture: fixtures/signals/pg-en-psycopg-*
            }, f"{rule.name} claims no full capture"


def test_db_rules_lead_the_table() -> None:
    """Database rules come first in the global order (rules/__init__.py)."""
    assert RULES[: len(db.RULES)] == db.RULES


@pytest.mark.parametrize("rule", db.RULES, ids=[r.name for r in db.RULES])
def test_examples_are_excerpts_of_their_fixture(rule: Rule) -> None:
    """Every line of every example is copied from the captured fixture it names (no hand-typed
    imitations of real messages)."""
    for example in rule.examples:
        path = FIXTURES.parents[2] / example.source.split(" ")[0].removeprefix("tests/")
        captured = path.read_text()
        for line in filter(None, (ln.strip() for ln in example.input.splitlines())):
            assert line in captured, f"{rule.name}: {line!r} is not in {path.name}"
