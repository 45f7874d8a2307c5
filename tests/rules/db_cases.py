"""The database error cases the fixture clients provoke: schema, seed rows and failing SQL per engine.

Shared by ``scripts/fixtures/gen_db_errors.py`` (which hands each case to a Python, node or Java client as JSON)
and ``tests/rules/test_db_live.py``. A case is ``setup`` statements (run in autocommit) followed by
``fail`` statements, the last of which raises (an earlier one may fail on purpose: its error is
ignored, as in ``aborted_transaction``). ``special`` names cases a plain statement list
cannot express: ``deadlock`` (two concurrent transactions), ``lock_wait`` (a second connection
waiting on a row lock), ``refused`` (connect to a closed port), ``cannot_open`` and ``readonly``
(SQLite file errors), ``serialization`` (a REPEATABLE READ conflict), ``auth_failed`` /
``access_denied`` (a wrong password) and ``command_denied`` (a login without privileges).
"""

from __future__ import annotations

from typing import Any

__all__ = ["CASES", "SCHEMA", "case_spec"]

_PG_SCHEMA = [
    "DROP TABLE IF EXISTS orders, users, metrics CASCADE",
    "CREATE TABLE users (id integer PRIMARY KEY, email text NOT NULL UNIQUE, name text)",
    (
        "CREATE TABLE orders (id integer PRIMARY KEY, user_id integer NOT NULL REFERENCES users(id),"
        " quantity integer NOT NULL CHECK (quantity > 0), sku text, region text, UNIQUE (sku, region))"
    ),
    "INSERT INTO users VALUES (1, 'ada@example.com', 'Ada'), (2, 'bob@example.com', 'Bob')",
    "INSERT INTO orders VALUES (10, 1, 3, 'SKU-1', 'eu')",
]

_MY_SCHEMA = [
    "SET FOREIGN_KEY_CHECKS = 0",
    "DROP TABLE IF EXISTS orders, users, metrics",
    "SET FOREIGN_KEY_CHECKS = 1",
    (
        "CREATE TABLE users (id int PRIMARY KEY, email varchar(255) NOT NULL UNIQUE, name varchar(64))"
        " ENGINE=InnoDB"
    ),
    (
        "CREATE TABLE orders (id int PRIMARY KEY, user_id int NOT NULL, quantity int NOT NULL,"
        " sku varchar(32), region varchar(8), UNIQUE (sku, region),"
        " CONSTRAINT orders_quantity_check CHECK (quantity > 0),"
        " CONSTRAINT orders_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id)) ENGINE=InnoDB"
    ),
    "INSERT INTO users VALUES (1, 'ada@example.com', 'Ada'), (2, 'bob@example.com', 'Bob')",
    "INSERT INTO orders VALUES (10, 1, 3, 'SKU-1', 'eu')",
]

_SQLITE_SCHEMA = [
    "PRAGMA foreign_keys = ON",
    "DROP TABLE IF EXISTS orders",
    "DROP TABLE IF EXISTS users",
    "DROP TABLE IF EXISTS metrics",
    "CREATE TABLE users (id integer PRIMARY KEY, email text NOT NULL UNIQUE, name text)",
    (
        "CREATE TABLE orders (id integer PRIMARY KEY, user_id integer NOT NULL REFERENCES users(id),"
        " quantity integer NOT NULL CHECK (quantity > 0), sku text, region text, UNIQUE (sku, region))"
    ),
    "CREATE TABLE metrics (id INTEGER PRIMARY KEY, value INTEGER) STRICT",
    "INSERT INTO users VALUES (1, 'ada@example.com', 'Ada'), (2, 'bob@example.com', 'Bob')",
    "INSERT INTO orders VALUES (10, 1, 3, 'SKU-1', 'eu')",
]

SCHEMA: dict[str, list[str]] = {"pg": _PG_SCHEMA, "mariadb": _MY_SCHEMA, "sqlite": _SQLITE_SCHEMA}
"""Schema and seed rows per engine."""

