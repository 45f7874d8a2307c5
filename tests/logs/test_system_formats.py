"""System log layouts and the fallback reader.

Fixtures: ``tests/logs/fixtures/system/`` (``scripts/fixtures/gen_system_logs.py``; syslog from
util-linux ``logger``, oslo.log from PyPI, Log4j 2 from Debian; logcat, Apache and nginx written
from their documented layouts, see ``VERSIONS.json``).
"""

from __future__ import annotations

import json
import logging
from datetime import date, datetime
from pathlib import Path

import pytest

from hintline import logs
from hintline.logs._time import parse_timestamp

SYSTEM = Path(__file__).parent / "fixtures" / "system"


@pytest.mark.parametrize(
    ("name", "fmt", "errors", "components"),
    [
        ("syslog/rfc3164.log", "syslog", 4, {"billing", "worker", "sshd"}),
        ("syslog/rfc5424.log", "syslog", 4, {"billing", "worker", "sshd"}),
        ("oslo/nova.log", "oslo", 3, {"nova.compute.manager"}),
        ("log4j-zk/app.log", "log4j", 2, {"QuorumCnxManager"}),
        ("logcat/threadtime.log", "logcat", 2, {"AndroidRuntime", "ActivityManager"}),
        ("apache/error.log", "apache", 3, {None, "autoindex"}),
        ("nginx/error.log", "nginx", 3, {None}),
    ],
)
def test_layouts(name: str, fmt: str, errors: int, components: set[str | None]) -> None:
    path = SYSTEM / name
    assert logs.detect_format(path) == fmt
    entries = list(logs.iter_entries(path))
    assert len(entries) == errors
    assert {e.component for e in entries} == components
    assert all(e.timestamp is not None for e in entries)


def test_repeated_headers_of_a_trace_are_one_record() -> None:
    """oslo.log and logcat print a trace one header per line: one entry, the trace parsed."""
    nova = list(logs.iter_entries(SYSTEM / "oslo" / "nova.log"))
    assert [e.exception_type for e in nova] == ["ValueError", "ValueError", None]
    assert "nova.compute.manager" not in nova[0].trace_text
    assert nova[0].trace.root_cause is not None
    assert nova[0].trace.root_cause.frames
    crash = next(logs.iter_entries(SYSTEM / "logcat" / "threadtime.log"))
    assert crash.exception_type == "java.lang.ClassCastException"
    assert "AndroidRuntime" not in crash.trace_text
    assert len(logs.group(logs.iter_entries(SYSTEM / "oslo" / "nova.log"))) == 2


def test_syslog_priority_decides_the_level() -> None:
    levels = [e.level for e in logs.iter_entries(SYSTEM / "syslog" / "rfc5424.log", min_level=None)]
    assert levels == ["ERROR", "INFO", "ERROR", "WARNING", "ERROR", "CRITICAL"]


def test_zookeeper_pattern_keeps_its_logger() -> None:
    (first, _) = logs.iter_entries(SYSTEM / "log4j-zk" / "app.log")
    assert first.component == "QuorumCnxManager"
    assert first.extra.get("thread") == "main"
    assert first.exception_type == "java.io.IOException"


class TestFallback:
    def test_unknown_layout_is_read(self, tmp_path: Path) -> None:
        """No reader knows the layout: records split at non-continuation lines, levels found."""
        log = tmp_path / "ras.log"
        log.write_text(
            "- 1117838570 R02-M1 RAS KERNEL INFO instruction cache parity error corrected\n"
            "APPREAD 1117838571 R02-M1 RAS APP FATAL ciod: failed to read message prefix\n"
            "node7 backup: error: disk quota exceeded on /srv\n"
            "node7 worker crashed\n"
            "Traceback (most recent call last):\n"
            '  File "/srv/w.py", line 3, in run\n'
            "ZeroDivisionError: division by zero\n"
            "node7 SEVERE heartbeat lost\n"
        )
        assert logs.detect_format(log) == "text"
        entries = list(logs.iter_entries(log))
        assert [e.level for e in entries] == ["FATAL", "ERROR", "ERROR", "SEVERE"]
        assert entries[2].exception_type == "ZeroDivisionError"
        assert entries[2].message == "node7 worker crashed"

    def test_binary_is_still_refused(self, tmp_path: Path) -> None:
        blob = tmp_path / "core.log"
        blob.write_bytes(bytes(range(256)) * 32)
        with pytest.raises(logs.LogFormatError, match="binary"):
            logs.detect_format(blob)


def test_year_less_dates_are_in_the_past() -> None:
    """Read on 1 December, "Dec 10" is last year's; "Nov 30" this year's."""
    ref = date(2026, 12, 1)
    assert parse_timestamp("Dec 10 11:04:41", reference=ref).year == 2025  # type: ignore[union-attr]
    assert parse_timestamp("Nov 30 11:04:41", reference=ref).year == 2026  # type: ignore[union-attr]


def test_go_slog_levels_above_error(tmp_path: Path) -> None:
    """slog's JSONHandler prints levels between the named ones as ``ERROR+4`` (layout from the
    ``log/slog`` documentation of ``Level.String``; Go does not run here)."""
    log = tmp_path / "svc.jsonl"
    lines = [
        {"time": "2026-11-30T06:36:45.1Z", "level": "INFO", "msg": "listening", "addr": ":8080"},
        {"time": "2026-11-30T06:36:46.1Z", "level": "ERROR+4", "msg": "ledger unreachable", "err": "dial tcp 10.0.0.7:5432: connect: connection refused"},
        {"time": "2026-11-30T06:36:47.1Z", "level": "WARN+2", "msg": "slow query"},
        {"time": "2026-11-30T06:36:48.1Z", "level": "ERROR", "msg": "write failed"},
    ]
    log.write_text("".join(json.dumps(x) + "\n" for x in lines))
    entries = list(logs.iter_entries(log))
    assert [e.message for e in entries] == ["ledger unreachable", "write failed"]


def test_structlog_json_over_stdlib_with_raw_traceback(tmp_path: Path) -> None:
    """structlog renders JSON, stdlib ``logging`` appends the raw traceback after it."""
    import structlog

    path = tmp_path / "app.jsonl"
    handler = logging.FileHandler(path)
    handler.setFormatter(logging.Formatter("%(message)s"))
    std = logging.getLogger("structlog-stdlib-fixture")
    std.addHandler(handler)
    std.propagate = False
    std.setLevel(logging.INFO)
    log = structlog.wrap_logger(
        std,
        processors=[structlog.stdlib.add_log_level, structlog.processors.TimeStamper(fmt="iso"),
                    structlog.processors.JSONRenderer()],
        wrapper_class=structlog.stdlib.BoundLogger,
    )
    log.info("started", port=8080)
    try:
        {"a": 1}["customer_id"]
    except KeyError:
        log.exception("order failed", order=7)  # exc_info=True: stdlib appends the traceback
    log.info("still running")
    handler.close()
    std.removeHandler(handler)
    assert "Traceback (most recent call last):" in path.read_text()
    assert logs.detect_format(path) == "jsonl"
    (entry,) = logs.iter_entries(path)
    assert entry.message == "order failed"
    assert entry.exception_type == "KeyError"
    assert isinstance(entry.timestamp, datetime)
