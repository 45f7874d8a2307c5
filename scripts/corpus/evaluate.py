"""Compute hintline's figures on the evaluation corpus (tests/corpus/cases, scripts/corpus/gen_corpus.py).

For every case: is the category right, and is the key right (the expected key, ``None`` included)?
Prints the two figures, then every miss. Exit status 0.

    PYTHONPATH=$PWD/src .venv/bin/python scripts/corpus/evaluate.py [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "corpus" / "cases"


@dataclass(frozen=True)
class Score:
    """The corpus figures."""

    cases: int
    category_right: int
    key_right: int
    misses: tuple[tuple[str, str, str, str | None, str | None], ...]

    @property
    def category_rate(self) -> float:
        return self.category_right / self.cases if self.cases else 0.0

    @property
    def key_rate(self) -> float:
        return self.key_right / self.cases if self.cases else 0.0


def evaluate(cases: Path = CASES) -> Score:
    """Clean every case and compare it with its expectation."""
    import hintline

    right_cat = right_key = 0
    misses = []
    paths = sorted(cases.glob("*.txt"))
    for path in paths:
        want = json.loads(path.with_suffix(".expected.json").read_text())
        hint = hintline.clean(path.read_text(encoding="utf-8"))
        cat_ok = str(hint.category) == want["category"]
        key_ok = hint.key == want["key"]
        right_cat += cat_ok
        right_key += key_ok
        if not (cat_ok and key_ok):
            misses.append((path.stem, want["category"], str(hint.category), want["key"], hint.key))
    return Score(len(paths), right_cat, right_key, tuple(misses))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    score = evaluate()
    if args.json:
        print(json.dumps({"cases": score.cases, "category_right": score.category_right,
                          "key_right": score.key_right}))  # fmt: skip
        return 0
    print(f"cases: {score.cases}")
    print(f"category right: {score.category_right}/{score.cases} = {score.category_rate:.1%}")
    print(f"key right:      {score.key_right}/{score.cases} = {score.key_rate:.1%}")
    for name, want_cat, got_cat, want_key, got_key in score.misses:
        print(f"  miss {name}: category {want_cat} -> {got_cat}; key {want_key!r} -> {got_key!r}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    raise SystemExit(main())
