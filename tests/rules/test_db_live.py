"""Live tier: provoke each database error against a real PostgreSQL and a real SQLite *now*, and
check that ``clean()`` still gives the rule, category and key written down for the captured
fixture of the same case (``tests/rules/fixtures/db/<engine>-<client>-<case>.expected.json``).

This is what keeps the rules honest against the servers and drivers installed today. The cases
(schema, seed rows, failing SQL) are the ones the fixture generator used: ``tests/rules/db_cases.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncpg
import psycopg
import psycopg2
import pytest
import sqlalchemy

import hintline
from tests.rules.db_cases import CASES, SCHEMA
from tests.services.postgres import free_port

pytestmark = pytest.mark.live

FIXTURES = Path(__file__).parent / "fixtures" / "db"
PG_SPECIAL = {"deadlock", "lock_timeout", "refused", "serialization", "auth_failed"}
PG_PLAIN = [c for c in CASES["pg"] if c not in PG_SPECIAL]
SQLITE_SPECIAL = {"locked", "cannot_open", "readonly"}
SQLITE_PLAIN = [c for c in CASES["sqlite"] if c not in SQLITE_SPECIAL]


def _expected(engine: str, client: str, case: str) -> dict[str, Any]:
    name = f"{engine}-{client}-{case}".replace("_", "-")
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.expected.json").read_text())
    return data


def _check(exc: BaseException, want: dict[str, Any]) -> None:
    """Both the exception object and its printed traceback give the expected rule/category/key."""
    printed = "".join(traceback.format_exception(exc))
    for source in (exc, printed):
        hint = hintline.clean(source)
        assert (hint.rule, hint.category, hint.key) == (
            want["rule"],
            want["category"],
            want["key"],
        ), f"{hint!r} from {printed[-600:]}"


def _raised(fn: Callable[[], object]) -> BaseException:
    try:
        fn()
    except Exception as exc:  # the error under test, whatever the driver's class
        return exc
    pytest.fail("the case raised no error")


# --- PostgreSQL ----------------------------------------------------------------------------


def _ignoring_errors(run: Callable[[str], object], statements: list[str]) -> None:
    """Run all but the last statement, ignoring their errors (a case may fail one on purpose,
    as ``aborted_transaction`` does), then the last, whose error is the case."""
    for sql in statements[:-1]:
        with contextlib.suppress(Exception):
            run(sql)
    if statements:
        run(statements[-1])


def _psycopg_run(dsn: str, statements: list[str]) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        for sql in SCHEMA["pg"]:
            conn.execute(sql)

        def run(sql: str) -> None:
            cur = conn.execute(sql)
            if cur.description is not None:
                cur.fetchall()

        _ignoring_errors(run, statements)


@pytest.mark.parametrize("case", PG_PLAIN)
def test_pg_psycopg(postgres: str, case: str) -> None:
    """psycopg 3 against today's PostgreSQL."""
    exc = _raised(lambda: _psycopg_run(postgres, CASES["pg"][case]))
    assert isinstance(exc, psycopg.Error)
    _check(exc, _expected("pg", "psycopg", case))


@pytest.mark.parametrize("case", PG_PLAIN)
def test_pg_psycopg2(postgres: str, case: str) -> None:
    """psycopg2 against today's PostgreSQL."""

    def run() -> None:
        conn = psycopg2.connect(postgres)
        conn.autocommit = True
        try:
            with conn.cursor() as cur:
                for sql in SCHEMA["pg"]:
                    cur.execute(sql)
                _ignoring_errors(cur.execute, CASES["pg"][case])
        finally:
            conn.close()

    exc = _raised(run)
    assert isinstance(exc, psycopg2.Error)
    _check(exc, _expected("pg", "psycopg2", case))


