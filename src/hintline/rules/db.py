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

from hintline.categories import Category
from hintline.rules._model import Example, Rule

__all__ = ["RULES"]

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

RULES: tuple[Rule, ...] = (
    # --- PostgreSQL (libpq/psycopg/asyncpg "DETAIL:", JDBC "Detail:", node pg "detail: '...'")
    Rule(
        code="DB001",
        name="db.pg-foreign-key-missing",
        category=Category.FOREIGN_KEY_VIOLATION,
        pattern=r'Key \((?P<key>[^)\n]+)\)=\([^\n]*?\) is not present in table "(?P<table>[^"\n]+)"',
        hint=_FK_MISSING,
        why="PostgreSQL 23503 on INSERT/UPDATE of a child row: its DETAIL names the column and the parent table.",
        examples=(
            Example(
                'psycopg.errors.ForeignKeyViolation: insert or update on table "orders" violates foreign key constraint "orders_user_id_fkey"\n'
                'DETAIL:  Key (user_id)=(999) is not present in table "users".',
                "Hint: Foreign key constraint failed for 'user_id': no row in 'users' has that value. Create the 'users' row first or pass an existing id.",
                key="user_id",
                source=_F + "pg-psycopg-fk-insert.txt",
            ),
            Example(
                'Caused by: org.postgresql.util.PSQLException: ERROR: insert or update on table "orders" violates foreign key constraint "orders_user_id_fkey"\n'
                '  Detail: Key (user_id)=(999) is not present in table "users".',
                "Hint: Foreign key constraint failed for 'user_id': no row in 'users' has that value. Create the 'users' row first or pass an existing id.",
                key="user_id",
                source=_F + "pg-jdbc-fk-insert.txt",
            ),
        ),
        near_misses=(
            "DETAIL:  Key (user_id)=(999) already exists.",
            "foreign key support is disabled",
        ),
    ),
    Rule(
        code="DB002",
        name="db.pg-foreign-key-still-referenced",
        category=Category.FOREIGN_KEY_VIOLATION,
        pattern=r'Key \((?P<key>[^)\n]+)\)=\([^\n]*?\) is still referenced from table "(?P<table>[^"\n]+)"',
        hint=(
            "Foreign key constraint failed: '{key}' is still referenced from table '{table}'. "
            "Delete or re-point the referencing '{table}' rows first."
        ),
        why="PostgreSQL 23503 on DELETE/UPDATE of a parent row that child rows still reference.",
        examples=(
            Example(
                'psycopg2.errors.ForeignKeyViolation: update or delete on table "users" violates foreign key constraint "orders_user_id_fkey" on table "orders"\n'
                'DETAIL:  Key (id)=(1) is still referenced from table "orders".',
                "Hint: Foreign key constraint failed: 'id' is still referenced from table 'orders'. Delete or re-point the referencing 'orders' rows first.",
                key="id",
                source=_F + "pg-psycopg2-fk-delete.txt",
            ),
            Example(
                'error: update or delete on table "users" violates foreign key constraint "orders_user_id_fkey" on table "orders"\n'
                "    at /tmp/rdb-node/node_modules/pg/lib/client.js:694:17\n"
                "  code: '23503',\n"
                "  detail: 'Key (id)=(1) is still referenced from table \"orders\".',",
                "Hint: Foreign key constraint failed: 'id' is still referenced from table 'orders'. Delete or re-point the referencing 'orders' rows first.",
                key="id",
                source=_F + "pg-pg-fk-delete.txt",
            ),
        ),
    ),
    Rule(
        code="DB065",
        name="db.pg-foreign-key-referenced-key",
        category=Category.FOREIGN_KEY_VIOLATION,
        pattern=r"Key \((?P<key>[^)\n]+)\)=\([^\n]*?\) is still referenced",
        hint=(
            "Foreign key constraint failed: '{key}' is still referenced by rows of another table. "
            "Delete or re-point the referencing rows first."
        ),
        why="PostgreSQL 23503 DETAIL cut before the table name (log line limits, truncated messages).",
        examples=(
            Example(
                "DETAIL:  Key (id)=(1) is still referenced",
                "Hint: Foreign key constraint failed: 'id' is still referenced by rows of another table. Delete or re-point the referencing rows first.",
                key="id",
                source=_F + "pg-psycopg-fk-delete.txt (DETAIL line, cut)",
            ),
        ),
        near_misses=("Key (id)=(1) is not present in table",),
    ),
    Rule(
        code="DB003",
        name="db.pg-foreign-key",
        category=Category.FOREIGN_KEY_VIOLATION,
        pattern=r'violates foreign key constraint "(?P<key>[^"\n]+)"',
        hint=(
            "Foreign key constraint '{key}' failed. Make sure the referenced row exists (insert) "
            "or that no rows still reference it (delete)."
        ),
        why="PostgreSQL 23503 when only the message line was logged, without the DETAIL naming the column.",
        examples=(
            Example(
                'asyncpg.exceptions.ForeignKeyViolationError: insert or update on table "orders" violates foreign key constraint "orders_user_id_fkey"',
                "Hint: Foreign key constraint 'orders_user_id_fkey' failed. Make sure the referenced row exists (insert) or that no rows still reference it (delete).",
                key="orders_user_id_fkey",
                source=_F + "pg-asyncpg-fk-insert.txt (first line)",
            ),
        ),
        near_misses=('ERROR: foreign key constraint "orders_user_id_fkey" cannot be implemented',),
    ),
    Rule(
        code="DB004",
        name="db.pg-unique-key",
        category=Category.UNIQUE_VIOLATION,
        pattern=r"Key \((?P<key>[^)\n]+)\)=\([^\n]*?\) already exists",
        hint=_UNIQUE,
        why="PostgreSQL 23505: the DETAIL names the key column(s); a composite key gives its first column.",
        examples=(
            Example(
                'psycopg.errors.UniqueViolation: duplicate key value violates unique constraint "users_email_key"\n'
                "DETAIL:  Key (email)=(ada@example.com) already exists.",
                "Hint: Unique constraint failed for 'email': a row with that value already exists. Use a different value or update the existing row (upsert).",
                key="email",
                source=_F + "pg-psycopg-unique.txt",
            ),
            Example(
                'asyncpg.exceptions.UniqueViolationError: duplicate key value violates unique constraint "orders_sku_region_key"\n'
                "DETAIL:  Key (sku, region)=(SKU-1, eu) already exists.",
                "Hint: Unique constraint failed for 'sku': a row with that value already exists. Use a different value or update the existing row (upsert).",
                key="sku",
                source=_F + "pg-asyncpg-unique-composite.txt",
            ),
        ),
        near_misses=('DETAIL:  Key (user_id)=(999) is not present in table "users".',),
    ),
    Rule(
        code="DB005",
        name="db.pg-unique-constraint",
        category=Category.UNIQUE_VIOLATION,
        pattern=r'duplicate key value violates unique constraint "(?P<key>[^"\n]+)"',
        hint=(
            "Unique constraint '{key}' failed: a row with the same key already exists. "
            "Use a different value or update the existing row (upsert)."
        ),
        why="PostgreSQL 23505 logged without its DETAIL line (or on an expression index).",
        examples=(
            Example(
                'error: duplicate key value violates unique constraint "users_email_key"',
                "Hint: Unique constraint 'users_email_key' failed: a row with the same key already exists. Use a different value or update the existing row (upsert).",
                key="users_email_key",
                source=_F + "pg-pg-unique.txt (message line)",
            ),
        ),
    ),
    Rule(
        code="DB006",
        name="db.pg-not-null",
        category=Category.NOT_NULL_VIOLATION,
        pattern=r'null value in column "(?P<key>[^"\n]+)"(?: of relation "[^"\n]+")? violates not-null constraint',
        hint=_NOT_NULL,
        why="PostgreSQL 23502: a NULL (or an omitted column without default) for a NOT NULL column.",
        examples=(
            Example(
                'sqlalchemy.exc.IntegrityError: (psycopg.errors.NotNullViolation) null value in column "email" of relation "users" violates not-null constraint\n'
                "DETAIL:  Failing row contains (3, null, null).",
                "Hint: NOT NULL constraint failed for 'email'. Provide a non-null value for 'email'.",
                key="email",
                source=_F + "pg-sqlalchemy-not-null.txt",
            ),
        ),
    ),
    Rule(
        code="DB007",
        name="db.pg-check",
        category=Category.CHECK_VIOLATION,
        pattern=r'violates check constraint "(?P<key>[^"\n]+)"',
        hint="Check constraint '{key}' failed. Read its definition and pass values that satisfy it.",
        why="PostgreSQL 23514 on a row (or domain value) that fails a CHECK constraint.",
        examples=(
            Example(
                'psycopg2.errors.CheckViolation: new row for relation "orders" violates check constraint "orders_quantity_check"\n'
                "DETAIL:  Failing row contains (11, 1, 0, null, null).",
                "Hint: Check constraint 'orders_quantity_check' failed. Read its definition and pass values that satisfy it.",
                key="orders_quantity_check",
                source=_F + "pg-psycopg2-check.txt",
            ),
        ),
    ),
    Rule(
        code="DB008",
        name="db.pg-undefined-column-suggestion",
        category=Category.UNDEFINED_COLUMN,
        pattern=(
            r'column "(?P<key>[^"\n]+)" does not exist[^\n]*\n(?:[^\n]*\n){0,12}?'
            r'[^\n]*Perhaps you meant to reference the column "(?P<suggestion>[^"\n]+)"'
        ),
        hint="Column '{key}' does not exist; PostgreSQL suggests '{suggestion}'. Use that column name.",
        why="PostgreSQL 42703 with the server's own 'Perhaps you meant' HINT: the fix is in the error.",
        examples=(
            Example(
                'psycopg.errors.UndefinedColumn: column "emial" does not exist\n'
                "LINE 1: SELECT emial FROM users\n"
                "               ^\n"
                'HINT:  Perhaps you meant to reference the column "users.email".',
                "Hint: Column 'emial' does not exist; PostgreSQL suggests 'users.email'. Use that column name.",
                key="emial",
                source=_F + "pg-psycopg-undefined-column.txt",
            ),
            Example(
                'Caused by: org.postgresql.util.PSQLException: ERROR: column "emial" does not exist\n'
                '  Hint: Perhaps you meant to reference the column "users.email".\n'
                "  Position: 8",
                "Hint: Column 'emial' does not exist; PostgreSQL suggests 'users.email'. Use that column name.",
                key="emial",
                source=_F + "pg-jdbc-undefined-column.txt",
            ),
        ),
    ),
    Rule(
        code="DB009",
        name="db.pg-undefined-column-of-relation",
        category=Category.UNDEFINED_COLUMN,
        pattern=r'column "(?P<key>[^"\n]+)" of relation "(?P<table>[^"\n]+)" does not exist',
        hint="Column '{key}' does not exist in table '{table}'. Check the column name against the table's schema.",
        why="PostgreSQL 42703 in INSERT/UPDATE target lists, which name the table.",
        examples=(
            Example(
                'asyncpg.exceptions.UndefinedColumnError: column "emial" of relation "users" does not exist',
                "Hint: Column 'emial' does not exist in table 'users'. Check the column name against the table's schema.",
                key="emial",
                source=_F + "pg-asyncpg-undefined-column-insert.txt",
            ),
        ),
    ),
    Rule(
        code="DB010",
        name="db.pg-undefined-column",
        category=Category.UNDEFINED_COLUMN,
        pattern=r'column "(?P<key>[^"\n]+)" does not exist',
        hint=_NO_COLUMN,
        why="PostgreSQL 42703 without a suggestion (no similar column exists).",
        examples=(
            Example(
                'error: column "emial" does not exist\n'
                "    at /tmp/rdb-node/node_modules/pg/lib/client.js:694:17",
                "Hint: Column 'emial' does not exist. Check the column name against the table's schema.",
                key="emial",
                source=_F + "pg-pg-undefined-column.txt (message line)",
            ),
        ),
        near_misses=(
            'column "emial" of relation "users" does not exist',
            "KeyError: \"column 'price' does not exist\"",
        ),
    ),
    Rule(
        code="DB011",
        name="db.pg-undefined-table",
        category=Category.UNDEFINED_TABLE,
        pattern=r'relation "(?P<key>[^"\n]+)" does not exist',
        hint=_NO_TABLE,
        why="PostgreSQL 42P01: a table or view missing from the search_path.",
        examples=(
            Example(
                'psycopg.errors.UndefinedTable: relation "userz" does not exist\n'
                "LINE 1: SELECT * FROM userz",
                "Hint: Table 'userz' does not exist. Check the table name and schema, or create it (run migrations) first.",
                key="userz",
                source=_F + "pg-psycopg-undefined-table.txt",
            ),
        ),
    ),
    Rule(
        code="DB012",
        name="db.pg-syntax-error",
        category=Category.SYNTAX_ERROR,
        pattern=r'syntax error at or near "(?P<key>[^"\n]+)"',
        hint=_SYNTAX,
        why="PostgreSQL 42601: the parser names the token where it gave up.",
        examples=(
            Example(
                'psycopg2.errors.SyntaxError: syntax error at or near "users"\n'
                "LINE 1: SELECT id FORM users",
                "Hint: SQL syntax error near 'users'. Fix the statement at that token; quote identifiers that are keywords.",
                key="users",
                source=_F + "pg-psycopg2-syntax.txt",
            ),
        ),
    ),
    Rule(
        code="DB013",
        name="db.pg-syntax-end-of-input",
        category=Category.SYNTAX_ERROR,
        pattern=r"syntax error at end of input",
        hint="SQL syntax error at end of input: the statement is incomplete. Add the missing clause, value or parenthesis.",
        why="PostgreSQL 42601 for a truncated statement (often a template with an empty part).",
        key_group=None,
        examples=(
            Example(
                "Caused by: org.postgresql.util.PSQLException: ERROR: syntax error at end of input\n  Position: 26",
                "Hint: SQL syntax error at end of input: the statement is incomplete. Add the missing clause, value or parenthesis.",
                source=_F + "pg-jdbc-syntax-end.txt",
            ),
        ),
        near_misses=("SyntaxError: Unexpected end of input",),
    ),
    Rule(
        code="DB014",
        name="db.pg-deadlock",
        category=Category.DEADLOCK,
        pattern=r"(?:DeadlockDetected(?:Error)?\)?:?|ERROR:|error:)[ \t]{1,4}deadlock detected",
        hint=_DEADLOCK,
        why="PostgreSQL 40P01: two transactions waited on each other; the server aborted this one.",
        key_group=None,
        examples=(
            Example(
                "psycopg.errors.DeadlockDetected: deadlock detected\n"
                "DETAIL:  Process 30327 waits for ShareLock on transaction 896; blocked by process 30326.",
                "Hint: Deadlock detected: the database rolled this transaction back. Retry the whole transaction; take row locks in a consistent order.",
                source=_F + "pg-psycopg-deadlock.txt",
            ),
            Example(
                "error: deadlock detected\n    at /tmp/rdb-node/node_modules/pg/lib/client.js:694:17",
                "Hint: Deadlock detected: the database rolled this transaction back. Retry the whole transaction; take row locks in a consistent order.",
                source=_F + "pg-pg-deadlock.txt",
            ),
        ),
        near_misses=("_frozen_importlib._DeadlockError: deadlock detected by _ModuleLock('app')",),
    ),
    Rule(
        code="DB015",
        name="db.pg-statement-timeout",
        category=Category.TIMEOUT,
        pattern=r"canceling statement due to (?P<reason>statement timeout|lock timeout)",
        hint=(
            "PostgreSQL cancelled the statement ({reason}). Retry later; if it recurs, make the query "
            "cheaper or find the transaction holding the lock."
        ),
        why="PostgreSQL 57014/55P03 when statement_timeout or lock_timeout expires.",
        key_group=None,
        examples=(
            Example(
                "psycopg.errors.QueryCanceled: canceling statement due to statement timeout",
                "Hint: PostgreSQL cancelled the statement (statement timeout). Retry later; if it recurs, make the query cheaper or find the transaction holding the lock.",
                source=_F + "pg-psycopg-statement-timeout.txt",
            ),
            Example(
                "asyncpg.exceptions.LockNotAvailableError: canceling statement due to lock timeout",
                "Hint: PostgreSQL cancelled the statement (lock timeout). Retry later; if it recurs, make the query cheaper or find the transaction holding the lock.",
                source=_F + "pg-asyncpg-lock-timeout.txt",
            ),
        ),
        near_misses=("canceling statement due to user request",),
    ),
    Rule(
        code="DB016",
        name="db.pg-connection-refused",
        category=Category.CONNECTION_REFUSED,
        pattern=r'connection to server at "(?P<host>[^"\n]+)"(?: \([^)\n]+\))?, port (?P<port>\d{1,5}) failed: Connection refused',
        hint=_REFUSED,
        why="libpq (psycopg 2/3, SQLAlchemy over them) when nothing listens on the host and port.",
        key_group="port",
        examples=(
            Example(
                'psycopg.OperationalError: connection failed: connection to server at "127.0.0.1", port 54307 failed: Connection refused\n'
                "\tIs the server running on that host and accepting TCP/IP connections?",
                "Hint: Database server at 127.0.0.1:54307 refused the connection. Start the server or fix the host/port, then retry.",
                key="54307",
                source=_F + "pg-psycopg-refused.txt",
            ),
        ),
        near_misses=(
            'connection to server at "127.0.0.1", port 5432 failed: FATAL:  password authentication failed',
        ),
    ),
    Rule(
        code="DB017",
        name="db.pg-jdbc-connection-refused",
        category=Category.CONNECTION_REFUSED,
        pattern=r"Connection to (?P<host>[^\s:]+):(?P<port>\d{1,5}) refused\. Check that the hostname and port are correct",
        hint=_REFUSED,
        why="PostgreSQL JDBC (PSQLException 08001) when nothing listens on the host and port.",
        key_group="port",
        examples=(
            Example(
                "Caused by: org.postgresql.util.PSQLException: Connection to 127.0.0.1:36765 refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections.",
                "Hint: Database server at 127.0.0.1:36765 refused the connection. Start the server or fix the host/port, then retry.",
                key="36765",
                source=_F + "pg-jdbc-refused.txt",
            ),
        ),
    ),
    Rule(
        code="DB049",
        name="db.mariadb-jdbc-connection-refused",
        category=Category.CONNECTION_REFUSED,
        pattern=r"Socket fail to connect to host:(?P<host>[^\s,]+), port:(?P<port>\d{1,5})\. Connection refused",
        hint=_REFUSED,
        why="MariaDB Connector/J (SQLNonTransientConnectionException) when nothing listens on the host and port.",
        key_group="port",
        examples=(
            Example(
                "Caused by: java.sql.SQLNonTransientConnectionException: Socket fail to connect to host:127.0.0.1, port:54687. Connection refused",
                "Hint: Database server at 127.0.0.1:54687 refused the connection. Start the server or fix the host/port, then retry.",
                key="54687",
                source=_F + "mariadb-jdbc-refused.txt",
            ),
        ),
    ),
    Rule(
        code="DB018",
        name="db.pg-invalid-integer",
        category=Category.INVALID_INTEGER,
        pattern=r"invalid input syntax for (?:type )?(?P<type>integer|bigint|smallint)\b",
        hint="A value is not a valid {type}. Pass a whole number (not text) for the integer column or parameter.",
        why="PostgreSQL 22P02 when text that is not a number reaches an integer column or parameter.",
        key_group=None,
        examples=(
            Example(
                'asyncpg.exceptions.InvalidTextRepresentationError: invalid input syntax for type integer: "abc"',
                "Hint: A value is not a valid integer. Pass a whole number (not text) for the integer column or parameter.",
                source=_F + "pg-asyncpg-invalid-integer.txt",
            ),
        ),
    ),
    Rule(
        code="DB019",
        name="db.pg-datatype-mismatch",
        category=Category.TYPE_MISMATCH,
        pattern=r'column "(?P<key>[^"\n]+)" is of type (?P<expected>[\w ]+?) but expression is of type (?P<actual>[\w ]+)',
        hint="Column '{key}' is {expected} but the value is {actual}. Pass a value of type {expected} or cast it explicitly.",
        why="PostgreSQL 42804 when an INSERT/UPDATE value has the wrong type for its column.",
        examples=(
            Example(
                'psycopg2.errors.DatatypeMismatch: column "quantity" is of type integer but expression is of type boolean',
                "Hint: Column 'quantity' is integer but the value is boolean. Pass a value of type integer or cast it explicitly.",
                key="quantity",
                source=_F + "pg-psycopg2-datatype-mismatch.txt",
            ),
        ),
    ),
    Rule(
        code="DB020",
        name="db.pg-division-by-zero",
        category=Category.DIVISION_BY_ZERO,
        pattern=r"(?:DivisionByZero(?:Error)?\)?:?|ERROR:|error:)[ \t]{1,4}division by zero",
        hint="SQL division by zero. Guard the divisor (NULLIF(divisor, 0)) or filter out rows where it is zero.",
        why="PostgreSQL 22012; Python's own ZeroDivisionError is left to the python rules.",
        key_group=None,
        examples=(
            Example(
                "Caused by: org.postgresql.util.PSQLException: ERROR: division by zero",
                "Hint: SQL division by zero. Guard the divisor (NULLIF(divisor, 0)) or filter out rows where it is zero.",
                source=_F + "pg-jdbc-division-by-zero.txt",
            ),
            Example(
                "psycopg.errors.DivisionByZero: division by zero",
                "Hint: SQL division by zero. Guard the divisor (NULLIF(divisor, 0)) or filter out rows where it is zero.",
                source=_F + "pg-psycopg-division-by-zero.txt",
            ),
        ),
        near_misses=("ZeroDivisionError: division by zero",),
    ),
    Rule(
        code="DB021",
        name="db.pg-permission-denied",
        category=Category.PERMISSION_DENIED,
        pattern=r'permission denied for (?P<kind>table|relation|schema|sequence|function|view|database) "?(?P<key>[^"\s]+)"?',
        hint="The database role may not use {kind} '{key}'. Use a role with access or ask for a GRANT; retrying will not help.",
        why="PostgreSQL 42501 (insufficient_privilege): a policy decision, not a bug in the query.",
        examples=(
            Example(
                "psycopg2.errors.InsufficientPrivilege: permission denied for table users",
                "Hint: The database role may not use table 'users'. Use a role with access or ask for a GRANT; retrying will not help.",
                key="users",
                source=_F + "pg-psycopg2-permission-denied.txt",
            ),
        ),
        near_misses=("PermissionError: [Errno 13] Permission denied: '/var/lib/app/users'",),
    ),
    Rule(
        code="DB050",
        name="db.pg-invalid-json",
        category=Category.MALFORMED_JSON,
        pattern=r"invalid input syntax for type jsonb?\b",
        hint="A value is not valid JSON for a json/jsonb column or cast. Send one complete, well-formed JSON document.",
        why="PostgreSQL 22P02 on json/jsonb input; its DETAIL says where parsing stopped.",
        key_group=None,
        examples=(
            Example(
                "psycopg.errors.InvalidTextRepresentation: invalid input syntax for type json\n"
                "LINE 1: SELECT '{\"id\": 1,'::json\n"
                "DETAIL:  The input string ended unexpectedly.",
                "Hint: A value is not valid JSON for a json/jsonb column or cast. Send one complete, well-formed JSON document.",
                source=_F + "pg-psycopg-invalid-json.txt",
            ),
        ),
    ),
    Rule(
        code="DB051",
        name="db.pg-invalid-input",
        category=Category.TYPE_MISMATCH,
        pattern=r'invalid input (?:syntax|value) for (?:type |enum )?(?P<type>[\w .]+?): "',
        hint="A value is not valid input for type {type}. Pass a correctly formatted {type} value.",
        why="PostgreSQL 22P02 for text that does not parse as the target type (uuid, date, boolean, enum...).",
        key_group=None,
        examples=(
            Example(
                'asyncpg.exceptions.InvalidTextRepresentationError: invalid input syntax for type uuid: "not-a-uuid"',
                "Hint: A value is not valid input for type uuid. Pass a correctly formatted uuid value.",
                source=_F + "pg-asyncpg-invalid-uuid.txt",
            ),
        ),
    ),
    Rule(
        code="DB052",
        name="db.pg-integer-out-of-range",
        category=Category.INVALID_INTEGER,
        pattern=r"(?:NumericValueOutOfRange(?:Error)?\)?:?|ERROR:|error:)[ \t]{1,4}(?P<type>integer|bigint|smallint) out of range",
        hint="A value or result exceeds the {type} range. Use a smaller number, or a wider type (bigint/numeric).",
        why="PostgreSQL 22003 when a value or arithmetic result overflows an integer type.",
        key_group=None,
        examples=(
            Example(
                "Caused by: org.postgresql.util.PSQLException: ERROR: integer out of range",
                "Hint: A value or result exceeds the integer range. Use a smaller number, or a wider type (bigint/numeric).",
                source=_F + "pg-jdbc-integer-out-of-range.txt",
            ),
        ),
        near_misses=("OverflowError: Python int too large to convert to C long",),
    ),
    Rule(
        code="DB053",
        name="db.pg-value-too-long",
        category=Category.TYPE_MISMATCH,
        pattern=r"value too long for type (?P<type>character varying|character|bit varying|bit)\((?P<size>\d{1,6})\)",
        hint="A text value is longer than {type}({size}) allows. Shorten it to {size} characters (or widen the column).",
        why="PostgreSQL 22001 (string_data_right_truncation) on INSERT/UPDATE of a too-long string.",
        key_group=None,
        examples=(
            Example(
                "psycopg2.errors.StringDataRightTruncation: value too long for type character varying(8)",
                "Hint: A text value is longer than character varying(8) allows. Shorten it to 8 characters (or widen the column).",
                source=_F + "pg-psycopg2-value-too-long.txt",
            ),
        ),
    ),
    Rule(
        code="DB054",
        name="db.pg-operator-mismatch",
        category=Category.TYPE_MISMATCH,
        pattern=r"operator does not exist: (?P<left>[\w ]+?) (?P<op>[^\s\w]{1,3}) (?P<right>[\w ]+)",
        hint="Type mismatch: PostgreSQL has no operator {left} {op} {right}. Pass a value of the column's type or add an explicit cast.",
        why="PostgreSQL 42883 when a comparison mixes types (integer = text), typically an unconverted parameter.",
        key_group=None,
        examples=(
            Example(
                "asyncpg.exceptions.UndefinedFunctionError: operator does not exist: integer = text\n"
                "HINT:  No operator matches the given name and argument types. You might need to add explicit type casts.",
                "Hint: Type mismatch: PostgreSQL has no operator integer = text. Pass a value of the column's type or add an explicit cast.",
                source=_F + "pg-asyncpg-operator-mismatch.txt",
            ),
        ),
    ),
    Rule(
        code="DB055",
        name="db.pg-serialization-failure",
        category=Category.DEADLOCK,
        pattern=r"could not serialize access due to (?P<reason>concurrent update|concurrent delete|read/write dependencies among transactions)",
        hint="Serialization failure ({reason}): a concurrent transaction changed the same rows. Retry the whole transaction.",
        why="PostgreSQL 40001 under REPEATABLE READ/SERIALIZABLE: like a deadlock, the fix is to rerun the transaction.",
        key_group=None,
        examples=(
            Example(
                "psycopg.errors.SerializationFailure: could not serialize access due to concurrent update",
                "Hint: Serialization failure (concurrent update): a concurrent transaction changed the same rows. Retry the whole transaction.",
                source=_F + "pg-psycopg-serialization.txt",
            ),
        ),
    ),
    Rule(
        code="DB056",
        name="db.pg-auth-failed",
        category=Category.PERMISSION_DENIED,
        pattern=r'password authentication failed for user "(?P<key>[^"\n]+)"',
        hint="Authentication failed for database user '{key}'. Fix the credentials in the connection settings; retrying will not help.",
        why="PostgreSQL 28P01 (invalid_password) at connect time, through libpq, asyncpg, JDBC or node pg.",
        examples=(
            Example(
                'psycopg2.OperationalError: connection to server at "127.0.0.1", port 39359 failed: FATAL:  password authentication failed for user "app"',
                "Hint: Authentication failed for database user 'app'. Fix the credentials in the connection settings; retrying will not help.",
                key="app",
                source=_F + "pg-psycopg2-auth-failed.txt",
            ),
        ),
    ),
    Rule(
        code="DB057",
        name="db.pg-aborted-transaction",
        category=Category.OTHER,
        pattern=r"current transaction is aborted, commands ignored until end of transaction block",
        hint="An earlier statement in this transaction failed, so PostgreSQL ignores the rest. ROLLBACK, fix that first error, then rerun the transaction.",
        why="PostgreSQL 25P02: the real cause is an earlier error; listed after every other PostgreSQL rule so that cause wins when it is in the text.",
        key_group=None,
        examples=(
            Example(
                "psycopg.errors.InFailedSqlTransaction: current transaction is aborted, commands ignored until end of transaction block",
                "Hint: An earlier statement in this transaction failed, so PostgreSQL ignores the rest. ROLLBACK, fix that first error, then rerun the transaction.",
                source=_F + "pg-psycopg-aborted-transaction.txt",
            ),
        ),
    ),
    # --- MySQL / MariaDB (PyMySQL "(1452, '...')", mysql2 "Error: ...", JDBC SQLException)
    Rule(
        code="DB022",
        name="db.mysql-foreign-key-child",
        category=Category.FOREIGN_KEY_VIOLATION,
        pattern=(
            r"Cannot add or update a child row: a foreign key constraint fails \([^\n]*?"
            r"FOREIGN KEY \(`?(?P<key>[^`)\n]+)`?[^)\n]*\) REFERENCES `?(?P<table>[^`\s(]+)"
        ),
        hint=_FK_MISSING,
        why="MySQL/MariaDB 1452 (ER_NO_REFERENCED_ROW_2): the message names the FK column and parent table.",
        examples=(
            Example(
                "pymysql.err.IntegrityError: (1452, 'Cannot add or update a child row: a foreign key constraint fails (`test`.`orders`, CONSTRAINT `orders_user_id_fkey` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`))')",
                "Hint: Foreign key constraint failed for 'user_id': no row in 'users' has that value. Create the 'users' row first or pass an existing id.",
                key="user_id",
                source=_F + "mariadb-pymysql-fk-insert.txt",
            ),
        ),
    ),
    Rule(
        code="DB023",
        name="db.mysql-foreign-key-parent",
        category=Category.FOREIGN_KEY_VIOLATION,
        pattern=(
            r"Cannot delete or update a parent row: a foreign key constraint fails \((?:`[^`\n]+`\.)?"
            r"`?(?P<table>[^`\s,]+)`?, CONSTRAINT [^\n]*?FOREIGN KEY \(`?(?P<key>[^`)\n]+)"
        ),
        hint=(
            "Foreign key constraint failed: rows in '{table}' still reference this row through '{key}'. "
            "Delete or re-point those '{table}' rows first."
        ),
        why="MySQL/MariaDB 1451 (ER_ROW_IS_REFERENCED_2) on DELETE/UPDATE of a referenced parent row.",
        examples=(
            Example(
                "Error: Cannot delete or update a parent row: a foreign key constraint fails (`test`.`orders`, CONSTRAINT `orders_user_id_fkey` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`))\n"
                "  code: 'ER_ROW_IS_REFERENCED_2',",
                "Hint: Foreign key constraint failed: rows in 'orders' still reference this row through 'user_id'. Delete or re-point those 'orders' rows first.",
                key="user_id",
                source=_F + "mariadb-mysql2-fk-delete.txt",
            ),
        ),
    ),
    Rule(
        code="DB024",
        name="db.mysql-duplicate-entry",
        category=Category.UNIQUE_VIOLATION,
        pattern=r"Duplicate entry '[^\n]*?' for key '(?:[^'.\n]+\.)?(?P<key>[^'\n]+)'",
        hint=_UNIQUE,
        why="MySQL/MariaDB 1062 (ER_DUP_ENTRY): names the unique index (by default its first column).",
        examples=(
            Example(
                "Caused by: java.sql.SQLIntegrityConstraintViolationException: (conn=60) Duplicate entry 'ada@example.com' for key 'email'",
                "Hint: Unique constraint failed for 'email': a row with that value already exists. Use a different value or update the existing row (upsert).",
                key="email",
                source=_F + "mariadb-jdbc-unique.txt",
            ),
            Example(
                "pymysql.err.IntegrityError: (1062, \"Duplicate entry 'SKU-1-eu' for key 'sku'\")",
                "Hint: Unique constraint failed for 'sku': a row with that value already exists. Use a different value or update the existing row (upsert).",
                key="sku",
                source=_F + "mariadb-pymysql-unique-composite.txt",
            ),
        ),
    ),
    Rule(
        code="DB025",
        name="db.mysql-not-null",
        category=Category.NOT_NULL_VIOLATION,
        pattern=r"Column '(?P<key>[^'\n]+)' cannot be null",
        hint=_NOT_NULL,
        why="MySQL/MariaDB 1048 (ER_BAD_NULL_ERROR): an explicit NULL for a NOT NULL column.",
        examples=(
            Example(
                "pymysql.err.IntegrityError: (1048, \"Column 'email' cannot be null\")",
                "Hint: NOT NULL constraint failed for 'email'. Provide a non-null value for 'email'.",
                key="email",
                source=_F + "mariadb-pymysql-not-null.txt",
            ),
        ),
    ),
    Rule(
        code="DB026",
        name="db.mysql-no-default",
        category=Category.NOT_NULL_VIOLATION,
        pattern=r"Field '(?P<key>[^'\n]+)' doesn't have a default value",
        hint="Column '{key}' is NOT NULL and has no default. Include a value for '{key}' in the INSERT.",
        why="MySQL/MariaDB 1364 in strict mode: an INSERT omitted a NOT NULL column without default.",
        examples=(
            Example(
                "Error: Field 'email' doesn't have a default value\n  code: 'ER_NO_DEFAULT_FOR_FIELD',",
                "Hint: Column 'email' is NOT NULL and has no default. Include a value for 'email' in the INSERT.",
                key="email",
                source=_F + "mariadb-mysql2-not-null-omitted.txt",
            ),
        ),
    ),
    Rule(
        code="DB027",
        name="db.mariadb-check",
        category=Category.CHECK_VIOLATION,
        pattern=r"CONSTRAINT `(?P<key>[^`\n]+)` failed for `",
        hint="Check constraint '{key}' failed. Read its definition and pass values that satisfy it.",
        why="MariaDB 4025 (ER_CONSTRAINT_FAILED) for a row that fails a CHECK constraint.",
        examples=(
            Example(
                "pymysql.err.OperationalError: (4025, 'CONSTRAINT `orders_quantity_check` failed for `test`.`orders`')",
                "Hint: Check constraint 'orders_quantity_check' failed. Read its definition and pass values that satisfy it.",
                key="orders_quantity_check",
                source=_F + "mariadb-pymysql-check.txt",
            ),
        ),
    ),
    Rule(
        code="DB028",
        name="db.mysql-unknown-column",
        category=Category.UNDEFINED_COLUMN,
        pattern=r"Unknown column '(?P<key>[^'\n]+)' in '",
        hint=_NO_COLUMN,
        why="MySQL/MariaDB 1054 (ER_BAD_FIELD_ERROR).",
        examples=(
            Example(
                "pymysql.err.OperationalError: (1054, \"Unknown column 'emial' in 'SELECT'\")",
                "Hint: Column 'emial' does not exist. Check the column name against the table's schema.",
                key="emial",
                source=_F + "mariadb-pymysql-undefined-column.txt",
            ),
        ),
    ),
    Rule(
        code="DB029",
        name="db.mysql-unknown-table",
        category=Category.UNDEFINED_TABLE,
        pattern=r"Table '(?:[^'.\n]+\.)?(?P<key>[^'\n]+)' doesn't exist",
        hint=_NO_TABLE,
        why="MySQL/MariaDB 1146 (ER_NO_SUCH_TABLE); the schema prefix is dropped from the key.",
        examples=(
            Example(
                "Error: Table 'test.userz' doesn't exist\n  code: 'ER_NO_SUCH_TABLE',",
                "Hint: Table 'userz' does not exist. Check the table name and schema, or create it (run migrations) first.",
                key="userz",
                source=_F + "mariadb-mysql2-undefined-table.txt",
            ),
        ),
    ),
    Rule(
        code="DB030",
        name="db.mysql-syntax-error",
        category=Category.SYNTAX_ERROR,
        pattern=r"You have an error in your SQL syntax; check the manual that corresponds to your (?:MySQL|MariaDB) server version for the right syntax to use near '(?P<key>[^\s'\n]+)",
        hint=_SYNTAX,
        why="MySQL/MariaDB 1064 (ER_PARSE_ERROR): the key is the first token where parsing failed.",
        examples=(
            Example(
                "pymysql.err.ProgrammingError: (1064, \"You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near 'users' at line 1\")",
                "Hint: SQL syntax error near 'users'. Fix the statement at that token; quote identifiers that are keywords.",
                key="users",
                source=_F + "mariadb-pymysql-syntax.txt",
            ),
        ),
    ),
    Rule(
        code="DB031",
        name="db.mysql-deadlock",
        category=Category.DEADLOCK,
        pattern=r"Deadlock found when trying to get lock",
        hint=_DEADLOCK,
        why="MySQL/MariaDB 1213 (ER_LOCK_DEADLOCK): InnoDB rolled back the victim transaction.",
        key_group=None,
        examples=(
            Example(
                "pymysql.err.OperationalError: (1213, 'Deadlock found when trying to get lock; try restarting transaction')",
                "Hint: Deadlock detected: the database rolled this transaction back. Retry the whole transaction; take row locks in a consistent order.",
                source=_F + "mariadb-pymysql-deadlock.txt",
            ),
        ),
    ),
    Rule(
        code="DB032",
        name="db.mysql-lock-wait-timeout",
        category=Category.TIMEOUT,
        pattern=r"Lock wait timeout exceeded; try restarting transaction",
        hint=(
            "Lock wait timeout: another transaction held the row lock too long. "
            "Retry the transaction; keep transactions short."
        ),
        why="MySQL/MariaDB 1205 (ER_LOCK_WAIT_TIMEOUT) after innodb_lock_wait_timeout.",
        key_group=None,
        examples=(
            Example(
                "Error: Lock wait timeout exceeded; try restarting transaction\n  code: 'ER_LOCK_WAIT_TIMEOUT',",
                "Hint: Lock wait timeout: another transaction held the row lock too long. Retry the transaction; keep transactions short.",
                source=_F + "mariadb-mysql2-lock-wait.txt",
            ),
        ),
    ),
    Rule(
        code="DB033",
        name="db.mysql-connection-refused",
        category=Category.CONNECTION_REFUSED,
        pattern=r"Can't connect to (?:MySQL|MariaDB) server on '(?P<key>[^'\s:]+)(?::\d{1,5})?'",
        hint="Database server at '{key}' refused the connection. Start the server or fix the host/port, then retry.",
        why="MySQL/MariaDB client error 2003 (PyMySQL, mysqlclient) when nothing listens on the host.",
        examples=(
            Example(
                "pymysql.err.OperationalError: (2003, \"Can't connect to MySQL server on '127.0.0.1' ([Errno 111] Connection refused)\")",
                "Hint: Database server at '127.0.0.1' refused the connection. Start the server or fix the host/port, then retry.",
                key="127.0.0.1",
                source=_F + "mariadb-pymysql-refused.txt",
            ),
        ),
    ),
    Rule(
        code="DB034",
        name="db.mysql-incorrect-integer",
        category=Category.INVALID_INTEGER,
        pattern=r"Incorrect integer value: '[^\n]*?' for column (?:`[^`\n]+`\.){0,2}[`']?(?P<key>[^`'\s]+)",
        hint="Column '{key}' needs an integer. Pass a whole number, not text.",
        why="MySQL/MariaDB 1366 in strict mode when text reaches an integer column.",
        examples=(
            Example(
                "pymysql.err.DataError: (1366, \"Incorrect integer value: 'abc' for column `test`.`orders`.`quantity` at row 1\")",
                "Hint: Column 'quantity' needs an integer. Pass a whole number, not text.",
                key="quantity",
                source=_F + "mariadb-pymysql-invalid-integer.txt",
            ),
        ),
    ),
    Rule(
        code="DB035",
        name="db.mysql-division-by-zero",
        category=Category.DIVISION_BY_ZERO,
        pattern=r"\bDivision by 0\b",
        hint="SQL division by zero. Guard the divisor (NULLIF(divisor, 0)) or filter out rows where it is zero.",
        why="MySQL/MariaDB 1365 (ER_DIVISION_BY_ZERO) when strict mode turns x/0 in a write into an error.",
        key_group=None,
        examples=(
            Example(
                "Error: Division by 0\n  code: 'ER_DIVISION_BY_ZERO',",
                "Hint: SQL division by zero. Guard the divisor (NULLIF(divisor, 0)) or filter out rows where it is zero.",
                source=_F + "mariadb-mysql2-division-by-zero.txt",
            ),
        ),
        near_misses=("ZeroDivisionError: division by zero",),
    ),
    Rule(
        code="DB036",
        name="db.mysql-data-too-long",
        category=Category.TYPE_MISMATCH,
        pattern=r"Data too long for column '(?P<key>[^'\n]+)'",
        hint="Value too long for column '{key}'. Shorten the value to the column's size (or widen the column).",
        why="MySQL/MariaDB 1406 (ER_DATA_TOO_LONG) in strict mode.",
        examples=(
            Example(
                "pymysql.err.DataError: (1406, \"Data too long for column 'region' at row 1\")",
                "Hint: Value too long for column 'region'. Shorten the value to the column's size (or widen the column).",
                key="region",
                source=_F + "mariadb-pymysql-data-too-long.txt",
            ),
        ),
    ),
    Rule(
        code="DB058",
        name="db.mysql-out-of-range",
        category=Category.INVALID_INTEGER,
        pattern=r"Out of range value for column '(?P<key>[^'\n]+)'",
        hint="Value out of range for column '{key}'. Use a number within the column type's range (or widen the column).",
        why="MySQL/MariaDB 1264 (ER_WARN_DATA_OUT_OF_RANGE) in strict mode.",
        examples=(
            Example(
                "Caused by: java.sql.SQLSyntaxErrorException: (conn=19) Out of range value for column 'quantity' at row 1",
                "Hint: Value out of range for column 'quantity'. Use a number within the column type's range (or widen the column).",
                key="quantity",
                source=_F + "mariadb-jdbc-out-of-range.txt",
            ),
        ),
    ),
    Rule(
        code="DB059",
        name="db.mysql-incorrect-value",
        category=Category.TYPE_MISMATCH,
        pattern=r"Incorrect (?P<type>\w{1,20}) value: '[^\n]*?' for column (?:`[^`\n]+`\.){0,2}[`']?(?P<key>[^`'\s]+)",
        hint="Column '{key}' needs a valid {type} value. Pass a correctly formatted {type}.",
        why="MySQL/MariaDB 1292/1366 for a value that does not convert to the column's type (integer has its own rule).",
        examples=(
            Example(
                "pymysql.err.OperationalError: (1292, \"Incorrect datetime value: 'yesterday' for column `test`.`events`.`happened_at` at row 1\")",
                "Hint: Column 'happened_at' needs a valid datetime value. Pass a correctly formatted datetime.",
                key="happened_at",
                source=_F + "mariadb-pymysql-incorrect-datetime.txt",
            ),
        ),
    ),
    Rule(
        code="DB060",
        name="db.mysql-statement-timeout",
        category=Category.TIMEOUT,
        pattern=r"Query execution was interrupted(?: \(max_statement_time exceeded\)|, maximum statement execution time exceeded)",
        hint="The query hit the server's maximum statement time and was interrupted. Make it cheaper (index, LIMIT) or raise the limit, then retry.",
        why="MariaDB 1969 (max_statement_time) and MySQL 3024 (max_execution_time).",
        key_group=None,
        examples=(
            Example(
                "pymysql.err.OperationalError: (1969, 'Query execution was interrupted (max_statement_time exceeded)')",
                "Hint: The query hit the server's maximum statement time and was interrupted. Make it cheaper (index, LIMIT) or raise the limit, then retry.",
                source=_F + "mariadb-pymysql-statement-timeout.txt",
            ),
        ),
    ),
    Rule(
        code="DB061",
        name="db.mysql-command-denied",
        category=Category.PERMISSION_DENIED,
        pattern=r"(?P<command>[A-Z]{1,16}) command denied to user '[^'\n]+'@'[^'\n]*' for table (?:`[^`\n]+`\.)?[`']?(?P<key>[^`'\s]+)",
        hint="The database user may not {command} table '{key}'. Use a user with access or ask for a GRANT; retrying will not help.",
        why="MySQL/MariaDB 1142 (ER_TABLEACCESS_DENIED_ERROR): a privilege decision, not a bug in the query.",
        examples=(
            Example(
                "Error: SELECT command denied to user 'app'@'localhost' for table `test`.`users`",
                "Hint: The database user may not SELECT table 'users'. Use a user with access or ask for a GRANT; retrying will not help.",
                key="users",
                source=_F + "mariadb-mysql2-command-denied.txt",
            ),
        ),
    ),
    Rule(
        code="DB062",
        name="db.mysql-access-denied",
        category=Category.PERMISSION_DENIED,
        pattern=r"Access denied for user '(?P<key>[^'\n]+)'@'[^'\n]*'",
        hint="Access denied for database user '{key}'. Fix the credentials or the user's grants; retrying will not help.",
        why="MySQL/MariaDB 1045 (wrong password) and 1044 (no access to the database).",
        examples=(
            Example(
                "pymysql.err.OperationalError: (1045, \"Access denied for user 'app'@'localhost' (using password: YES)\")",
                "Hint: Access denied for database user 'app'. Fix the credentials or the user's grants; retrying will not help.",
                key="app",
                source=_F + "mariadb-pymysql-access-denied.txt",
            ),
        ),
    ),
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
        pattern=r"no such column: (?P<key>[\w.\"]+)",
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
"""Database rules, in priority order within the family."""
