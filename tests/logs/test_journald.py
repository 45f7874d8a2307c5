"""``journalctl -o json`` from a real journald: one trace split over entries is merged back."""

from __future__ import annotations

import json

from hintline import logs
from tests.logs._fixtures import FIXTURES, short

JOURNAL = FIXTURES / "journald" / "journal.json"


def _expected(name: str) -> list[dict[str, str | None]]:
    data: list[dict[str, str | None]] = json.loads((FIXTURES / "journald" / name).read_text())
    return list(reversed(data))


class TestJournald:
    def test_detected(self) -> None:
        """An export is recognised by its journal fields."""
        assert logs.detect_format(JOURNAL) == "journald"

    def test_traces_are_split_over_entries_in_the_export(self) -> None:
        """The fixture really has one journal entry per line of a trace (what merging undoes)."""
        messages = [json.loads(line).get("MESSAGE") for line in JOURNAL.read_text().splitlines()]
        assert "Traceback (most recent call last):" in messages
        assert any(isinstance(m, str) and m.startswith("\tat shop.ShopWorker") for m in messages)

    def test_java_stack_lines_merge_into_their_record(self) -> None:
        """The Java worker's (stdout) records come back whole, with their root cause."""
        got = [e for e in logs.read(JOURNAL, limit=None) if e.component == "shop.worker.OrderService"]
        want = _expected("java.expected.json")
        assert [e.message for e in got] == [w["message"] for w in want]
        assert [short(e.exception_type) for e in got] == [short(w["exception"]) for w in want]
        assert all(e.extra.get("pid") for e in got)

    def test_python_tracebacks_merge_and_keep_their_level(self) -> None:
        """The Python worker's stderr (priority err) keeps each record's own level; warnings drop out."""
        got = [e for e in logs.read(JOURNAL, limit=None) if e.component == "shop.worker"]
        want = _expected("worker.expected.json")
        assert [(e.level, e.message) for e in got] == [(w["level"], w["message"]) for w in want]
        assert [short(e.exception_type) for e in got] == [short(w["exception"]) for w in want]

    def test_uncaught_traceback_is_its_own_entry(self) -> None:
        """The interpreter's uncaught traceback, printed right after a logged error, is not merged into it."""
        crash = [e for e in logs.read(JOURNAL, limit=None) if e.component == "shop-worker"]
        assert len(crash) == 1
        assert crash[0].level == "ERROR"
        assert crash[0].exception_type == "KeyError"
        assert crash[0].trace_text.startswith("Traceback (most recent call last):")
        assert 'in <module>' in crash[0].trace_text

    def test_two_processes_interleaved_stay_apart(self) -> None:
        """Entries of the two processes interleave in the journal but never merge across them."""
        for entry in logs.read(JOURNAL, limit=None):
            pids = {json.loads(line)["_PID"] for line in entry.raw.splitlines()}
            assert len(pids) == 1