@pytest.mark.parametrize("case", PG_PLAIN)
def test_pg_asyncpg(postgres: str, case: str) -> None:
    """asyncpg against today's PostgreSQL."""

    async def run() -> None:
        conn = await asyncpg.connect(postgres)
        try:
            for sql in SCHEMA["pg"]:
                await conn.execute(sql)
            *before, last = CASES["pg"][case]
            for sql in before:
                with contextlib.suppress(asyncpg.PostgresError):
                    await conn.fetch(sql)
            await conn.fetch(last)
        finally:
            await conn.close()

    exc = _raised(lambda: asyncio.run(run()))
    assert isinstance(exc, asyncpg.PostgresError)
    _check(exc, _expected("pg", "asyncpg", case))


@pytest.mark.parametrize("case", ["fk_insert", "unique_composite", "not_null", "undefined_column"])
def test_pg_sqlalchemy(postgres: str, case: str) -> None:
    """SQLAlchemy's wrapped error (over psycopg 3) against today's PostgreSQL."""
    engine = sqlalchemy.create_engine(
        postgres.replace("postgresql://", "postgresql+psycopg://"), isolation_level="AUTOCOMMIT"
    )
    try:

        def run() -> None:
            with engine.connect() as conn:
                for sql in [*SCHEMA["pg"], *CASES["pg"][case]]:
                    conn.execute(sqlalchemy.text(sql))

        exc = _raised(run)
    finally:
        engine.dispose()
    assert isinstance(exc, sqlalchemy.exc.DBAPIError)
    _check(exc, _expected("pg", "sqlalchemy", case))


def test_pg_deadlock(postgres: str) -> None:
    """Two real transactions locking rows in opposite order: this session is the victim."""
    _psycopg_run(postgres, [])
    with psycopg.connect(postgres) as a, psycopg.connect(postgres) as b:
        a.execute("SET deadlock_timeout = '10s'")  # so the server picks session b as the victim
        a.execute("UPDATE users SET name = 'A' WHERE id = 1")
        b.execute("UPDATE users SET name = 'B' WHERE id = 2")
        blocked = threading.Thread(
            target=a.execute, args=("UPDATE users SET name = 'A' WHERE id = 2",)
        )  # completes once b, the victim, rolls back
        blocked.start()
        time.sleep(0.3)
        exc = _raised(lambda: b.execute("UPDATE users SET name = 'B' WHERE id = 1"))
        b.rollback()
        blocked.join(timeout=10)
        a.rollback()
    assert isinstance(exc, psycopg.errors.DeadlockDetected)
    _check(exc, _expected("pg", "psycopg", "deadlock"))


def test_pg_lock_timeout(postgres: str) -> None:
    """A second session waiting on a row lock past lock_timeout."""
    _psycopg_run(postgres, [])
    with psycopg.connect(postgres) as a, psycopg.connect(postgres, autocommit=True) as b:
        a.execute("UPDATE users SET name = 'A' WHERE id = 1")
        b.execute("SET lock_timeout = 200")
        exc = _raised(lambda: b.execute("UPDATE users SET name = 'B' WHERE id = 1"))
        a.rollback()
    _check(exc, _expected("pg", "psycopg", "lock_timeout"))


def test_pg_serialization_failure(postgres: str) -> None:
    """A REPEATABLE READ transaction updating a row another session changed since its snapshot."""
    _psycopg_run(postgres, [])
    with psycopg.connect(postgres) as a, psycopg.connect(postgres, autocommit=True) as b:
        a.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")  # psycopg has not begun one yet
        a.execute("SELECT * FROM users").fetchall()
        b.execute("UPDATE users SET name = 'B' WHERE id = 1")
        exc = _raised(lambda: a.execute("UPDATE users SET name = 'A' WHERE id = 1"))
        a.rollback()
    assert isinstance(exc, psycopg.errors.SerializationFailure)
    _check(exc, _expected("pg", "psycopg", "serialization"))


