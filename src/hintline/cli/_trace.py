"""``hintline trace [FILE|-]``: print the exception chain of a stack trace, scrubbed."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from hintline.cli._io import error

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``trace`` subcommand."""
    p = subparsers.add_parser(
        "trace",
        help="parse a stack trace (any language) into its exception chain",
        description="Parse a stack trace of any supported language (Python, JVM, Node, PHP, Go, Rust, "
        ".NET, Ruby) into its exception chain, outermost first, and print it. "
        "Everything printed goes through hintline.scrub.",
    )
    p.add_argument("file", nargs="?", default="-", help="file holding the trace, or - for stdin (default)")
    p.add_argument("--json", action="store_true", help="print the parse as JSON")
    p.add_argument("--project-root", metavar="DIR", help="frames inside DIR are the app's own (in_app)")
    p.add_argument("--language", metavar="LANG", help="skip detection: python, java, javascript, php, go, rust, dotnet, ruby")
    p.add_argument("--include", metavar="PREFIX", action="append", default=[], help="module prefix or path fragment always in app (repeatable)")
    p.add_argument("--exclude", metavar="PREFIX", action="append", default=[], help="module prefix or path fragment never in app (repeatable)")
    p.add_argument("--limit", metavar="N", type=int, default=20, help="most frames shown per exception (default 20, 0 = all)")
    p.set_defaults(func=run)


def _scrub_values(value: Any, scrub: Any) -> Any:
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {k: _scrub_values(v, scrub) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub_values(v, scrub) for v in value]
    return value


def _location(frame: Any) -> str:
    where = frame.file or "?"
    if frame.line is not None:
        where += f":{frame.line}"
        if frame.column is not None:
            where += f":{frame.column}"
    return where


def _render(trace: Any) -> str:
    lines: list[str] = [f"language: {trace.language}"]
    for key, val in sorted(trace.extra.items()):
        lines.append(f"{key}: {val}")
    for i, exc in enumerate(trace.exceptions):
        head = exc.type + (f": {exc.message}" if exc.message else "")
        if exc.relation is not None:
            head = f"[{i}] {exc.relation} of [{exc.parent}]: {head}"
        else:
            head = f"[{i}] {head}"
        lines.append(head.replace("\n", "\n    "))
        for frame in exc.frames:
            name = ".".join(p for p in (frame.module, frame.function) if p) or "?"
            mark = "app" if frame.in_app else "   "
            lines.append(f"  {mark} at {name} ({_location(frame)})")
        if exc.omitted:
            lines.append(f"      ... {exc.omitted} frames omitted")
    rc = trace.root_cause
    if rc is not None:
        lines.append(f"root cause: {rc.type}" + (f": {rc.message}" if rc.message else ""))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Parse the trace in ``args.file`` and print it; 1 when no trace was found."""
    from hintline.cli._io import CannotRead, open_input
    from hintline.cli._stream import first_found, limited, text_blocks
    from hintline.scrub import scrub
    from hintline.traces import parse_trace

    if args.limit < 0:
        error("trace", "--limit must be 0 or more")
        return 2
    def parse(text: str) -> Any:
        return parse_trace(
            text,
            project_root=args.project_root,
            language=args.language,
            include=tuple(args.include),
            exclude=tuple(args.exclude),
        )

    try:  # read in windows: memory stays bounded at any size, an endless stream is cut
        with open_input(args.file, "trace") as raw, limited(raw, args.file) as stream:
            trace = first_found(text_blocks(stream), parse, lambda t: bool(t.exceptions))
    except CannotRead as exc:
        print(exc, file=sys.stderr)
        return 2
    if not trace.exceptions:
        error("trace", "no stack trace found")
        return 1
    if args.limit:
        trace = trace.limited(args.limit)
    if args.json:
        out = trace.to_dict()
        rc = trace.root_cause
        out["root_cause"] = None if rc is None else {"type": rc.type, "message": rc.message}
        print(json.dumps(_scrub_values(out, scrub), indent=2, ensure_ascii=False))
    else:
        print(scrub(_render(trace)))
    return 0
