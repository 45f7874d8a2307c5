"""Where one ``clean()`` call spends its time, stage by stage (``python -m benchmarks.profile_clean``).

Each stage is timed alone on the same real input (best of 9 runs of 5,000 calls), so the stages
add up to about the whole call; the rest is Python glue. The inputs are the ``clean`` bench's:
rule fixtures captured from live servers and drivers, and a Defects4J trace no rule claims.
"""

from __future__ import annotations

import timeit
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "rules" / "fixtures"


def _best(call: object, number: int = 5000) -> float:
    """Best µs per call of ``call`` over 9 runs."""
    return min(timeit.repeat(call, number=number, repeat=9)) / number * 1e6  # type: ignore[arg-type]


def main() -> None:
    """Print one line of stage timings per input."""
    import hintline
    from hintline.cleaner import match as _engine
    hintline.clean("warm up")
    auto = _engine._default()
    if not getattr(auto, "wait", lambda _t: False)(600):
        print("Vectorscan is not available here: nothing to break down")
        return
    matcher = auto.ready  # type: ignore[attr-defined]
    short = (FIXTURES / "db" / "pg-psycopg-fk-insert.txt").read_text()
    inputs = {
        "go strconv message (51 B)": (FIXTURES / "native" / "go_atoi.txt").read_text(),
        "psycopg message (187 B)": short[short.rindex("\npsycopg") + 1 :],
        "psycopg traceback (742 B)": short,
        "JDBC trace (2,822 B)": (FIXTURES / "db" / "mariadb-jdbc-fk-insert.txt").read_text(),
    }
    scratch = matcher._scratch()
    database = matcher._database
    print("µs per call | whole clean() | whole clean(), first seen | prepare | normalise | "
          "locate | normalise + locate, less the timing loop (target 0.3) | scan, no callback | scan + callbacks | verify (re capture) | render (cached) | "
          "render (first seen) | render (first seen, general path) | match callbacks")
    for label, text in inputs.items():
        print(f"{label} | {_stages(text, matcher, database, scratch)}")
    _fallback_table()


def _stages(text: str, matcher: Any, database: Any, scratch: Any) -> str:
    """One table row: the whole call, then each stage alone, then the number of callbacks."""
    import re

    import hintline
    from hintline import hint
    from hintline.cleaner import caches, render
    from hintline.cleaner.bound import prepare
    from hintline.cleaner.locate import locate
    from hintline.cleaner.normalise import normalise, normalise_and_locate

    data = text.encode()
    found = matcher.match(text)
    regex = re.compile(found.rule.pattern)
    times = [
        _best(lambda: hintline.clean(text)),
        # every cache emptied before the call (the emptying itself taken off)
        _best(lambda: (caches.clear(), hintline.clean(text))) - _best(caches.clear),
        _best(lambda: prepare(text)),
        _best(lambda: normalise(text)),
        _best(lambda: locate(text)),
        _best(lambda: normalise_and_locate(text)) - _best(lambda: text),  # as clean() calls them
        _best(lambda: database.scan(data, None, 0, None, scratch)),
        _best(lambda: matcher.candidates(text, data)),
        _best(lambda: regex.search(text).groupdict()),  # type: ignore[union-attr]
        _best(lambda: hint.render(found.rule, found.groups)),
        _best(lambda: render._render_uncached(found.rule, found.groups)),
        # what a first-seen rendering cost before plain values skipped normalise and collapse
        _best(lambda: render._render_general(found.rule, found.groups)),
    ]
    cells = " | ".join(f"{x:.2f}" for x in times)
    return f"{cells} | {len(matcher.candidates(text, data))}"


def _fallback_table() -> None:
    """The fallback path (issue 20): the whole call, repeated and first seen, and what the
    fallback does after the rule and signal scans found nothing."""
    from benchmarks.bench_clean import _filler

    inputs = {
        "traceback, DSN in the message (390 B)": (
            ROOT / "tests" / "traces" / "fixtures" / "python" / "secret_in_message.txt"
        ).read_text(),
        "Go wrapped chain, no exception line (260 B)": (
            FIXTURES / "fallback" / "doc-go-wrapped-chain.txt"
        ).read_text(),
        "64 KiB of Defects4J traces": _filler(64 * 1024),
    }
    print()
    print("fallback, µs per call | whole clean() | whole clean(), first seen | signals scan | "
          "scrub whole block | line pick | old tail: fallback(scrub(block)), first seen | "
          "new tail: fallback_block(block), first seen")
    for label, text in inputs.items():
        print(f"{label} | {_fallback_row(text)}")


def _fallback_row(text: str) -> str:
    import hintline
    from hintline.cleaner import caches, fallback, signals
    from hintline.scrub import scrub

    number = 200 if len(text) > 4096 else 2000
    scrubbed = scrub(text)
    clear = _best(caches.clear, number)
    times = [
        _best(lambda: hintline.clean(text), number),
        _best(lambda: (caches.clear(), hintline.clean(text)), number) - clear,
        _best(lambda: signals.classify(text), number),
        _best(lambda: scrub(text), number),
        _best(lambda: fallback.pick_line_with_strength(scrubbed), number),
        _best(lambda: (caches.clear(), fallback.fallback(scrub(text))), number) - clear,
        _best(lambda: (caches.clear(), fallback.fallback_block(text)), number) - clear,
    ]
    return " | ".join(f"{x:.2f}" for x in times)

if __name__ == "__main__":
    main()
