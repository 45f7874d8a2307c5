"""``hintline scan``: every error of a log corpus, cleaned and grouped, on all cores.

>>> from hintline.scan import scan
>>> result = scan(["/var/log/app"], jobs=2, state_dir=".hintline-scan")  # doctest: +SKIP
>>> [(g.count, g.hint) for g in result.tally.rows()[:3]]  # doctest: +SKIP

Groups use the fingerprint of :mod:`hintline.fingerprint`, as ``hintline logs --group`` and the
Spark job do, so the three agree on the same input.
"""

from __future__ import annotations

from hintline.scan._chunks import Chunk, plan_chunks, read_chunk
from hintline.scan._groups import GroupRow, Tally, tally_entries
from hintline.scan._report import write_html, write_jsonl, write_parquet
from hintline.scan._run import (
    DEFAULT_CHUNK_BYTES,
    ScanInterrupted,
    ScanResult,
    ScanWorkerLost,
    default_state_dir,
    scan,
    state_namespace,
)

__all__ = [
    "DEFAULT_CHUNK_BYTES",
    "Chunk",
    "GroupRow",
    "ScanInterrupted",
    "ScanResult",
    "ScanWorkerLost",
    "Tally",
    "default_state_dir",
    "plan_chunks",
    "read_chunk",
    "scan",
    "state_namespace",
    "tally_entries",
    "write_html",
    "write_jsonl",
    "write_parquet",
]
