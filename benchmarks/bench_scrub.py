"""``scrub()`` against the targets of issue 3 (``python -m benchmarks scrub``).

Inputs: a 240-character hint (the output of ``clean``), the same with a DSN password, real
captured client errors (tests/scrub/fixtures/), and 64 KiB messages made of real JVM traces
(benchmarks/data/defects4j/, MIT) with and without secrets. ``fast`` rows use the default
scrubber (Hyperscan prefilter, then ``re`` on the lines where a trigger fired); the
``full-re`` row is the fallback used where Hyperscan has no wheel. ``hostile`` rows are shapes
of issue 14's hostile tier: thousands of secrets or triggers in 64 KiB.
"""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks._harness import Case
from hintline.scrub import SECRETS, Scrubber, scrub

ROOT = Path(__file__).resolve().parent.parent
DEFECTS4J = Path(__file__).resolve().parent / "data" / "defects4j"
CORPUS = ROOT / "tests" / "scrub" / "fixtures"
KIB64 = 64 * 1024

HINT = (
    "Hint: Foreign key constraint failed for 'user_id' on table 'orders' "
    "(constraint orders_user_id_fkey). Ensure the target user exists before the step runs; "
    "check the migration that created it and retry the insert once the parent row is present."
)[:240].ljust(240, ".")
HINT_SECRET = (
    "Hint: Database at postgresql://app:S3cret@db:5432/shop refused the connection; "
    "start the server or fix the host/port, then retry. "
    + HINT[6:]
)[:240]


def _filler(size: int) -> str:
    names = ("Math-25", "Compress-28", "Csv-7", "Jsoup-85")
    block = "\n".join((DEFECTS4J / f"{n}.txt").read_text(encoding="utf-8") for n in names)
    return (block * (size // len(block) + 1))[:size]


def _with_secrets(text: str) -> str:
    """The text with four real captures spliced in at 1/5, 2/5, 3/5 and 4/5, cut to size."""
    pieces = [
        json.loads((CORPUS / f"{n}.json").read_text())["output"]
        for n in ("psycopg3_closed_port", "requests_401", "curl_401", "traceback_password")
    ]
    out = []
    step = len(text) // 5
    for i, piece in enumerate(pieces):
        out.append(text[i * step : (i + 1) * step])
        out.append("\n" + piece)
    out.append(text[4 * step :])
    return "".join(out)[: len(text)]


def _glued(piece: str, size: int) -> str:
    return (piece * (size // len(piece) + 1))[:size]


def _example(name: str) -> str:
    return next(p for p in SECRETS if p.name == name).examples[0]


def cases() -> list[Case]:
    """The benchmark rows."""
    full = Scrubber()
    log = _filler(KIB64)
    log_secrets = _with_secrets(log)
    many_secrets = _glued(_example("query-param"), KIB64)
    many_lines = _glued(_example("url-credentials") + "\n", KIB64)
    many_triggers = _glued("authorization:a::::::::", KIB64)
    no_match = "authorization:" + " " * (KIB64 - 14)
    near_misses = _glued("sent bearer abcdefghij\n", KIB64)
    many_headers = _glued(_example("authorization-header") + "\n", KIB64)
    sqlalchemy = json.loads((CORPUS / "sqlalchemy_create_engine.json").read_text())["output"]
    assert scrub(log) == log
    assert "S3cretDsn-Pw71" not in scrub(log_secrets)
    return [
        Case("scrub", "hint-240 (no secret)", lambda: scrub(HINT), target_us=3.0),
        Case("scrub", "hint-240 (DSN password)", lambda: scrub(HINT_SECRET)),
        Case("scrub", f"sqlalchemy error {len(sqlalchemy)} chars (real)", lambda: scrub(sqlalchemy)),
        Case("scrub", "message-64KiB (no secret)", lambda: scrub(log), target_us=300.0),
        Case("scrub", "message-64KiB (4 real captures with secrets)", lambda: scrub(log_secrets),
             target_us=300.0),
        Case("scrub", "message-64KiB full-re fallback (no Hyperscan)",
             lambda: full._report(log_secrets, fast=False)),
        # issue 14's hostile tier (benchmarks/hostile.py has every shape): 5 ms at 64 KiB
        Case("scrub", "hostile-64KiB: a secret example glued (~680 URLs with api_key=)",
             lambda: scrub(many_secrets), target_us=5000.0),
        Case("scrub", "hostile-64KiB: a secret example per line (~1,190 DSNs with a password)",
             lambda: scrub(many_lines), target_us=5000.0),
        Case("scrub", "hostile-64KiB: a trigger glued ('authorization:a::::::::', one secret)",
             lambda: scrub(many_triggers), target_us=5000.0),
        # the patterns on re (look-arounds RE2 cannot run): a trigger where the pattern cannot
        # match, a line of near misses each, a header per line
        Case("scrub", "hostile-64KiB: a trigger, then 64 KiB of spaces (no match)",
             lambda: scrub(no_match), target_us=5000.0),
        Case("scrub", "hostile-64KiB: a near miss per line (~2,850 'sent bearer' without a digit)",
             lambda: scrub(near_misses), target_us=5000.0),
        Case("scrub", "hostile-64KiB: an Authorization header per line (~1,280, on re)",
             lambda: scrub(many_headers), target_us=5000.0),
    ]
