"""clean()'s stages before the table: normalise, locate the failure, bound without losing it,
and a fallback that says something."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hintline
from hintline import Category, Example, Rule, rules
from hintline.cleaner import match as _engine
from hintline.cleaner.bound import MAX_INPUT_BYTES, bound, prepare, read_bounded
from hintline.cleaner.fallback import NO_ERROR_RECORD
from hintline.cleaner.locate import locate
from hintline.cleaner.normalise import normalise

FIXTURES = Path(__file__).parent / "rules" / "fixtures"
LOGS = Path(__file__).parent / "logs" / "fixtures"  # real logs (scripts/fixtures/gen_logs.py)
# urllib3's retry warning, as connectionpool.py words it ("Retrying (%r) after connection broken
# by '%r': %s"), for a read that timed out.
RETRY_WARNING = (
    "Retrying (Retry(total=2, connect=None, read=None, redirect=None, status=None)) after "
    "connection broken by 'ReadTimeoutError(\"HTTPSConnectionPool(host='api.internal', port=443)"
    ": Read timed out. (read timeout=5)\")': /v1/orders"
)


class ImportFailedError(Exception):
    """An application's own exception: no rule names it."""


def _log(records: list[tuple[int, str, BaseException | None]]) -> str:
    """What Python's logging writes for ``records`` with a common format (real tracebacks)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger("hintline-test-app")
    logger.propagate = False
    logger.handlers = [handler]
    logger.setLevel(logging.DEBUG)
    for level, message, exc in records:
        if exc is None:
            logger.log(level, message)
            continue
        try:
            raise exc
        except BaseException as caught:
            logger.log(level, message, exc_info=caught)
    return stream.getvalue()


def _missing_file() -> FileNotFoundError:
    try:
        open("/nonexistent/hintline/report.csv", encoding="utf-8")  # noqa: SIM115
    except FileNotFoundError as exc:
        return exc
    raise AssertionError("the file exists")


class TestLocate:
    def test_recovered_retry_warning_does_not_decide(self) -> None:
        """A retried read timeout logged before the final, unknown exception is not the hint."""
        text = _log(
            [
                (logging.WARNING, RETRY_WARNING, None),
                (
                    logging.ERROR,
                    "import failed",
                    ImportFailedError("order 7 could not be imported"),
                ),
            ]
        )
        assert hintline.clean(RETRY_WARNING).category is Category.TIMEOUT  # on its own it is
        hint = hintline.clean(text)
        assert hint.category is Category.OTHER
        assert "ImportFailedError: order 7 could not be imported" in hint.text

    def test_info_line_does_not_decide(self) -> None:
        """An INFO line naming a unique violation does not outrank the final FileNotFoundError."""
        info = 'skipped row 12: duplicate key value violates unique constraint "users_email_key"'
        text = _log([(logging.INFO, info, None), (logging.ERROR, "export failed", _missing_file())])
        assert hintline.clean(info).category is Category.UNIQUE_VIOLATION
        hint = hintline.clean(text)
        assert hint.rule is not None
        assert hint.rule.startswith("fs.")
        assert hint.key == "/nonexistent/hintline/report.csv"

    def test_uncaught_trace_after_log_lines_is_the_failure(self) -> None:
        """A traceback printed after INFO/WARNING records (no header of its own) is the block."""
        trace = (FIXTURES / "db" / "pg-psycopg-fk-insert.txt").read_text(encoding="utf-8")
        text = _log([(logging.WARNING, RETRY_WARNING, None)]) + trace
        located = locate(text)
        assert located is not None
        assert located.failure
        assert RETRY_WARNING not in located.block
        assert hintline.clean(text).category is Category.FOREIGN_KEY_VIOLATION

    def test_error_record_message_is_the_fallback(self) -> None:
        """With no exception, the last ERROR record's message is named, header cut."""
        text = _log(
            [
                (logging.INFO, "row 1 imported", None),
                (logging.ERROR, "payment batch 7 rejected by the ledger", None),
                (logging.INFO, "shutting down", None),
            ]
        )
        assert hintline.clean(text).text == "Hint: payment batch 7 rejected by the ledger"

    def test_log_without_error_says_so(self) -> None:
        """A log of INFO/DEBUG/WARNING records only gives a plain 'no error line' hint."""
        text = _log([(logging.INFO, "row 1 imported", None), (logging.DEBUG, "tick", None)])
        hint = hintline.clean(text)
        assert hint.text == "Hint: " + NO_ERROR_RECORD
        assert "imported" not in hint.text

    @pytest.mark.parametrize(
        ("log", "last_error"),
        [
            ("python/basic.log", "upstream said 503 Service Unavailable (no exception)"),
            ("python/app.log", "upstream said 503 Service Unavailable (no exception)"),
            ("jsonl/json-logger.log", "upstream said 503 Service Unavailable (no exception)"),
            ("jsonl/structlog.log", "upstream said 503 Service Unavailable (no exception)"),
            ("jsonl/structlog-dict.log", "upstream said 503 Service Unavailable (no exception)"),
            ("jsonl/ecs.log", "upstream said 503 Service Unavailable (no exception)"),
            ("jsonl/monolog.json.log", "upstream said 503 Service Unavailable"),
            ("journald/journal.json", "upstream said 503 Service Unavailable"),
            ("logback/app.log", "upstream said 503 Service Unavailable"),
            ("logback/console.log", "upstream said 503 Service Unavailable"),
            ("log4j/app.log", "upstream said 503 Service Unavailable"),
            ("monolog/monolog.log", "upstream said 503 Service Unavailable"),
            ("typo3/typo3.log", 'request="c21d9ef72591d" component="TYPO3.CMS.Scheduler.Scheduler"'),
        ],
    )
    def test_real_logs_locate_their_last_error_record(self, log: str, last_error: str) -> None:
        """In real logs of every format the log readers know, the block is the last ERROR record."""
        text = normalise(prepare((LOGS / log).read_text(encoding="utf-8")))
        located = locate(text)
        assert located is not None
        assert located.failure
        assert located.message is not None
        assert located.message.startswith(last_error)
        assert hintline.clean((LOGS / log).read_text(encoding="utf-8")).text != (
            "Hint: retrying order 1001"  # the WARNING record these logs hold
        )

    def test_plain_text_is_not_located(self) -> None:
        """One error (a trace, a message) is its own block: locate answers None."""
        for path in sorted((FIXTURES / "python").glob("*.txt"))[:20]:
            assert locate(path.read_text(encoding="utf-8")) is None, path.name


