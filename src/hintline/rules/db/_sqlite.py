"""SQLite errors (Python sqlite3, SQLAlchemy, better-sqlite3 SqliteError)."""

from __future__ import annotations

from hintline.categories import Category
from hintline.rules._model import Example, Rule
from hintline.rules.db._shared import _F, _NO_COLUMN, _NO_TABLE, _NOT_NULL, _SYNTAX, _UNIQUE

__all__ = ["RULES"]

RULES: tuple[Rule, ...] = (
    # --- SQLite (Python sqlite3, SQLAlchemy, better-sqlite3 SqliteError)
    Rule(
        code="DB037",
        name="db.sqlite-foreign-key",
        category=Category.FOREIGN_KEY_VIOLATION,
        pattern=r"FOREIGN KEY constraint failed",
        hint=(
            "Foreign key constraint failed (SQLite does not name the column). Make sure the referenced "
            "row exists before inserting, or delete the rows that still reference it first."
        ),
        why="SQLite SQLITE_CONSTRAINT_FOREIGNKEY; the same message for child inserts and parent deletes.",
        key_group=None,
        examples=(
            Example(
                "sqlite3.IntegrityError: FOREIGN KEY constraint failed",
                "Hint: Foreign key constraint failed (SQLite does not name the column). Make sure the referenced row exists before inserting, or delete the rows that still reference it first.",
                source=_F + "sqlite-sqlite3-fk-insert.txt",
            ),
        ),
        near_misses=(
            "foreign key support is disabled",
            "PRAGMA foreign_keys=OFF: FOREIGN KEY checks skipped",
        ),
    ),
    Rule(
        code="DB038",
        name="db.sqlite-unique",
        category=Category.UNIQUE_VIOLATION,
        pattern=r"UNIQUE constraint failed: \w+\.(?P<key>\w+)",
        hint=_UNIQUE,
        why="SQLite SQLITE_CONSTRAINT_UNIQUE names table.column; a composite key gives its first column.",
        examples=(
            Example(
                "sqlite3.IntegrityError: UNIQUE constraint failed: users.email",
                "Hint: Unique constraint failed for 'email': a row with that value already exists. Use a different value or update the existing row (upsert).",
                key="email",
                source=_F + "sqlite-sqlite3-unique.txt",
            ),
            Example(
                "SqliteError: UNIQUE constraint failed: orders.sku, orders.region",
                "Hint: Unique constraint failed for 'sku': a row with that value already exists. Use a different value or update the existing row (upsert).",
                key="sku",
                source=_F + "sqlite-better-sqlite3-unique-composite.txt",
            ),
        ),
    ),
    Rule(
        code="DB039",
        name="db.sqlite-not-null",
        category=Category.NOT_NULL_VIOLATION,
        pattern=r"NOT NULL constraint failed: \w+\.(?P<key>\w+)",
        hint=_NOT_NULL,
        why="SQLite SQLITE_CONSTRAINT_NOTNULL names table.column.",
        examples=(
            Example(
                "sqlalchemy.exc.IntegrityError: (sqlite3.IntegrityError) NOT NULL constraint failed: users.email\n"
                "[SQL: INSERT INTO users (id, email) VALUES (3, NULL)]",
                "Hint: NOT NULL constraint failed for 'email'. Provide a non-null value for 'email'.",
                key="email",
                source=_F + "sqlite-sqlalchemy-not-null.txt",
            ),
        ),
    ),
    Rule(
        code="DB040",
        name="db.sqlite-check",
        category=Category.CHECK_VIOLATION,
        pattern=r"CHECK constraint failed: (?P<key>\w+)",
        hint="Check constraint on '{key}' failed. Pass values that satisfy the table's CHECK constraint.",
        why="SQLite SQLITE_CONSTRAINT_CHECK names the constraint, or quotes its expression (first word kept).",
        examples=(
            Example(
                "SqliteError: CHECK constraint failed: quantity > 0",
                "Hint: Check constraint on 'quantity' failed. Pass values that satisfy the table's CHECK constraint.",
                key="quantity",
                source=_F + "sqlite-better-sqlite3-check.txt",
            ),
        ),
    ),
    Rule(
        code="DB041",
        name="db.sqlite-no-such-column",
        category=Category.UNDEFINED_COLUMN,
        pattern=r"no such column: (?P<key>[\w.\"]+(?: [\w.\"]+)*)",
        hint=_NO_COLUMN,
        why="SQLite prepare error for a column that no table in the query has.",
        examples=(
            Example(
                "sqlite3.OperationalError: no such column: emial",
                "Hint: Column 'emial' does not exist. Check the column name against the table's schema.",
                key="emial",
                source=_F + "sqlite-sqlite3-undefined-column.txt",
            ),
        ),
    ),
    Rule(
        code="DB042",
        name="db.sqlite-no-column-named",
        category=Category.UNDEFINED_COLUMN,
        pattern=r"table (?P<table>[\w.\"]+) has no column named (?P<key>\w+)",
        hint="Column '{key}' does not exist in table '{table}'. Check the column name against the table's schema.",
        why="SQLite's INSERT form of an unknown column, which names the table.",
        examples=(
            Example(
                "SqliteError: table users has no column named emial",
                "Hint: Column 'emial' does not exist in table 'users'. Check the column name against the table's schema.",
                key="emial",
                source=_F + "sqlite-better-sqlite3-undefined-column-insert.txt",
            ),
        ),
    ),
    Rule(
        code="DB043",
        name="db.sqlite-no-such-table",
        category=Category.UNDEFINED_TABLE,
        pattern=r"no such table: (?:main\.)?(?P<key>[\w.\"]+)",
        hint=_NO_TABLE,
        why="SQLite prepare error for a missing table (often: migrations not run, or a new empty file).",
        examples=(
            Example(
                "sqlite3.OperationalError: no such table: userz",
                "Hint: Table 'userz' does not exist. Check the table name and schema, or create it (run migrations) first.",
                key="userz",
                source=_F + "sqlite-sqlite3-undefined-table.txt",
            ),
        ),
    ),
    Rule(
        code="DB044",
        name="db.sqlite-syntax-error",
        category=Category.SYNTAX_ERROR,
        pattern=r'near "(?P<key>[^"\n]+)": syntax error',
        hint=_SYNTAX,
        why="SQLite's parser error names the token where it gave up.",
        examples=(
            Example(
                'sqlite3.OperationalError: near "users": syntax error',
                "Hint: SQL syntax error near 'users'. Fix the statement at that token; quote identifiers that are keywords.",
                key="users",
                source=_F + "sqlite-sqlite3-syntax.txt",
            ),
        ),
    ),
    Rule(
        code="DB045",
        name="db.sqlite-locked",
        category=Category.TIMEOUT,
        pattern=r"database (?:table )?is locked",
        hint=(
            "SQLite database is locked by another connection's write. Retry after it commits; "
            "keep write transactions short or raise the busy timeout."
        ),
        why="SQLite SQLITE_BUSY after the busy timeout: another connection holds the write lock.",
        key_group=None,
        examples=(
            Example(
                "SqliteError: database is locked\n  code: 'SQLITE_BUSY'",
                "Hint: SQLite database is locked by another connection's write. Retry after it commits; keep write transactions short or raise the busy timeout.",
                source=_F + "sqlite-better-sqlite3-locked.txt",
            ),
        ),
    ),
    Rule(
        code="DB046",
        name="db.sqlite-strict-integer",
        category=Category.INVALID_INTEGER,
        pattern=r"cannot store (?P<actual>[A-Z]{1,8}) value in INT(?:EGER)? column (?:\w+\.)?(?P<key>\w+)",
        hint="Column '{key}' is a STRICT INTEGER column. Pass a whole number, not {actual}.",
        why="SQLite SQLITE_CONSTRAINT_DATATYPE for STRICT tables (3.37+).",
        examples=(
            Example(
                "sqlite3.IntegrityError: cannot store TEXT value in INTEGER column metrics.value",
                "Hint: Column 'value' is a STRICT INTEGER column. Pass a whole number, not TEXT.",
                key="value",
                source=_F + "sqlite-sqlite3-invalid-integer.txt",
            ),
        ),
    ),
    Rule(
        code="DB047",
        name="db.sqlite-cannot-open",
        category=Category.FILE_NOT_FOUND,
        pattern=r"unable to open database file|Cannot open database because the directory does not exist",
        hint="SQLite cannot open the database file: its directory does not exist or is not accessible. Fix the path or create the directory.",
        why="SQLite SQLITE_CANTOPEN (sqlite3, SQLAlchemy) and better-sqlite3's own check of the directory.",
        key_group=None,
        examples=(
            Example(
                "sqlalchemy.exc.OperationalError: (sqlite3.OperationalError) unable to open database file",
                "Hint: SQLite cannot open the database file: its directory does not exist or is not accessible. Fix the path or create the directory.",
                source=_F + "sqlite-sqlalchemy-cannot-open.txt",
            ),
            Example(
                "TypeError: Cannot open database because the directory does not exist",
                "Hint: SQLite cannot open the database file: its directory does not exist or is not accessible. Fix the path or create the directory.",
                source=_F + "sqlite-better-sqlite3-cannot-open.txt",
            ),
        ),
    ),
    Rule(
        code="DB048",
        name="db.sqlite-readonly",
        category=Category.PERMISSION_DENIED,
        pattern=r"attempt to write a readonly database",
        hint="SQLite database is read-only here (opened read-only, or the file is not writable). Write elsewhere or ask for access; retrying will not help.",
        why="SQLite SQLITE_READONLY: a write through a read-only connection or to a read-only file.",
        key_group=None,
        examples=(
            Example(
                "sqlite3.OperationalError: attempt to write a readonly database",
                "Hint: SQLite database is read-only here (opened read-only, or the file is not writable). Write elsewhere or ask for access; retrying will not help.",
                source=_F + "sqlite-sqlite3-readonly.txt",
            ),
        ),
    ),
    Rule(
        code="DB063",
        name="db.sqlite-incomplete-input",
        category=Category.SYNTAX_ERROR,
        pattern=r"(?:OperationalError\)?:?|SqliteError:)[ \t]{1,4}incomplete input",
        hint="SQL statement is incomplete (SQLite reached the end of input). Add the missing clause, value or parenthesis.",
        why="SQLite's parser error for a truncated statement.",
        key_group=None,
        examples=(
            Example(
                "sqlite3.OperationalError: incomplete input",
                "Hint: SQL statement is incomplete (SQLite reached the end of input). Add the missing clause, value or parenthesis.",
                source=_F + "sqlite-sqlite3-syntax-end.txt",
            ),
        ),
    ),
    Rule(
        code="DB064",
        name="db.sqlite-datatype-mismatch",
        category=Category.INVALID_INTEGER,
        pattern=r"(?:IntegrityError\)?:?|SqliteError:)[ \t]{1,4}datatype mismatch",
        hint="SQLite datatype mismatch: an INTEGER PRIMARY KEY (rowid) takes only whole numbers. Pass an integer id, not text.",
        why="SQLite SQLITE_MISMATCH, raised when a non-integer goes into an INTEGER PRIMARY KEY.",
        key_group=None,
        examples=(
            Example(
                "SqliteError: datatype mismatch\n  code: 'SQLITE_MISMATCH'",
                "Hint: SQLite datatype mismatch: an INTEGER PRIMARY KEY (rowid) takes only whole numbers. Pass an integer id, not text.",
                source=_F + "sqlite-better-sqlite3-rowid-mismatch.txt",
            ),
        ),
    ),
)
"""SQLite rules, in priority order."""
