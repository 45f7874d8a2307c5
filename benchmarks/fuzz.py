"""``python -m benchmarks fuzz [count]``: the scrubber's differential and idempotence fuzz at
full strength (issue 14, section 3): 200,000 seeded inputs per check by default.

The same strategy and checks as tests/scrub/test_differential.py: the Hyperscan fast path,
the full pass, the pass while the database compiles and the path without Hyperscan or RE2
give one text; a second scrub changes nothing. Prints the counts of inputs and differences.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, seed, settings
from tests.linear.fuzz import texts


def main(argv: list[str]) -> int:
    from tests.scrub.test_differential import answers

    from hintline.scrub import scrub

    count = int(argv[0]) if argv else 200_000
    tally = {"inputs": 0, "differ": 0, "not idempotent": 0}
    examples: list[str] = []

    @seed(14)
    @settings(max_examples=count, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(texts())
    def check(text: str) -> None:
        tally["inputs"] += 1
        if len(set(answers(text))) != 1:
            tally["differ"] += 1
            examples.append(text)
        once = scrub(text)
        if scrub(once) != once:
            tally["not idempotent"] += 1
            examples.append(text)

    random.seed(14)
    check()
    print(" ".join(f"{k}: {v}" for k, v in tally.items()))
    for text in examples[:10]:
        print(repr(text))
    return 0 if tally["differ"] == tally["not idempotent"] == 0 else 1
