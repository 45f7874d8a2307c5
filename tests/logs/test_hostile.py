"""Input that is not a nice log: never a crash, bounded memory, a clear error where one is due."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hintline import logs
from hintline.logs import _source
from tests.logs._fixtures import CASES, FIXTURES


class TestHostile:
    def test_empty_file(self, tmp_path: Path) -> None:
        """An empty log has no entries and no error."""
        path = tmp_path / "empty.log"
        path.write_bytes(b"")
        assert logs.detect_format(path) == "plain"
        assert logs.read(path) == []

    def test_binary_file_is_a_format_error(self, tmp_path: Path) -> None:
        """Binary data is refused by detection, and read with a forced format without crashing."""
        path = tmp_path / "core.log"
        path.write_bytes(os.urandom(200_000))
        with pytest.raises(logs.LogFormatError):
            logs.read(path)
        for fmt in logs.FORMATS:
            logs.read(path, format=fmt, limit=None)

    def test_huge_single_line_is_cut_not_loaded(self, tmp_path: Path) -> None:
        """A 5 MB line becomes one entry whose raw text keeps its start and end only."""
        path = tmp_path / "huge.log"
        body = "x" * (5 << 20)
        path.write_text(f"2026-11-30 06:00:00,000 ERROR app: start {body} end\n")
        for reverse in (False, True):
            (entry,) = logs.iter_entries(path, reverse=reverse)
            assert entry.raw.startswith("2026-11-30 06:00:00,000 ERROR app: start")
            assert entry.raw.endswith(" end")
            assert len(entry.raw) < _source.MAX_RECORD + 100

    def test_huge_record_without_newline_at_all(self, tmp_path: Path) -> None:
        """Data with no newline and no record start reads as nothing, both ways."""
        path = tmp_path / "blob.log"
        path.write_bytes(b"a" * (3 << 20))
        assert list(logs.iter_entries(path, format="python", reverse=True)) == []
        assert list(logs.iter_entries(path, format="python")) == []

    def test_nul_bytes_and_bad_utf8(self, tmp_path: Path) -> None:
        """NUL bytes and invalid UTF-8 inside a record are replaced, not fatal."""
        path = tmp_path / "odd.log"
        path.write_bytes(b"2026-11-30 06:00:00,000 ERROR app: bad \x00 bytes \xff\xfe here\n")
        (entry,) = logs.read(path, format="python")
        assert "\x00" not in entry.raw
        assert "bytes" in entry.message

    def test_crlf_line_endings(self, tmp_path: Path) -> None:
        """A log written with CRLF reads like the same log with LF (keys aside)."""
        lf = (FIXTURES / "logback" / "app.log").read_bytes()
        path = tmp_path / "app.log"
        path.write_bytes(lf.replace(b"\n", b"\r\n"))
        got = logs.read(path, limit=None)
        want = logs.read(FIXTURES / "logback" / "app.log", limit=None)
        assert [(e.message, e.exception_type, e.level) for e in got] == [
            (e.message, e.exception_type, e.level) for e in want]
        assert all("\r" not in e.trace_text for e in got)

    def test_deeply_nested_json(self, tmp_path: Path) -> None:
        """A JSON line nested past the recursion limit is skipped."""
        path = tmp_path / "deep.jsonl"
        good = '{"level": "error", "message": "kept"}\n'
        path.write_text(good + "[" * 100_000 + "]" * 100_000 + "\n" + good.replace("kept", "also kept"))
        assert [e.message for e in logs.read(path, format="jsonl", limit=None)] == ["also kept", "kept"]

    @pytest.mark.parametrize("case", CASES, ids=lambda c: c.log)
    def test_tiny_blocks_read_the_same(self, case: object, monkeypatch: pytest.MonkeyPatch) -> None:
        """With 64-byte blocks every record spans blocks; both directions still find the same records."""
        path = case.path  # type: ignore[attr-defined]
        forward = list(logs.iter_entries(path))
        monkeypatch.setattr(_source, "BLOCK", 64)
        assert list(logs.iter_entries(path, reverse=True)) == list(reversed(forward))
        assert list(logs.iter_entries(path)) == forward
        assert list(logs.iter_entries(path, reverse=True, min_level=None))[-1:] == list(
            logs.iter_entries(path, min_level=None))[:1]

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(data=st.binary(max_size=3000) | st.text(max_size=3000).map(lambda t: t.encode("utf-8", "surrogatepass")))
    def test_any_bytes_any_format(self, data: bytes, tmp_path: Path) -> None:
        """Arbitrary bytes in every format, both directions: entries or nothing, never an exception."""
        path = tmp_path / "fuzz.log"
        path.write_bytes(data)
        for fmt in logs.FORMATS:
            list(logs.iter_entries(path, format=fmt, min_level=None))
            list(logs.iter_entries(path, format=fmt, min_level=None, reverse=True))

    def test_fixture_tails_spliced(self, tmp_path: Path) -> None:
        """Halves of two different logs glued together still parse (format detected from the head)."""
        head = (FIXTURES / "logback" / "app.log").read_bytes()
        tail = (FIXTURES / "jsonl" / "structlog.log").read_bytes()
        path = tmp_path / "spliced.log"
        path.write_bytes(head[: len(head) // 2] + tail[len(tail) // 2:])
        assert logs.detect_format(path) == "logback"
        logs.read(path, limit=None)
