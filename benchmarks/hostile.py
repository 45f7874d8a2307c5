"""``python -m benchmarks hostile``: the full hostile tier of issue 14, section 1.

Every shape generated from the rule and secret tables (tests/linear/shapes.py), at 64 KiB and
1 MB, through every function that sees untrusted text (tests/linear/hostile.py). Prints, per
function and size, the ordinary-text time, the worst shape's ratio to it and its time, and
the shapes over the budget (3x ordinary; and how many take over 5 ms, the budget at 64 KiB for
clean and scrub).
``python -m benchmarks hostile 65536 scrub`` narrows to one size and function;
``--every N`` times every Nth shape only (the same ones on every run: shape 0, N, 2N, … in
the table's order), so that the tier runs at 1 MB in minutes (``--every 10``: 1,094 shapes).
"""

from __future__ import annotations

import itertools
import sys

from tests.linear.hostile import FUNCTIONS, run
from tests.linear.shapes import table_shapes, trace_shapes


def main(argv: list[str]) -> int:
    argv = list(argv)
    every = 1
    if "--every" in argv:
        at = argv.index("--every")
        every = max(1, int(argv[at + 1]))
        del argv[at : at + 2]
    sizes = [int(a) for a in argv if a.isdigit()] or [64 * 1024, 1024 * 1024]
    wanted = [a for a in argv if not a.isdigit()]
    if every > 1:
        print(f"every {every}th shape (deterministic sample)")
    print("| function | size | shapes | ordinary ms | worst ratio | worst ms | over 3x | over 5 ms | worst shape |")
    print("|---|---|---|---|---|---|---|---|---|")
    for size in sizes:
        for function in FUNCTIONS:
            if wanted and not any(w in function for w in wanted):
                continue
            # generated as they are timed: 8,649 shapes of 1 MB do not fit in memory at once
            shapes = table_shapes(size)
            if function == "parse_trace":
                shapes = itertools.chain(shapes, trace_shapes(size))
            shapes = itertools.islice(shapes, 0, None, every)
            result = run(function, shapes, size, progress=lambda line: print("  " + line, file=sys.stderr, flush=True))
            print(
                f"| {function} | {size} | {result.shapes} | {result.ordinary_s * 1e3:.3f} | "
                f"{result.worst_ratio:.1f} | {result.worst_s * 1e3:.2f} | {len(result.over)} | "
                f"{sum(seconds > 0.005 for _ratio, seconds, _label in result.over)} | {result.worst} |",
                flush=True,
            )
    return 0
