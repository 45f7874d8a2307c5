"""A small timing harness: median and p90 microseconds per call, calibrated batches.

A benchmark module ``benchmarks/bench_<area>.py`` defines ``cases() -> list[Case]``.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Case", "measure", "measure_self_timed"]


@dataclass(frozen=True)
class Case:
    """One benchmark row: ``fn()`` is timed; ``target_us`` is the p50 the issue asks for.

    With ``self_timed``, ``fn()`` times itself and returns microseconds (for a row whose call
    does set-up or clean-up that must not count, like reaping a child process); each sample is
    one call.
    """

    group: str
    name: str
    fn: Callable[[], object]
    target_us: float | None = None
    note: str = ""
    self_timed: bool = False


def measure_self_timed(fn: Callable[[], object], *, samples: int = 25) -> tuple[float, float]:
    """Return (p50, p90) of the microseconds ``fn()`` reports over ``samples`` calls."""
    fn()  # warm up (file-system caches, bytecode)
    times = sorted(float(fn()) for _ in range(samples))  # type: ignore[arg-type]
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.9))]


def measure(fn: Callable[[], object], *, samples: int = 25, sample_ms: float = 20.0) -> tuple[float, float]:
    """Return (p50, p90) microseconds per call over ``samples`` calibrated batches."""
    fn()  # warm up (lazy compilation, caches)
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        if (time.perf_counter() - t0) * 1000 >= sample_ms / 4 or n >= 1 << 20:
            break
        n *= 2
    per_sample = n * 4  # about sample_ms per batch
    times: list[float] = []
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(samples):
            t0 = time.perf_counter()
            for _ in range(per_sample):
                fn()
            times.append((time.perf_counter() - t0) / per_sample * 1e6)
    finally:
        if gc_was:
            gc.enable()
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.9))]
