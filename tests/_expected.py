"""The check shared by the capture tests: a captured output cleans to its hand-written
``.expected.json`` (rule, category, key, and the whole hint when one is written down)."""

from __future__ import annotations

import json
from pathlib import Path

import hintline
from hintline import Category


def assert_expected_hint(path: Path) -> None:
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    hint = hintline.clean(path.read_text(encoding="utf-8"))
    assert hint.rule == expected["rule"]
    assert hint.category == Category(expected["category"])
    assert hint.key == expected["key"]
    if expected["hint"] is not None:
        assert hint.text == expected["hint"]
