"""``hintline usage``: the recorded model calls, newest first."""

from __future__ import annotations

import argparse
import json

from hintline.cli._io import error

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``usage`` subcommand."""
    parser = subparsers.add_parser(
        "usage",
        help="show the recorded model calls (time, configuration, tokens, outcome)",
        description=(
            "Every model call of `hintline explain` is recorded (feature exception_hint): in "
            "SQLite by default, in PostgreSQL when [usage] dsn or dsn_env is configured."
        ),
    )
    parser.add_argument("--limit", type=int, default=20, metavar="N", help="rows (default 20)")
    parser.add_argument("--config", metavar="FILE", help="the configuration file to read")
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``hintline usage``."""
    from hintline.exceptions import ConfigError
    from hintline.explain import load_settings, open_usage_store

    if args.limit < 1:
        error("usage", "--limit must be 1 or more")
        return 1
    try:
        store = open_usage_store(load_settings(args.config).usage)
        records = store.recent(args.limit)
    except ConfigError as exc:
        error("usage", f"{' '.join(str(exc).split())}")
        return 1
    if args.json:
        for record in records:
            print(json.dumps(record.to_dict()))
        return 0
    if not records:
        print(f"no model calls recorded ({store.describe()})")
        return 0
    header = ("time (UTC)", "configuration", "model", "zone", "prompt", "completion", "ms",
              "outcome", "feature")
    rows = [
        (
            r.at.strftime("%Y-%m-%d %H:%M:%S"),
            r.configuration,
            r.model,
            r.zone,
            "-" if r.prompt_tokens is None else str(r.prompt_tokens),
            "-" if r.completion_tokens is None else str(r.completion_tokens),
            str(r.duration_ms),
            r.outcome,
            r.feature,
        )
        for r in records
    ]
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]
    for row in (header, *rows):
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    print(f"({len(rows)} newest of {store.describe()})")
    return 0
