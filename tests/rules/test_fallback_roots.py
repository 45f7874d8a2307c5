"""The fallback names the root cause where a chain prints it: the last item of a Rust anyhow
``Caused by:`` list, the end of a Go ``%w`` chain longer than a hint, the JVM root cause even when
it carries a suppressed exception with a cause of its own (tests/rules/fixtures/fallback: a real
JVM run by scripts/fixtures/gen_signal_errors.py, and documented formats labelled so)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import hintline
from hintline.cleaner.fallback import keep_chain_root

FIXTURES = Path(__file__).parent / "fixtures" / "fallback"
ROOTS = {
    "jvm-suppressed-with-cause": "Hint: java.lang.RuntimeException: ledger balance mismatch for account acct-7",
    "doc-anyhow-caused-by-list": "Hint: index build aborted: duplicate entries in ledger(account_id, day)",
    "doc-go-wrapped-chain": (
        "Hint: main: … fetch page 3 of /v2/orders: call inventory service at inventory.internal.acme:8443: "
        "decode reservation batch 42 of 118: reservation r-88812 references warehouse wh-eu-9 which is decommissioned"
    ),
}


@pytest.mark.parametrize("name", sorted(ROOTS))
def test_fallback_names_the_root_cause(name: str) -> None:
    hint = hintline.clean((FIXTURES / f"{name}.txt").read_text(encoding="utf-8"))
    assert hint.rule is None
    assert hint.text == ROOTS[name]


def test_anyhow_single_cause_is_read_by_the_rules() -> None:
    """A one-line anyhow cause is the root; here a rule claims it (os error 2)."""
    hint = hintline.clean((FIXTURES / "doc-anyhow-caused-by.txt").read_text(encoding="utf-8"))
    assert hint.category == "file_not_found"


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.txt")), ids=lambda p: p.stem)
def test_fixture_provenance(path: Path) -> None:
    meta = json.loads(path.with_suffix(".meta.json").read_text())
    if meta["source"] == "documented":
        assert path.stem.startswith("doc-")
        assert meta["url"].startswith("https://")
    else:
        assert meta["generator"] == "scripts/fixtures/gen_signal_errors.py"
        assert meta["version"].strip()


def test_keep_chain_root() -> None:
    assert keep_chain_root("a: b", 3) == "a: b"  # not a chain: the caller cuts it
    chain = ": ".join(f"step{i}" for i in range(40)) + ": connection reset by peer"
    kept = keep_chain_root(chain, 80)
    assert len(kept) <= 80
    assert kept.startswith("step0: … ")
    assert kept.endswith("connection reset by peer")
    assert keep_chain_root("short: chain: here: ok", 200) == "short: chain: here: ok"
