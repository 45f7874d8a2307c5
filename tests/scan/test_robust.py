"""``hintline scan`` on awkward input: odd files, directories, checkpoints, signals, pipes."""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from hintline.scan import ScanInterrupted, scan, state_namespace
from hintline.scan._sample import write_sample_log


def _cli(*args: str, env: dict[str, str] | None = None, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hintline", "scan", *args],
        capture_output=True, text=True, timeout=300, check=False, env=env, **kw,  # type: ignore[call-overload]
    )


@pytest.fixture
def mixed(tmp_path: Path) -> tuple[Path, int]:
    """A directory with a good log, its rotations, JSON lines, a binary file and broken gzips."""
    d = tmp_path / "logs"
    d.mkdir()
    errors = write_sample_log(d / "app.log", records=600, error_share=0.1, seed=1)
    errors += write_sample_log(d / "app.log.1", records=300, error_share=0.1, seed=2)
    old = tmp_path / "old.log"
    errors += write_sample_log(old, records=300, error_share=0.1, seed=3)
    with gzip.open(d / "app.log.2.gz", "wb") as f:
        f.write(old.read_bytes())
    stamp = datetime(2026, 11, 30, 6, 0, tzinfo=timezone.utc).isoformat()
    (d / "events.jsonl").write_text(
        json.dumps({"timestamp": stamp, "level": "error", "logger": "svc", "message": "disk /dev/sda1 full"}) + "\n"
        + json.dumps({"timestamp": stamp, "level": "info", "message": "ok"}) + "\n"
    )
    errors += 1
    (d / "core.log").write_bytes(bytes(range(256)) * 64)  # binary data named like a log
    (d / "broken.log.gz").write_bytes(b"\x1f\x8b\x08\x00" + b"\x00" * 6 + b"not deflate at all" * 20)
    # a gzip cut in the middle: the entries before the cut are kept, the file is reported
    whole = gzip.compress(old.read_bytes())
    (d / "cut.log").write_bytes(whole[: len(whole) // 2])
    return d, errors


class TestOddFiles:
    def test_skipped_counted_rest_scanned(self, mixed: tuple[Path, int]) -> None:
        d, errors = mixed
        result = scan([d], jobs=1)
        names = " ".join(result.skipped)
        assert "core.log" in names
        assert "binary" in names
        assert "broken.log.gz" in names
        assert "cut.log" in names
        assert len(result.skipped) == 3
        assert result.tally.entries > errors  # the cut gzip's first half counted too
        assert result.tally.entries < errors + 300 * 0.1 * 2

    def test_exit_status_three_and_warnings(self, mixed: tuple[Path, int], tmp_path: Path) -> None:
        d, _ = mixed
        out = tmp_path / "g.jsonl"
        r = _cli(str(d), "-o", str(out), "--no-state")
        assert r.returncode == 3, r.stderr
        assert r.stderr.count("hintline: skipped") == 3
        assert "3 input(s) skipped" in r.stdout
        assert out.exists()

    def test_unknown_text_layout_is_read(self, tmp_path: Path) -> None:
        """A text log of no known layout: the fallback reader finds its error lines."""
        log = tmp_path / "ras.log"
        log.write_text(
            "- 1 node-3 RAS KERNEL INFO cache parity corrected\n"
            "- 2 node-4 RAS APP FATAL ciod: Error loading /bin/app-7: permission denied\n"
            "- 3 node-5 RAS KERNEL INFO cache parity corrected\n"
            "- 4 node-9 RAS APP FATAL ciod: Error loading /bin/app-8: permission denied\n"
        )
        result = scan([log], jobs=1)
        assert result.tally.entries == 2
        assert len(result.tally.groups) == 1
        assert not result.skipped


class TestDirectories:
    def test_every_log_kind_is_picked_up(self, tmp_path: Path) -> None:
        from hintline.logs._reader import directory_logs

        for name in ("a.log", "b.jsonl", "c.json", "d.log.1", "e.jsonl.2.gz", "notes.md", "f.ndjson"):
            (tmp_path / name).write_text("x\n")
        (tmp_path / "a.log.1").write_text("x\n")
        names = sorted(p.name for p in directory_logs(tmp_path))
        assert names == ["a.log", "b.jsonl", "c.json", "d.log.1", "e.jsonl.2.gz", "f.ndjson"]


class TestCheckpoints:
    def test_namespace_and_removal(self, tmp_path: Path) -> None:
        log = tmp_path / "a.log"
        write_sample_log(log, records=800, error_share=0.1, seed=4)
        state = tmp_path / "state"
        with pytest.raises(ScanInterrupted):
            scan([log], jobs=1, chunk_bytes=8 << 10, state_dir=state, stop_after=2)
        ns = state / state_namespace()
        assert len(list(ns.glob("chunk-*.json"))) == 2
        import hintline

        assert hintline.__version__ in ns.name
        done = scan([log], jobs=1, chunk_bytes=8 << 10, state_dir=state)
        assert done.resumed == 2
        assert not state.exists()  # removed once the scan completed

    def test_appended_log_reads_only_the_new_bytes(self, tmp_path: Path) -> None:
        log = tmp_path / "a.log"
        first_errors = write_sample_log(log, records=1500, error_share=0.1, seed=5)
        state = tmp_path / "state"
        first = scan([log], jobs=1, chunk_bytes=16 << 10, state_dir=state, keep_state=True)
        assert first.tally.entries == first_errors
        size = log.stat().st_size
        more = write_sample_log(log, records=300, error_share=0.1, seed=6)
        again = scan([log], jobs=1, chunk_bytes=16 << 10, state_dir=state, keep_state=True)
        assert again.appended == 1
        assert again.tally.entries == first_errors + more
        assert again.tally.bytes - first.tally.bytes == log.stat().st_size - size
        fresh = scan([log], jobs=1, chunk_bytes=16 << 10)
        assert {(r.fingerprint, r.count) for r in again.tally.rows()} == {
            (r.fingerprint, r.count) for r in fresh.tally.rows()
        }

    def test_default_state_is_in_the_cache_dir_and_resume_is_said(self, tmp_path: Path) -> None:
        log = tmp_path / "a.log"
        write_sample_log(log, records=1500, error_share=0.05, seed=7)
        env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "HINTLINE_SCAN_STOP_AFTER": "1"}
        r = _cli(str(log), "--chunk-mb", "0.02", "-j", "1", env=env, cwd=tmp_path)
        assert r.returncode == 130
        assert (tmp_path / "cache" / "hintline" / "scan").is_dir()
        assert not (tmp_path.parent / ".hintline-scan").exists()
        env.pop("HINTLINE_SCAN_STOP_AFTER")
        r = _cli(str(log), "--chunk-mb", "0.02", "-j", "1", env=env, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert "resumed 1 of" in r.stderr
        assert not any((tmp_path / "cache" / "hintline" / "scan").iterdir())


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_kill_9_leaves_no_worker(tmp_path: Path) -> None:
    log = tmp_path / "big.log"
    for seed in range(6):
        write_sample_log(log, records=20000, error_share=0.05, seed=seed)
    proc = subprocess.Popen(
        [sys.executable, "-m", "hintline", "scan", str(log), "-j", "2", "--chunk-mb", "0.2", "--no-state"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(workers) < 2:
        workers = [p for p in _children(proc.pid) if _alive(p)]
        time.sleep(0.05)
    assert len(workers) >= 2, "the workers never started"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(p) for p in workers):
        time.sleep(0.1)
    assert not [p for p in workers if _alive(p)]


def test_closed_stdout_keeps_the_files(tmp_path: Path) -> None:
    log = tmp_path / "a.log"
    write_sample_log(log, records=2000, error_share=0.1, seed=8)
    out, page = tmp_path / "g.jsonl", tmp_path / "r.html"
    proc = subprocess.Popen(
        [sys.executable, "-m", "hintline", "scan", str(log), "-o", str(out), "--html", str(page), "--no-state"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    assert proc.stderr is not None
    proc.stdout.close()  # `hintline scan … | head -0`
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 0, err
    assert "Traceback" not in err
    assert out.stat().st_size > 0
    assert page.stat().st_size > 0


def test_first_last_seen_are_instants(tmp_path: Path) -> None:
    """Two files in different zones: first/last seen are the earliest and latest instants."""
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    line = {"level": "error", "logger": "svc", "message": "disk full"}
    a.write_text(json.dumps({**line, "timestamp": "2026-11-30T08:00:00+02:00"}) + "\n")  # 06:00 UTC
    b.write_text(json.dumps({**line, "timestamp": "2026-11-30T06:30:00Z"}) + "\n")
    (row,) = scan([a, b], jobs=1).tally.rows()
    assert row.first_seen == "2026-11-30T06:00:00.000000+00:00"
    assert row.last_seen == "2026-11-30T06:30:00.000000+00:00"


def test_parquet_times_are_timestamps(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    from hintline.scan import write_parquet

    log = tmp_path / "a.log"
    write_sample_log(log, records=500, error_share=0.1, seed=9)
    write_parquet(scan([log], jobs=1).tally, tmp_path / "g.parquet")
    table = pq.read_table(tmp_path / "g.parquet")
    assert str(table.schema.field("first_seen").type) == "timestamp[us, tz=UTC]"
    assert table.column("first_seen")[0].as_py().tzinfo is not None


def test_html_stays_small_with_many_groups(tmp_path: Path) -> None:
    from hintline.scan import Tally, write_html
    from hintline.scan._groups import GroupRow

    tally = Tally()
    for i in range(5000):
        fp = f"{i:016x}"
        tally.groups[fp] = GroupRow(
            fingerprint=fp, count=1 + i % 7, first_seen=None, last_seen=None, category="runtime",
            kind="error", rule=None, key=None, hint=f"Hint: kind {i}", exception_type="ValueError",
            example="x" * 300, example_source="a.log", example_order="~", logger="svc",
        )
        tally.entries += 1 + i % 7
    page = tmp_path / "r.html"
    write_html(tally, page, top=100)
    text = page.read_text()
    assert len(text) < 250_000
    assert "The other 4900 groups" in text
    assert "<script" not in text
    assert "<details>" in text
    assert "ValueError" in text
    assert "svc" in text


def test_unknown_format_name_is_one_line_and_exit_2(tmp_path: Path) -> None:
    log = tmp_path / "a.log"
    log.write_text("2026-11-30 06:36:45,001 ERROR [x] boom\n")
    r = _cli(str(log), "--format", "xml", "--no-state")
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1
    assert "unknown log format 'xml'" in r.stderr
