"""HintFilter and HintFormatter with the real ``logging`` module."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from hintline import clean
from hintline.integrations.logging import HintFilter, HintFormatter, hint_for_record


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def logger(request: pytest.FixtureRequest) -> Iterator[logging.Logger]:
    log = logging.getLogger(f"hintline.tests.{request.node.name}")
    log.propagate = False
    log.setLevel(logging.DEBUG)
    yield log
    for handler in list(log.handlers):
        log.removeHandler(handler)


def _lookup(data: dict[str, int]) -> int:
    return data["customer_id"]


class TestHintFilter:
    def test_exception_record_gets_the_hint_of_its_exception(self, logger: logging.Logger) -> None:
        """logger.exception(): record.hint is clean() of the exception itself."""
        capture = _Capture()
        capture.addFilter(HintFilter())
        logger.addHandler(capture)
        try:
            _lookup({})
        except KeyError as exc:
            logger.exception("lookup failed")
            expected = clean(exc)
        (record,) = capture.records
        assert record.hint == expected.text  # type: ignore[attr-defined]
        assert record.hint.startswith("Hint: ")  # type: ignore[attr-defined]
        assert record.hint_category == str(expected.category)  # type: ignore[attr-defined]
        assert record.hint_key == (expected.key or "")  # type: ignore[attr-defined]

    def test_error_without_exception_gets_the_hint_of_its_message(self, logger: logging.Logger) -> None:
        """An ERROR record without exc_info: the hint of its formatted message."""
        capture = _Capture()
        capture.addFilter(HintFilter())
        logger.addHandler(capture)
        logger.error("connect to %s failed: Connection refused", "127.0.0.1:5432")
        (record,) = capture.records
        assert record.hint == clean("connect to 127.0.0.1:5432 failed: Connection refused").text  # type: ignore[attr-defined]

    def test_info_records_get_empty_fields_and_pass(self, logger: logging.Logger) -> None:
        """Lower levels pass unchanged apart from empty hint fields (so %(hint)s always formats)."""
        capture = _Capture()
        capture.addFilter(HintFilter())
        logger.addHandler(capture)
        logger.info("all good")
        logger.warning("careful")
        assert [r.hint for r in capture.records] == ["", ""]  # type: ignore[attr-defined]

    def test_warning_with_exc_info_gets_a_hint(self, logger: logging.Logger) -> None:
        """exc_info makes a record worth a hint whatever its level."""
        capture = _Capture()
        capture.addFilter(HintFilter())
        logger.addHandler(capture)
        try:
            1 / 0  # noqa: B018
        except ZeroDivisionError:
            logger.warning("ratio skipped", exc_info=True)
        assert capture.records[0].hint.startswith("Hint: ")  # type: ignore[attr-defined]

    def test_min_level(self, logger: logging.Logger) -> None:
        """min_level=WARNING gives warnings a hint too."""
        capture = _Capture()
        capture.addFilter(HintFilter(min_level=logging.WARNING))
        logger.addHandler(capture)
        logger.warning("disk 91% full")
        assert capture.records[0].hint  # type: ignore[attr-defined]

    def test_format_string_may_name_hint(self, logger: logging.Logger) -> None:
        """A handler's format string can use %(hint)s for every record."""
        stream = io.StringIO()
        handler = logging.StreamHandler(stream)
        handler.addFilter(HintFilter())
        handler.setFormatter(logging.Formatter("%(levelname)s %(message)s [%(hint)s]"))
        logger.addHandler(handler)
        logger.info("fine")
        logger.error("Permission denied: '/var/lib/app/state.db'")
        lines = stream.getvalue().splitlines()
        assert lines[0] == "INFO fine []"
        assert lines[1].startswith("ERROR Permission denied")
        assert "[Hint: " in lines[1]

    def test_broken_message_does_not_break_logging(self, logger: logging.Logger) -> None:
        """A record whose message cannot be formatted passes the filter with an empty hint."""
        record = logger.makeRecord(logger.name, logging.ERROR, __file__, 1, "%d items", ("not a number",), None)
        assert HintFilter().filter(record) is True
        assert record.hint == ""  # type: ignore[attr-defined]
        assert hint_for_record(record) is None


class TestHintFormatter:
    def test_appends_hint_after_traceback(self, logger: logging.Logger) -> None:
        """The hint is the last line, after the traceback, and it is scrubbed."""
        stream = io.StringIO()
        handler = logging.StreamHandler(stream)
        handler.setFormatter(HintFormatter("%(levelname)s %(name)s: %(message)s"))
        logger.addHandler(handler)
        try:
            _lookup({})
        except KeyError as exc:
            logger.exception("lookup failed")
            expected = clean(exc).text
        text = stream.getvalue().rstrip("\n")
        lines = text.splitlines()
        assert lines[0].endswith("lookup failed")
        assert "Traceback (most recent call last):" in text
        assert lines[-1] == expected
        assert lines[-2].startswith("KeyError")

    def test_no_hint_line_for_info(self, logger: logging.Logger) -> None:
        """INFO records are formatted exactly as the plain formatter would."""
        stream = io.StringIO()
        handler = logging.StreamHandler(stream)
        handler.setFormatter(HintFormatter("%(levelname)s %(message)s"))
        logger.addHandler(handler)
        logger.info("hello")
        assert stream.getvalue() == "INFO hello\n"

    def test_secret_in_message_not_in_hint_line(self, logger: logging.Logger) -> None:
        """A DSN password in the message does not appear in the appended hint line."""
        stream = io.StringIO()
        handler = logging.StreamHandler(stream)
        handler.setFormatter(HintFormatter("%(message)s"))
        logger.addHandler(handler)
        logger.error("could not connect to postgresql://app:Pa55word1@db:5432/app")
        hint_line = stream.getvalue().splitlines()[-1]
        assert hint_line.startswith("Hint: ")
        assert "Pa55word1" not in hint_line

    def test_filter_and_formatter_together_compute_once(self, logger: logging.Logger, monkeypatch: pytest.MonkeyPatch) -> None:
        """With both installed the hint is computed once per record."""
        import hintline.integrations.logging as integration

        calls: list[object] = []
        real = integration.clean
        monkeypatch.setattr(integration, "clean", lambda e: calls.append(e) or real(e))
        stream = io.StringIO()
        handler = logging.StreamHandler(stream)
        handler.addFilter(HintFilter())
        handler.setFormatter(HintFormatter("%(message)s"))
        logger.addHandler(handler)
        logger.addHandler(_Capture())
        logger.error("queue full")
        assert len(calls) == 1
