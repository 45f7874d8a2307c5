"""The evaluation corpus (tests/corpus, scripts/corpus/gen_corpus.py): errors from clients and
runtimes the rule fixtures did not come from, captured after the rules were written.

The figures are regression floors set at what was measured (scripts/corpus/evaluate.py prints them
with every miss); a change that loses a right answer on text hintline was not written from fails.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scripts.corpus.evaluate import CASES, HOLDOUT, evaluate

from hintline import RULES
from hintline.cleaner.signals import SIGNALS

ROOT = Path(__file__).resolve().parents[2]

# measured: cases 74/81 category, 65/81 key; holdout (blind) 8/10, 4/10
FLOORS = {CASES: (74, 65), HOLDOUT: (8, 4)}


@pytest.mark.parametrize("where", [CASES, HOLDOUT], ids=["cases", "holdout"])
def test_figures_stay_above_their_floor(where: Path) -> None:
    score = evaluate(where)
    category_floor, key_floor = FLOORS[where]
    assert score.category_right >= category_floor, score.misses
    assert score.key_right >= key_floor, score.misses


@pytest.mark.parametrize("where", [CASES, HOLDOUT], ids=["cases", "holdout"])
def test_every_case_has_provenance_and_an_expectation(where: Path) -> None:
    paths = sorted(where.glob("*.txt"))
    assert paths
    for path in paths:
        meta = json.loads(path.with_suffix(".meta.json").read_text())
        assert meta["generator"] == "scripts/corpus/gen_corpus.py"
        assert meta["command"].strip()
        assert meta["version"].strip()
        want = json.loads(path.with_suffix(".expected.json").read_text())
        assert set(want) == {"category", "key"}
        assert path.read_text(encoding="utf-8").strip(), path.name


def test_corpus_is_kept_apart_from_rule_examples() -> None:
    """No rule or signal example comes from the corpus, and no corpus text is an example."""
    texts = {p.read_text(encoding="utf-8") for w in (CASES, HOLDOUT) for p in w.glob("*.txt")}
    for entry in (*RULES, *SIGNALS):
        for example in entry.examples:
            assert "tests/corpus" not in example.source
            assert not any(example.input in text for text in texts), entry.name


def test_the_evaluator_can_fail(tmp_path: Path) -> None:
    """A case whose expectation is wrong counts as a miss (the figures are not vacuous)."""
    (tmp_path / "x.txt").write_text("psycopg.errors.UndefinedTable: relation \"userz\" does not exist\n")
    (tmp_path / "x.expected.json").write_text(json.dumps({"category": "timeout", "key": "nope"}))
    score = evaluate(tmp_path)
    assert (score.cases, score.category_right, score.key_right) == (1, 0, 0)
