"""PySpark: hints as columns, and the groups of ``hintline scan`` over a cluster (the ``spark`` extra).

.. code-block:: python

    from hintline.integrations.spark import add_hints
    hinted = add_hints(spark.read.text("s3a://logs/app/"), column="value")

``add_hints`` runs as an Arrow ``mapInPandas``: each Python worker compiles the rule table once,
on its first batch, and reuses it for every row after (Spark reuses its Python workers), so the cost
per row is one ``clean`` and one ``parse_trace``. :func:`scan_files` is the distributed
``hintline scan``: each log file is read by one task with the same chunk reader, and the partial
groups are merged by fingerprint with the same rules (count, first and last seen, earliest
example), so its groups equal ``hintline scan``'s on the same input.
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

GROUP_SCHEMA = T.StructType(
    [
        T.StructField(name, T.LongType() if name == "count" else T.StringType(), True)
        for name in (
            "fingerprint", "count", "first_seen", "last_seen", "category", "kind", "rule", "key",
            "hint", "exception_type", "example", "example_source", "example_order",
        )
    ]
)
"""One partial or merged group (the fields of :class:`hintline.scan.GroupRow`)."""


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
            prints.append(fingerprint(hint, parse_trace(text)))
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


def _file_groups(batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    from hintline.scan import scan

    names = [f.name for f in GROUP_SCHEMA.fields]
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
            for row in tally.groups.values():
                data = {n: getattr(row, n) for n in names}
                data["example_source"] = str(path)
                rows.append(data)
        yield pd.DataFrame(rows, columns=names)


def scan_files(spark: SparkSession, path: str, *, pattern: str = "*") -> DataFrame:
    """The groups of every error in the log files under ``path`` (a directory or object-store prefix).

    Each file is one task (read with ``binaryFile``: a file must fit in an executor's memory; cut
    huge files or use ``hintline scan`` on one machine). Rotated and ``.gz`` files are read as
    they are. The result has :data:`GROUP_SCHEMA` without ``example_order``, most frequent first.
    """
    files = (
        spark.read.format("binaryFile")
        .option("pathGlobFilter", pattern)
        .option("recursiveFileLookup", "true")
        .load(path)
        .select("path", "content", "modificationTime")
    )
    partial = files.mapInPandas(_file_groups, schema=GROUP_SCHEMA)
    example_fields = ["category", "kind", "rule", "key", "hint", "exception_type", "example", "example_source"]
    merged = partial.groupBy("fingerprint").agg(
        F.sum("count").alias("count"),
        F.min("first_seen").alias("first_seen"),
        F.max("last_seen").alias("last_seen"),
        F.min_by(F.struct(*example_fields), "example_order").alias("ex"),
    )
    return merged.select(
        "fingerprint", "count", "first_seen", "last_seen", *(F.col(f"ex.{f}").alias(f) for f in example_fields)
    ).orderBy(F.desc("count"), F.desc("last_seen"), "fingerprint")
