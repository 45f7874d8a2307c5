"""Real client errors carrying secrets (scripts/fixtures/gen_secret_errors.py): none survives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hintline import clean
from hintline.scrub import Scrubber, scrub, scrub_report
from tests.scrub.compiling import Compiling

FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())  # type: ignore[no-any-return]


def test_corpus_is_present() -> None:
    """The generator's cases are all there (psycopg, psycopg2, SQLAlchemy, HTTP clients, curl)."""
    clients = {_load(p)["client"] for p in FIXTURES}
    assert {"psycopg", "psycopg2", "sqlalchemy", "requests", "httpx", "aiohttp", "curl", "python"} <= clients


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
class TestRealErrors:
    def test_secret_is_in_the_raw_capture(self, path: Path) -> None:
        """The capture really holds the secret (else the test below proves nothing)."""
        case = _load(path)
        assert case["secrets"]
        for secret in case["secrets"]:
            assert secret in case["output"]

    def test_scrub_removes_every_secret(self, path: Path) -> None:
        """scrub() of the whole capture holds none of its secrets, and reports them."""
        case = _load(path)
        result = scrub_report(case["output"])
        for secret in case["secrets"]:
            assert secret not in result.text
        assert result.count >= len(case["secrets"])
        assert scrub(result.text) == result.text

    def test_every_path_masks_the_same(self, path: Path) -> None:
        """The Hyperscan prefilter, the re trigger screen (while the database compiles) and the
        full scan mask the real capture identically."""
        case = _load(path)
        full = Scrubber()
        if full._prefilter is not None:
            assert full._prefilter.wait(600)
        screened = Scrubber()
        object.__setattr__(screened, "_prefilter", Compiling())
        expected = full._report(case["output"], fast=False)
        assert full._report(case["output"], fast=True) == expected
        assert screened._report(case["output"], fast=True) == expected

    def test_clean_hint_holds_no_secret(self, path: Path) -> None:
        """clean()'s hint and key of the capture hold none of its secrets."""
        case = _load(path)
        hint = clean(case["output"])
        for secret in case["secrets"]:
            assert secret not in hint.text
            assert hint.key is None or secret not in hint.key

    def test_lines_without_secrets_are_untouched(self, path: Path) -> None:
        """Only secrets go: every line of the capture that holds no secret comes out unchanged."""
        case = _load(path)
        raw = case["output"].splitlines()
        out = scrub(case["output"]).splitlines()
        assert len(raw) == len(out)
        for before, after in zip(raw, out, strict=True):
            if not any(secret in before for secret in case["secrets"]):
                assert before == after


def test_postgres_keeps_the_user_name() -> None:
    """PostgreSQL's 'password authentication failed for user "app"' is kept whole."""
    case = _load(next(p for p in FIXTURES if p.stem == "psycopg3_wrong_password"))
    assert 'password authentication failed for user "app"' in scrub(case["output"])
