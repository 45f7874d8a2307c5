"""``hintline scrub [FILE|-]``: print a text with its secrets replaced."""

from __future__ import annotations

import argparse
import sys
from typing import Any

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``scrub`` subcommand."""
    p = subparsers.add_parser(
        "scrub",
        help="print a text (file or stdin) with secret values replaced",
        description="Print the text with every secret value (passwords in URLs, tokens, keys, "
        "...) replaced by a labelled redaction, everything else kept as it was.",
    )
    p.add_argument(
        "file", nargs="?", default="-", metavar="FILE", help="text file; - or none: stdin"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print ``scrub(text)``; exit 2 with a one-line error if the input cannot be read."""
    from hintline.cli._io import CannotRead, open_input, write_text
    from hintline.cli._stream import text_blocks
    from hintline.scrub import scrub_stream

    try:
        with open_input(args.file, "scrub") as stream:  # streamed: memory stays bounded at any size
            for block in scrub_stream(text_blocks(stream)):
                write_text(block)
    except CannotRead as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0
