"""Time every function that sees untrusted text on the hostile shapes (issue 14, section 1).

Shared by ``tests/linear/test_hostile.py`` (a reduced budget) and ``python -m benchmarks
hostile`` (every shape at 64 KiB and 1 MB). Times are thread CPU time, the minimum of a few
repeats (the machine is shared); every figure is a ratio to ordinary text of the same size.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from tests.linear.shapes import Shape, ordinary

__all__ = ["FUNCTIONS", "Result", "measure", "run"]


def _clean(engine: str, *, re2: bool = True) -> Callable[[str], object]:
    import hintline
    from hintline import _linear
    from hintline.cleaner import match as _engine

    def switch() -> None:
        _linear.set_re2(None if re2 else False)
        _engine.set_engine(engine)

    def call(text: str) -> object:
        if _engine._forced != engine or _linear._re2_forced != (None if re2 else False):
            switch()  # another function under test switched it
        return hintline.clean(text)

    switch()
    matcher = _engine._default()
    wait = getattr(matcher, "wait", None)
    if wait is not None:
        wait(600)
    return call


def _match(engine: str) -> Callable[[str], object]:
    """The match stage alone on the whole text (what ``clean`` runs when it locates no block)."""
    from hintline.cleaner import match as _engine

    clean = _clean(engine)  # switches the engine, waits for the database

    def call(text: str) -> object:
        if _engine._forced != engine:
            clean("")  # switch back
        return _engine.match(text)

    return call


def _scrub(engines: str) -> Callable[[str], object]:
    from hintline.scrub import Scrubber

    scrubber = Scrubber(engines=engines)
    if scrubber._prefilter is not None:
        scrubber._prefilter.wait(600)
    return scrubber.scrub


def _trace() -> Callable[[str], object]:
    from hintline.traces import parse_trace

    return parse_trace


def _logs() -> Callable[[str], object]:
    from hintline import logs

    directory = tempfile.mkdtemp(prefix="hintline-hostile-")
    path = os.path.join(directory, "app.log")
    head = "2026-11-30 06:00:00,000 INFO app: started\n" * 20

    def call(text: str) -> object:
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as fh:
            fh.write(head + "2026-11-30 06:00:01,000 ERROR app: " + text + "\n")
        return [logs.hint_for(e) for e in logs.iter_entries(path)]

    return call


FUNCTIONS: dict[str, Callable[[], Callable[[str], object]]] = {
    "clean[hyperscan]": lambda: _clean("hyperscan"),
    "clean[re]": lambda: _clean("re"),
    "clean[re, no RE2]": lambda: _clean("re", re2=False),
    "match[hyperscan]": lambda: _match("hyperscan"),
    "match[re]": lambda: _match("re"),
    "scrub[fast]": lambda: _scrub("auto"),
    "scrub[no engines]": lambda: _scrub("re"),
    "parse_trace": _trace,
    "logs": _logs,
}
"""Each function under test: ``clean`` on both rule engines and on the stdlib engine without
RE2 (Python's ``re`` in bounded windows, as where google-re2 has no wheel), the match stage of
``clean`` alone on both engines (benchmark only: ``clean``'s rows include every stage), ``scrub`` with its engines and
without (where Hyperscan and RE2 have no wheel), the trace parser, and the log reader as
``hintline logs`` runs it (read the entries, hint each)."""


def measure(fn: Callable[[str], object], text: str, repeats: int) -> float:
    """Minimum thread CPU seconds of ``fn(text)`` over ``repeats`` calls."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.thread_time()
        fn(text)
        best = min(best, time.thread_time() - t0)
    return best


@dataclass
class Result:
    """The worst shapes of one function at one size."""

    function: str
    size: int
    ordinary_s: float
    shapes: int = 0
    worst_ratio: float = 0.0
    worst_s: float = 0.0
    worst: str = ""
    over: list[tuple[float, float, str]] = field(default_factory=list)


def run(
    function: str,
    shapes: Iterable[Shape],
    size: int,
    *,
    repeats: int = 3,
    budget: float = 3.0,
    progress: Callable[[str], None] | None = None,
) -> Result:
    """Time ``function`` on every shape; shapes over ``budget`` x ordinary are re-timed."""
    fn = FUNCTIONS[function]()
    base = ordinary(size)
    fn(base)
    result = Result(function, size, measure(fn, base, 2 * repeats + 1))
    for shape in shapes:
        seconds = measure(fn, shape.text, 1)
        if seconds > budget * result.ordinary_s:
            seconds = measure(fn, shape.text, repeats)
        ratio = seconds / result.ordinary_s
        result.shapes += 1
        label = f"{shape.owner} | {shape.kind}"
        if ratio > result.worst_ratio:
            result.worst_ratio, result.worst_s, result.worst = ratio, seconds, label
        if ratio > budget:
            result.over.append((ratio, seconds, label))
            if progress is not None:
                progress(f"{function} {size}: {ratio:.1f}x {seconds * 1e3:.2f} ms {label}")
    return result
