"""``hintline scan``: every error of a log corpus, grouped, on all cores, resumable."""

from __future__ import annotations

import argparse
import os
import sys
import time

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``scan`` subcommand."""
    p = sub.add_parser("scan", help="find, clean and group every error of many (large) logs")
    p.add_argument("paths", nargs="+", metavar="PATH", help="log files or directories")
    p.add_argument("--jobs", "-j", type=int, default=None, help="worker processes (default: cores)")
    p.add_argument("--output", "-o", help="write groups to FILE.jsonl or FILE.parquet")
    p.add_argument("--html", help="write a self-contained HTML report")
    p.add_argument("--format", help="log format (default: detected per file)")
    p.add_argument("--state", help="checkpoint directory (default: under the user's cache directory)")
    p.add_argument("--keep-state", action="store_true",
                   help="keep what was scanned, so that a rerun reads only what was appended to a log")
    p.add_argument("--no-state", action="store_true", help="no checkpoints (a stopped scan starts over)")
    p.add_argument("--chunk-mb", type=float, default=32.0, help="bytes a worker reads at a time, in MB")
    p.add_argument("--top", type=int, default=20, help="groups printed on standard output")
    p.add_argument("--progress", action="store_true", help="show progress even when not on a terminal")
    p.set_defaults(func=run)


def _progress_printer() -> object:
    start = time.monotonic()

    def show(done: int, total: int) -> None:
        rate = done / max(time.monotonic() - start, 1e-6) / 1e6
        pct = 100.0 * done / total if total else 100.0
        print(f"\rscanned {done / 1e6:,.0f} of {total / 1e6:,.0f} MB ({pct:.0f}%, {rate:.0f} MB/s)",
              end="", file=sys.stderr, flush=True)

    return show


def run(args: argparse.Namespace) -> int:
    """Scan; print the top groups; write the reports."""
    import signal  # here, like every heavy import: `hintline clean` loads this module too
    from pathlib import Path

    from hintline.exceptions import HintlineError
    from hintline.logs import LogFormatError
    from hintline.scan import ScanInterrupted, scan, write_html, write_jsonl, write_parquet
    from hintline.scrub import scrub

    if args.jobs is not None and args.jobs < 1:
        print("hintline: --jobs must be at least 1", file=sys.stderr)
        return 2
    if args.output and not args.output.endswith((".jsonl", ".parquet")):
        print("hintline: --output must end in .jsonl or .parquet", file=sys.stderr)
        return 2
    from hintline.scan import default_state_dir

    state = None if args.no_state else (Path(args.state) if args.state else default_state_dir(args.paths))
    stop_after = int(os.environ["HINTLINE_SCAN_STOP_AFTER"]) if os.environ.get("HINTLINE_SCAN_STOP_AFTER") else None
    show = _progress_printer() if (args.progress or sys.stderr.isatty()) else None

    def on_term(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    try:
        result = scan(
            args.paths,
            jobs=args.jobs,
            format=args.format,
            chunk_bytes=max(1, int(args.chunk_mb * (1 << 20))),
            state_dir=state,
            keep_state=args.keep_state,
            progress=show,  # type: ignore[arg-type]
            stop_after=stop_after,
        )
    except ScanInterrupted as exc:
        print(f"\nhintline: {exc}", file=sys.stderr)
        return 130
    except (OSError, LogFormatError, HintlineError) as exc:
        print(scrub(f"hintline: {exc}"), file=sys.stderr)
        return 2
    if show is not None:
        print(file=sys.stderr)
    tally = result.tally
    # The files first: a reader that closes standard output early (| head) loses nothing.
    written: list[str] = []
    try:
        if args.output:
            writer = write_parquet if args.output.endswith(".parquet") else write_jsonl
            writer(tally, args.output)
            written.append(f"groups written to {args.output}")
        if args.html:
            write_html(tally, args.html)
            written.append(f"report written to {args.html}")
    except (OSError, HintlineError) as exc:
        print(scrub(f"hintline: cannot write the report: {exc}"), file=sys.stderr)
        return 2
    for why in result.skipped:
        print(scrub(f"hintline: skipped {why}"), file=sys.stderr)
    if result.resumed or result.appended:
        print(f"hintline: resumed {result.resumed} of {result.chunks} chunks and {result.appended} "
              f"appended file(s) from an earlier scan (state in {state})", file=sys.stderr)
    try:
        _summary(result, args.top, written)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes at exit
    return 3 if result.skipped else 0


def _summary(result: object, top: int, written: list[str]) -> None:
    from hintline.scan import ScanResult

    assert isinstance(result, ScanResult)
    tally = result.tally
    rows = tally.rows()
    print(f"{tally.entries} error entries in {len(rows)} groups ({result.chunks} chunks, "
          f"{result.resumed} resumed)" + (f", {len(result.skipped)} input(s) skipped" if result.skipped else ""))
    for row in rows[:top]:
        kind = row.exception_type or row.logger or "-"
        print(f"{row.count:>8}  {row.last_seen or '-':<32} {kind}  {row.hint}")
    cats = ", ".join(f"{c} {n}" for c, n in tally.categories()[:5])
    if cats:
        print(f"top categories: {cats}")
    for line in written:
        print(line)
    sys.stdout.flush()
