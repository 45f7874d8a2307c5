"""PySpark: hints as columns, and the groups of ``hintline scan`` over a cluster (the ``spark`` extra).

.. code-block:: python

    from hintline.integrations.spark import add_hints
    hinted = add_hints(spark.read.text("s3a://logs/app/"), column="value")

``add_hints`` runs as an Arrow ``mapInPandas``: each Python worker compiles the rule table once,
on its first batch, and reuses it for every row after (Spark reuses its Python workers), so the cost
per row is one ``clean`` and one ``parse_trace``. :func:`scan_files` is the distributed
``hintline scan``: big files are cut into byte ranges on record boundaries by the same planner,
each range is read by one task with the same chunk reader, and the partial groups are merged by
fingerprint with the same code (count, first and last seen, earliest example, distinct keys),
so its groups equal ``hintline scan``'s on the same input.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hintline.exceptions import MissingExtraError

try:
    import pandas as pd
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql import functions as F  # noqa: N812 - Spark's own convention
    from pyspark.sql import types as T  # noqa: N812
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise MissingExtraError("spark", exc.name or "pyspark") from exc

__all__ = ["GROUP_SCHEMA", "HINT_COLUMNS", "add_hints", "scan_files"]

HINT_COLUMNS = ("hint_text", "hint_category", "hint_rule", "hint_key", "fingerprint")

_OUT_FIELDS = (
    ("fingerprint", T.StringType()), ("count", T.LongType()), ("first_seen", T.StringType()),
    ("last_seen", T.StringType()), ("category", T.StringType()), ("kind", T.StringType()),
    ("rule", T.StringType()), ("key", T.StringType()), ("hint", T.StringType()),
    ("exception_type", T.StringType()), ("outer_type", T.StringType()), ("logger", T.StringType()),
    ("key_template", T.StringType()), ("key_examples", T.ArrayType(T.StringType())),
    ("distinct_keys", T.LongType()), ("example", T.StringType()), ("example_source", T.StringType()),
)
GROUP_SCHEMA = T.StructType([T.StructField(name, kind, True) for name, kind in _OUT_FIELDS])
"""One merged group (the fields of :meth:`hintline.scan.GroupRow.to_dict`; times as UTC ISO text)."""
_PARTIAL_SCHEMA = T.StructType(
    [T.StructField("fingerprint", T.StringType(), False), T.StructField("state", T.StringType(), False)]
)
_CHUNK_SCHEMA = T.StructType(
    [
        T.StructField("path", T.StringType(), False), T.StructField("fmt", T.StringType(), False),
        T.StructField("start", T.LongType(), False), T.StructField("end", T.LongType(), False),
        T.StructField("size", T.LongType(), False), T.StructField("mtime_ns", T.LongType(), False),
        T.StructField("source", T.StringType(), False),
    ]
)


def _hint_batches(batches: Iterator[pd.DataFrame], column: str) -> Iterator[pd.DataFrame]:
    from hintline.fingerprint import fingerprint
    from hintline.hint import clean
    from hintline.traces import parse_trace

    for batch in batches:
        texts, cats, rules, keys, prints = [], [], [], [], []
        for value in batch[column]:
            text = "" if value is None else str(value)
            hint = clean(text)
            texts.append(hint.text)
            cats.append(str(hint.category))
            rules.append(hint.rule)
            keys.append(hint.key)
            prints.append(fingerprint(hint, parse_trace(text), message=text))
        yield batch.assign(
            hint_text=texts, hint_category=cats, hint_rule=rules, hint_key=keys, fingerprint=prints
        )


def add_hints(df: DataFrame, column: str = "value") -> DataFrame:
    """``df`` with ``hint_text``, ``hint_category``, ``hint_rule``, ``hint_key`` and ``fingerprint``.

    Args:
        df: log lines or whole entries (multi-line tracebacks in one value give the best hints).
        column: the string column holding the text.
    """
    if column not in df.columns:
        raise ValueError(f"no column {column!r} in {df.columns}")
    schema = T.StructType(
        [*df.schema.fields, *(T.StructField(c, T.StringType(), c == "hint_rule" or c == "hint_key")
                              for c in HINT_COLUMNS)]
    )
    return df.mapInPandas(lambda it: _hint_batches(it, column), schema=schema)


def _partials(tally: Any, source: str | None) -> list[dict[str, Any]]:
    import json

    rows = []
    for fp, row in tally.groups.items():
        if source is not None:
            row.example_source = source
        rows.append({"fingerprint": fp, "state": json.dumps(row.state())})
    return rows


def _chunk_groups(batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    """Partial groups of byte ranges of files every executor sees at the same path."""
    from hintline.scan import Chunk, read_chunk, tally_entries

    for batch in batches:
        rows: list[dict[str, Any]] = []
        for rec in batch.itertuples(index=False):
            chunk = Chunk(rec.path, rec.fmt, int(rec.start), int(rec.end), int(rec.size), int(rec.mtime_ns))
            rows.extend(_partials(tally_entries(read_chunk(chunk)), rec.source))
        yield pd.DataFrame(rows, columns=["fingerprint", "state"])


def _file_groups(batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    """Partial groups of whole files read by Spark (object stores: the content is in the row)."""
    from hintline.scan import scan

    for batch in batches:
        rows: list[dict[str, Any]] = []
        for path, content, mtime in zip(batch["path"], batch["content"], batch["modificationTime"], strict=True):
            name = Path(str(path).rsplit("/", 1)[-1])
            with tempfile.TemporaryDirectory(prefix="hintline-spark-") as tmp:
                local = Path(tmp) / name.name
                local.write_bytes(bytes(content))
                stamp = pd.Timestamp(mtime).timestamp()
                os.utime(local, (stamp, stamp))  # time-only logs take their day from the file
                tally = scan([local], jobs=1).tally
            rows.extend(_partials(tally, str(path)))
        yield pd.DataFrame(rows, columns=["fingerprint", "state"])


def _merge_groups(frame: pd.DataFrame) -> pd.DataFrame:
    """All partial rows of one fingerprint merged as ``hintline scan`` merges them."""
    import json

    from hintline.scan import GroupRow

    merged: GroupRow | None = None
    for state in frame["state"]:
        row = GroupRow.from_state(json.loads(state))
        if merged is None:
            merged = row
        else:
            merged.absorb(row)
    assert merged is not None
    data = merged.to_dict()
    return pd.DataFrame([{name: data[name] for name, _ in _OUT_FIELDS}])


def _local_path(url: str) -> str | None:
    """The local file system path of ``url``, or ``None`` for another scheme (s3a:, hdfs:…)."""
    if url.startswith("file:"):
        from urllib.parse import unquote, urlparse

        return unquote(urlparse(url).path)
    return None if "://" in url else url


def scan_files(
    spark: SparkSession, path: str, *, pattern: str = "*", chunk_bytes: int | None = None
) -> DataFrame:
    """The groups of every error in the log files under ``path`` (a directory or object-store prefix).

    Files on a file system every executor sees at the same path (local mode, NFS, a shared
    mount; ``file:`` URLs) are cut into byte ranges on record boundaries with the planner of
    ``hintline scan`` (``chunk_bytes``, 32 MiB by default) and the ranges are distributed: a
    multi-gigabyte file is read by every core, each task holds one range's groups, never the
    file. Compressed files are one range each, streamed. Files of other schemes (``s3a:``,
    ``hdfs:``…) are read whole by one task each (``binaryFile``: such a file must fit in an
    executor's memory). The result has :data:`GROUP_SCHEMA`, most frequent first.
    """
    from hintline.scan import DEFAULT_CHUNK_BYTES, plan_chunks

    listing = (
        spark.read.format("binaryFile")
        .option("pathGlobFilter", pattern)
        .option("recursiveFileLookup", "true")
        .load(path)
        .select("path", "length", "modificationTime")  # content is not read
        .collect()
    )
    local = [(str(r["path"]), _local_path(str(r["path"]))) for r in listing]
    chunks = []
    skipped: list[str] = []
    for url, file in local:
        if file is None:
            continue
        for c in plan_chunks(
            [file], fmt=None, chunk_bytes=chunk_bytes or DEFAULT_CHUNK_BYTES, skipped=skipped, rotated=False
        ):
            chunks.append((c.path, c.fmt, c.start, c.end, c.size, c.mtime_ns, url if c.path == file else c.path))
    parts = []
    if chunks:
        ranges = spark.createDataFrame(chunks, schema=_CHUNK_SCHEMA).repartition(max(1, len(chunks)))
        parts.append(ranges.mapInPandas(_chunk_groups, schema=_PARTIAL_SCHEMA))
    remote = [url for url, file in local if file is None]
    if remote:
        files = spark.read.format("binaryFile").load(remote).select("path", "content", "modificationTime")
        parts.append(files.mapInPandas(_file_groups, schema=_PARTIAL_SCHEMA))
    if not parts:
        return spark.createDataFrame([], schema=GROUP_SCHEMA)
    partial = parts[0] if len(parts) == 1 else parts[0].unionByName(parts[1])
    merged = partial.groupBy("fingerprint").applyInPandas(_merge_groups, schema=GROUP_SCHEMA)
    return merged.orderBy(F.desc("count"), F.desc("last_seen"), "fingerprint")
