"""Plain text (PHP's own error log) and grouping of repeated errors."""

from __future__ import annotations

from hintline import logs
from hintline.fingerprint import fingerprint
from tests.logs._fixtures import FIXTURES


class TestPlain:
    path = FIXTURES / "plain" / "php-error.log"

    def test_php_error_log(self) -> None:
        """PHP's error log: the fatal errors with their stack, warnings left out, UTC times."""
        assert logs.detect_format(self.path) == "plain"
        entries = logs.read(self.path, limit=None)
        assert len(entries) == 2
        for e in entries:
            assert e.level == "FATAL"
            assert e.exception_type == "LengthException"
            assert e.trace_text.startswith("PHP Fatal error:  Uncaught LengthException")
            assert "Stack trace:" in e.trace_text
            assert e.timestamp is not None
            assert e.timestamp.utcoffset() is not None
            assert e.timestamp.utcoffset().total_seconds() == 0  # type: ignore[union-attr]
        warnings = logs.read(self.path, limit=None, min_level="WARNING")
        assert len(warnings) == 3

    def test_identical_records_share_a_key(self) -> None:
        """Two records with the same text and time are the same key (the key hashes content+time)."""
        a, b = logs.read(self.path, limit=None)
        assert (a.raw == b.raw) == (a.key == b.key)


class TestGroup:
    path = FIXTURES / "python" / "app.log"

    def test_counts_add_up_and_repeats_fall_together(self) -> None:
        """Group counts sum to the entries; the three rounds' KeyErrors form one group."""
        entries = logs.read(self.path, limit=None)
        groups = logs.group(entries)
        assert sum(g.count for g in groups) == len(entries)
        key_errors = [g for g in groups if g.example.exception_type == "KeyError"]
        assert len(key_errors) == 1
        assert key_errors[0].count == sum(1 for e in entries if e.exception_type == "KeyError")
        assert len(groups) < len(entries)

    def test_first_last_seen_and_newest_example(self) -> None:
        """first_seen <= last_seen; the example is the group's newest entry; newest groups first."""
        entries = logs.read(self.path, limit=None)
        groups = logs.group(entries)
        for g in groups:
            members = [e for e in entries if logs.entry_fingerprint(e) == g.fingerprint]
            assert g.first_seen == min(e.timestamp for e in members)  # type: ignore[type-var]
            assert g.last_seen == max(e.timestamp for e in members)  # type: ignore[type-var]
            assert g.example.timestamp == g.last_seen
            assert g.hint == logs.hint_for(g.example)
        lasts = [g.last_seen for g in groups]
        assert lasts == sorted(lasts, reverse=True)  # type: ignore[type-var]

    def test_fingerprint_is_the_shared_function(self) -> None:
        """The group fingerprint is hintline.fingerprint.fingerprint of the example."""
        for g in logs.group(logs.read(self.path, limit=None)):
            e = g.example
            assert g.fingerprint == fingerprint(g.hint, e.trace, logger=e.component, message=e.message)
            assert len(g.fingerprint) == 16

    def test_group_consumes_a_stream(self) -> None:
        """``group`` takes the streaming iter_newest as well as a list."""
        streamed = logs.group(logs.iter_newest(self.path))
        assert [g.fingerprint for g in streamed] == [g.fingerprint for g in logs.group(logs.read(self.path, limit=None))]
