"""``hintline clean [FILE|-] [--json]``: print the Clean Hint of an error."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

__all__ = ["hint_fields", "register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``clean`` subcommand."""
    p = subparsers.add_parser(
        "clean",
        help="print the one-line hint of an error (file or stdin)",
        description="Read an error (a message, a stack trace, a log tail; any size, any bytes) "
        "and print its Clean Hint: one actionable, secret-free line. Inputs over 64 KiB keep "
        "their first 16 KiB and last 48 KiB.",
    )
    p.add_argument(
        "file", nargs="?", default="-", metavar="FILE", help="error text file; - or none: stdin"
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print every field (text, category, rule, key, kind, retry) as one JSON object",
    )
    p.set_defaults(func=run)


def hint_fields(hint: Any) -> dict[str, str | None]:
    """A hint as a JSON-ready mapping (enum values as their strings)."""
    return {
        "text": hint.text,
        "category": str(hint.category),
        "rule": hint.rule,
        "key": hint.key,
        "kind": str(hint.kind),
        "retry": None if hint.retry is None else str(hint.retry),
    }


def run(args: argparse.Namespace) -> int:
    """Print the hint; exit 2 with a one-line error if the input cannot be read."""
    from hintline.cli._io import CannotRead, read_input, write_text
    from hintline.hint import clean

    try:
        data = read_input(args.file, bounded=True, command="clean")
    except CannotRead as exc:
        print(exc, file=sys.stderr)
        return 2
    hint = clean(data)
    if args.json:
        write_text(json.dumps(hint_fields(hint), ensure_ascii=False) + "\n")
    else:
        from hintline.cli._style import Style, colour_enabled

        write_text(Style(colour_enabled(sys.stdout)).hint(hint.text) + "\n")
    return 0
