"""``hintline scan`` over logs written by the real logging module."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hintline import logs
from hintline.scan import ScanInterrupted, plan_chunks, scan
from hintline.scan._sample import write_sample_log

SECRET = "Zq8-scan-secret-77"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """A rotated log: app.log, app.log.1 and app.log.2.gz, with real tracebacks and a secret."""
    d = tmp_path_factory.mktemp("corpus")
    errors = write_sample_log(d / "app.log.2", records=1500, error_share=0.05, seed=1, secret=SECRET)
    with (d / "app.log.2").open("rb") as src, gzip.open(d / "app.log.2.gz", "wb") as dst:
        shutil.copyfileobj(src, dst)
    (d / "app.log.2").unlink()
    errors += write_sample_log(d / "app.log.1", records=1500, error_share=0.05, seed=2)
    errors += write_sample_log(d / "app.log", records=3000, error_share=0.05, seed=3, secret=SECRET)
    return d / "app.log", errors


def _rows(result) -> list[dict[str, object]]:
    return [r.to_dict() for r in result.tally.rows()]


class TestScan:
    def test_every_error_once(self, corpus: tuple[Path, int]) -> None:
        """Chunks cut on record boundaries: each error entry is counted exactly once."""
        path, errors = corpus
        chunks = plan_chunks([str(path)], fmt=None, chunk_bytes=16 << 10)
        assert len(chunks) > 10
        result = scan([path], jobs=1, chunk_bytes=16 << 10)
        assert result.tally.entries == errors

    def test_same_groups_for_one_and_two_jobs(self, corpus: tuple[Path, int]) -> None:
        """The result does not depend on the number of workers or the chunk size."""
        path, _ = corpus
        one = scan([path], jobs=1, chunk_bytes=1 << 30)
        two = scan([path], jobs=2, chunk_bytes=16 << 10)
        assert _rows(one) == _rows(two)

    def test_same_groups_as_hintline_logs(self, corpus: tuple[Path, int]) -> None:
        """scan and `hintline logs --group` agree (one fingerprint recipe)."""
        path, _ = corpus
        result = scan([path], jobs=2, chunk_bytes=16 << 10)
        grouped = logs.group(logs.read(path, limit=None))
        expected = {(g.fingerprint, g.count) for g in grouped}
        assert {(r.fingerprint, r.count) for r in result.tally.rows()} == expected
        assert sum(r.count for r in result.tally.rows()) == sum(g.count for g in grouped)

    def test_groups_are_hinted(self, corpus: tuple[Path, int]) -> None:
        """Each group carries a clean hint, first/last seen and a scrubbed example."""
        path, _ = corpus
        rows = scan([path], jobs=1).tally.rows()
        assert {r.hint.startswith("Hint: ") for r in rows} == {True}
        for r in rows:
            assert r.first_seen is not None
            assert r.last_seen is not None
            assert r.first_seen <= r.last_seen
            assert SECRET not in r.example
            assert SECRET not in r.hint

    def test_stop_and_resume(self, corpus: tuple[Path, int], tmp_path: Path) -> None:
        """A stopped scan keeps its finished chunks; the rerun completes with the same result."""
        path, _ = corpus
        state = tmp_path / "state"
        with pytest.raises(ScanInterrupted) as stopped:
            scan([path], jobs=2, chunk_bytes=16 << 10, state_dir=state, stop_after=3)
        assert stopped.value.done >= 3
        saved = len(list(state.rglob("chunk-*.json")))
        assert saved >= 3
        resumed = scan([path], jobs=2, chunk_bytes=16 << 10, state_dir=state)
        assert resumed.resumed == saved
        clean = scan([path], jobs=1, chunk_bytes=16 << 10)
        assert _rows(resumed) == _rows(clean)

    def test_changed_file_is_read_again(self, tmp_path: Path) -> None:
        """Checkpoints are keyed by the file's size and time: a grown log is rescanned."""
        log = tmp_path / "a.log"
        write_sample_log(log, records=400, error_share=0.1, seed=5)
        state = tmp_path / "state"
        first = scan([log], jobs=1, state_dir=state)
        write_sample_log(log, records=400, error_share=0.1, seed=6)
        second = scan([log], jobs=1, state_dir=state)
        assert second.resumed == 0
        assert second.tally.entries > first.tally.entries


class TestCommand:
    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "hintline", "scan", *args],
            capture_output=True, text=True, timeout=300, check=False,
        )

    def test_reports(self, corpus: tuple[Path, int], tmp_path: Path) -> None:
        """JSONL, Parquet and HTML reports; nothing secret in any of them or on stdout."""
        path, errors = corpus
        jsonl, parquet, page = tmp_path / "g.jsonl", tmp_path / "g.parquet", tmp_path / "r.html"
        r = self._run(str(path), "-j", "2", "-o", str(jsonl), "--html", str(page), "--chunk-mb", "0.02")
        assert r.returncode == 0, r.stderr
        assert f"{errors} error entries" in r.stdout
        rows = [json.loads(line) for line in jsonl.read_text().splitlines()]
        assert sum(row["count"] for row in rows) == errors
        r2 = self._run(str(path), "-o", str(parquet), "--state", str(tmp_path / "s2"))
        assert r2.returncode == 0, r2.stderr
        import pyarrow.parquet as pq

        table = pq.read_table(parquet).to_pylist()
        assert sorted((t["fingerprint"], t["count"]) for t in table) == sorted(
            (row["fingerprint"], row["count"]) for row in rows
        )
        html = page.read_text()
        assert "<script" not in html
        assert "<svg" in html
        for text in (r.stdout, r.stderr, jsonl.read_text(), html, str(table)):
            assert SECRET not in text

    def test_missing_file(self, tmp_path: Path) -> None:
        """A missing log: one line, exit 2."""
        r = self._run(str(tmp_path / "nope.log"))
        assert r.returncode == 2
        assert r.stderr.count("\n") == 1
        assert "no such file" in r.stderr

    def test_interrupted_then_resumed(self, corpus: tuple[Path, int], tmp_path: Path) -> None:
        """Stopped mid-way (exit 130, how to resume), then resumed to the same groups."""
        import os

        path, errors = corpus
        out = tmp_path / "g.jsonl"
        env = {**os.environ, "HINTLINE_SCAN_STOP_AFTER": "2"}
        r = subprocess.run(
            [sys.executable, "-m", "hintline", "scan", str(path), "-o", str(out), "--chunk-mb", "0.02"],
            capture_output=True, text=True, timeout=300, check=False, env=env,
        )
        assert r.returncode == 130
        assert "run the same command again to resume" in r.stderr
        r = self._run(str(path), "-o", str(out), "--chunk-mb", "0.02")
        assert r.returncode == 0, r.stderr
        assert "resumed" in r.stdout
        assert sum(json.loads(x)["count"] for x in out.read_text().splitlines()) == errors
