"""add_hint with real structlog pipelines."""

from __future__ import annotations

import io
import json
from typing import Any

import structlog

from hintline import clean
from hintline.integrations.structlog import add_hint


def _logger(*processors: Any) -> tuple[Any, io.StringIO]:
    out = io.StringIO()
    logger = structlog.wrap_logger(
        structlog.PrintLogger(out),
        processors=[structlog.processors.add_log_level, *processors, structlog.processors.JSONRenderer()],
    )
    return logger, out


def _events(out: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _fail() -> None:
    {}["sku"]


class TestAddHint:
    def test_exception_event_gets_hint_before_format_exc_info(self) -> None:
        """log.exception(): hint and hint_category from the live exception."""
        log, out = _logger(add_hint, structlog.processors.format_exc_info)
        try:
            _fail()
        except KeyError as exc:
            log.exception("stock lookup failed")
            expected = clean(exc)
        (event,) = _events(out)
        assert event["hint"] == expected.text
        assert event["hint_category"] == str(expected.category)
        assert "KeyError" in event["exception"]

    def test_after_format_exc_info_uses_the_formatted_exception(self) -> None:
        """Placed after format_exc_info, the hint comes from the traceback string."""
        log, out = _logger(structlog.processors.format_exc_info, add_hint)
        try:
            _fail()
        except KeyError:
            log.error("stock lookup failed", exc_info=True)  # noqa: G201 - the exc_info path is the point
        (event,) = _events(out)
        assert event["hint"] == clean(event["exception"]).text

    def test_exception_instance_as_exc_info(self) -> None:
        """exc_info=<exception> works outside an except block too."""
        log, out = _logger(add_hint, structlog.processors.dict_tracebacks)
        error = ConnectionRefusedError(111, "Connection refused")
        log.error("upstream down", exc_info=error)
        (event,) = _events(out)
        assert event["hint"] == clean(error).text

    def test_events_without_exception_or_below_error_untouched(self) -> None:
        """No exception info, or level below error: no hint fields."""
        log, out = _logger(add_hint, structlog.processors.format_exc_info)
        log.error("plain error without exception")
        try:
            _fail()
        except KeyError:
            log.warning("handled", exc_info=True)
        log.info("fine")
        for event in _events(out):
            assert "hint" not in event
            assert "hint_category" not in event

    def test_returns_the_same_mapping(self) -> None:
        """Called directly, the processor returns the event dict it was given."""
        event = {"event": "x", "exception": "Traceback (most recent call last):\nValueError: bad"}
        assert add_hint(None, "error", event) is event
        assert event["hint"].startswith("Hint: ")
