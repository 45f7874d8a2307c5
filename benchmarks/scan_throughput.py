"""``hintline scan`` throughput: MB/s on a ~1 GB application log at 1 and 2 jobs, against grep.

The log is made once and cached in ``/tmp/hintline-bench/`` (remade when missing or of another
size). Its records are real: :func:`hintline.scan._sample.write_sample_log` writes them with the
``logging`` module, about 2% of them ``logger.exception`` calls made while a real exception
(KeyError, ZeroDivisionError, FileNotFoundError, ConnectionRefusedError, JSONDecodeError) is
handled. Writing records that way runs at about 1 MB/s, so a base of ``--base-mb`` MB is written
by several runs with different seeds and the 1 GB file is built by concatenating copies of that
base (the output says so). Targets (issue 8): at least 50 MB/s per core, and 2 jobs at least
1.8 times one job. ``grep -c ERROR`` over the same file is the floor of reading it.

    PYTHONPATH=$PWD/src:$PWD .venv/bin/python -m benchmarks.scan_throughput
    PYTHONPATH=$PWD/src:$PWD .venv/bin/python -m benchmarks.scan_throughput --size-gb 1 --jobs 1,2
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from hintline.scan import scan
from hintline.scan._sample import write_sample_log

HERE = Path("/tmp/hintline-bench")
RECORDS_PER_RUN = 100_000  # about 12.5 MB of log per seeded run
PER_CORE_TARGET = 50.0  # MB/s
SPEEDUP_TARGET = 1.8


@dataclass(frozen=True)
class Row:
    """One measured line of the table."""

    what: str
    seconds: float
    mb: float
    entries: int | None = None
    groups: int | None = None
    cpu: float | None = None
    """CPU seconds of this process and its workers (the machine is shared: wall time varies)."""

    @property
    def mb_s(self) -> float:
        return self.mb / self.seconds if self.seconds > 0 else float("inf")


def make_base(base_mb: int) -> Path:
    """A log of about ``base_mb`` MB written by the real ``logging`` module (cached)."""
    base = HERE / f"scan-base-{base_mb}mb.log"
    done = base.with_suffix(".done")
    if base.exists() and done.exists():
        return base
    HERE.mkdir(parents=True, exist_ok=True)
    tmp = base.with_suffix(".tmp")
    tmp.unlink(missing_ok=True)
    seed = 1
    t0 = time.perf_counter()
    while not tmp.exists() or tmp.stat().st_size < base_mb << 20:
        write_sample_log(tmp, records=RECORDS_PER_RUN, seed=seed)
        seed += 1
    tmp.replace(base)
    done.write_text(f"{seed - 1} runs of {RECORDS_PER_RUN} records\n", encoding="utf-8")
    print(f"wrote the base log ({base.stat().st_size / 1e6:.0f} MB, {seed - 1} seeded runs) "
          f"in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return base


def make_log(size_gb: float, base_mb: int) -> tuple[Path, str]:
    """The benchmark log (cached) and how it was made."""
    base = make_base(base_mb)
    target = int(size_gb * (1 << 30))
    path = HERE / f"scan-{size_gb:g}gb-from-{base_mb}mb.log"
    copies = max(1, round(target / base.stat().st_size))
    how = (f"{base.stat().st_size / 1e6:.0f} MB of real `logging` records "
           f"({base.with_suffix('.done').read_text(encoding='utf-8').strip()}, seeds 1..), "
           f"concatenated {copies}×")
    if path.exists() and path.stat().st_size == copies * base.stat().st_size:
        return path, how
    tmp = path.with_suffix(".tmp")
    with tmp.open("wb") as out:
        for _ in range(copies):
            with base.open("rb") as src:
                shutil.copyfileobj(src, out, 16 << 20)
    tmp.replace(path)
    return path, how


def _cpu_now() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def time_grep(path: Path) -> Row:
    """``grep -c ERROR FILE``: the floor of reading the file."""
    c0 = _cpu_now()
    t0 = time.perf_counter()
    out = subprocess.run(["grep", "-c", "ERROR", str(path)], capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - t0
    return Row("`grep -c ERROR`", seconds, path.stat().st_size / 1e6, int(out.stdout.strip() or 0),
               cpu=_cpu_now() - c0)


def time_scan(path: Path, jobs: int) -> Row:
    """One ``scan(path, jobs=jobs)`` without checkpoints (workers are reaped before it returns)."""
    c0 = _cpu_now()
    t0 = time.perf_counter()
    result = scan([path], jobs=jobs)
    seconds = time.perf_counter() - t0
    return Row(f"`scan(jobs={jobs})`", seconds, path.stat().st_size / 1e6,
               result.tally.entries, len(result.tally.groups), cpu=_cpu_now() - c0)


def _load() -> str:
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return "unknown"
    return f"{one:.2f}, {five:.2f}, {fifteen:.2f}"


def main(argv: list[str] | None = None) -> int:
    """Measure and print the markdown table; exit 1 when a target is missed."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.scan_throughput", description=__doc__.split("\n")[0])
    parser.add_argument("--size-gb", type=float, default=1.0, help="size of the log (default 1)")
    parser.add_argument("--jobs", default="1,2", help="comma-separated job counts (default 1,2)")
    parser.add_argument("--base-mb", type=int, default=60, help="MB of freshly logged records (default 60)")
    parser.add_argument("--repeat", type=int, default=1, help="best of N runs per row (default 1)")
    args = parser.parse_args(argv)
    jobs = [int(j) for j in args.jobs.split(",") if j.strip()]
    path, how = make_log(args.size_gb, args.base_mb)
    size_mb = path.stat().st_size / 1e6
    subprocess.run(["cat", str(path)], stdout=subprocess.DEVNULL, check=False)  # warm the page cache
    load_before = _load()
    rows = [min((time_grep(path) for _ in range(args.repeat)), key=lambda r: r.seconds)]
    for j in jobs:
        rows.append(min((time_scan(path, j) for _ in range(args.repeat)), key=lambda r: r.seconds))
    load_after = _load()
    print(f"# hintline scan throughput: {size_mb:.0f} MB log ({how})")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.processor() or _cpu()}, "
          f"Python {platform.python_version()}; load average before {load_before}, after {load_after}")
    print()
    print("| run | wall s | MB/s | MB/s per job | CPU s | MB per CPU s | entries | groups | speedup vs 1 job |")
    print("|---|---|---|---|---|---|---|---|---|")
    one = next((r for r, j in zip(rows[1:], jobs, strict=True) if j == 1), None)
    ok = True
    for i, row in enumerate(rows):
        j = jobs[i - 1] if i else None
        per_job = f"{row.mb_s / j:.1f}" if j else ""
        speed = f"{one.seconds / row.seconds:.2f}×" if j and one is not None else ""
        groups = "" if row.groups is None else str(row.groups)
        label = "lines" if i == 0 else "entries"
        entries = f"{row.entries} {label}" if i == 0 else str(row.entries)
        cpu = "" if row.cpu is None else f"{row.cpu:.2f}"
        per_cpu = "" if not row.cpu else f"{row.mb / row.cpu:.1f}"
        print(f"| {row.what} | {row.seconds:.2f} | {row.mb_s:.1f} | {per_job} | {cpu} | {per_cpu} "
              f"| {entries} | {groups} | {speed} |")
        if j is not None:
            ok = ok and row.mb_s / j >= PER_CORE_TARGET
            if one is not None and j == 2:
                ok = ok and one.seconds / row.seconds >= SPEEDUP_TARGET
    print()
    print(f"targets (wall clock): ≥ {PER_CORE_TARGET:g} MB/s per job; 2 jobs ≥ {SPEEDUP_TARGET}× one job: "
          f"{'met' if ok else 'NOT met'}. On a loaded machine (load average above the core count) "
          "wall time measures the contention; MB per CPU s is the cost of the work itself.")
    return 0 if ok else 1


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


if __name__ == "__main__":
    sys.exit(main())
