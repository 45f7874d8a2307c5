"""Rules: Python runtime errors (CPython 3.10+ wording). See rules/__init__.py for precedence.

Filesystem (``FileNotFoundError``, ``PermissionError``, ``ENOSPC``) and memory errors live in the
fs and system families, which cover every runtime at once.
"""

from __future__ import annotations

from hintline.categories import Category
from hintline.rules._model import Example, Rule

_FX = "tests/rules/fixtures/python/"
_SG = "tests/rules/fixtures/signals/"


RULES: tuple[Rule, ...] = (
    Rule(
        code="PY018",
        name="python.missing-env-var",
        category=Category.KEY_ERROR,
        pattern=r"os(?:>|\.py)\", line \d+, in __getitem__\n(?:[^\n]*\n){0,3}?(?:[\w.]*\.)?KeyError: '(?P<key>[^'\n]+)'",
        hint="Environment variable '{key}' is not set; set it (or read it with os.environ.get and a default) before running.",
        why="os.environ[...] raises KeyError from os.py's __getitem__: the missing key is an environment variable, not data.",
        examples=(
            Example(
                '  File "<frozen os>", line 679, in __getitem__\nKeyError: \'DATABASE_URL\'',
                "Hint: Environment variable 'DATABASE_URL' is not set; set it (or read it with os.environ.get and a default) before running.",
                "DATABASE_URL",
                _SG + "py-environ-missing.txt",
            ),
        ),
        near_misses=("KeyError: 'DATABASE_URL'",),
    ),
    Rule(
        code="PY019",
        name="python.key-error-tuple",
        category=Category.KEY_ERROR,
        pattern=r"(?m)^(?:[\w.]*\.)?KeyError: \((?P<key>'[^'\n]*'(?:, '[^'\n]*'){1,7})\)$",
        hint="Composite key ({key}) is not in the mapping; look the entry up with a tuple that exists, or add it first.",
        why="CPython's KeyError for a tuple key prints the tuple's repr; every part is the key.",
        key_list=True,
        examples=(
            Example(
                "KeyError: ('acme', 'bob@example.com')",
                "Hint: Composite key (acme, bob@example.com) is not in the mapping; look the entry up with a tuple that exists, or add it first.",
                "acme, bob@example.com",
                _SG + "py-tuple-key.txt",
            ),
        ),
        near_misses=("KeyError: 'acme'",),
    ),
    Rule(
        code="PY001",
        name="python.key-error",
        category=Category.KEY_ERROR,
        pattern=r"(?m)^(?:[\w.]*\.)?KeyError: (?P<key>'[^'\n]+'|\"[^\"\n]+\"|[\w.:-]+)$",
        hint="Key '{key}' is not in the mapping; pass '{key}' in the input or use a key that exists.",
        why="CPython raises KeyError with the repr of the missing key when a dict lookup fails.",
        examples=(
            Example(
                "Traceback (most recent call last):\n  File \"app.py\", line 30, in handle\n"
                "    print(payload[\"customer_id\"])\nKeyError: 'customer_id'\n",
                "Hint: Key 'customer_id' is not in the mapping; pass 'customer_id' in the input or use a key that exists.",
                "customer_id",
                _FX + "py_key_error.txt",
            ),
        ),
        near_misses=("KeyError raised while formatting",),
    ),
    Rule(
        code="PY002",
        name="python.missing-argument",
        category=Category.MISSING_ARGUMENT,
        pattern=(
            r"(?P<function>[\w.<>]{1,64})\(\) missing \d+ required (?:positional|keyword-only) "
            r"arguments?: (?P<key>'[^'\n]+')"
        ),
        hint="{function}() is missing required argument '{key}'; pass '{key}' in the call.",
        why="CPython's TypeError when a call omits a required positional or keyword-only parameter.",
        examples=(
            Example(
                "TypeError: create_user() missing 1 required positional argument: 'email'",
                "Hint: create_user() is missing required argument 'email'; pass 'email' in the call.",
                "email",
                _FX + "py_missing_positional.txt",
            ),
            Example(
                "TypeError: send_email() missing 1 required keyword-only argument: 'subject'",
                "Hint: send_email() is missing required argument 'subject'; pass 'subject' in the call.",
                "subject",
                _FX + "py_missing_keyword_only.txt",
            ),
        ),
    ),
    Rule(
        code="PY003",
        name="python.unexpected-keyword-argument",
        category=Category.MISSING_ARGUMENT,
        pattern=r"(?P<function>[\w.<>]{1,64})\(\) got an unexpected keyword argument '(?P<key>[^'\n]+)'",
        hint="{function}() does not accept argument '{key}'; remove it or use one of the function's parameter names.",
        why="CPython's TypeError when a call passes a keyword the function does not declare.",
        examples=(
            Example(
                "TypeError: create_user() got an unexpected keyword argument 'role'",
                "Hint: create_user() does not accept argument 'role'; remove it or use one of the function's parameter names.",
                "role",
                _FX + "py_unexpected_keyword.txt",
            ),
        ),
    ),
    Rule(
        code="PY004",
        name="python.none-attribute",
        category=Category.NONE_ATTRIBUTE,
        pattern=r"'NoneType' object has no attribute '(?P<key>[^'\n]+)'",
        hint="A value was None where an object with '{key}' was expected; check that the previous step returned a result before using '{key}'.",
        why="CPython's AttributeError on None: usually a lookup that found nothing (a missing record or an empty result).",
        examples=(
            Example(
                "AttributeError: 'NoneType' object has no attribute 'email'",
                "Hint: A value was None where an object with 'email' was expected; check that the previous step returned a result before using 'email'.",
                "email",
                _FX + "py_none_attribute.txt",
            ),
        ),
    ),
    Rule(
        code="PY005",
        name="python.none-not-subscriptable",
        category=Category.NONE_ATTRIBUTE,
        pattern=r"'NoneType' object is not (?P<what>subscriptable|iterable|callable)",
        hint="A value was None where a container was expected (not {what}); check that the previous step returned data before indexing it.",
        why="CPython's TypeError when indexing, iterating or calling None.",
        key_group=None,
        examples=(
            Example(
                "TypeError: 'NoneType' object is not subscriptable",
                "Hint: A value was None where a container was expected (not subscriptable); check that the previous step returned data before indexing it.",
                None,
                _FX + "py_none_subscript.txt",
            ),
        ),
    ),
    Rule(
        code="PY006",
        name="python.attribute-error",
        category=Category.TYPE_MISMATCH,
        pattern=r"AttributeError: '(?P<type>\w+)' object has no attribute '(?P<key>[^'\n]+)'",
        hint="A '{type}' object has no attribute '{key}'; use an attribute that exists on {type} (a dict needs ['{key}']) or pass the expected type.",
        why="CPython's AttributeError on a value of the wrong type (a dict used like an object, a str like a list…).",
        examples=(
            Example(
                "AttributeError: 'dict' object has no attribute 'total'",
                "Hint: A 'dict' object has no attribute 'total'; use an attribute that exists on dict (a dict needs ['total']) or pass the expected type.",
                "total",
                _FX + "py_attribute_error.txt",
            ),
        ),
    ),
    Rule(
        code="PY007",
        name="python.invalid-int-literal",
        category=Category.INVALID_INTEGER,
        pattern=r"invalid literal for int\(\) with base (?P<base>\d{1,2})",
        hint="A value given to int() is not a base-{base} integer; send digits only (no words, units, spaces or decimals).",
        why="CPython's ValueError from int(str); the value itself is not echoed (it may be anything).",
        key_group=None,
        examples=(
            Example(
                "ValueError: invalid literal for int() with base 10: '12a'",
                "Hint: A value given to int() is not a base-10 integer; send digits only (no words, units, spaces or decimals).",
                None,
                _FX + "py_invalid_int.txt",
            ),
        ),
    ),
    Rule(
        code="PY008",
        name="python.float-conversion",
        category=Category.TYPE_MISMATCH,
        pattern=r"could not convert string to float",
        hint="A value given to float() is not a number; send a plain decimal number (no words, units or thousands separators).",
        why="CPython's ValueError from float(str); the value itself is not echoed.",
        key_group=None,
        examples=(
            Example(
                "ValueError: could not convert string to float: 'n/a'",
                "Hint: A value given to float() is not a number; send a plain decimal number (no words, units or thousands separators).",
                None,
                _FX + "py_invalid_float.txt",
            ),
        ),
    ),
    Rule(
        code="PY009",
        name="python.str-concatenation",
        category=Category.TYPE_MISMATCH,
        pattern=r"can only concatenate (?P<type>\w+) \(not \"(?P<got>\w+)\"\) to \w+",
        hint="Cannot join a value of type {got} to {type}; convert it first (for example str(value)) or pass a {type}.",
        why="CPython's TypeError for str/list concatenation with another type.",
        key_group=None,
        examples=(
            Example(
                "TypeError: can only concatenate str (not \"int\") to str",
                "Hint: Cannot join a value of type int to str; convert it first (for example str(value)) or pass a str.",
                None,
                _FX + "py_type_concat.txt",
            ),
        ),
    ),
    Rule(
        code="PY010",
        name="python.operand-types",
        category=Category.TYPE_MISMATCH,
        pattern=(
            r"(?:unsupported operand type\(s\) for (?P<op>\S{1,3}):|'(?P<cmp>[<>=!]{1,2})' not supported "
            r"between instances of) '(?P<left>\w+)' and '(?P<right>\w+)'"
        ),
        hint="Values of types {left} and {right} cannot be combined or compared; convert them to the same type (numbers as int or float) first.",
        why="CPython's TypeError for arithmetic or ordering between incompatible types (often a number sent as a string).",
        key_group=None,
        examples=(
            Example(
                "TypeError: unsupported operand type(s) for +: 'int' and 'str'",
                "Hint: Values of types int and str cannot be combined or compared; convert them to the same type (numbers as int or float) first.",
                None,
                _FX + "py_type_operand.txt",
            ),
            Example(
                "TypeError: '<' not supported between instances of 'str' and 'int'",
                "Hint: Values of types str and int cannot be combined or compared; convert them to the same type (numbers as int or float) first.",
                None,
                _FX + "py_type_compare.txt",
            ),
        ),
    ),
    Rule(
        code="PY011",
        name="python.not-callable",
        category=Category.TYPE_MISMATCH,
        pattern=r"TypeError: '(?P<key>\w+)' object is not callable",
        hint="A value of type '{key}' was called like a function; a name is probably shadowed by data, so call the function, not the value.",
        why="CPython's TypeError when calling a non-callable (a variable that shadows a function, a missing method).",
        examples=(
            Example(
                "TypeError: 'int' object is not callable",
                "Hint: A value of type 'int' was called like a function; a name is probably shadowed by data, so call the function, not the value.",
                "int",
                _FX + "py_not_callable.txt",
            ),
        ),
    ),
    Rule(
        code="PY012",
        name="python.module-not-found",
        category=Category.IMPORT_ERROR,
        pattern=r"ModuleNotFoundError: No module named '(?P<key>[\w.]+)'",
        hint="Python module '{key}' is not installed; install it, or import a module that is available.",
        why="CPython's import system cannot find the module on sys.path.",
        examples=(
            Example(
                "ModuleNotFoundError: No module named 'pandas_helpers'",
                "Hint: Python module 'pandas_helpers' is not installed; install it, or import a module that is available.",
                "pandas_helpers",
                _FX + "py_module_not_found.txt",
            ),
        ),
    ),
    Rule(
        code="PY013",
        name="python.cannot-import-name",
        category=Category.IMPORT_ERROR,
        pattern=r"ImportError: cannot import name '(?P<key>\w+)' from '(?P<module>[\w.]+)'",
        hint="'{key}' does not exist in module '{module}'; import a name the module defines (check its spelling and version).",
        why="CPython's ImportError for a from-import of a name the module does not define.",
        examples=(
            Example(
                "ImportError: cannot import name 'parse' from 'json' (/usr/lib/python3.11/json/__init__.py)",
                "Hint: 'parse' does not exist in module 'json'; import a name the module defines (check its spelling and version).",
                "parse",
                _FX + "py_import_name.txt",
            ),
        ),
    ),
    Rule(
        code="PY014",
        name="python.zero-division",
        category=Category.DIVISION_BY_ZERO,
        pattern=r"ZeroDivisionError: (?P<what>[\w ]+ by zero)",
        hint="Python {what}: a divisor was 0; check the count or total is non-zero before dividing.",
        why="CPython's ZeroDivisionError ('division by zero', 'integer modulo by zero', …).",
        key_group=None,
        examples=(
            Example(
                "ZeroDivisionError: division by zero",
                "Hint: Python division by zero: a divisor was 0; check the count or total is non-zero before dividing.",
                None,
                _FX + "py_zero_division.txt",
            ),
        ),
    ),
    Rule(
        code="PY015",
        name="python.index-error",
        category=Category.INDEX_ERROR,
        pattern=r"IndexError: (?P<what>(?:list|tuple|string|range object|deque|array) index out of range|pop from empty \w+)",
        hint="Python {what}: the sequence is shorter than expected; check its length (it may be empty) before indexing.",
        why="CPython's IndexError for an index past the end of a sequence or a pop from an empty one.",
        key_group=None,
        examples=(
            Example(
                "IndexError: list index out of range",
                "Hint: Python list index out of range: the sequence is shorter than expected; check its length (it may be empty) before indexing.",
                None,
                _FX + "py_index_error.txt",
            ),
        ),
    ),
    Rule(
        code="PY016",
        name="python.recursion",
        category=Category.RECURSION,
        pattern=r"RecursionError: maximum recursion depth exceeded",
        hint="Python hit its recursion limit: a function calls itself without end; add a base case or use a loop, and check for cyclic data.",
        why="CPython's RecursionError when the interpreter stack passes sys.getrecursionlimit().",
        key_group=None,
        examples=(
            Example(
                "  [Previous line repeated 995 more times]\nRecursionError: maximum recursion depth exceeded",
                "Hint: Python hit its recursion limit: a function calls itself without end; add a base case or use a loop, and check for cyclic data.",
                None,
                _FX + "py_recursion.txt",
            ),
        ),
    ),
    Rule(
        code="PY017",
        name="python.syntax-error",
        category=Category.SYNTAX_ERROR,
        pattern=(
            r"(?m)^ {0,4}File \"(?:[^\"\n]*/)?(?P<key>[^\"/\n]+)\", line (?P<line>\d+)\n"
            r"(?:[^\n]*\n){0,3}?(?P<type>SyntaxError|IndentationError|TabError): (?P<what>[^\n]+)"
        ),
        hint="Python {type} in {key} line {line}: {what}; fix the code before running it.",
        why="CPython's compiler errors, printed with the file and line above the message.",
        key_group="key",
        examples=(
            Example(
                "  File \"/tmp/hintline-fixtures/src/bad_syntax.py\", line 1\n    def summarize(rows:\n"
                "                 ^\nSyntaxError: '(' was never closed\n",
                "Hint: Python SyntaxError in bad_syntax.py line 1: '(' was never closed; fix the code before running it.",
                "bad_syntax.py",
                _FX + "py_syntax_error.txt",
            ),
            Example(
                "  File \"/tmp/hintline-fixtures/src/bad_indent.py\", line 3\n    return total\n"
                "                ^\nIndentationError: unindent does not match any outer indentation level\n",
                "Hint: Python IndentationError in bad_indent.py line 3: unindent does not match any outer indentation level; fix the code before running it.",
                "bad_indent.py",
                _FX + "py_indentation_error.txt",
            ),
        ),
    ),
)
