"""PostgreSQL errors (libpq/psycopg/asyncpg "DETAIL:", JDBC "Detail:", node pg "detail: '...'")."""

from __future__ import annotations

from hintline.categories import Category
from hintline.rules._model import Example, Rule
from hintline.rules.db._shared import (
    _DEADLOCK,
    _F,
    _FK_MISSING,
    _NO_COLUMN,
    _NO_TABLE,
    _NOT_NULL,
    _REFUSED,
    _SYNTAX,
    _UNIQUE,
)

__all__ = ["RULES"]

RULES: tuple[Rule, ...] = (
    # --- PostgreSQL (libpq/psycopg/asyncpg "DETAIL:", JDBC "Detail:", node pg "detail: '...'")
    Rule(
        code="DB001",
        name="db.pg-foreign-key-missing",
        category=Category.FOREIGN_KEY_VIOLATION,
        pattern=r'Key \((?P<key>[^)\n]+)\)=\([^\n]*?\) is not present in table "(?P<table>[^"\n]+)"',
        hint=_FK_MISSING,
        key_list=True,
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
        key_list=True,
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
        key_list=True,
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
        key_list=True,
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
                "Hint: Unique constraint failed for 'sku, region': a row with that value already exists. Use a different value or update the existing row (upsert).",
                key="sku, region",
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
            r'column (?P<key>"[^"\n]+"|[\w$]+(?:\.[\w$]+){1,2}) does not exist[^\n]*\n(?:[^\n]*\n){0,12}?'
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
        pattern=r'column (?P<key>"[^"\n]+"|[\w$]+(?:\.[\w$]+){1,2}) does not exist',
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
        code="DB066",
        name="db.pg-undefined-function",
        category=Category.TYPE_MISMATCH,
        pattern=r"function (?P<key>[\w$.]+)\((?P<args>[^)\n]{0,200})\) does not exist",
        hint="Function '{key}({args})' does not exist for these argument types; check the function name, or cast the arguments to the types it takes.",
        why="PostgreSQL 42883: no function of that name takes those argument types (a misspelt name, or an argument needing a cast).",
        examples=(
            Example(
                "psycopg.errors.UndefinedFunction: function lenght(text) does not exist",
                "Hint: Function 'lenght(text)' does not exist for these argument types; check the function name, or cast the arguments to the types it takes.",
                key="lenght",
                source="tests/rules/fixtures/signals/pg-en-psycopg-undefined-function.txt",
            ),
        ),
        near_misses=("operator does not exist: integer = text",),
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
                "Hint: [127.0.0.1:54307] Database server at 127.0.0.1:54307 refused the connection. Start the server or fix the host/port, then retry.",
                key="127.0.0.1:54307",
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
                "Hint: [127.0.0.1:36765] Database server at 127.0.0.1:36765 refused the connection. Start the server or fix the host/port, then retry.",
                key="127.0.0.1:36765",
                source=_F + "pg-jdbc-refused.txt",
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
)
"""PostgreSQL rules, in priority order."""
