"""glog and PHP output read as log records (scripts/fixtures/gen_record_logs.py).

Each capture is what a real run wrote: a C++ program logging through glog (with and without
the year in its line prefix, and a failed CHECK), and a PHP script's errors logged to stderr,
to an error log file, and displayed. In each, records below ERROR come first and are claimed
by a rule of their own (a WARNING about a missing file); the ERROR/FATAL record must decide.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hintline.cleaner.locate import _level, locate
from tests._expected import assert_expected_hint

ROOT = Path(__file__).resolve().parents[2]
RECORDS = Path(__file__).parent / "fixtures" / "records"
CASES = sorted(RECORDS.glob("*.txt"))


def _id(path: Path) -> str:
    return path.stem


def test_captures_have_provenance() -> None:
    """The captures name their generator and the versions that wrote them."""
    versions = json.loads((RECORDS / "VERSIONS.json").read_text(encoding="utf-8"))
    assert (ROOT / versions["generator"]).is_file()
    assert versions["libgoogle-glog-dev"] != "not installed"
    assert versions["php-cli"]
    assert {p.stem.split("_")[0] for p in CASES} == {"glog", "php"}


@pytest.mark.parametrize("path", CASES, ids=_id)
def test_capture_gives_expected_hint(engine: str, path: Path) -> None:
    """The ERROR/FATAL record decides the hint, not the WARNING before it."""
    assert_expected_hint(path)


@pytest.mark.parametrize("path", CASES, ids=_id)
def test_capture_is_read_as_records(path: Path) -> None:
    """Every capture is read as a log; its block is the last record at ERROR or above."""
    text = path.read_text(encoding="utf-8")
    located = locate(text)
    assert located is not None
    assert located.log
    assert located.failure
    assert "Warning:" not in located.block
    assert "W1202" not in located.block
    assert "cache.bin" not in located.block  # the recovered WARNING's words
    assert "orders.csv" not in located.block  # PHP's failed call before the fatal one


@pytest.mark.parametrize("path", CASES, ids=_id)
def test_every_severity_is_ranked(path: Path) -> None:
    """Each header line of a capture gets the rank of its severity, as any other record (PHP's
    run-time Warning, a failed call, as an error)."""
    expected = {  # PHP's words first: ``Fatal error: …`` also starts with glog's ``F``
        "Deprecated": 20, "Notice": 25, "Warning": 40, "Fatal error": 50,
        "I": 20, "W": 30, "E": 40, "F": 50,
    }  # fmt: skip
    seen = set()
    for line in path.read_text(encoding="utf-8").split("\n"):
        level = _level(line)
        if level is None:
            continue
        word = next(w for w in expected if line.startswith(w) or f"{w}:" in line[:60])
        assert level[0] == expected[word], line
        seen.add(word)
    assert len(seen) >= 3, seen


def test_a_failed_call_before_its_null_consequence_decides() -> None:
    """A fatal error that only says a failed call's false/null was used defers to the failure
    record just before it (a real PHP run: tests/rules/fixtures/fs/php_fopen_permission.txt);
    one that says something of its own decides."""
    path = ROOT / "tests" / "rules" / "fixtures" / "fs" / "php_fopen_permission.txt"
    located = locate(path.read_text(encoding="utf-8"))
    assert located is not None
    assert located.block.startswith("Warning: fopen(data/payroll.csv): Failed to open stream")
    records = (RECORDS / "php_stderr.txt").read_text(encoding="utf-8")
    located = locate(records)
    assert located is not None
    assert located.block.startswith("PHP Fatal error:  Uncaught TypeError: array_sum()")
