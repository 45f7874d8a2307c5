"""Run every ``benchmarks/bench_*.py`` and print one table (optionally filtered by a substring)."""

from __future__ import annotations

import importlib
import platform
import sys
from pathlib import Path

from benchmarks._harness import measure, measure_self_timed


def main(argv: list[str]) -> int:
    if argv and argv[0] in ("hostile", "fuzz"):  # issue 14's tiers: their own tables
        module = importlib.import_module(f"benchmarks.{argv[0]}")
        return int(module.main(argv[1:]))
    pattern = argv[0] if argv else ""
    here = Path(__file__).parent
    print(f"# hintline benchmarks on {platform.machine()}, Python {platform.python_version()}")
    print("| group | case | p50 µs | p90 µs | target p50 µs | ok |")
    print("|---|---|---|---|---|---|")
    for path in sorted(here.glob("bench_*.py")):
        module = importlib.import_module(f"benchmarks.{path.stem}")
        for case in module.cases():
            label = f"{case.group}/{case.name}"
            if pattern and pattern not in label:
                continue
            p50, p90 = measure_self_timed(case.fn) if case.self_timed else measure(case.fn)
            target = "" if case.target_us is None else f"{case.target_us:g}"
            ok = "" if case.target_us is None else ("yes" if p50 <= case.target_us else "NO")
            print(f"| {case.group} | {case.name} | {p50:.2f} | {p90:.2f} | {target} | {ok} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
