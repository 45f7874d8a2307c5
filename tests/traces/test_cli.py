"""``hintline trace``: prints the chain, scrubbed; clear errors for bad input."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from hintline.cli import main

FIX = Path(__file__).parent / "fixtures"
SECRET = "Tr0ub4dor-s3cret"


class TestTraceCommand:
    def test_text_output_is_scrubbed(self, capsys: pytest.CaptureFixture[str]) -> None:
        """The DSN password in a real trace's message never reaches stdout."""
        assert SECRET in (FIX / "python/secret_in_message.txt").read_text()
        code = main(["trace", str(FIX / "python/secret_in_message.txt"), "--project-root", "/tmp/hintline-traces/python"])
        out = capsys.readouterr().out
        assert code == 0
        assert SECRET not in out
        assert "root cause: ConnectionError" in out
        assert "app at connect (/tmp/hintline-traces/python/db.py:7)" in out

    def test_json_output_is_scrubbed(self, capsys: pytest.CaptureFixture[str]) -> None:
        """``--json`` prints the parse as JSON, every string scrubbed."""
        code = main(["trace", "--json", str(FIX / "python/secret_in_message.txt")])
        out = capsys.readouterr().out
        assert code == 0
        assert SECRET not in out
        data = json.loads(out)
        assert data["language"] == "python"
        assert data["root_cause"]["type"] == "ConnectionError"
        assert data["exceptions"][0]["frames"][0]["function"] == "connect"

    def test_stdin_and_limit(self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
        """``-`` reads stdin; ``--limit`` keeps that many frames and says how many were cut."""
        data = (FIX / "java/stack_overflow.txt").read_bytes()
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        assert main(["trace", "-", "--limit", "5"]) == 0
        out = capsys.readouterr().out
        assert out.count(" at com.example.tree.Walker.depth") == 5
        assert "... 1325 frames omitted" in out

    def test_no_trace_and_missing_file(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        """No trace → exit 1; unreadable file → exit 2 with a one-line error."""
        plain = tmp_path / "plain.txt"
        plain.write_text("all good\n")
        assert main(["trace", str(plain)]) == 1
        assert main(["trace", str(tmp_path / "missing.txt")]) == 2
        err = capsys.readouterr().err
        assert "no stack trace found" in err
        assert err.count("\n") == 2
