"""glog and PHP's errors read by the log readers, from real captures
(scripts/fixtures/gen_record_logs.py, shared with tests/cleaner/test_record_captures.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hintline import logs
from hintline.cleaner import locate as _locate
from hintline.logs._levels import LEVEL_RANKS, PHP_ERROR_LEVELS

RECORDS = Path(__file__).resolve().parents[1] / "cleaner" / "fixtures" / "records"


@pytest.mark.parametrize("name", ["glog_error", "glog_no_year"])
def test_glog_records_and_levels(name: str) -> None:
    """Each glog line is a record with its level letter's level, its source file:line and its
    time (the year taken from the line, or the reading date's when glog printed none)."""
    path = RECORDS / f"{name}.txt"
    assert logs.detect_format(path) == "glog"
    every = logs.read(path, limit=None, min_level="TRACE")
    assert [e.level for e in every] == ["ERROR", "WARNING", "INFO", "INFO", "INFO"]
    error = logs.read(path, limit=None)
    assert len(error) == 1
    assert error[0].component == "order_worker.cc:44"
    assert error[0].message.endswith("failed: Connection refused")
    assert error[0].timestamp is not None


def test_glog_check_failure_keeps_its_stack() -> None:
    """A failed CHECK is one FATAL record with glog's stack lines under it."""
    path = RECORDS / "glog_check_failed.txt"
    assert logs.detect_format(path) == "glog"
    (fatal,) = logs.read(path, limit=None)
    assert fatal.level == "FATAL"
    assert fatal.message.startswith("Check failed: config != nullptr")
    assert "*** Check failure stack trace: ***" in fatal.raw
    assert "worker.conf" in logs.hint_for(fatal).text


def test_php_on_stderr() -> None:
    """PHP's errors on stderr (no time): one record per error, its type as the level, the
    fatal one with its stack and exception class."""
    path = RECORDS / "php_stderr.txt"
    assert logs.detect_format(path) == "php"
    every = logs.read(path, limit=None, min_level="TRACE")
    assert [e.level for e in every] == ["FATAL", "WARNING", "NOTICE", "INFO"]
    (fatal,) = logs.read(path, limit=None)
    assert fatal.exception_type == "TypeError"
    assert "Stack trace:" in fatal.trace_text


def test_php_error_log_deprecated_is_not_an_error() -> None:
    """In PHP's error log, ``PHP Deprecated:`` is INFO (it was read as ERROR: no level word)."""
    path = RECORDS / "php_error_log.txt"
    every = logs.read(path, limit=None, min_level="TRACE")
    assert [e.level for e in every] == ["FATAL", "WARNING", "NOTICE", "INFO"]


def test_locate_ranks_php_as_the_readers_do() -> None:
    """clean()'s locate and the log readers rank every PHP error type alike, but a run-time
    ``Warning``: a call that failed, which locate reads as an error (the readers list it under
    the name PHP gives it)."""
    assert set(_locate._PHP_TYPES) == set(PHP_ERROR_LEVELS)
    for word, rank in _locate._PHP_TYPES.items():
        expected = LEVEL_RANKS["ERROR"] if word == "Warning" else LEVEL_RANKS[PHP_ERROR_LEVELS[word]]
        assert rank == expected, word
