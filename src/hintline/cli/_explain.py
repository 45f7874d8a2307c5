"""``hintline explain PATH…``: ask a model for the cause of one logged error.

Prints the entry (scrubbed) and the model's hint under a heading that says whether hintline
found it anchored in the project's code or a guess. Exit codes: 0 a hint, 1 bad input (no
entries, index out of range, unknown key or configuration, bad configuration file), 3 refused by
the trust zone, 4 the model gave no usable answer (unreachable, timeout, cut off, not JSON).
"""

from __future__ import annotations

import argparse
import json
import os
from typing import TYPE_CHECKING

from hintline.cli._io import error

if TYPE_CHECKING:
    from hintline.explain import Explanation, Payload
    from hintline.logs import Entry

__all__ = ["register", "run"]

EXIT_INPUT = 1
EXIT_REFUSED = 3
EXIT_MODEL = 4
_MESSAGE_LINES = 6


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``explain`` subcommand."""
    parser = subparsers.add_parser(
        "explain",
        help="ask a model for the cause of a logged error (only when you ask)",
        description=(
            "Pick one error entry of the logs (default: the newest) and ask a model for its "
            "cause. Only what the configuration's trust zone may receive is sent, scrubbed. "
            "hintline labels the answer anchored (the cited frame is the project's code) or a "
            "guess."
        ),
        epilog="exit codes: 0 hint, 1 bad input, 3 refused by the trust zone, "
        "4 no usable answer from the model",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="log files (rotated ones too)")
    parser.add_argument(
        "--index", type=int, default=0, metavar="N",
        help="the N-th newest matching entry (0, the default, is the newest)",
    )
    parser.add_argument("--search", metavar="TEXT", help="only entries containing TEXT")
    parser.add_argument("--key", metavar="KEY", help="the entry with this key (from `logs`)")
    parser.add_argument("--format", metavar="FORMAT", help="the log format (default: detect)")
    parser.add_argument(
        "--configuration", "-c", metavar="NAME", help="the configuration to use (default: its default)"
    )
    parser.add_argument("--config", metavar="FILE", help="the configuration file to read")
    parser.add_argument(
        "--project-root", metavar="DIR",
        help="what counts as the project's code (default: configured, else the current directory)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``hintline explain``."""
    import hintline.explain.openai_compatible  # noqa: F401 - the model client: the `explain` extra, said before anything is printed
    from hintline.exceptions import ConfigError, ExplainerUnavailable, ExplainRefused
    from hintline.explain import explain, load_settings

    if args.key and (args.search or args.index):
        return _fail("--key names one entry: do not combine it with --index or --search")
    if args.index < 0:
        return _fail("--index must be 0 or more (0 is the newest entry)")
    missing = [p for p in args.paths if not os.path.exists(p)]
    if missing:
        return _fail(f"no such file: {missing[0]}")
    try:
        settings = load_settings(args.config)
        configuration = settings.get(args.configuration)
    except ConfigError as exc:
        return _fail(str(exc))
    entry_or_code = _select(args)
    if isinstance(entry_or_code, int):
        return entry_or_code
    entry = entry_or_code
    root = str(args.project_root or settings.project_root or os.getcwd())
    if args.project_root and not os.path.isdir(args.project_root):
        return _fail(f"--project-root is not a folder: {args.project_root}")
    shown = _display_payload(entry, root)
    if not args.json:
        _print_entry(entry, shown, args.index if not args.key else None)
    try:
        result = explain(
            entry, configuration=configuration, settings=settings, project_root=root
        )
    except ExplainRefused as exc:
        return _fail(str(exc), EXIT_REFUSED)
    except ConfigError as exc:
        return _fail(str(exc))
    except ExplainerUnavailable as exc:
        return _fail(f"no hint: {exc}", EXIT_MODEL)
    if args.json:
        print(json.dumps({"entry": _entry_dict(entry), "hint": result.to_dict()}, indent=2))
    else:
        _print_hint(result)
    if result.usage_note:  # the answer is shown whatever happened to its usage record
        error("explain", result.usage_note)
    return 0


def _select(args: argparse.Namespace) -> Entry | int:
    from hintline import logs

    where = ", ".join(args.paths)
    try:
        if args.key:
            found: Entry | None = logs.find(args.paths, args.key, format=args.format)
            if found is None:
                return _fail(f"no entry with key {args.key} in {where}")
            return found
        entries: list[Entry] = logs.read(
            args.paths, limit=args.index + 1, search=args.search, format=args.format
        )
    except (OSError, ValueError) as exc:  # unreadable file, unknown format (LogFormatError)
        return _fail(str(exc))
    matching = f" matching {args.search!r}" if args.search else ""
    if not entries:
        return _fail(f"no error entries{matching} in {where}")
    if args.index >= len(entries):
        count = len(entries)
        noun = "entry" if count == 1 else "entries"
        search = f" for {args.search!r}" if args.search else ""
        return _fail(
            f"index {args.index} is out of range: only {count} matching {noun}{search} "
            "(--index 0 is the newest)"
        )
    chosen: Entry = entries[args.index]
    return chosen


def _display_payload(entry: Entry, root: str) -> Payload | None:
    """The entry as a local provider would get it: scrubbed, frames numbered as sent."""
    from hintline.exceptions import ExplainRefused
    from hintline.explain import Configuration, TrustZone, build_payload

    shown = Configuration(name="display", zone=TrustZone.LOCAL)
    try:
        return build_payload(entry, shown, project_root=root)
    except ExplainRefused:
        return None


def _print_entry(entry: Entry, shown: Payload | None, index: int | None) -> None:
    from hintline.scrub import scrub

    head = f"Entry {index}" if index is not None else "Entry"
    print(f"{head} · key {entry.key} · {scrub(entry.source)}")
    when = entry.timestamp.isoformat(sep=" ", timespec="seconds") if entry.timestamp else "(no time)"
    component = f" {scrub(entry.component)}" if entry.component else ""
    print(f"{when} {entry.level}{component}")
    message = scrub(entry.message).strip().splitlines()
    for line in message[:_MESSAGE_LINES]:
        print(f"  {line}")
    if len(message) > _MESSAGE_LINES:
        print(f"  … ({len(message) - _MESSAGE_LINES} more lines)")
    if shown is None:
        return
    if shown.exception_type:
        extra = f": {shown.exception_message}" if shown.exception_message else ""
        print(f"{shown.exception_type}{extra}")
    for frame in shown.frames:
        print(f"  {frame.describe()}")
    print()


def _print_hint(result: Explanation) -> None:
    print(f"{result.heading}: {result.reason}")
    print(f"  Cause: {result.cause}")
    print(f"  Next step: {result.next_step}")
    if result.withheld_note:
        print(f"  {result.withheld_note}")
    tokens = ""
    if result.prompt_tokens is not None and result.completion_tokens is not None:
        tokens = f" · {result.prompt_tokens}+{result.completion_tokens} tokens"
    print(
        f"  ({result.configuration} · {result.model} · zone {result.zone} · "
        f"{result.duration_ms} ms{tokens})"
    )


def _entry_dict(entry: Entry) -> dict[str, object]:
    from hintline.scrub import scrub

    return {
        "key": entry.key,
        "timestamp": entry.timestamp.isoformat() if entry.timestamp else None,
        "level": entry.level,
        "component": scrub(entry.component) if entry.component else None,
        "message": scrub(entry.message),
        "exception_type": entry.exception_type,
        "source": scrub(entry.source),
        "format": entry.format,
    }


def _fail(message: str, code: int = EXIT_INPUT) -> int:
    error("explain", f"{' '.join(message.split())}")
    return code

