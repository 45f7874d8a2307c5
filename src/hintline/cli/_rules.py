"""``hintline rules [--json] [--category C]``: list the rule table, in priority order."""

from __future__ import annotations

import argparse
import json
from typing import Any

from hintline.cli._io import error

__all__ = ["register", "rule_fields", "run"]


def register(subparsers: Any) -> None:
    """Add the ``rules`` subcommand."""
    p = subparsers.add_parser(
        "rules",
        help="list the rule table (name, code, category, kind, an example hint)",
        description="List every rule in priority order (the first listed rule that matches "
        "wins): its name, code, category, kind and the hint of its first example.",
    )
    p.add_argument("--json", action="store_true", help="print a JSON array of rule objects")
    p.add_argument("--category", metavar="CATEGORY", help="only rules of this category")
    p.set_defaults(func=run)


def rule_fields(rule: Any) -> dict[str, Any]:
    """A rule as a JSON-ready mapping."""
    example = rule.examples[0]
    return {
        "code": rule.code,
        "name": rule.name,
        "category": str(rule.category),
        "kind": str(rule.category.kind),
        "retry": None if rule.category.retry is None else str(rule.category.retry),
        "why": rule.why,
        "pattern": rule.pattern,
        "key_group": rule.key_group,
        "since": rule.since,
        "example": {"hint": example.hint, "key": example.key},
    }


def run(args: argparse.Namespace) -> int:
    """Print the table; exit 2 for an unknown category."""

    from hintline.categories import Category
    from hintline.cli._io import write_text
    from hintline.rules import RULES
    from hintline.scrub import scrub

    selected = list(RULES)
    if args.category:
        if args.category not in {c.value for c in Category}:
            error("rules", f"unknown category {args.category!r}")
            return 2
        selected = [r for r in selected if r.category == args.category]
    if args.json:
        write_text(
            scrub(json.dumps([rule_fields(r) for r in selected], ensure_ascii=False, indent=2))
            + "\n"
        )
        return 0
    rows = [
        (r.name, r.code, str(r.category), str(r.category.kind), r.examples[0].hint)
        for r in selected
    ]
    header = ("NAME", "CODE", "CATEGORY", "KIND", "EXAMPLE")
    widths = [max([len(header[i])] + [len(row[i]) for row in rows]) for i in range(4)]
    lines = [
        "  ".join(h.ljust(w) for h, w in zip(header[:4], widths, strict=True)) + "  " + header[4]
    ]
    lines += [
        "  ".join(c.ljust(w) for c, w in zip(row[:4], widths, strict=True)) + "  " + row[4]
        for row in rows
    ]
    lines.append(f"{len(rows)} rules")
    write_text(scrub("\n".join(lines)) + "\n")
    return 0
