"""``hintline logs``: output, exit codes and scrubbing, on the real fixtures."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from hintline import logs
from hintline.cli import main
from tests.logs._fixtures import FIXTURES

APP = FIXTURES / "python" / "app.log"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["logs", *args])
    out, err = capsys.readouterr()
    return code, out, err


class TestLogsCommand:
    def test_lists_newest_entries_with_hint_and_key(self, capsys: pytest.CaptureFixture[str]) -> None:
        """Each entry shows index, time, level, component, class, message, hint and key."""
        code, out, _ = run(capsys, str(APP), "--limit", "3")
        assert code == 0
        entries = logs.read(APP, limit=3)
        for i, e in enumerate(entries):
            assert f"[{i}]" in out
            assert f"key {e.key}" in out
        assert out.count("Hint: ") == 3
        assert "ZeroDivisionError" in out or "KeyError" in out or "FileNotFoundError" in out

    def test_json_lines(self, capsys: pytest.CaptureFixture[str]) -> None:
        """--json prints one object per entry with the documented fields."""
        code, out, _ = run(capsys, str(APP), "--json", "--limit", "4")
        assert code == 0
        rows = [json.loads(line) for line in out.splitlines()]
        assert [r["index"] for r in rows] == [0, 1, 2, 3]
        assert [r["key"] for r in rows] == [e.key for e in logs.read(APP, limit=4)]
        assert {"timestamp", "level", "component", "exception_type", "message", "hint", "source", "format"} <= set(rows[0])

    def test_group_view(self, capsys: pytest.CaptureFixture[str]) -> None:
        """--group prints counts with first and last seen."""
        code, out, _ = run(capsys, str(APP), "--group", "--json")
        assert code == 0
        rows = [json.loads(line) for line in out.splitlines()]
        assert sum(r["count"] for r in rows) <= len(logs.read(APP, limit=None))
        assert max(r["count"] for r in rows) > 1
        code, text, _ = run(capsys, str(APP), "--group")
        assert code == 0
        assert "×  fingerprint" in text

    def test_every_printed_text_is_scrubbed(self, capsys: pytest.CaptureFixture[str]) -> None:
        """The DSN password the worker logged never appears, in any view."""
        secret = "S3cretPassw0rd"
        assert any(secret in e.raw for e in logs.read(APP, limit=None))
        for extra in ([], ["--json"], ["--raw"], ["--json", "--raw"], ["--group"], ["--group", "--json", "--raw"]):
            code, out, err = run(capsys, str(APP), "--limit", "50", "--search", "database", *extra)
            assert code == 0
            assert secret not in out + err
            assert "postgresql://shop:" in out

    def test_every_line_goes_through_scrub(self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
        """Whatever scrub removes never reaches stdout, in any view (here: a JDBC password)."""
        module = sys.modules["hintline.scrub"]  # the attribute hintline.scrub is the function
        real = module.scrub
        monkeypatch.setattr(module, "scrub", lambda text: real(text).replace("password=***", "password=[REDACTED]"))
        log = str(FIXTURES / "log4j" / "app.log")
        for extra in ([], ["--json"], ["--raw"], ["--json", "--raw"], ["--group", "--raw"], ["--group", "--json", "--raw"]):
            code, out, _ = run(capsys, log, "--search", "database", *extra)
            assert code == 0
            assert "S3cretPassw0rd" not in out
            assert "[REDACTED]" in out

    def test_no_entries_exit_1(self, capsys: pytest.CaptureFixture[str]) -> None:
        """Nothing matching: a message on stderr and exit 1."""
        code, out, err = run(capsys, str(APP), "--search", "no such text anywhere")
        assert code == 1
        assert out == ""
        assert "no error entries" in err

    def test_missing_file_exit_2(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        """A missing file: one line on stderr, exit 2."""
        code, _, err = run(capsys, str(tmp_path / "nope.log"))
        assert code == 2
        assert err.strip().endswith("no such file")
        assert len(err.strip().splitlines()) == 1

    def test_permission_denied_exit_2(self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
        """A file the user may not read (as the access check reports it): exit 2."""
        monkeypatch.setattr(os, "access", lambda *a, **k: False)
        code, _, err = run(capsys, str(APP))
        assert code == 2
        assert "permission denied" in err

    def test_unknown_format_exit_2(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        """Binary data or a bad --format: one line, exit 2."""
        path = tmp_path / "data.log"
        path.write_bytes(bytes(range(256)) * 100)
        code, _, err = run(capsys, str(path))
        assert code == 2
        assert "binary data" in err
        code, _, err = run(capsys, str(APP), "--format", "xml")
        assert code == 2
        assert "unknown log format 'xml'" in err

    def test_bad_since_exit_2(self, capsys: pytest.CaptureFixture[str]) -> None:
        """A --since that is not a time: exit 2."""
        code, _, err = run(capsys, str(APP), "--since", "last tuesday")
        assert code == 2
        assert "not a time" in err

    def test_format_override(self, capsys: pytest.CaptureFixture[str]) -> None:
        """--format skips detection (a logback log read as plain text still lists errors)."""
        code, out, _ = run(capsys, str(FIXTURES / "logback" / "app.log"), "--format", "plain", "--json")
        assert code == 0
        assert {json.loads(x)["format"] for x in out.splitlines()} == {"plain"}

    def test_progress_on_request(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        """--progress writes a meter to stderr on a long scan; stdout stays clean."""
        big = tmp_path / "big.log"
        line = b"2026-11-30 06:00:00,000 INFO app: routine line with some padding text\n"
        with big.open("wb") as f:
            f.write(b"2026-11-30 05:00:00,000 ERROR app: the only error\n")
            for _ in range(40):
                f.write(line * 20000)
        code, out, err = run(capsys, str(big), "--progress")
        assert code == 0
        assert "the only error" in out
        assert "hintline:" not in out
        del err  # the meter only appears after a second; its presence depends on the machine's speed
