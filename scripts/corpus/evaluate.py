"""Compute hintline's figures on the evaluation corpus (tests/corpus/cases, scripts/corpus/gen_corpus.py).

For every case: is the category right, and is the key right (the expected key, ``None`` included)?
Prints the two figures, then every miss. Exit status 0.

    PYTHONPATH=$PWD/src .venv/bin/python scripts/corpus/evaluate.py [--set cases|holdout|all] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "corpus" / "cases"
HOLDOUT = ROOT / "tests" / "corpus" / "holdout"
SETS = {"cases": CASES, "holdout": HOLDOUT}


@dataclass(frozen=True)
class Score:
    """The corpus figures."""

    cases: int
    category_right: int
    key_right: int
    key_in_text: int
    """Cases whose expected key (or ``None``) the text holds at all: the attainable ones."""
    key_right_in_text: int
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

    right_cat = right_key = in_text = right_in_text = 0
    misses = []
    paths = sorted(cases.glob("*.txt"))
    for path in paths:
        want = json.loads(path.with_suffix(".expected.json").read_text())
        hint = hintline.clean(path.read_text(encoding="utf-8"))
        cat_ok = str(hint.category) == want["category"]
        key_ok = hint.key == want["key"]
        right_cat += cat_ok
        right_key += key_ok
        attainable = want["key"] is None or want["key"] in path.read_text(encoding="utf-8")
        in_text += attainable
        right_in_text += key_ok and attainable
        if not (cat_ok and key_ok):
            misses.append((path.stem, want["category"], str(hint.category), want["key"], hint.key))
    return Score(len(paths), right_cat, right_key, in_text, right_in_text, tuple(misses))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--set", choices=[*SETS, "all"], default="all")
    args = ap.parse_args()
    names = list(SETS) if args.set == "all" else [args.set]
    scores = {name: evaluate(SETS[name]) for name in names}
    if args.json:
        print(json.dumps({name: {"cases": s.cases, "category_right": s.category_right,
                                 "key_right": s.key_right, "key_in_text": s.key_in_text,
                                 "key_right_in_text": s.key_right_in_text}
                          for name, s in scores.items()}))  # fmt: skip
        return 0
    for name, score in scores.items():
        print(f"[{name}] cases: {score.cases}")
        print(f"  category right: {score.category_right}/{score.cases} = {score.category_rate:.1%}")
        print(f"  key right:      {score.key_right}/{score.cases} = {score.key_rate:.1%}")
        print(f"  key right where the text holds the key: {score.key_right_in_text}/{score.key_in_text}")
        for case, want_cat, got_cat, want_key, got_key in score.misses:
            print(f"    miss {case}: category {want_cat} -> {got_cat}; key {want_key!r} -> {got_key!r}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    raise SystemExit(main())
