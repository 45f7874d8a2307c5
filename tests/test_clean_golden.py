"""The differential test of ``clean()``: every input of :mod:`tests.clean_golden` (every rule
fixture bare and wrapped each way of the variation tier, every rule example, every trace
fixture, seeded hostile variants, ``render`` on hostile captured values) gives exactly the
recorded :class:`~hintline.Hint`, first seen (every cache emptied before the call) and
repeated (answered from the caches). A speed change must not change one answer; a change of
behaviour re-blesses the file (``python -m tests.clean_golden --bless``) and reads the diff."""

from __future__ import annotations

from typing import Any

import pytest

from hintline import RULES, clean
from hintline.cleaner import caches
from hintline.cleaner.render import render
from tests import clean_golden


@pytest.fixture(scope="module")
def golden() -> dict[str, dict[str, Any]]:
    return {row["id"]: row for row in clean_golden.load()}


def _report(wrong: list[str], total: int) -> str:
    return f"{len(wrong)} of {total} answers differ from the golden file:\n" + "\n".join(wrong[:20])


def test_every_case_is_recorded(golden: dict[str, dict[str, Any]]) -> None:
    """The golden file covers every input the generators make now (a new fixture re-blesses)."""
    names = {name for name, _, _ in clean_golden.cases()}
    missing = sorted(names - golden.keys())
    assert not missing, f"not in the golden file (re-bless): {missing[:10]}"


def test_clean_answers_as_recorded(engine: str, golden: dict[str, dict[str, Any]]) -> None:
    wrong = []
    total = 0
    for name, text, _ in clean_golden.cases():
        row = golden.get(name)
        if row is None:
            continue
        assert row["sha"] == clean_golden.digest(text), f"{name}: the input changed (re-bless)"
        total += 1
        caches.clear()
        first = clean_golden.fields(clean(text))
        again = clean_golden.fields(clean(text))
        for when, got in (("first seen", first), ("repeated", again)):
            if got != row["hint"]:
                wrong.append(f"{name} ({when}): {row['hint']} -> {got}")
    assert total > 13_000
    assert not wrong, _report(wrong, total)


def test_generated_inputs_are_stored(golden: dict[str, dict[str, Any]]) -> None:
    """The seeded variants' inputs are in the file: a change of the generator cannot hide."""
    for name, text, store in clean_golden.cases():
        if store:
            assert golden[name]["input"] == text, name


def test_render_answers_as_recorded(golden: dict[str, dict[str, Any]]) -> None:
    by_code = {rule.code: rule for rule in RULES}
    rows = [row for name, row in golden.items() if name.startswith("render:")]
    wrong = []
    for row in rows:
        rule = by_code[row["rule"]]
        caches.clear()
        first = clean_golden.fields(render(rule, row["groups"]))
        again = clean_golden.fields(render(rule, row["groups"]))
        for when, got in (("first seen", first), ("repeated", again)):
            if got != row["hint"]:
                wrong.append(
                    f"{row['id']} {rule.code} {row['groups']} ({when}): {row['hint']} -> {got}"
                )
    assert len(rows) > 400
    assert not wrong, _report(wrong, len(rows))
