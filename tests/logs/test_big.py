"""Big logs: the newest entries cost only the end of the file; ``since`` stops early; progress."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from hintline import logs
from hintline.cli import _logs as cli_logs

_LINE = "2026-11-30 06:{m:02d}:{s:02d},{ms:03d} INFO [shop.http] GET /api/orders/{n} 200 in 12ms\n"
_ERROR = (
    "2026-11-30 06:{m:02d}:{s:02d},{ms:03d} ERROR [shop.worker] order {n} failed\n"
    "Traceback (most recent call last):\n"
    '  File "/srv/shop/worker.py", line 88, in run\n'
    "KeyError: 'customer_id'\n"
)


@pytest.fixture(scope="module")
def big_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """About 12 MB of INFO lines with an error every 500 records, one hour of time."""
    path = tmp_path_factory.mktemp("big") / "app.log"
    with path.open("w", encoding="utf-8") as f:
        for n in range(150_000):
            ms_total = n * 24
            m, rest = divmod(ms_total // 1000, 60)
            stamp = {"m": m % 60, "s": rest, "ms": ms_total % 1000, "n": n}
            f.write((_ERROR if n % 500 == 499 else _LINE).format(**stamp))
    return path


class TestBigLog:
    def test_newest_entries_read_only_the_end(self, big_log: Path) -> None:
        """read(limit=10) consumes a few blocks from the end, not the file."""
        seen: list[int] = []
        entries = logs.read(big_log, limit=10, progress=lambda done, total: seen.append(done))
        assert [e.message for e in entries] == [f"order {n} failed" for n in range(149_999, 144_999, -500)]
        size = big_log.stat().st_size
        assert size > 10 << 20
        assert seen
        assert seen[-1] <= 3 << 20

    def test_since_stops_the_backward_scan(self, big_log: Path) -> None:
        """since= a time near the end: only the records after it, and little of the file read."""
        every = logs.read(big_log, limit=None)
        bound = every[20].timestamp
        seen: list[int] = []
        recent = logs.read(big_log, limit=None, since=bound, progress=lambda d, t: seen.append(d))
        assert recent == every[:21]
        assert seen[-1] < big_log.stat().st_size // 2

    def test_full_scan_counts_every_error(self, big_log: Path) -> None:
        """Both directions find all 300 errors."""
        assert sum(1 for _ in logs.iter_entries(big_log)) == 300
        assert sum(1 for _ in logs.iter_entries(big_log, reverse=True)) == 300


class TestProgressMeter:
    def test_meter_waits_a_second_then_reports(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Nothing for the first second; then a one-line meter with percent; close() erases it."""
        clock = [100.0]
        monkeypatch.setattr(cli_logs.time, "monotonic", lambda: clock[0])
        err = io.StringIO()
        monkeypatch.setattr(cli_logs.sys, "stderr", err)
        meter = cli_logs._Progress()
        meter(10 << 20, 100 << 20)
        assert err.getvalue() == ""
        clock[0] += 2.0
        meter(50 << 20, 100 << 20)
        assert "50%" in err.getvalue()
        assert err.getvalue().startswith("\r")
        meter.close()
        assert err.getvalue().endswith("\r\033[K")