TIMEOUT = Rule(
    code="TST101", name="test.timeout", category=Category.TIMEOUT, pattern=r"timed out",
    hint="Timed out.", why="test rule", examples=(Example("x", "Hint: x"),), key_group=None,
)  # fmt: skip
REFUSED = Rule(
    code="TST102", name="test.refused", category=Category.CONNECTION_REFUSED,
    pattern=r"Connection refused", hint="Refused.", why="test rule",
    examples=(Example("x", "Hint: x"),), key_group=None,
)  # fmt: skip


@pytest.fixture(params=_engine.available_engines())
def table(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A two-rule table (timeout listed first) in place of RULES, under each engine."""
    monkeypatch.setattr(rules, "RULES", (TIMEOUT, REFUSED))
    _engine.set_engine(request.param)
    yield request.param
    _engine.set_engine(None)


class TestPrecedenceWithinTheBlock:
    def test_first_listed_wins_inside_the_block(self, table: str) -> None:
        """Inside the located block the first-listed rule wins, wherever it sits."""
        text = (
            "2026-12-01 10:00:00,001 INFO app: starting\n"
            "2026-12-01 10:00:01,002 ERROR app: Connection refused, then the retry timed out\n"
        )
        assert hintline.clean(text).rule == "test.timeout"

    def test_block_beats_an_earlier_listed_rule_outside_it(self, table: str) -> None:
        """A recovered line that the first-listed rule claims loses to the located block."""
        text = (
            "2026-12-01 10:00:00,001 WARNING app: read timed out, retrying\n"
            "2026-12-01 10:00:01,002 ERROR app: Connection refused\n"
        )
        assert hintline.clean(text).rule == "test.refused"

    def test_rest_answers_when_the_block_matches_nothing(self, table: str) -> None:
        """An earlier ERROR record is read when the located block matches no rule."""
        text = (
            "2026-12-01 10:00:00,001 ERROR app: Connection refused\n"
            "2026-12-01 10:00:01,002 ERROR app: giving up\n"
        )
        assert hintline.clean(text).rule == "test.refused"


class TestBound:
    def test_failure_in_the_middle_of_a_long_log_is_kept(self) -> None:
        """An exception between the head and the tail of a 300 KB log decides the hint."""
        info = _log([(logging.INFO, f"row {n} imported (batch 7)", None) for n in range(2500)])
        text = info + _log([(logging.ERROR, "export failed", _missing_file())]) + info
        assert len(text) > 300_000
        bounded = bound(text)
        assert len(bounded.encode("utf-8")) <= MAX_INPUT_BYTES
        assert "FileNotFoundError" in bounded
        assert hintline.clean(text).key == "/nonexistent/hintline/report.csv"
        assert hintline.clean(text.encode()).key == "/nonexistent/hintline/report.csv"

    @pytest.mark.parametrize("at", [20_000, 90_000, 150_000, 230_000, 290_000])
    @pytest.mark.parametrize("chunk", [4096, 65536])
    def test_stream_keeps_what_bound_keeps(self, at: int, chunk: int) -> None:
        """Reading a stream (``cmd | hintline clean``) keeps the window bound() keeps."""
        info = _log([(logging.INFO, f"row {n} imported (batch 7) é", None) for n in range(3000)])
        failure = _log([(logging.ERROR, "export failed", _missing_file())])
        data = (info[:at] + "\n" + failure + info[at:]).encode()
        got = read_bounded(io.BytesIO(data), chunk=chunk)
        assert len(got) <= MAX_INPUT_BYTES
        assert got.decode() == prepare(data)
        assert hintline.clean(got).key == "/nonexistent/hintline/report.csv"

    @pytest.mark.parametrize("form", ["str", "bytes", "stream"])
    def test_wordless_failure_in_the_middle_of_a_log_is_kept(self, form: str) -> None:
        """A line that opens no record of the log (what another writer printed between its
        records) is found in the middle without any failure word, and read from its first
        line however long its run is."""
        info = _log([(logging.INFO, f"row {n} imported (batch 7)", None) for n in range(2500)])
        dump = "".join(f"  field_{n}: {n}\n" for n in range(2000))  # 30 KB, no failure word
        child = f"DETAIL:  Key (id)=(1) is still referenced\n{dump}}}\nNode.js v20.20.2\n"
        text = info + child + info
        if form == "str":
            got = hintline.clean(text)
        elif form == "bytes":
            got = hintline.clean(text.encode())
        else:
            got = hintline.clean(read_bounded(io.BytesIO(text.encode()), chunk=8192))
        assert got.category is Category.FOREIGN_KEY_VIOLATION
        assert got.key == "id"

    def test_window_is_bounded_for_non_ascii(self) -> None:
        """The windowed cut stays within 64 KiB of UTF-8 with 4-byte characters."""
        filler = "\U0001f600 INFO ok\n" * 40_000
        text = filler + "KeyError: 'user_id'\n" + filler
        bounded = bound(text)
        assert len(bounded.encode("utf-8")) <= MAX_INPUT_BYTES
        assert "KeyError: 'user_id'" in bounded


class TestNormalise:
    def test_plain_text_is_returned_as_is(self) -> None:
        """A text with nothing to normalise is the same object (no copy)."""
        for path in sorted(FIXTURES.rglob("*.txt"))[:200]:
            text = path.read_text(encoding="utf-8")
            if "\r" in text or text[:1].isspace() or "&" in text:
                continue
            assert normalise(text) is text, path.name

    def test_escaped_string_inside_text_leaves_no_residue(self) -> None:
        """A JSON-escaped error inside a plain tool result: the key has no ``\\"`` or ``\\n``."""
        inner = json.dumps(
            "psycopg.errors.UniqueViolation: duplicate key value violates unique constraint "
            '"users_email_key"\nDETAIL:  Key (email)=(a@example.com) already exists.'
        )
        hint = hintline.clean(f"tool 'create_user' failed: {inner}")
        assert hint.category is Category.UNIQUE_VIOLATION
        assert hint.key is not None
        assert "\\" not in hint.key
        assert '"' not in hint.key

    def test_html_entities_leave_no_residue(self) -> None:
        """An HTML-escaped KeyError inside ``<pre>`` gives the key without ``&#x27;``."""
        page = "<html><body><pre>Traceback (most recent call last):\n  File &quot;app.py&quot;, line 3, in &lt;module&gt;\nKeyError: &#x27;user_id&#x27;</pre></body></html>"
        hint = hintline.clean(page)
        assert hint.key == "user_id"


    def test_one_line_after_an_iso_timestamp_keeps_its_words(self) -> None:
        """``<ts> parse error: …`` is a message after a timestamp, not a syslog header of host
        ``parse`` and program ``error``: a header without [pid] needs two lines that share it."""
        line = "parse error: Unfinished JSON term at EOF at line 1, column 9"
        assert normalise(f"2026-12-01T10:00:03.404Z {line}") == line
        two = "2026-12-01T10:00:03.404+00:00 web01 kernel: Out of memory\n" * 2
        assert normalise(two) == "Out of memory\nOut of memory\n"
        pid = "2026-12-01T10:00:03.404+00:00 web01 app[4242]: boom"
        assert normalise(pid) == "boom"

    def test_a_json_rpc_error_keeps_its_code(self) -> None:
        """A JSON-RPC error logged as a JSON log line keeps its code for the rules to read."""
        error = json.dumps({"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "Method not found"}})
        record = json.dumps({"levelname": "ERROR", "message": error})
        assert "-32601: Method not found" in normalise(record)
        assert hintline.clean(record).rule == "tools.jsonrpc-method-not-found"

    @pytest.mark.parametrize("end", ["\x1b\\", "\x07"])
    def test_osc8_hyperlinks_leave_nothing(self, end: str) -> None:
        """A terminal hyperlink (OSC 8, ended by ST or BEL) leaves neither its URL nor residue."""
        link = f"\x1b]8;;file:///srv/app/import.py{end}"
        text = f"{link}app.ImportFailedError: order 7 could not be imported\x1b]8;;{end}"
        assert hintline.clean(text).text == (
            "Hint: app.ImportFailedError: order 7 could not be imported"
        )


class TestFallback:
    def test_never_an_html_tag(self) -> None:
        """An HTML page no rule claims gives its text, not ``<html>``."""
        page = (
            "<html><head><title>Error</title></head><body><h1>Error</h1>"
            "<p>The export queue is paused by an administrator.</p></body></html>"
        )
        assert hintline.clean(page).text == (
            "Hint: The export queue is paused by an administrator."
        )

    def test_never_a_json_envelope(self) -> None:
        """A JSON log record no rule claims gives its message, not ``{"time": …``."""
        record = json.dumps(
            {"time": "2026-12-01T10:00:00Z", "level": "error", "msg": "export paused by admin"}
        )
        assert hintline.clean(record).text == "Hint: export paused by admin"

    def test_never_a_timestamped_traceback_header(self) -> None:
        """Every line timestamped: the exception is named, not ``<ts> Traceback (most …``."""
        try:
            raise ImportFailedError("order 7 could not be imported")
        except ImportFailedError:
            import traceback

            trace = traceback.format_exc()
        text = "\n".join(f"2026-12-01T10:00:00.123Z {line}" for line in trace.splitlines())
        hint = hintline.clean(text)
        assert "Traceback" not in hint.text
        assert "ImportFailedError: order 7 could not be imported" in hint.text

    def test_never_a_bare_word(self) -> None:
        """``Error`` alone on a line is not a hint; the line that says something is."""
        assert hintline.clean("Error\n\nthe export queue is paused").text == (
            "Hint: the export queue is paused"
        )


_FRAGMENTS = st.sampled_from(
    [
        "{", "}", "[", "]", '"', '\\"', "\\n", "\n", "\r", "\r\n", "<pre>", "</pre>", "<br>",
        "<html>", "<title>", "</title>", "<script>", "&#x27;", "&quot;", "&", "...", "é", "\x1b[31m",
        "2026-12-01T10:00:00.123Z ", "Dec  1 10:00:00 web01 app[1]: ", "E   ", "    ", "\t",
        "web-1  | ", "2026-12-01T10:00:00.1Z stderr F ", "ERROR ", "INFO ", "WARNING:a:",
        "[error] ", "level=error ", "Traceback (most recent call last):", "KeyError: 'k'",
        "Caused by: ", "= test session starts =", "____ t ____", '{"level":"error","msg":"',
        '{"jsonrpc":"2.0","error":{"message":"', '"}', '"}}', "null", "1", ",", ":",
    ]
)  # fmt: skip


@settings(max_examples=1500, deadline=None)
@given(st.lists(_FRAGMENTS | st.text(max_size=4), max_size=40))
def test_stages_are_total(parts: list[str]) -> None:
    """normalise and locate never raise on any mix of what they look for; clean() never needs
    its last-resort answer."""
    text = "".join(parts)
    normalised = normalise(text)
    assert isinstance(normalised, str)
    located = locate(normalised)
    assert located is None or isinstance(located.block, str)
    assert hintline.clean(text).text != "Hint: hintline could not read this error."
