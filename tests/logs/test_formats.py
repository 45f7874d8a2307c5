"""Every format, read from logs that real programs wrote, against what the programs logged."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hintline import logs
from tests.logs._fixtures import CASES, FIXTURES, Case, short


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.log)
class TestRealLogs:
    def test_detects_format(self, case: Case) -> None:
        """The format is recognised from the first lines."""
        assert logs.detect_format(case.path) == case.format

    def test_entries_match_what_the_program_logged(self, case: Case) -> None:
        """Count, order (newest first), level, message and exception class match the producer's record."""
        want = list(reversed(case.records()))
        got = logs.read(case.path, limit=None)
        assert len(got) == len(want)
        for w, g in zip(want, got, strict=True):
            assert g.level == w["level"]
            assert g.message.splitlines()[0] == w["message"]
            assert short(g.exception_type) == short(w[case.class_field])
            assert g.format == case.format

    def test_newest_first_by_time(self, case: Case) -> None:
        """Timestamps never increase down the list, and every entry has one (if the log prints it)."""
        got = logs.read(case.path, limit=None)
        stamps = [e.timestamp for e in got]
        if not case.timed:
            assert all(s is None for s in stamps)
            return
        assert all(s is not None for s in stamps)
        assert stamps == sorted(stamps, reverse=True)  # type: ignore[type-var]

    def test_traces_carry_the_exception(self, case: Case) -> None:
        """An entry with an exception has its trace text; one without has none."""
        for entry in logs.read(case.path, limit=None):
            if entry.exception_type:
                assert entry.trace_text
                assert short(entry.exception_type) in entry.trace_text.replace("\\", ".")

    def test_reverse_equals_forward(self, case: Case) -> None:
        """Reading from the end yields the same entries as reading from the start, reversed."""
        forward = list(logs.iter_entries(case.path))
        backward = list(logs.iter_entries(case.path, reverse=True))
        assert backward == list(reversed(forward))

    def test_limit_returns_the_newest(self, case: Case) -> None:
        """``limit=2`` gives the first two of the full list."""
        assert logs.read(case.path, limit=2) == logs.read(case.path, limit=None)[:2]

    def test_keys_stable_when_lines_are_appended(self, case: Case, tmp_path: Path) -> None:
        """Keys of the older records do not change when the rest of the log is appended."""
        data = case.path.read_bytes()
        lines = data.splitlines(keepends=True)
        half = tmp_path / case.path.name
        half.write_bytes(b"".join(lines[: len(lines) // 2]))
        early = {e.key for e in logs.iter_entries(half, format=case.format)}
        early_complete = {e.key for e in logs.iter_entries(half, format=case.format)} - {
            e.key for e in list(logs.iter_entries(half, format=case.format))[-1:]
        }
        with half.open("ab") as f:
            f.write(b"".join(lines[len(lines) // 2:]))
        later = {e.key for e in logs.iter_entries(half, format=case.format)}
        assert early_complete <= later  # the last one may have been cut mid-trace
        assert len(early) >= 1


class TestDetectFromLines:
    @pytest.mark.parametrize("case", CASES, ids=lambda c: c.log)
    def test_lines_detect_like_the_file(self, case: Case) -> None:
        """detect_format accepts the lines themselves (str or bytes) as well as a path."""
        head = case.path.read_bytes().splitlines()[:50]
        assert logs.detect_format(head) == case.format
        assert logs.detect_format([x.decode("utf-8", "replace") for x in head]) == case.format

    def test_unknown_lines(self) -> None:
        """Lines with no timestamp, no level and no JSON fall back to the plain ``text`` reader."""
        assert logs.detect_format(["hello", "world"]) == "text"


class TestRotation:
    def test_rotated_and_gzipped_files_are_read(self) -> None:
        """app.log, app.log.1 and app.log.2.gz … together hold every record, newest first."""
        path = FIXTURES / "python" / "app.log"
        every = logs.read(path, limit=None)
        only = logs.read(path, limit=None, rotated=False)
        assert len(only) < len(every)
        assert every[: len(only)] == only
        sources = {Path(e.source).name for e in every}
        assert "app.log.1" in sources
        assert any(s.endswith(".gz") for s in sources)

    def test_gzip_file_read_directly(self) -> None:
        """A .gz file given by name is decompressed and read (forward, streaming)."""
        path = FIXTURES / "python" / "app.log.3.gz"
        entries = logs.read(path, limit=None, rotated=False)
        assert entries
        assert all(e.source == str(path) for e in entries)
        assert logs.detect_format(path) == "python"

    def test_undetectable_rotated_file_takes_the_logs_format(self, tmp_path: Path) -> None:
        """A rotated file whose head is unrecognisable is read in the base log's format."""
        shutil.copy(FIXTURES / "logback" / "app.log", tmp_path / "app.log")
        tail = (FIXTURES / "logback" / "app.log").read_bytes().split(b"\n", 3)[3]
        (tmp_path / "app.log.1").write_bytes(b"\tat truncated.Frame(Main.java:1)\n" * 250 + tail)
        assert logs.detect_format(tmp_path / "app.log.1") == "text"
        entries = logs.read(tmp_path / "app.log", limit=None)
        assert {Path(e.source).name for e in entries} == {"app.log", "app.log.1"}
        assert {e.format for e in entries} == {"logback"}

    def test_siblings_order(self, tmp_path: Path) -> None:
        """Numbered rotations count into the past; the base file comes first."""
        for name in ("app.log.2.gz", "app.log", "app.log.1", "app.log.10", "app.log.bak", "other.log"):
            shutil.copy(FIXTURES / "python" / "basic.log", tmp_path / name)
        groups = logs._reader.log_files(tmp_path / "app.log")
        assert [p.name for p in groups[0]] == ["app.log", "app.log.1", "app.log.2.gz", "app.log.10"]


class TestFilters:
    path = FIXTURES / "python" / "app.log"

    def test_search_is_case_insensitive_over_message_and_class(self) -> None:
        """``search`` matches the message, the component and the exception class."""
        by_message = logs.read(self.path, limit=None, search="NO CUSTOMER")
        assert by_message
        assert all("no customer" in e.message for e in by_message)
        by_class = logs.read(self.path, limit=None, search="zerodivision")
        assert by_class
        assert all(e.exception_type == "ZeroDivisionError" for e in by_class)

    def test_since_and_until(self) -> None:
        """``since``/``until`` keep the entries inside the window, bounds included."""
        every = logs.read(self.path, limit=None)
        stamps = sorted({e.timestamp for e in every})  # type: ignore[type-var]
        low, high = stamps[len(stamps) // 4], stamps[3 * len(stamps) // 4]
        window = logs.read(self.path, limit=None, since=low, until=high)
        assert window
        assert all(low <= e.timestamp <= high for e in window)  # type: ignore[operator]
        assert len(window) == sum(1 for e in every if low <= e.timestamp <= high)  # type: ignore[operator]

    def test_relative_since(self) -> None:
        """``since="1h"`` is relative to now: nothing in a log written before that."""
        assert logs.read(self.path, since="0s") == []
        assert logs.read(self.path, since="100000d", limit=None) == logs.read(self.path, limit=None)

    def test_bad_since_is_an_error(self) -> None:
        """A time that is neither ISO nor relative raises ValueError."""
        with pytest.raises(ValueError, match="not a time"):
            logs.read(self.path, since="yesterday-ish")

    def test_min_level(self) -> None:
        """``min_level="WARNING"`` adds the warnings; ``"CRITICAL"`` keeps only criticals."""
        errors = logs.read(self.path, limit=None)
        warnings = logs.read(self.path, limit=None, min_level="WARNING")
        critical = logs.read(self.path, limit=None, min_level="CRITICAL")
        assert len(warnings) > len(errors)
        assert {e.level for e in critical} == {"CRITICAL"}

    def test_several_files_merge_newest_first(self) -> None:
        """Entries of several logs are merged by time."""
        paths = [FIXTURES / "logback" / "app.log", FIXTURES / "typo3" / "typo3.log", FIXTURES / "jsonl" / "ecs.log"]
        merged = logs.read(paths, limit=None)
        assert len(merged) == sum(len(logs.read(p, limit=None)) for p in paths)
        stamps = [e.timestamp for e in merged]
        assert stamps == sorted(stamps, reverse=True)  # type: ignore[type-var]

    def test_find_by_key_and_prefix(self) -> None:
        """``find`` returns the entry with that key (or a unique prefix of 6+ characters)."""
        entry = logs.read(self.path, limit=5)[3]
        assert logs.find(self.path, entry.key) == entry
        assert logs.find(self.path, entry.key[:8]) == entry
        assert logs.find(self.path, "0000000000000000") is None
        assert logs.find(self.path, "abc") is None
