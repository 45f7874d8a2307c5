"""``hintline scan``: every error of a log corpus, grouped, on all cores, resumable."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from hintline.cli._io import error

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``scan`` subcommand."""
    p = sub.add_parser(
        "scan",
        help="find, clean and group every error of many (large) logs",
        description="Find every error entry of log files and folders (plain, .gz, rotated; - "
        "reads standard input), clean each into its hint and group repeats by fingerprint, on "
        "all cores. Prints the most frequent groups (or, with --json, every group as one JSON "
        "object per line); finished chunks are checkpointed, so an interrupted scan resumes.",
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="log files or directories; - reads standard input")
    p.add_argument("--jobs", "-j", type=int, default=None, help="worker processes (default: cores)")
    p.add_argument("--output", "-o", help="write groups to FILE.jsonl or FILE.parquet")
    p.add_argument("--html", help="write a self-contained HTML report")
    p.add_argument("--format", help="log format (default: detected per file)")
    p.add_argument("--json", action="store_true",
                   help="print every group as one JSON object per line (the --output .jsonl rows)")
    p.add_argument("--state", help="checkpoint directory (default: under the user's cache directory)")
    p.add_argument("--keep-state", action="store_true",
                   help="keep what was scanned, so that a rerun reads only what was appended to a log")
    p.add_argument("--no-state", action="store_true", help="no checkpoints (a stopped scan starts over)")
    p.add_argument("--chunk-mb", type=float, default=32.0, help="bytes a worker reads at a time, in MB")
    p.add_argument("--top", type=int, default=20, help="groups printed on standard output")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress on stderr (default: when stderr is a terminal)")
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

    from hintline.cli._io import spooled_stdin
    from hintline.exceptions import HintlineError
    from hintline.logs import LogFormatError
    from hintline.scan import ScanInterrupted, scan, write_html, write_jsonl, write_parquet

    if args.jobs is not None and args.jobs < 1:
        error("scan", "--jobs must be at least 1")
        return 2
    if args.output and not args.output.endswith((".jsonl", ".parquet")):
        error("scan", "--output must end in .jsonl or .parquet")
        return 2
    if args.output and args.output.endswith(".parquet"):
        import importlib.util

        if importlib.util.find_spec("pyarrow") is None:  # say so before a long scan, not after
            from hintline.exceptions import MissingExtraError

            raise MissingExtraError("scan", "pyarrow")
    from hintline.scan import default_state_dir

    state = None if args.no_state else (Path(args.state) if args.state else default_state_dir(args.paths))
    stop_after = int(os.environ["HINTLINE_SCAN_STOP_AFTER"]) if os.environ.get("HINTLINE_SCAN_STOP_AFTER") else None
    progress = args.progress if args.progress is not None else sys.stderr.isatty()
    show = _progress_printer() if progress else None

    def on_term(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    try:
        with spooled_stdin(args.paths) as (paths, names):
            result = scan(
                paths,
                jobs=args.jobs,
                format=args.format,
                chunk_bytes=max(1, int(args.chunk_mb * (1 << 20))),
                state_dir=None if names else state,  # a pipe cannot be resumed
                keep_state=args.keep_state and not names,
                progress=show,  # type: ignore[arg-type]
                stop_after=stop_after,
            )
    except ScanInterrupted as exc:
        print(file=sys.stderr)
        error("scan", str(exc))
        return 130
    except (OSError, LogFormatError, HintlineError) as exc:
        error("scan", str(exc))
        return 2
    if show is not None:
        print(file=sys.stderr)
    tally = result.tally
    if names:  # name standard input "<stdin>", not its temporary copy
        for row in tally.rows():
            row.example_source = names.get(row.example_source, row.example_source)
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
        error("scan", f"cannot write the report: {exc}")
        return 2
    for why in result.skipped:
        error("scan", f"skipped {why}")
    if result.resumed or result.appended:
        print(f"hintline scan: resumed {result.resumed} of {result.chunks} chunks and {result.appended} "
              f"appended file(s) from an earlier scan (state in {state})", file=sys.stderr)
    try:
        if args.json:  # standard output holds only the groups; the notes go to stderr
            for row in tally.rows():
                print(json.dumps(row.to_dict(), ensure_ascii=False))
            for line in written:
                print(line, file=sys.stderr)
            sys.stdout.flush()
        else:
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
    from hintline.cli._style import Style, colour_enabled

    style = Style(colour_enabled(sys.stdout))
    for row in rows[:top]:
        kind = row.exception_type or row.logger or "-"
        print(f"{style(f'{row.count:>8}', 'bold')}  {row.last_seen or '-':<32} {kind}  {style.hint(row.hint)}")
    cats = ", ".join(f"{c} {n}" for c, n in tally.categories()[:5])
    if cats:
        print(f"top categories: {cats}")
    for line in written:
        print(line)
    sys.stdout.flush()
