"""Rules: PHP 8 runtime errors and warnings.

The two ``Failed to open stream`` rules come first: a failed fopen() cascades into a TypeError
(``fread(): Argument #1 ($stream) must be of type resource, bool given``) that is not the cause.
Disk-full warnings are in the fs family, JsonException in payload.
See rules/__init__.py for global precedence.
"""

from __future__ import annotations

from hintline.categories import Category
from hintline.rules._model import Example, Rule

_FX = "tests/rules/fixtures/php/"

RULES: tuple[Rule, ...] = (
    Rule(
        code="PHP001",
        name="php.failed-to-open-not-found",
        category=Category.FILE_NOT_FOUND,
        pattern=r"\w{1,40}\((?P<key>[^()\n]+)\): Failed to open stream: No such file or directory",
        hint="File or directory '{key}' does not exist; check the path (list the directory first) or create it before reading it.",
        why="PHP's stream wrappers warn 'Failed to open stream' with the function and the path.",
        examples=(
            Example(
                "Warning: file_get_contents(data/report.csv): Failed to open stream: No such file or directory in "
                "/tmp/hintline-fixtures/src/php/errors.php on line 56",
                "Hint: File or directory 'data/report.csv' does not exist; check the path (list the directory first) or create it before reading it.",
                "data/report.csv",
                "tests/rules/fixtures/fs/php_failed_to_open.txt",
            ),
        ),
    ),
    Rule(
        code="PHP002",
        name="php.failed-to-open-permission-denied",
        category=Category.PERMISSION_DENIED,
        pattern=r"\w{1,40}\((?P<key>[^()\n]+)\): Failed to open stream: Permission denied",
        hint="Permission denied for '{key}'; this path is not accessible to the process, so use a path you are allowed to read or write.",
        why="PHP's stream wrappers warn 'Failed to open stream: Permission denied' with the path.",
        examples=(
            Example(
                "Warning: fopen(data/payroll.csv): Failed to open stream: Permission denied in "
                "/tmp/hintline-fixtures/src/php/errors.php on line 59",
                "Hint: Permission denied for 'data/payroll.csv'; this path is not accessible to the process, so use a path you are allowed to read or write.",
                "data/payroll.csv",
                "tests/rules/fixtures/fs/php_fopen_permission.txt",
            ),
        ),
    ),
    Rule(
        code="PHP003",
        name="php.undefined-array-key",
        category=Category.KEY_ERROR,
        pattern=r"Undefined array key (?P<key>\"[^\"\n]+\"|-?\d{1,19})",
        hint="Array key '{key}' is not set; pass '{key}' in the input or check it with isset() / ?? before reading it.",
        why="PHP 8 warns 'Undefined array key' (PHP 7: 'Undefined index') when reading a missing key.",
        examples=(
            Example(
                "Warning: Undefined array key \"customer_id\" in /tmp/hintline-fixtures/src/php/errors.php on line 36\n",
                "Hint: Array key 'customer_id' is not set; pass 'customer_id' in the input or check it with isset() / ?? before reading it.",
                "customer_id",
                _FX + "php_undefined_array_key.txt",
            ),
        ),
    ),
    Rule(
        code="PHP004",
        name="php.member-function-on-null",
        category=Category.NULL_POINTER,
        pattern=r"Call to a member function (?P<key>\w+)\(\) on null",
        hint="{key}() was called on null: the object was not found or not loaded; check the lookup returned an object before calling {key}().",
        why="PHP's Error when calling a method on null (typically a find/lookup that returned null).",
        examples=(
            Example(
                "PHP Fatal error:  Uncaught Error: Call to a member function getEmail() on null in "
                "/tmp/hintline-fixtures/src/php/errors.php:39\n",
                "Hint: getEmail() was called on null: the object was not found or not loaded; check the lookup returned an object before calling getEmail().",
                "getEmail",
                _FX + "php_member_on_null.txt",
            ),
        ),
    ),
    Rule(
        code="PHP005",
        name="php.argument-type",
        category=Category.TYPE_MISMATCH,
        pattern=(
            r"(?P<function>[\w:\\]{1,64})\(\): Argument #(?P<position>\d+) \((?P<key>\$\w+)\) "
            r"must be of type (?P<type>[\w|?\\]+), (?P<got>\w+) given"
        ),
        hint="Argument {key} of {function}() must be {type}, but {got} was given; pass a value of type {type}.",
        why="PHP 8 TypeError for a parameter type declaration that the argument does not satisfy.",
        examples=(
            Example(
                "PHP Fatal error:  Uncaught TypeError: setQuantity(): Argument #1 ($quantity) must be of type int, "
                "string given, called in /tmp/hintline-fixtures/src/php/errors.php on line 42",
                "Hint: Argument $quantity of setQuantity() must be int, but string was given; pass a value of type int.",
                "$quantity",
                _FX + "php_type_error.txt",
            ),
        ),
    ),
    Rule(
        code="PHP006",
        name="php.too-few-arguments",
        category=Category.MISSING_ARGUMENT,
        pattern=(
            r"Too few arguments to function (?P<key>[\w:\\]+)\(\), (?P<passed>\d+) passed"
            r"[^\n]*? and (?:exactly|at least) (?P<expected>\d+) expected"
        ),
        hint="{key}() got {passed} argument(s) but needs {expected}; pass every required argument.",
        why="PHP's ArgumentCountError when a user function is called with too few arguments.",
        examples=(
            Example(
                "PHP Fatal error:  Uncaught ArgumentCountError: Too few arguments to function createUser(), 1 passed in "
                "/tmp/hintline-fixtures/src/php/errors.php on line 45 and exactly 2 expected in /tmp/x.php:17",
                "Hint: createUser() got 1 argument(s) but needs 2; pass every required argument.",
                "createUser",
                _FX + "php_too_few_arguments.txt",
            ),
        ),
    ),
    Rule(
        code="PHP007",
        name="php.division-by-zero",
        category=Category.DIVISION_BY_ZERO,
        pattern=r"DivisionByZeroError: (?P<what>Division|Modulo) by zero",
        hint="PHP {what} by zero: a divisor was 0; check it is non-zero before dividing.",
        why="PHP 8 throws DivisionByZeroError for intdiv(), % and / by zero.",
        key_group=None,
        examples=(
            Example(
                "PHP Fatal error:  Uncaught DivisionByZeroError: Division by zero in /tmp/hintline-fixtures/src/php/errors.php:49",
                "Hint: PHP Division by zero: a divisor was 0; check it is non-zero before dividing.",
                None,
                _FX + "php_division_by_zero.txt",
            ),
            Example(
                "PHP Fatal error:  Uncaught DivisionByZeroError: Modulo by zero in /tmp/hintline-fixtures/src/php/errors.php:53",
                "Hint: PHP Modulo by zero: a divisor was 0; check it is non-zero before dividing.",
                None,
                _FX + "php_modulo_by_zero.txt",
            ),
        ),
    ),
    Rule(
        code="PHP008",
        name="php.undefined-method",
        category=Category.UNDEFINED_PROPERTY,
        pattern=r"Call to undefined (?P<what>method|function) (?P<key>[\w:\\]+)\(\)",
        hint="{what} {key}() does not exist; call one that is defined (check the spelling, the class and the loaded files).",
        why="PHP's Error for a call to a method or function that is not defined.",
        examples=(
            Example(
                "PHP Fatal error:  Uncaught Error: Call to undefined method User::getPhone() in /tmp/x.php:78",
                "Hint: method User::getPhone() does not exist; call one that is defined (check the spelling, the class and the loaded files).",
                "User::getPhone",
                _FX + "php_undefined_method.txt",
            ),
            Example(
                "PHP Fatal error:  Uncaught Error: Call to undefined function format_invoice() in /tmp/x.php:81",
                "Hint: function format_invoice() does not exist; call one that is defined (check the spelling, the class and the loaded files).",
                "format_invoice",
                _FX + "php_undefined_function.txt",
            ),
        ),
    ),
    Rule(
        code="PHP009",
        name="php.undefined-variable",
        category=Category.UNDEFINED_PROPERTY,
        pattern=r"Undefined variable \$(?P<key>\w+)",
        hint="Variable ${key} is not defined; assign ${key} before using it (check its spelling).",
        why="PHP 8 warns when reading a variable that was never assigned.",
        examples=(
            Example(
                "Warning: Undefined variable $customerId in /tmp/hintline-fixtures/src/php/errors.php on line 75",
                "Hint: Variable $customerId is not defined; assign $customerId before using it (check its spelling).",
                "customerId",
                _FX + "php_undefined_variable.txt",
            ),
        ),
    ),
    Rule(
        code="PHP010",
        name="php.class-not-found",
        category=Category.IMPORT_ERROR,
        pattern=r"Class \"(?P<key>[\w\\]+)\" not found",
        hint="PHP class '{key}' cannot be found; require or autoload the file that defines it, or fix the class name and namespace.",
        why="PHP's Error when instantiating a class no autoloader can find.",
        examples=(
            Example(
                "PHP Fatal error:  Uncaught Error: Class \"InvoiceService\" not found in /tmp/x.php:84",
                "Hint: PHP class 'InvoiceService' cannot be found; require or autoload the file that defines it, or fix the class name and namespace.",
                "InvoiceService",
                _FX + "php_class_not_found.txt",
            ),
        ),
    ),
    Rule(
        code="PHP011",
        name="php.parse-error",
        category=Category.SYNTAX_ERROR,
        pattern=(
            r"Parse error: {1,2}(?P<what>syntax error, [^\n]+?) in (?:[^\n]*/)?"
            r"(?P<key>[^\n/]+) on line (?P<line>\d+)"
        ),
        hint="PHP {what} in {key} line {line}; fix the code before running it.",
        why="PHP's parser reports a ParseError with the unexpected token, file and line.",
        examples=(
            Example(
                "PHP Parse error:  syntax error, unexpected token \";\", expecting \")\" in "
                "/tmp/hintline-fixtures/src/php/bad_syntax.php on line 3",
                "Hint: PHP syntax error in bad_syntax.php line 3; fix the code before running it.",
                "bad_syntax.php",
                _FX + "php_syntax_error.txt",
            ),
        ),
    ),
    Rule(
        code="PHP012",
        name="php.memory-exhausted",
        category=Category.OUT_OF_MEMORY,
        pattern=r"Allowed memory size of \d+ bytes exhausted",
        hint="PHP ran out of memory (memory_limit); process the data in smaller pieces (stream or paginate) or raise memory_limit.",
        why="PHP's fatal error when a script passes its memory_limit.",
        key_group=None,
        examples=(
            Example(
                "PHP Fatal error:  Allowed memory size of 33554432 bytes exhausted (tried to allocate 2097152 bytes) in /tmp/x.php on line 72",
                "Hint: PHP ran out of memory (memory_limit); process the data in smaller pieces (stream or paginate) or raise memory_limit.",
                None,
                "tests/rules/fixtures/system/php_memory.txt",
            ),
        ),
    ),
)
