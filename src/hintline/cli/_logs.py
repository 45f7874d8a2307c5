"""``hintline logs PATH…``: the newest error entries of logs, with their deterministic hints.

Exit status: 0 entries printed; 1 no error entry matched (a message on stderr, like grep);
2 a file is missing or unreadable, a format is unknown, or an option is wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from hintline.cli._io import error
from hintline.cli._style import Style, colour_enabled

__all__ = ["register", "run"]

_EPILOG = """\
Exit status: 0 entries printed, 1 no error entry matched, 2 bad file, format or option.
Everything printed has been through hintline.scrub.
"""


def register(subparsers: Any) -> None:
    """Add the ``logs`` subcommand."""
    p = subparsers.add_parser(
        "logs",
        help="list the newest error entries of logs with their hints",
        description="List the newest error entries of logs (and their rotated files) with their "
        "deterministic hints, newest first. Index [0] is the newest (as `hintline explain --index`).",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="log files or directories (the logs they hold); - reads standard input")
    p.add_argument("--limit", "-n", type=int, default=10, help="at most this many entries or groups (10)")
    p.add_argument("--search", "-s", metavar="TEXT", help="only entries whose message, component, class or trace contain TEXT")
    p.add_argument("--since", metavar="TIME", help="ISO time or relative span (30m, 2h, 3d)")
    p.add_argument("--until", metavar="TIME", help="ISO time or relative span (30m, 2h, 3d)")
    p.add_argument("--format", "-f", metavar="FORMAT", help="skip detection: python, jsonl, logback, log4j, journald, monolog, typo3, plain")
    p.add_argument("--level", default="ERROR", metavar="LEVEL", help="lowest level listed (ERROR)")
    p.add_argument("--group", "-g", action="store_true", help="group repeated errors: count, first and last seen")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.add_argument("--raw", action="store_true", help="also print each entry's raw text (scrubbed)")
    p.add_argument("--no-rotated", dest="rotated", action="store_false", help="do not read app.log.1, app.log.2.gz…")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress on stderr (default: when stderr is a terminal)")
    p.set_defaults(func=run)


class _Progress:
    """A one-line progress meter on stderr, shown once a scan takes longer than a second."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.shown = 0.0
        self.visible = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.started < 1.0 or now - self.shown < 0.2:
            return
        self.shown = now
        self.visible = True
        pct = 100.0 * done / total if total else 100.0
        rate = done / (now - self.started) / 1e6
        sys.stderr.write(f"\rhintline: read {done / 1e6:,.0f} of {total / 1e6:,.0f} MB ({pct:.0f}%, {rate:,.0f} MB/s)")
        sys.stderr.flush()

    def close(self) -> None:
        if self.visible:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _time(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _entry_json(entry: Any, hint: Any, index: int | None, raw: bool) -> dict[str, Any]:
    from hintline.scrub import scrub

    out: dict[str, Any] = {
        "index": index,
        "key": entry.key,
        "timestamp": _time(entry.timestamp),
        "level": entry.level,
        "component": scrub(entry.component) if entry.component else None,
        "exception_type": entry.exception_type,
        "message": scrub(entry.message),
        "hint": scrub(hint.text),
        "category": str(hint.category),
        "rule": hint.rule,
        "source": scrub(entry.source),
        "format": entry.format,
        "trace": scrub(entry.trace_text) if entry.trace_text else None,
    }
    if raw:
        out["raw"] = scrub(entry.raw)
    return out


def _first_line(text: str, width: int = 160) -> str:
    """The first non-blank line of ``text``, scrubbed whole and then cut to ``width``."""
    from hintline.scrub import cut_scrubbed, scrub

    # scrub the whole message before taking a line: a secret may span lines (a PEM block)
    line = next((ln.strip() for ln in scrub(text).splitlines() if ln.strip()), "")
    return cut_scrubbed(line, width)


def _print_entry(
    entry: Any, hint: Any, label: str, raw: bool, many_files: bool, style: Style
) -> None:
    from hintline.scrub import scrub

    when = entry.timestamp.isoformat(sep=" ", timespec="seconds") if entry.timestamp else "(no time)"
    head = [style(label, "cyan", "bold"), when, style.level(scrub(entry.level))]
    if entry.component:
        head.append(scrub(entry.component))
    if entry.exception_type:
        head.append(style(scrub(entry.exception_type), "bold"))
    print("  ".join(head))
    if entry.message:
        print("    " + _first_line(entry.message))
    print("    " + style.hint(scrub(hint.text)))
    tail = f"    key {entry.key}"
    if many_files:
        tail += f"  in {entry.source}"
    print(style(scrub(tail), "dim"))
    if raw:
        # the whole entry is scrubbed before it is split: a PEM body line or the second half of
        # a wrapped token is a secret no pattern recognises on its own line
        for line in scrub(entry.raw).splitlines():
            print("    | " + line)


def run(args: argparse.Namespace) -> int:
    """Run ``hintline logs``; return the exit code."""
    from hintline.cli._io import spooled_stdin
    from hintline.logs import LogFormatError, group, hint_for, iter_newest, read
    from hintline.logs._levels import LEVEL_RANKS
    from hintline.scrub import scrub

    if args.limit < 1:
        error("logs", "--limit must be at least 1")
        return 2
    if args.level.upper() not in LEVEL_RANKS:
        error("logs", f"unknown level {args.level!r}")
        return 2
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    meter = _Progress() if show else None
    options: dict[str, Any] = {
        "search": args.search, "since": args.since, "until": args.until, "format": args.format,
        "min_level": args.level.upper(), "rotated": args.rotated, "progress": meter,
    }
    try:
        with spooled_stdin(list(args.paths)) as (paths, names):
            if args.group:
                groups = group(iter_newest(paths, **options))[: args.limit]
                entries: list[Any] = []
            else:
                entries = read(paths, limit=args.limit, **options)
                groups = []
    except (OSError, LogFormatError, ValueError) as exc:
        if meter:
            meter.close()
        message = str(exc) if not isinstance(exc, OSError) or not exc.filename else f"{exc.filename}: {exc.strerror}"
        error("logs", f"{message}")
        return 2
    if meter:
        meter.close()
    if not entries and not groups:
        error("logs", "no error entries" + (" match" if args.search or args.since or args.until else ""))
        return 1
    if names:  # name standard input "<stdin>", not its temporary copy
        import dataclasses

        def renamed(e: Any) -> Any:
            return dataclasses.replace(e, source=names.get(e.source, e.source))

        entries = [renamed(e) for e in entries]
        groups = [dataclasses.replace(g, example=renamed(g.example)) for g in groups]
    style = Style(colour_enabled(sys.stdout) and not args.json)
    many = len(args.paths) > 1 or len({e.source for e in entries} | {g.example.source for g in groups}) > 1
    if groups:
        for g in groups:
            if args.json:
                obj = {
                    "fingerprint": g.fingerprint, "count": g.count,
                    "first_seen": _time(g.first_seen), "last_seen": _time(g.last_seen),
                    "hint": scrub(g.hint.text), "example": _entry_json(g.example, g.hint, None, args.raw),
                }
                print(json.dumps(obj, ensure_ascii=False))
                continue
            first = g.first_seen.isoformat(sep=" ", timespec="seconds") if g.first_seen else "?"
            last = g.last_seen.isoformat(sep=" ", timespec="seconds") if g.last_seen else "?"
            print(f"{style(f'{g.count}×', 'bold')}  fingerprint {g.fingerprint}  first {first}  last {last}")
            outer = g.example.trace.outermost
            if outer is not None and outer.type and outer.type != g.example.exception_type:
                print(scrub(f"    raised as {outer.type}, root cause {g.example.exception_type}"))
            _print_entry(g.example, g.hint, "    newest:", args.raw, many, style)
        return 0
    for index, entry in enumerate(entries):
        hint = hint_for(entry)
        if args.json:
            print(json.dumps(_entry_json(entry, hint, index, args.raw), ensure_ascii=False))
        else:
            _print_entry(entry, hint, f"[{index}]", args.raw, many, style)
    return 0
