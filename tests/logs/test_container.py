"""Container logs: Docker json-file, Kubernetes CRI, and `docker logs`/`kubectl logs` output.

The fixtures are a real program's real output (scripts/fixtures/gen_container_logs.py) written
in each runtime's documented layout: Docker and containerd did not run where they were made
(tests/logs/fixtures/container/README.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hintline import logs
from hintline.cli import main

FIX = Path(__file__).parent / "fixtures" / "container"
EXPECTED = json.loads((FIX / "shop-api.expected.json").read_text())
LAYOUTS = {
    "docker-json.log": "docker",
    "cri.log": "cri",
    "docker-logs-t.txt": "timestamped",
    "docker-logs.txt": "python",  # `docker logs` without -t: the application's own lines
}


@pytest.mark.parametrize(("name", "fmt"), LAYOUTS.items())
def test_detected(name: str, fmt: str) -> None:
    assert logs.detect_format(FIX / name) == fmt


@pytest.mark.parametrize("name", LAYOUTS)
def test_every_logged_error_in_order(name: str) -> None:
    """The seven logged tracebacks, each one entry with its root cause, oldest last."""
    entries = logs.read([str(FIX / name)], limit=50, rotated=False)
    found = [(e.exception_type or "").rpartition(".")[2] for e in reversed(entries)]
    assert found == EXPECTED["logged"]
    assert all(e.level == "ERROR" and e.component == "shop.api" for e in entries)
    assert all(e.trace.root_cause is not None and e.trace.root_cause.frames for e in entries)
    assert all(e.timestamp is not None for e in entries)


@pytest.mark.parametrize("name", ["docker-json.log", "cri.log"])
def test_partial_lines_are_joined(name: str) -> None:
    """The 20,000-character warning arrives in two parts (16 KiB split): one record again."""
    warnings = [
        e for e in logs.iter_entries(FIX / name, min_level="WARNING") if e.level == "WARNING"
    ]
    (warning,) = warnings
    assert warning.message == "slow response body: " + "x" * 20000


def test_keys_are_stable_and_distinct(tmp_path: Path) -> None:
    """An entry's key is its raw runtime lines: the same after lines are appended."""
    log = tmp_path / "c.log"
    text = (FIX / "cri.log").read_text()
    log.write_text(text)
    before = {e.key for e in logs.read([str(log)], limit=50)}
    log.write_text(text + text.splitlines()[0] + "\n")
    assert {e.key for e in logs.read([str(log)], limit=50)} == before
    assert len(before) == len(EXPECTED["logged"])


def _cri(stderr: str, stamp: str) -> str:
    return "".join(f"{stamp} stderr F {line}\n" for line in stderr.splitlines())


def test_a_trace_without_its_own_time_takes_the_runtimes(tmp_path: Path) -> None:
    """An uncaught exception (no logging header, no time of its own) is one ERROR entry at the
    runtime's time: a real interpreter's output, wrapped as containerd writes it."""
    run = subprocess.run(
        [sys.executable, "-c", "import json\nprint('starting')\njson.loads('{\"a\": }')"],
        capture_output=True, text=True, check=False,
    )
    assert run.returncode == 1
    log = tmp_path / "crash.log"
    log.write_text(
        f"2026-12-01T06:00:00.000000001Z stdout F {run.stdout.strip()}\n"
        + _cri(run.stderr, "2026-12-01T06:00:00.250000000Z")
    )
    assert logs.detect_format(log) == "cri"
    (entry,) = logs.read([str(log)], limit=5)
    assert entry.exception_type == "json.decoder.JSONDecodeError"
    assert entry.timestamp is not None
    assert entry.timestamp.isoformat() == "2026-12-01T06:00:00.250000+00:00"
    assert entry.extra.get("stream") == "stderr"


def test_piped_to_logs_dash(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`docker logs app 2>&1 | hintline logs -` (here: the json-file log itself on stdin)."""
    import io

    data = (FIX / "docker-json.log").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["logs", "-", "--json", "--limit", "3"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["source"] for r in rows] == ["<stdin>"] * 3
    assert rows[0]["format"] == "docker"


def test_scan_counts_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", str(FIX / "cri.log"), "--json", "--state", str(tmp_path), "--no-progress"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert sum(r["count"] for r in rows) == len(EXPECTED["logged"])
