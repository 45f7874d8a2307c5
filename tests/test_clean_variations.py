"""The variation tier: every real rule fixture, wrapped the ways real programs hand errors over,
gives the same category and key as bare.

Sources: each captured output under ``tests/rules/fixtures/**`` and each rule's examples. Each
is wrapped as a JSON log line, JSON inside JSON (an MCP tool result carrying a JSON-RPC error),
an HTML error page (escaped inside ``<pre>``, and one line with ``<br>``), CRLF line ends, each
common line prefix, the middle of a 200 KB log of INFO lines, and after earlier recovered
WARNING/INFO lines that match other rules. The tier prints kept / total per wrapper; every
wrapper must keep them all (the issue's goal of 100 %, reached for every wrapper: a loss now
names a pipeline fault, not noise).
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from pathlib import Path

import pytest

import hintline
from hintline import RULES

FIXTURES = Path(__file__).parent / "rules" / "fixtures"
GOAL = 1.0


def _sources() -> list[tuple[str, str]]:
    found = [
        (f"{p.parent.name}/{p.name}", p.read_text(encoding="utf-8"))
        for p in sorted(FIXTURES.rglob("*.txt"))
    ]
    found += [
        (f"{rule.code}-{i}", example.input)
        for rule in RULES
        for i, example in enumerate(rule.examples)
    ]
    return found


_INFO = "".join(
    f"2026-12-01 10:{n // 60 % 60:02d}:{n % 60:02d},{n % 1000:03d} INFO app.import: row {n} "
    "imported (batch 7, 3 columns)\n"
    for n in range(1700)
)  # 100 KB
# Recovered lines that other rules claim on their own (a retried read timeout, a skipped
# duplicate): they come first and must not decide the hint.
RECOVERED = (
    "2026-12-01 10:00:00,101 WARNING urllib3.connectionpool: Retrying (Retry(total=2, "
    "connect=None, read=None, redirect=None, status=None)) after connection broken by "
    "'ReadTimeoutError(\"HTTPSConnectionPool(host='api.internal', port=443): Read timed out. "
    "(read timeout=5)\")': /v1/orders\n"
    "2026-12-01 10:00:01,202 INFO app.import: skipped row 12: duplicate key value violates "
    'unique constraint "users_email_key"\n'
    "2026-12-01 10:00:02,303 WARNING app.cache: Redis connection refused, using the local "
    "cache\n"
)


def _json_log(text: str) -> str:
    return json.dumps(
        {
            "asctime": "2026-12-01 10:00:03,404",
            "levelname": "ERROR",
            "name": "app.import",
            "message": text,
        }
    )


def _json_in_json(text: str) -> str:
    inner = json.dumps({"jsonrpc": "2.0", "id": 3, "error": {"code": -32603, "message": text}})
    return json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 7,
            "result": {"content": [{"type": "text", "text": inner}], "isError": True},
        }
    )


def _html_pre(text: str) -> str:
    return (
        "<!DOCTYPE html>\n<html><head><title>500 Internal Server Error</title></head>\n<body>"
        "<h1>Internal Server Error</h1>\n<pre>" + html.escape(text) + "</pre>\n<hr>"
        "<address>Apache/2.4.62 (Debian) Server at 127.0.0.1 Port 8080</address>\n"
        "</body></html>\n"
    )


def _html_br(text: str) -> str:
    return (
        "<html><body><p>" + "<br>".join(map(html.escape, text.split("\n"))) + "</p></body></html>"
    )


def _prefixed(prefix: str) -> Callable[[str], str]:
    return lambda text: "\n".join(prefix + line for line in text.split("\n"))


WRAPPERS: dict[str, Callable[[str], str]] = {
    "json log line": _json_log,
    "json inside json": _json_in_json,
    "html <pre>": _html_pre,
    "html one line <br>": _html_br,
    "crlf": lambda text: text.replace("\n", "\r\n"),
    "prefix iso timestamp": _prefixed("2026-12-01T10:00:03.404Z "),
    "prefix syslog": _prefixed("Dec  1 10:00:03 web01 app[4242]: "),
    "prefix cri": _prefixed("2026-12-01T10:00:03.404123456Z stderr F "),
    "prefix compose": _prefixed("web-1  | "),
    "prefix indent": _prefixed("    "),
    "prefix pytest E": _prefixed("E   "),
    "middle of 200 KB log": lambda text: _INFO + text + "\n" + _INFO,
    "after recovered lines": lambda text: RECOVERED + text,
}


def test_recovered_lines_are_claimed_by_other_rules() -> None:
    """Each recovered line alone is claimed by a rule: the tier's last wrapper tests priority."""
    for line in RECOVERED.strip().split("\n"):
        assert hintline.clean(line.split(" ", 3)[3]).rule is not None, line


def test_variation_tier(engine: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Every wrapper keeps the bare category and key of every fixture."""
    sources = [(name, text, hintline.clean(text)) for name, text in _sources()]
    report = []
    failing = []
    for wrapper, wrap in WRAPPERS.items():
        kept = 0
        lost = []
        for name, text, bare in sources:
            hint = hintline.clean(wrap(text))
            if (hint.category, hint.key) == (bare.category, bare.key):
                kept += 1
            else:
                lost.append(f"{name}: {bare.category}/{bare.key} -> {hint.category}/{hint.key}")
        share = kept / len(sources)
        report.append(f"{wrapper}: {kept}/{len(sources)} ({share:.1%})")
        if share < GOAL:
            failing.append(f"{wrapper} {share:.1%}: " + "; ".join(lost[:8]))
        elif lost:
            report.append("  lost: " + "; ".join(lost[:5]))
    with capsys.disabled():
        print(f"\nvariation tier ({engine}):\n  " + "\n  ".join(report))
    assert not failing, "\n".join(failing)
