"""Logs written during the test by the real ``logging`` module: keys, order, filters, CLI."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from hintline import logs
from hintline.cli import main


def _raise_key_error() -> None:
    customer: dict[str, str] = {}
    customer["id"]


def _write_errors(logger: logging.Logger) -> None:
    logger.info("service started")
    try:
        _raise_key_error()
    except KeyError:
        logger.exception("order 17 failed")
    logger.warning("slow query")
    logger.error("payment gateway said no")


class TestLiveLogging:
    def test_reads_errors_newest_first(self, python_log: tuple[Path, logging.Logger]) -> None:
        """Only ERROR records come back, the newest first, with class and trace."""
        path, logger = python_log
        _write_errors(logger)
        entries = logs.read(path)
        assert [e.message for e in entries] == ["payment gateway said no", "order 17 failed"]
        assert entries[1].exception_type == "KeyError"
        assert "Traceback (most recent call last):" in entries[1].trace_text
        assert all(e.level == "ERROR" and e.format == "python" for e in entries)
        assert entries[0].component == logger.name

    def test_key_is_stable_after_more_lines(self, python_log: tuple[Path, logging.Logger]) -> None:
        """An entry keeps its key when newer records are appended after it."""
        path, logger = python_log
        _write_errors(logger)
        before = {e.message: e.key for e in logs.read(path)}
        logger.error("a newer error")
        logger.info("and an info line")
        after = {e.message: e.key for e in logs.read(path)}
        assert after["order 17 failed"] == before["order 17 failed"]
        assert after["payment gateway said no"] == before["payment gateway said no"]
        assert len(set(after.values())) == 3
        found = logs.find(path, before["order 17 failed"])
        assert found is not None
        assert found.message == "order 17 failed"

    def test_cli_scrubs_logged_secret(self, python_log: tuple[Path, logging.Logger], capsys: pytest.CaptureFixture[str]) -> None:
        """A password logged in a DSN never reaches the terminal, in text or JSON output."""
        path, logger = python_log
        logger.error("cannot connect to postgresql://shop:Hunter2Secret@db.internal:5432/shop")
        assert main(["logs", str(path), "--raw"]) == 0
        out = capsys.readouterr().out
        assert "Hunter2Secret" not in out
        assert "postgresql://shop:" in out
        assert main(["logs", str(path), "--json", "--raw"]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert "Hunter2Secret" not in "\n".join(lines)
        assert json.loads(lines[0])["level"] == "ERROR"


class TestDjangoVerboseFormat:
    def test_level_first_layout(self, tmp_path: Path) -> None:
        """Django's documented "verbose" format puts the level before asctime; both are read."""
        path = tmp_path / "django.log"
        handler = logging.FileHandler(path, encoding="utf-8")
        handler.setFormatter(logging.Formatter("{levelname} {asctime} {module} {process:d} {thread:d} {message}", style="{"))
        logger = logging.getLogger(f"django.test.{tmp_path.name}")
        logger.propagate = False
        logger.addHandler(handler)
        try:
            logger.warning("slow request")
            try:
                _raise_key_error()
            except KeyError:
                logger.exception("Internal Server Error: /orders/17")
        finally:
            logger.removeHandler(handler)
            handler.close()
        assert logs.detect_format(path) == "python"
        (entry,) = logs.read(path)
        assert entry.level == "ERROR"
        assert entry.timestamp is not None
        assert entry.exception_type == "KeyError"
        assert "Internal Server Error: /orders/17" in entry.message
