"""parse_trace speed: real captured traces of about 5 KB (target p50 ≤ 100 µs) and 64 KiB
(≤ 2 ms), the no-trace quick reject that ``clean`` pays on every unmatched input, and the
hostile inputs of the totality tests (no target: they show the cost stays linear)."""

from __future__ import annotations

from pathlib import Path

from benchmarks._harness import Case
from hintline.traces import parse_trace

FIX = Path(__file__).resolve().parents[1] / "tests" / "traces" / "fixtures"


def _read(rel: str) -> str:
    return (FIX / rel).read_text(encoding="utf-8")


def _case(name: str, text: str, target: float | None, root: str | None = None, note: str = "") -> Case:
    size = len(text.encode())
    return Case("traces", f"{name} ({size / 1024:.1f} KiB)", lambda: parse_trace(text, project_root=root), target, note)


def cases() -> list[Case]:
    """Benchmark rows for ``python -m benchmarks trace``."""
    rows = [
        Case("traces", "reference: sum(range(1000)) (machine speed)", lambda: sum(range(1000)), None,
             "about 9 µs on an idle 2-core x86_64; scale the rows by it on a loaded machine"),
        _case("python 5k requests chain", _read("python/requests_connection_refused.txt"), 100, "/tmp/hintline-traces/python"),
        _case("java 5k defects4j Closure-37", _read("defects4j/Closure-37.txt"), 100),
        _case("java 5k defects4j JacksonDatabind-13", _read("defects4j/JacksonDatabind-13.txt"), 100),
        _case("node 1k error with cause", _read("node/error_cause.txt"), 100, "/tmp/hintline-traces/node"),
        _case("php 1k Next chain", _read("php/uncaught_chain.txt"), 100, "/tmp/hintline-traces/php"),
        _case("python 64k deep recursion", _read("python/deep_recursion.txt"), 2000, "/tmp/hintline-traces/python"),
        _case("java 64k StackOverflowError", _read("java/stack_overflow.txt"), 2000),
        _case("no trace: short error line", "psycopg.OperationalError: connection refused on port 5432", None),
        _case("no trace: 5 KB of prose", "The service stopped responding; retry later. " * 110, None),
    ]
    try:
        from tests.traces.hostile import hostile_cases
    except ImportError:  # benchmarks run from a checkout; the hostile inputs live in the tests
        return rows
    # Two sizes of each hostile input: the second is twice the first, so a linear parser shows
    # about twice the time (the totality tests run them at full size: 10 MB, 100 000 lines).
    kinds = ("single_line_10mb_at", "single_line_10mb_escaped_newlines", "at_at_at_100k_lines",
             "java_frames_100k", "python_frames_100k", "php_frames_100k", "many_in_line")
    for scale in (0.02, 0.04):
        inputs = hostile_cases(scale)
        for name in kinds:
            data = inputs[name]
            rows.append(Case("traces-hostile", f"{name} x{scale:g} ({len(data) / 1024:.0f} KiB)", lambda d=data: parse_trace(d)))
    return rows
