"""Log reading: the newest errors of a big log (read from the end) and full-scan throughput.

The log is generated at run time under /tmp (``HINTLINE_BENCH_LOG_MB``, default 200 MB; set
1024 for the 1 GB figure) in Python ``logging`` text format: INFO/DEBUG/WARNING lines with an
ERROR plus traceback every ``ERROR_EVERY`` records, so a full scan has real work to skip.

    PYTHONPATH=$PWD/src:$PWD .venv/bin/python -m benchmarks logs        # the table rows
    PYTHONPATH=$PWD/src:$PWD .venv/bin/python -m benchmarks.bench_logs  # MB/s of full scans too
    HINTLINE_BENCH_LOG_MB=1024 PYTHONPATH=$PWD/src:$PWD .venv/bin/python -m benchmarks.bench_logs
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from benchmarks._harness import Case
from hintline import logs

SIZE_MB = int(os.environ.get("HINTLINE_BENCH_LOG_MB", "200"))
SCAN_MB = 8  # the full-scan row of the table reads a log this big (the harness calls it ~100 times)
ERROR_EVERY = 2000
HERE = Path("/tmp/hintline-bench")

_TRACE = (
    "Traceback (most recent call last):\n"
    '  File "/srv/shop/worker.py", line 88, in run\n'
    "    order = load(order_id)\n"
    '  File "/srv/shop/orders.py", line 41, in load\n'
    '    return ORDERS[order_id]["customer_id"]\n'
    "KeyError: 'customer_id'\n"
)
_TRACE2 = (
    "Traceback (most recent call last):\n"
    '  File "/srv/shop/payments.py", line 17, in charge\n'
    "    amount = Decimal(raw)\n"
    "decimal.InvalidOperation: [<class 'decimal.ConversionSyntax'>]\n"
)
_ROUTINE = (
    ("INFO", "shop.http", "GET /api/orders/{n} 200 in 12ms"),
    ("DEBUG", "shop.db", "query orders took 3ms rows={n}"),
    ("INFO", "shop.worker", "order {n} processed"),
    ("WARNING", "shop.cache", "cache miss for key order:{n}"),
)


def make_log(path: Path, size_mb: int) -> Path:
    """Write a log of about ``size_mb`` MB (reused when one of that size exists)."""
    target = size_mb << 20
    if path.exists() and abs(path.stat().st_size - target) < (1 << 20):
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    start = datetime(2026, 11, 1)
    n = 0
    written = 0
    second, prefix = -1, ""
    with path.open("w", encoding="utf-8") as f:
        while written < target:
            chunk: list[str] = []
            for _ in range(10_000):
                ms = n * 7
                if ms // 1000 != second:  # one strftime per second of log time
                    second = ms // 1000
                    prefix = (start + timedelta(seconds=second)).strftime("%Y-%m-%d %H:%M:%S")
                stamp = f"{prefix},{ms % 1000:03d}"
                if n % ERROR_EVERY == ERROR_EVERY - 1:
                    if (n // ERROR_EVERY) % 2:
                        chunk.append(f"{stamp} ERROR [shop.payments] payment {n} declined\n{_TRACE2}")
                    else:
                        chunk.append(f"{stamp} ERROR [shop.worker] order {n} failed\n{_TRACE}")
                else:
                    level, name, text = _ROUTINE[n % len(_ROUTINE)]
                    chunk.append(f"{stamp} {level} [{name}] {text.format(n=n)}\n")
                n += 1
            data = "".join(chunk)
            f.write(data)
            written += len(data)
    return path


def _scan(path: Path) -> int:
    return sum(1 for _ in logs.iter_entries(path, format="python", reverse=True))


def _lazy(size_mb: int) -> Callable[[], Path]:
    """The generated log's path, written on first use (listing the cases costs nothing)."""

    def path() -> Path:
        return make_log(HERE / f"app-v2-{size_mb}mb.log", size_mb)

    return path


def cases() -> list[Case]:
    """The table rows: newest 10 of the big log, and a full scan of a small one."""
    big, small = _lazy(SIZE_MB), _lazy(SCAN_MB)
    return [
        Case("logs", f"read newest 10 of {SIZE_MB} MB", lambda: logs.read(big(), limit=10), target_us=50_000,
             note="reverse block reader: touches only the end of the file"),
        Case("logs", f"read newest 10 matching search of {SIZE_MB} MB",
             lambda: logs.read(big(), limit=10, search="declined"), target_us=100_000),
        Case("logs", f"full scan of {SCAN_MB} MB (errors only)", lambda: _scan(small()),
             note=f"MB/s = {SCAN_MB} / (p50 s)"),
    ]


def _timed(label: str, fn: Callable[[], object], size_mb: float | None = None) -> None:
    t0 = time.perf_counter()
    result = fn()
    dt = time.perf_counter() - t0
    rate = f", {size_mb / dt:,.1f} MB/s" if size_mb else ""
    count = f" ({len(result)} entries)" if isinstance(result, list) else f" ({result} entries)"
    print(f"{label}: {dt * 1000:,.1f} ms{rate}{count}")


def main() -> int:
    """Print the big-log figures: newest 10 and full scans (errors only, every record)."""
    big = make_log(HERE / f"app-v2-{SIZE_MB}mb.log", SIZE_MB)
    size = big.stat().st_size / (1 << 20)
    print(f"# {big} ({size:,.0f} MB), Python {sys.version.split()[0]}")
    _timed("read(limit=10), newest 10 errors", lambda: logs.read(big, limit=10))
    _timed("read(limit=10, search='declined')", lambda: logs.read(big, limit=10, search="declined"))
    _timed("full scan, ERROR and above, from the end", lambda: _scan(big), size)
    _timed("full scan, ERROR and above, from the start",
           lambda: sum(1 for _ in logs.iter_entries(big, format="python")), size)
    small = make_log(HERE / f"app-v2-{SCAN_MB}mb.log", SCAN_MB)
    _timed(f"full scan of {SCAN_MB} MB, every record parsed (min_level=None), from the end",
           lambda: sum(1 for _ in logs.iter_entries(small, format="python", min_level=None, reverse=True)),
           SCAN_MB)
    return 0


if __name__ == "__main__":
    sys.exit(main())