def test_pg_auth_failed(postgres: str) -> None:
    """A wrong password for a password-checked role: the hint names the user, never the password."""
    with psycopg.connect(postgres, autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS app")
        conn.execute("CREATE ROLE app LOGIN PASSWORD 'app-password'")
        hba = Path(conn.execute("SHOW hba_file").fetchone()[0])
        if "host all app" not in hba.read_text():
            hba.write_text("host all app 127.0.0.1/32 scram-sha-256\n" + hba.read_text())
            conn.execute("SELECT pg_reload_conf()")
    wrong = postgres.replace("postgres@", "app:wrong-password@", 1)
    for connect in (psycopg.connect, psycopg2.connect):
        exc = _raised(lambda connect=connect: connect(wrong, connect_timeout=5))
        _check(exc, _expected("pg", "psycopg", "auth_failed"))
        assert "wrong-password" not in hintline.clean(exc).text


@pytest.mark.parametrize("client", ["psycopg", "psycopg2"])
def test_pg_connection_refused(client: str) -> None:
    """A closed port on 127.0.0.1: the key is host:port (never the port alone), named in the hint."""
    port = free_port()
    dsn = f"postgresql://postgres@127.0.0.1:{port}/postgres"
    connect = psycopg.connect if client == "psycopg" else psycopg2.connect
    exc = _raised(lambda: connect(dsn, connect_timeout=5))
    want = _expected("pg", client, "refused")
    hint = hintline.clean(exc)
    assert (hint.rule, hint.category, hint.key) == (want["rule"], want["category"], f"127.0.0.1:{port}")
    assert f"127.0.0.1:{port}" in hint.text


# --- SQLite --------------------------------------------------------------------------------


def _sqlite_run(path: Path, statements: list[str]) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        for sql in SCHEMA["sqlite"]:
            conn.execute(sql)
        _ignoring_errors(lambda sql: conn.execute(sql).fetchall(), statements)
    finally:
        conn.close()


@pytest.mark.parametrize("case", [c for c in SQLITE_PLAIN if c != "fk_delete"] + ["fk_delete"])
def test_sqlite3(tmp_path: Path, case: str) -> None:
    """Python's sqlite3 against the SQLite library linked today."""
    exc = _raised(lambda: _sqlite_run(tmp_path / "app.db", CASES["sqlite"][case]))
    assert isinstance(exc, sqlite3.Error)
    _check(exc, _expected("sqlite", "sqlite3", case))


@pytest.mark.parametrize("case", ["unique_composite", "not_null", "undefined_table", "syntax"])
def test_sqlite_sqlalchemy(tmp_path: Path, case: str) -> None:
    """SQLAlchemy's wrapped sqlite3 error."""
    engine = sqlalchemy.create_engine(f"sqlite:///{tmp_path / 'app.db'}")
    try:

        def run() -> None:
            with engine.begin() as conn:
                for sql in [*SCHEMA["sqlite"], *CASES["sqlite"][case]]:
                    conn.execute(sqlalchemy.text(sql))

        exc = _raised(run)
    finally:
        engine.dispose()
    assert isinstance(exc, sqlalchemy.exc.DBAPIError)
    _check(exc, _expected("sqlite", "sqlalchemy", case))


def test_sqlite_locked(tmp_path: Path) -> None:
    """A second writer while the first holds the write lock: 'database is locked'."""
    path = tmp_path / "app.db"
    _sqlite_run(path, [])
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        waiter = sqlite3.connect(path, isolation_level=None, timeout=0.1)
        exc = _raised(lambda: waiter.execute("INSERT INTO users (id, email) VALUES (4, 'x@y.z')"))
        waiter.close()
    finally:
        holder.close()
    _check(exc, _expected("sqlite", "sqlite3", "locked"))


def test_sqlite_readonly(tmp_path: Path) -> None:
    """A write through a read-only connection."""
    path = tmp_path / "app.db"
    _sqlite_run(path, [])
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        exc = _raised(lambda: conn.execute("INSERT INTO users (id, email) VALUES (4, 'x@y.z')"))
    finally:
        conn.close()
    _check(exc, _expected("sqlite", "sqlite3", "readonly"))


def test_sqlite_cannot_open(tmp_path: Path) -> None:
    """A database path whose directory does not exist."""
    exc = _raised(lambda: sqlite3.connect(tmp_path / "missing-dir" / "app.db"))
    _check(exc, _expected("sqlite", "sqlite3", "cannot_open"))
