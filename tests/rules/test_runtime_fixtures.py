"""Whole captured outputs of real programs (scripts/fixtures/gen_runtime_errors.py) through clean().

Each ``tests/rules/fixtures/<family>/<case>.txt`` is what a real interpreter, client or framework
printed; ``<case>.meta.json`` records the command and tool version; ``<case>.expected.json`` is the
result written by hand after reading the output (category, rule, key, hint; a ``null`` hint is not
pinned, for fixtures that no rule claims and the fallback answers).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import hintline
from hintline import RULES, Rule
from tests._expected import assert_expected_hint

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures"
FAMILIES = ("payload", "tools", "python", "node", "jvm", "native", "php", "http", "fs", "system")
CASES = sorted(p for family in FAMILIES for p in (FIXTURES / family).glob("*.txt"))
SOURCED = [
    pytest.param(rule, i, id=f"{rule.code}-{i}")
    for rule in RULES
    if rule.name.split(".", 1)[0] in FAMILIES
    for i, example in enumerate(rule.examples)
    if example.source.startswith("tests/rules/fixtures/")
]


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def test_every_family_has_fixtures() -> None:
    """The generator produced fixtures for every runtime family this suite covers."""
    for family in FAMILIES:
        assert list((FIXTURES / family).glob("*.txt")), family
    assert len(CASES) >= 200


@pytest.mark.parametrize("path", CASES, ids=_id)
def test_fixture_gives_expected_hint(path: Path) -> None:
    """The full captured output cleans to the hand-written expected category, rule, key and hint."""
    assert_expected_hint(path)


@pytest.mark.parametrize("path", CASES, ids=_id)
def test_fixture_has_provenance(path: Path) -> None:
    """Every fixture records the generator, the command and the tool version that produced it."""
    meta = json.loads(path.with_suffix(".meta.json").read_text(encoding="utf-8"))
    assert meta["generator"] == "scripts/fixtures/gen_runtime_errors.py"
    assert (ROOT / meta["generator"]).is_file()
    assert meta["command"].strip()
    assert meta["version"].strip()
    assert "unavailable" not in meta["version"]
    assert path.read_text(encoding="utf-8").strip(), "the program printed nothing"


@pytest.mark.parametrize(("rule", "i"), SOURCED)
def test_example_is_an_excerpt_of_its_fixture(rule: Rule, i: int) -> None:
    """An example that names a fixture captures the same groups there as in the excerpt."""
    example = rule.examples[i]
    fixture = ROOT / example.source
    assert fixture.is_file(), example.source
    in_example = re.search(rule.pattern, example.input)
    in_fixture = re.search(rule.pattern, fixture.read_text(encoding="utf-8"))
    assert in_example is not None
    assert in_fixture is not None, f"{rule.name} does not match {example.source}"
    assert in_example.groupdict() == in_fixture.groupdict()


def test_fixture_hints_never_echo_values_sent() -> None:
    """Values a program was given (not identifiers) never reach a hint: '12a', 'three', 'n/a'."""
    for path in CASES:
        text = hintline.clean(path.read_text(encoding="utf-8")).text
        for value in ("12a", "three", "n/a", "99999999999999999999", "Ada"):
            assert f"'{value}'" not in text, (path.name, text)
            assert f'"{value}"' not in text, (path.name, text)
