"""A multi-gigabyte log through the Spark job on ``local[2]`` (default memory) vs ``hintline scan --jobs 2``.

    PYTHONPATH=$PWD/src:$PWD .venv/bin/python -m benchmarks.spark_big --size-gb 3

The log is the one of ``benchmarks.scan_throughput`` (real ``logging`` records concatenated,
cached in ``/tmp/hintline-bench/``). The Spark job is started with ``spark-submit`` from the
project's virtualenv (PySpark's own launcher; Java from ``scripts/setup.d/45-java.sh``), no
memory setting given: Spark's defaults (1 GiB driver, ``local[2]``). Both runs must find the
same groups; the script prints a Markdown table and exits non-zero if they differ.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.scan_throughput import make_log


def _spark_submit() -> Path:
    import pyspark

    return Path(pyspark.__file__).parent / "bin" / "spark-submit"


def run_spark(log_dir: Path, out: Path, chunk_mb: float) -> tuple[float, str]:
    import hintline.jobs.spark_scan as job

    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "SPARK_LOCAL_IP": "127.0.0.1",
           "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    t0 = time.perf_counter()
    r = subprocess.run(
        [str(_spark_submit()), "--master", "local[2]", "--conf", "spark.ui.enabled=false",
         job.__file__, "--input", str(log_dir), "--output", str(out), "--chunk-mb", str(chunk_mb)],
        capture_output=True, text=True, check=False, env=env,
    )
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        sys.stderr.write(r.stderr[-5000:])
        raise SystemExit(f"spark-submit failed ({r.returncode})")
    return wall, r.stdout


def run_scan(log_dir: Path, out: Path) -> tuple[float, str]:
    t0 = time.perf_counter()
    r = subprocess.run(
        [sys.executable, "-m", "hintline", "scan", str(log_dir), "--jobs", "2", "--no-state", "-o", str(out)],
        capture_output=True, text=True, check=True,
    )
    return time.perf_counter() - t0, r.stdout


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size-gb", type=float, default=3.0)
    parser.add_argument("--base-mb", type=int, default=64)
    parser.add_argument("--chunk-mb", type=float, default=32.0)
    args = parser.parse_args(argv)
    log, how = make_log(args.size_gb, args.base_mb)
    with tempfile.TemporaryDirectory(prefix="hintline-spark-big-") as tmp:
        d = Path(tmp) / "logs"
        d.mkdir()
        (d / "app.log").symlink_to(log)
        spark_wall, spark_out = run_spark(d, Path(tmp) / "groups", args.chunk_mb)
        spark_groups = {
            (g["fingerprint"], g["count"])
            for part in sorted((Path(tmp) / "groups").glob("part-*.json"))
            for g in map(json.loads, part.read_text().splitlines())
        }
        scan_wall, scan_out = run_scan(d, Path(tmp) / "scan.jsonl")
        scan_groups = {
            (g["fingerprint"], g["count"]) for g in map(json.loads, (Path(tmp) / "scan.jsonl").read_text().splitlines())
        }
    size = log.stat().st_size
    load = os.getloadavg()
    print(f"log: {size / 1e9:.2f} GB ({how}); load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print("| run | wall s | MB/s | result |")
    print("|---|---|---|---|")
    print(f"| Spark job, `local[2]`, default memory, {args.chunk_mb:g} MB ranges | {spark_wall:.1f} | "
          f"{size / 1e6 / spark_wall:.1f} | {spark_out.strip().splitlines()[0]} |")
    print(f"| `hintline scan --jobs 2` | {scan_wall:.1f} | {size / 1e6 / scan_wall:.1f} | "
          f"{scan_out.strip().splitlines()[0]} |")
    same = spark_groups == scan_groups
    print(f"same groups and counts: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
