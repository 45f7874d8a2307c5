"""Live tier for the signal layer: PostgreSQL with ``lc_messages`` German and French, provoked now
through psycopg (the exception object and its printed traceback), must give the category and key
of the English run: the locale changes every word, never what hintline answers.

The cases are those of the captured fixtures (tests/rules/fixtures/signals/pg-*-psycopg-*, from
scripts/fixtures/gen_signal_errors.py). Needs the OS locales (scripts/setup.d/20-postgres.sh).
"""

from __future__ import annotations

import subprocess
import traceback
from collections.abc import Iterator

import psycopg
import pytest

import hintline
from hintline.categories import Category
from tests.rules.db_cases import CASES, SCHEMA
from tests.services.postgres import PostgresServer, start_postgres

pytestmark = pytest.mark.live

EXPECTED = {
    "fk_insert": (Category.FOREIGN_KEY_VIOLATION, "user_id"),
    "fk_delete": (Category.FOREIGN_KEY_VIOLATION, "id"),
    "unique": (Category.UNIQUE_VIOLATION, "email"),
    "unique_composite": (Category.UNIQUE_VIOLATION, "sku, region"),
    "not_null": (Category.NOT_NULL_VIOLATION, "email"),
    "not_null_omitted": (Category.NOT_NULL_VIOLATION, "email"),
    "check": (Category.CHECK_VIOLATION, "orders_quantity_check"),
    "undefined_column": (Category.UNDEFINED_COLUMN, "emial"),
    "undefined_column_insert": (Category.UNDEFINED_COLUMN, "emial"),
    "undefined_table": (Category.UNDEFINED_TABLE, "userz"),
    "syntax": (Category.SYNTAX_ERROR, None),
    "division_by_zero": (Category.DIVISION_BY_ZERO, None),
    "invalid_integer": (Category.TYPE_MISMATCH, None),
}
LOCALES = {"de": "de_DE.UTF-8", "fr": "fr_FR.UTF-8"}


def _has_locale(name: str) -> bool:
    out = subprocess.run(["locale", "-a"], capture_output=True, text=True, check=False).stdout
    wanted = name.lower().replace("utf-8", "utf8")
    return any(line.lower().replace("utf-8", "utf8") == wanted for line in out.splitlines())


@pytest.fixture(scope="module", params=list(LOCALES))
def localised(request: pytest.FixtureRequest) -> Iterator[tuple[str, PostgresServer]]:
    name = LOCALES[request.param]
    if not _has_locale(name):
        pytest.fail(f"OS locale {name} missing: run scripts/setup.d/20-postgres.sh")
    server = start_postgres(settings={"lc_messages": name})
    try:
        yield request.param, server
    finally:
        server.stop()


@pytest.mark.parametrize("case", list(EXPECTED))
def test_localised_error_gives_the_english_answer(
    localised: tuple[str, PostgresServer], case: str
) -> None:
    lang, server = localised
    with psycopg.connect(server.dsn, autocommit=True) as conn:
        for statement in SCHEMA["pg"]:
            conn.execute(statement)
        *before, failing = CASES["pg"][case]
        for statement in before:
            conn.execute(statement)
        with pytest.raises(psycopg.Error) as info:
            conn.execute(failing)
    printed = "".join(traceback.format_exception(info.value))
    category, key = EXPECTED[case]
    for source in (info.value, printed):
        hint = hintline.clean(source)
        assert (hint.category, hint.key) == (category, key), f"{lang}/{case}: {hint.text}\n{printed[-400:]}"


def test_messages_really_are_localised(localised: tuple[str, PostgresServer]) -> None:
    """The server answers in the locale (so the test above cannot pass on English words)."""
    lang, server = localised
    with psycopg.connect(server.dsn, autocommit=True) as conn, pytest.raises(psycopg.Error) as info:
        conn.execute("SELECT * FROM no_such_table_here")
    message = str(info.value)
    assert "does not exist" not in message
    assert {"de": "existiert nicht", "fr": "n'existe pas"}[lang] in message
