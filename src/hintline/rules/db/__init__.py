"""Rules: database errors from PostgreSQL, MySQL/MariaDB and SQLite, whatever client reports them.

The messages are the servers' own words, so one rule covers every client that passes them on:
psycopg 2 and 3, asyncpg, SQLAlchemy's wrapper, JDBC, node's pg / mysql2 / better-sqlite3,
PyMySQL and Python's sqlite3. Every example is an excerpt of a fixture captured from a real run
(``scripts/fixtures/gen_db_errors.py``; the full captures are checked by
``tests/rules/test_db_fixtures.py``). Hints name the column, table or constraint and never echo
row values. Within this module, a rule reading the detail line (the column) comes before the
rule reading only the constraint name. See rules/__init__.py for global precedence.
"""

from __future__ import annotations

from hintline.rules._model import Rule
from hintline.rules.db import _mysql, _postgres, _sqlite

__all__ = ["RULES"]

RULES: tuple[Rule, ...] = (*_postgres.RULES, *_mysql.RULES, *_sqlite.RULES)
"""Database rules, in priority order within the family: PostgreSQL, MySQL/MariaDB, SQLite."""
