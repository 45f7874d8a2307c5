"""The differential golden file of ``clean()``: the whole :class:`~hintline.Hint` (text,
category, rule, key, kind, retry) of every input below, recorded once from a reference tree, so
a speed change can prove it answers exactly as before.

Inputs (``cases()``), each with a stable id:

* ``fixture:<path>``: every captured output under ``tests/rules/fixtures/**/*.txt``;
* ``example:<code>-<i>``: every example of every rule;
* ``wrap:<wrapper>:<source>``: each of those wrapped each way of the variation tier
  (:data:`tests.test_clean_variations.WRAPPERS`);
* ``trace:<path>``: every trace fixture under ``tests/traces/fixtures``;
* ``gen:<n>``: seeded variants: a rule example whose captured values are replaced by hostile
  ones (quotes, brackets, commas, Unicode, control characters, secrets, secret fragments that
  meet the template's own text, long values); their input is stored in the golden file;
* ``render:<n>``: :func:`hintline.cleaner.render.render` itself, on every rule with hostile
  captured values (the groups are stored).

Record (rewrite ``golden/clean.jsonl``) with the tree whose answers are the reference::

    PYTHONPATH=/path/to/reference/src:$PWD .venv/bin/python -m tests.clean_golden --bless

and READ the summary of what changed before committing a re-blessed file.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from hintline import RULES, Hint, clean

ROOT = Path(__file__).parent
GOLDEN = ROOT / "golden" / "clean.jsonl"
RULE_FIXTURES = ROOT / "rules" / "fixtures"
TRACE_FIXTURES = ROOT / "traces" / "fixtures"
SEED = 20

# Values a rule may capture that a renderer must handle exactly: quoting, composites, Unicode,
# control characters, secrets whole, secrets in pieces (a fragment that meets the template's
# text, or the value's neighbour, into a secret's shape), long values.
HOSTILE = (
    "'quoted'",
    '"double"',
    "`tick`",
    "(paren)",
    "[\"a\", 'b']",
    "('a', 'b')",
    "a, b, c",
    '"schema"."table"',
    "«guillemets»",
    "“curly”",
    "naïve_colonne",
    "列名",
    "emoji_🙂_key",
    "tab\there",
    "line\nbreak",
    "\x1b[31mred\x1b[0m",
    "zero\u200bwidth",
    "AKIAIOSFODNN7EXAMPLE",
    "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
    "sk-proj-" + "abcdefghijklmnopqrstuvwxyz0123456789ABCD",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "postgresql://app:S3cretPassw0rd@db.internal:5432/app",
    "password=hunter2hunter2",
    "password",
    "=hunter2hunter2",
    "Bearer",
    "token abcdef0123456789abcdef0123456789",
    "api_key: 0123456789abcdef0123456789abcdef",
    "xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    "-----BEGIN RSA PRIVATE KEY-----",
    "x" * 63,
    "y" * 64,
    "z" * 65,
    "long_" + "k" * 300,
    "a" * 40 + ", " + "b" * 40,
    "user@example.com",
    "/home/alice/.ssh/id_rsa",
    "C:\\Users\\alice\\secret.txt",
    "",
    " ",
    "unknown",
    "{brace}",
    "{0}",
    "%s",
    "\\",
    "'unbalanced",
)


def _fixture_sources() -> list[tuple[str, str]]:
    return [
        (f"fixture:{p.relative_to(RULE_FIXTURES).as_posix()}", p.read_text(encoding="utf-8"))
        for p in sorted(RULE_FIXTURES.rglob("*.txt"))
    ]


def _example_sources() -> list[tuple[str, str]]:
    return [
        (f"example:{rule.code}-{i}", example.input)
        for rule in RULES
        for i, example in enumerate(rule.examples)
    ]


def _trace_sources() -> list[tuple[str, str]]:
    return [
        (f"trace:{p.relative_to(TRACE_FIXTURES).as_posix()}", p.read_text(encoding="utf-8"))
        for p in sorted(TRACE_FIXTURES.glob("*/*.txt"))
        if not p.name.startswith("LICENSE")
    ]


def _generated() -> list[tuple[str, str]]:
    """A rule example with one captured value replaced by a hostile one (seeded)."""
    rng = random.Random(SEED)
    spots: list[tuple[str, int, int]] = []
    for rule in RULES:
        for example in rule.examples:
            found = re.search(rule.pattern, example.input)
            if found is None:
                continue
            for name in found.re.groupindex:
                start, end = found.span(name)
                if start >= 0:
                    spots.append((example.input, start, end))
    out = []
    for n in range(400):
        text, start, end = rng.choice(spots)
        value = rng.choice(HOSTILE)
        out.append((f"gen:{n}", text[:start] + value + text[end:]))
    return out


def _render_cases() -> list[tuple[str, str, dict[str, str | None]]]:
    """Every rule's groups filled with hostile values (seeded), for ``render`` itself."""
    rng = random.Random(SEED + 1)
    out = []
    n = 0
    for rule in RULES:
        names = list(re.compile(rule.pattern).groupindex)
        if not names:
            continue
        for _ in range(3):
            groups: dict[str, str | None] = {
                name: None if rng.random() < 0.1 else rng.choice(HOSTILE) for name in names
            }
            out.append((f"render:{n}", rule.code, groups))
            n += 1
    return out


