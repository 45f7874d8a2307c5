"""``hintline scan`` per-call rows for the table: a small log of real ``logging`` records.

The suite's harness times calls in µs, which does not fit a throughput figure; the 1 GB
throughput at 1 and 2 jobs against ``grep -c ERROR`` is measured by
``python -m benchmarks.scan_throughput [--size-gb 1] [--jobs 1,2]`` (see that module).

    PYTHONPATH=$PWD/src:$PWD .venv/bin/python -m benchmarks scan
"""

from __future__ import annotations

from pathlib import Path

from benchmarks._harness import Case
from hintline.scan import read_chunk, scan, tally_entries
from hintline.scan._chunks import plan_chunks
from hintline.scan._sample import write_sample_log

HERE = Path("/tmp/hintline-bench")
RECORDS = 8_000  # about 1 MB, 2% errors with real tracebacks


def _sample() -> Path:
    path = HERE / f"scan-sample-{RECORDS}.log"
    done = path.with_suffix(".done")
    if not (path.exists() and done.exists()):
        HERE.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)
        write_sample_log(path, records=RECORDS, seed=11)
        done.write_text("ok\n", encoding="utf-8")
    return path


def cases() -> list[Case]:
    """Rows: a whole scan (one job) of a ~1 MB log, and its read and tally stages apart."""
    path = _sample()
    mb = path.stat().st_size / 1e6
    (chunk,) = plan_chunks([str(path)], fmt=None, chunk_bytes=1 << 30)
    entries = list(read_chunk(chunk))
    # 50 MB/s per core: this log in mb / 50 seconds.
    target = mb / 50 * 1e6
    return [
        Case("scan", f"scan 1 job ({mb:.1f} MB, {len(entries)} errors)", lambda: scan([path], jobs=1),
             target_us=target, note="≥ 50 MB/s per core"),
        Case("scan", "read_chunk (find + parse errors)", lambda: sum(1 for _ in read_chunk(chunk))),
        Case("scan", "tally_entries (clean, fingerprint, group)", lambda: tally_entries(entries)),
    ]
