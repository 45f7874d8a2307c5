"""Hint templates and the fixture directory shared by the database rule modules."""

from __future__ import annotations

_F = "tests/rules/fixtures/db/"
_FK_MISSING = (
    "Foreign key constraint failed for '{key}': no row in '{table}' has that value. "
    "Create the '{table}' row first or pass an existing id."
)
_UNIQUE = (
    "Unique constraint failed for '{key}': a row with that value already exists. "
    "Use a different value or update the existing row (upsert)."
)
_NOT_NULL = "NOT NULL constraint failed for '{key}'. Provide a non-null value for '{key}'."
_NO_COLUMN = "Column '{key}' does not exist. Check the column name against the table's schema."
_NO_TABLE = "Table '{key}' does not exist. Check the table name and schema, or create it (run migrations) first."
_SYNTAX = "SQL syntax error near '{key}'. Fix the statement at that token; quote identifiers that are keywords."
_DEADLOCK = (
    "Deadlock detected: the database rolled this transaction back. "
    "Retry the whole transaction; take row locks in a consistent order."
)
_REFUSED = (
    "Database server at {host}:{port} refused the connection. "
    "Start the server or fix the host/port, then retry."
)