_COMMON: dict[str, list[str]] = {
    "fk_insert": ["INSERT INTO orders (id, user_id, quantity) VALUES (11, 999, 1)"],
    "fk_delete": ["DELETE FROM users WHERE id = 1"],
    "unique": ["INSERT INTO users (id, email) VALUES (3, 'ada@example.com')"],
    "unique_composite": [
        "INSERT INTO orders (id, user_id, quantity, sku, region) VALUES (11, 1, 1, 'SKU-1', 'eu')"
    ],
    "not_null": ["INSERT INTO users (id, email) VALUES (3, NULL)"],
    "not_null_omitted": ["INSERT INTO users (id, name) VALUES (3, 'Cy')"],
    "check": ["INSERT INTO orders (id, user_id, quantity) VALUES (11, 1, 0)"],
    "undefined_column": ["SELECT emial FROM users"],
    "undefined_column_insert": ["INSERT INTO users (id, emial) VALUES (3, 'cy@example.com')"],
    "undefined_table": ["SELECT * FROM userz"],
    "syntax": ["SELECT id FORM users"],
}

CASES: dict[str, dict[str, list[str]]] = {
    "pg": {
        **_COMMON,
        "syntax_end": ["SELECT * FROM users WHERE"],
        "deadlock": [],
        "statement_timeout": ["SET statement_timeout = 200", "SELECT pg_sleep(5)"],
        "lock_timeout": [],
        "refused": [],
        "invalid_integer": ["SELECT * FROM users WHERE id = 'abc'"],
        "datatype_mismatch": ["INSERT INTO orders (id, user_id, quantity) VALUES (11, 1, true)"],
        "division_by_zero": ["SELECT quantity / 0 FROM orders"],
        "permission_denied": [
            "DROP ROLE IF EXISTS reader",
            "CREATE ROLE reader",
            "SET ROLE reader",
            "SELECT * FROM users",
        ],
        "invalid_uuid": ["SELECT * FROM users WHERE 'not-a-uuid'::uuid IS NULL"],
        "invalid_json": ["""SELECT '{"id": 1,'::json"""],
        "integer_out_of_range": ["SELECT quantity * 2147483647 FROM orders"],
        "value_too_long": [
            "CREATE TEMP TABLE codes (code varchar(8))",
            "INSERT INTO codes VALUES ('north-east-1')",
        ],
        "operator_mismatch": ["SELECT * FROM users WHERE id = '1'::text"],
        "aborted_transaction": ["BEGIN", "SELECT * FROM userz", "SELECT * FROM users"],
        "serialization": [],
        "auth_failed": [],
    },
    "mariadb": {
        **_COMMON,
        "deadlock": [],
        "lock_wait": [],
        "refused": [],
        "invalid_integer": ["INSERT INTO orders (id, user_id, quantity) VALUES (11, 1, 'abc')"],
        "division_by_zero": ["INSERT INTO orders (id, user_id, quantity) VALUES (11, 1, 1 / 0)"],
        "data_too_long": [
            "INSERT INTO orders (id, user_id, quantity, region) VALUES (11, 1, 1, 'north-east-1')"
        ],
        "out_of_range": ["INSERT INTO orders (id, user_id, quantity) VALUES (11, 1, 99999999999)"],
        "incorrect_datetime": [
            "CREATE TEMPORARY TABLE events (id int, happened_at datetime)",
            "INSERT INTO events VALUES (1, 'yesterday')",
        ],
        "statement_timeout": [
            "SET SESSION max_statement_time = 0.2",
            "SELECT COUNT(*) FROM seq_1_to_100000 a JOIN seq_1_to_100000 b ON a.seq * b.seq = 7",
        ],
        "access_denied": [],
        "command_denied": [],
    },
    "sqlite": {
        **_COMMON,
        "locked": [],
        "invalid_integer": ["INSERT INTO metrics (id, value) VALUES (1, 'abc')"],
        "rowid_mismatch": ["INSERT INTO users (id, email) VALUES ('abc', 'cy@example.com')"],
        "syntax_end": ["SELECT * FROM users WHERE"],
        "cannot_open": [],
        "readonly": [],
    },
}
"""Failing statements per engine and case (an empty list: a ``special`` case)."""

_SPECIAL = {
    "deadlock", "lock_timeout", "lock_wait", "refused", "locked", "cannot_open", "readonly",
    "serialization", "auth_failed", "access_denied", "command_denied",
}  # fmt: skip


def case_spec(engine: str, case: str) -> dict[str, Any]:
    """The JSON-able description of one case that the clients execute."""
    return {
        "engine": engine,
        "case": case,
        "setup": SCHEMA[engine],
        "fail": CASES[engine][case],
        "special": case if case in _SPECIAL else None,
    }
