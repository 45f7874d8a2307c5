"""The ``spark-submit`` job: ``hintline scan`` over a directory or object-store prefix.

On one machine, from the project's virtualenv (no activation, no ``spark-submit``)::

    .venv/bin/python -m hintline.jobs.spark_scan --master 'local[2]' --input var/log --output /tmp/groups

On a cluster::

    spark-submit --master yarn --py-files hintline-0.1.0-py3-none-any.whl \\
        "$(python -c 'import hintline.jobs.spark_scan as m; print(m.__file__)')" \\
        --input s3a://bucket/logs/2026-11/ --output s3a://bucket/reports/2026-11 [--format jsonl|parquet]

Writes the groups (most frequent first) as JSON lines or Parquet under ``--output`` and prints the
top groups. Every text it writes was scrubbed when the groups were built.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the job; return the exit code."""
    parser = argparse.ArgumentParser(prog="hintline-spark-scan", description=__doc__.splitlines()[0])
    parser.add_argument("--input", required=True, help="directory or object-store prefix of logs")
    parser.add_argument("--output", required=True, help="where to write the groups")
    parser.add_argument("--format", choices=("jsonl", "parquet"), default="jsonl")
    parser.add_argument("--pattern", default="*", help="file name glob (default: every file)")
    parser.add_argument("--top", type=int, default=20, help="groups printed")
    parser.add_argument("--chunk-mb", type=float, default=32.0,
                        help="byte range of a big file one task reads, in MB (files every executor sees)")
    parser.add_argument("--master", help="Spark master when not started by spark-submit (local[2], …)")
    args = parser.parse_args(argv)

    import os

    from pyspark.sql import SparkSession

    from hintline.integrations.spark import scan_files

    builder = SparkSession.builder.appName("hintline-scan")
    if args.master:
        builder = builder.master(args.master)
        if args.master.startswith("local"):
            # the workers run this interpreter (the one with hintline), not the first python3
            os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
            builder = builder.config("spark.ui.enabled", "false")
    spark = builder.getOrCreate()
    try:
        groups = scan_files(
            spark, args.input, pattern=args.pattern, chunk_bytes=max(1, int(args.chunk_mb * (1 << 20)))
        ).cache()
        writer = groups.coalesce(1).write.mode("overwrite")
        if args.format == "parquet":
            writer.parquet(args.output)
        else:
            writer.json(args.output)
        total = groups.agg({"count": "sum"}).collect()[0][0] or 0
        print(f"{total} error entries in {groups.count()} groups")
        for row in groups.limit(args.top).collect():
            print(f"{row['count']:>8}  {row['last_seen'] or '-':<26} {row['hint']}")
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
