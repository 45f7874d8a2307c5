"""MySQL and MariaDB errors (PyMySQL "(1452, '...')", mysql2 "Error: ...", JDBC SQLException)."""

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
    # --- MySQL / MariaDB (PyMySQL "(1452, '...')", mysql2 "Error: ...", JDBC SQLException)
    Rule(
        code="DB022",
        name="db.mysql-foreign-key-child",
        category=Category.FOREIGN_KEY_VIOLATION,
        pattern=(
            r"Cannot add or update a child row: a foreign key constraint fails \([^\n]*?"
            # "(?:`[^)\n]*)?", not "`?[^)\n]*": the same matches, but the key's run and the
            # rest no longer overlap, which cost Python's re quadratic time per failed attempt
            r"FOREIGN KEY \(`?(?P<key>[^`)\n]+)(?:`[^)\n]*)?\) REFERENCES `?(?P<table>[^`\s(]+)"
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
                "Hint: [127.0.0.1:54687] Database server at 127.0.0.1:54687 refused the connection. Start the server or fix the host/port, then retry.",
                key="127.0.0.1:54687",
                source=_F + "mariadb-jdbc-refused.txt",
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
)
"""MySQL/MariaDB rules, in priority order."""