def wrapped(sources: list[tuple[str, str]]) -> Iterator[tuple[str, str]]:
    from tests.test_clean_variations import WRAPPERS

    wrappers: dict[str, Callable[[str], str]] = WRAPPERS
    for wrapper, wrap in wrappers.items():
        for name, text in sources:
            yield f"wrap:{wrapper}:{name}", wrap(text)


def cases() -> Iterator[tuple[str, str, bool]]:
    """``(id, input, store_input)`` of every ``clean`` case."""
    bare = _fixture_sources() + _example_sources()
    for name, text in bare:
        yield name, text, False
    for name, text in wrapped(bare):
        yield name, text, False
    for name, text in _trace_sources():
        yield name, text, False
    for name, text in _generated():
        yield name, text, True


def fields(hint: Hint) -> list[Any]:
    """A hint as the golden file stores it."""
    return [
        hint.text,
        str(hint.category),
        hint.rule,
        hint.key,
        str(hint.kind),
        None if hint.retry is None else str(hint.retry),
    ]


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def record() -> list[dict[str, Any]]:
    """Every case's answer from the ``hintline`` importable now."""
    from hintline.cleaner.render import render

    rows: list[dict[str, Any]] = []
    bare: dict[str, list[Any]] = {}
    for name, text, store in cases():
        hint = fields(clean(text))
        row: dict[str, Any] = {"id": name, "sha": digest(text)}
        if name.startswith("wrap:"):
            if hint != bare[source(name)]:  # most wrapped inputs answer as bare: stored once
                row["hint"] = hint
        else:
            bare[name] = row["hint"] = hint
        if store:
            row["input"] = text
        rows.append(row)
    by_code = {rule.code: rule for rule in RULES}
    for name, code, groups in _render_cases():
        hint = render(by_code[code], groups)
        rows.append({"id": name, "rule": code, "groups": groups, "hint": fields(hint)})
    return rows


def source(name: str) -> str:
    """The bare case a ``wrap:<wrapper>:<source>`` case wraps."""
    return name.split(":", 2)[2]


def expand(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give every row its expected ``hint`` (a wrapped case without one answers as its bare
    source)."""
    bare = {row["id"]: row["hint"] for row in rows if "hint" in row}
    return [row if "hint" in row else {**row, "hint": bare[source(row["id"])]} for row in rows]


def load() -> list[dict[str, Any]]:
    """The golden rows, each with its expected ``hint``."""
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    return expand([json.loads(line) for line in lines])


def bless() -> None:
    old = {row["id"]: row for row in load()} if GOLDEN.exists() else {}
    rows = record()
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(
        "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8"
    )
    new = {row["id"]: row for row in expand(rows)}
    changed = [name for name in new if name in old and old[name] != new[name]]
    print(f"blessed {len(rows)} cases into {GOLDEN.relative_to(ROOT.parent)}")
    print(f"{len(changed)} changed, {sum(name not in old for name in new)} new")
    for name in changed[:50]:
        print(f"  changed {name}: {old[name]['hint']} -> {new[name]['hint']}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--bless"]:
        sys.exit("usage: python -m tests.clean_golden --bless")
    bless()
