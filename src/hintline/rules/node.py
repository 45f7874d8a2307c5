"""Rules: JavaScript / Node.js runtime errors (V8 wording, Node 18+).

JSON.parse errors are in the payload family; ENOENT/EACCES/ENOSPC in fs; network codes in
http/system. See rules/__init__.py for global precedence.
"""

from __future__ import annotations

from hintline.categories import Category
from hintline.rules._model import Example, Rule

_FX = "tests/rules/fixtures/node/"
_SG = "tests/rules/fixtures/signals/"

RULES: tuple[Rule, ...] = (
    Rule(
        code="JS001",
        name="node.cannot-read-property",
        category=Category.UNDEFINED_PROPERTY,
        pattern=(
            r"Cannot (?P<op>read|set) properties of (?P<what>undefined|null) "
            r"\((?:reading|setting) '(?P<key>[^'\n]+)'\)"
        ),
        hint="Cannot {op} '{key}' of {what}: the object that should hold '{key}' is missing; check the previous step returned it before using it.",
        why="V8's TypeError for property access on undefined/null: usually a lookup or API call that returned nothing.",
        examples=(
            Example(
                "TypeError: Cannot read properties of undefined (reading 'profile')\n"
                "    at Object.undefined_property (/tmp/hintline-fixtures/src/js_errors.js:13:22)",
                "Hint: Cannot read 'profile' of undefined: the object that should hold 'profile' is missing; check the previous step returned it before using it.",
                "profile",
                _FX + "node_undefined_property.txt",
            ),
            Example(
                "TypeError: Cannot read properties of null (reading 'id')",
                "Hint: Cannot read 'id' of null: the object that should hold 'id' is missing; check the previous step returned it before using it.",
                "id",
                _FX + "node_null_property.txt",
            ),
            Example(
                "TypeError: Cannot set properties of undefined (setting 'limit')",
                "Hint: Cannot set 'limit' of undefined: the object that should hold 'limit' is missing; check the previous step returned it before using it.",
                "limit",
                _FX + "node_set_undefined.txt",
            ),
        ),
    ),
    Rule(
        code="JS010",
        name="node.cannot-read-property-old",
        category=Category.UNDEFINED_PROPERTY,
        pattern=r"Cannot (?P<op>read|set) property '(?P<key>[^'\n]+)' of (?P<what>undefined|null)\b",
        hint="Cannot {op} '{key}' of {what}: the object that should hold '{key}' is missing; check the previous step returned it before using it.",
        why="V8 before 9.x (Node 15 and older) worded property access on undefined/null this way; still common in logs of older services.",
        examples=(
            Example(
                "TypeError: Cannot read property 'profile' of undefined\n    at getUser (/srv/app/users.js:12:19)",
                "Hint: Cannot read 'profile' of undefined: the object that should hold 'profile' is missing; check the previous step returned it before using it.",
                "profile",
                _SG + "doc-node14-cannot-read-property.txt",
            ),
        ),
        near_misses=("Cannot read properties of undefined (reading 'x')",),
    ),
    Rule(
        code="JS011",
        name="node.jsc-not-an-object",
        category=Category.UNDEFINED_PROPERTY,
        pattern=(
            r"(?P<what>undefined|null) is not an object \(evaluating '(?:[^'\n]*\.)?(?P<key>[\w$]+)'\)"
        ),
        hint="Cannot read '{key}' of {what}: the object that should hold '{key}' is missing; check the previous step returned it before using it.",
        why="JavaScriptCore (Safari, Bun, React Native's JSC) words property access on undefined/null as 'undefined is not an object (evaluating ...)'.",
        examples=(
            Example(
                "Exception: TypeError: undefined is not an object (evaluating 'o.customer.address')",
                "Hint: Cannot read 'address' of undefined: the object that should hold 'address' is missing; check the previous step returned it before using it.",
                "address",
                _SG + "js-jsc-undefined-property.txt",
            ),
            Example(
                "Exception: TypeError: null is not an object (evaluating 'u.profile')",
                "Hint: Cannot read 'profile' of null: the object that should hold 'profile' is missing; check the previous step returned it before using it.",
                "profile",
                _SG + "js-jsc-null-property.txt",
            ),
        ),
        near_misses=("TypeError: undefined is not a function (near '...x...')",),
    ),
    Rule(
        code="JS012",
        name="node.spidermonkey-cannot-access",
        category=Category.UNDEFINED_PROPERTY,
        pattern=r"can't access property \"(?P<key>[^\"\n]+)\", (?P<obj>[\w$.\[\]]+) is (?P<what>undefined|null)\b",
        hint="Cannot read '{key}' of {what} ('{obj}'): the object that should hold '{key}' is missing; check the previous step returned it before using it.",
        why="SpiderMonkey (Firefox, gjs) since version 74 names the property and the undefined/null expression.",
        examples=(
            Example(
                'TypeError: can\'t access property "address", order.customer is undefined',
                "Hint: Cannot read 'address' of undefined ('order.customer'): the object that should hold 'address' is missing; check the previous step returned it before using it.",
                "address",
                _SG + "doc-spidermonkey-cannot-access.txt",
            ),
        ),
    ),
    Rule(
        code="JS013",
        name="node.spidermonkey-is-undefined",
        category=Category.UNDEFINED_PROPERTY,
        pattern=r"(?m)TypeError: (?P<key>[\w$][\w$.\[\]]{0,127}) is (?P<what>undefined|null)$",
        hint="'{key}' is {what} where an object was expected: check the previous step returned it before reading its properties.",
        why="SpiderMonkey (gjs, older Firefox) when the property read is on a plain undefined/null expression: it names the expression only.",
        examples=(
            Example(
                "(gjs:32698): Gjs-CRITICAL **: 23:24:22.571: JS ERROR: TypeError: o.customer is undefined\n"
                "total@/tmp/hintline-js-i1_askzu/undefined-property.js:2:21",
                "Hint: 'o.customer' is undefined where an object was expected: check the previous step returned it before reading its properties.",
                "o.customer",
                _SG + "js-gjs-undefined-property.txt",
            ),
            Example(
                "(gjs:32712): Gjs-CRITICAL **: 23:24:22.763: JS ERROR: TypeError: u is null",
                "Hint: 'u' is null where an object was expected: check the previous step returned it before reading its properties.",
                "u",
                _SG + "js-gjs-null-property.txt",
            ),
        ),
        near_misses=("TypeError: x is undefined or not a function in this context",),
    ),
    Rule(
        code="JS002",
        name="node.not-a-function",
        category=Category.TYPE_MISMATCH,
        pattern=r"TypeError: (?P<key>[\w$.\[\]'\"]+) is not a function",
        hint="'{key}' is not a function: the value has a different type than expected (for example an object instead of an array); check its type before calling it.",
        why="V8's TypeError when calling something that is not callable (a missing method, an object where an array was expected).",
        examples=(
            Example(
                "TypeError: user.getEmail is not a function",
                "Hint: 'user.getEmail' is not a function: the value has a different type than expected (for example an object instead of an array); check its type before calling it.",
                "user.getEmail",
                _FX + "node_not_a_function.txt",
            ),
            Example(
                "TypeError: rows.map is not a function",
                "Hint: 'rows.map' is not a function: the value has a different type than expected (for example an object instead of an array); check its type before calling it.",
                "rows.map",
                _FX + "node_map_not_a_function.txt",
            ),
        ),
    ),
    Rule(
        code="JS003",
        name="node.reference-error",
        category=Category.UNDEFINED_PROPERTY,
        pattern=r"ReferenceError: (?P<key>[\w$]+) is not defined",
        hint="'{key}' is not defined; declare or import '{key}' before using it (check its spelling).",
        why="V8's ReferenceError for an undeclared identifier.",
        examples=(
            Example(
                "ReferenceError: customerId is not defined",
                "Hint: 'customerId' is not defined; declare or import 'customerId' before using it (check its spelling).",
                "customerId",
                _FX + "node_reference_error.txt",
            ),
        ),
    ),
    Rule(
        code="JS004",
        name="node.module-not-found",
        category=Category.IMPORT_ERROR,
        pattern=r"(?:Error \[ERR_MODULE_NOT_FOUND\]: |Error: )Cannot find (?:package|module) '(?P<key>[^'\n]+)'",
        hint="Node module '{key}' cannot be found; install it (npm install) or fix the import path.",
        why="Node's resolver: ERR_MODULE_NOT_FOUND for ES modules, MODULE_NOT_FOUND for require().",
        examples=(
            Example(
                "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'left-pad-helpers' imported from "
                "/tmp/hintline-fixtures/src/js_esm_missing.mjs",
                "Hint: Node module 'left-pad-helpers' cannot be found; install it (npm install) or fix the import path.",
                "left-pad-helpers",
                _FX + "node_esm_module_not_found.txt",
            ),
            Example(
                "Error: Cannot find module 'left-pad-helpers'\nRequire stack:\n- /tmp/hintline-fixtures/src/js_errors.js",
                "Hint: Node module 'left-pad-helpers' cannot be found; install it (npm install) or fix the import path.",
                "left-pad-helpers",
                _FX + "node_module_not_found.txt",
            ),
        ),
    ),
    Rule(
        code="JS005",
        name="node.syntax-error",
        category=Category.SYNTAX_ERROR,
        pattern=(
            r"(?P<key>[\w.-]{1,64}\.[cm]?[jt]sx?):(?P<line>\d+)\n"
            r"(?:[^\n]*\n){1,4}?SyntaxError: (?P<what>[^\n]+)"
        ),
        hint="JavaScript SyntaxError in {key} line {line}: {what}; fix the code before running it.",
        why="Node prints the file:line, the source line and a caret above a parse-time SyntaxError.",
        examples=(
            Example(
                "/tmp/hintline-fixtures/src/bad_syntax.js:3\n  return rows.reduce((a, b) => a + b, 0));\n"
                "                                        ^\n\nSyntaxError: Unexpected token ')'\n",
                "Hint: JavaScript SyntaxError in bad_syntax.js line 3: Unexpected token ')'; fix the code before running it.",
                "bad_syntax.js",
                _FX + "node_syntax_error.txt",
            ),
        ),
    ),
    Rule(
        code="JS006",
        name="node.call-stack-exceeded",
        category=Category.RECURSION,
        pattern=r"RangeError: Maximum call stack size exceeded",
        hint="JavaScript call stack overflow: a function calls itself without end; add a base case or use a loop, and check for cyclic data.",
        why="V8's RangeError on unbounded recursion (or a cyclic structure walked recursively).",
        key_group=None,
        examples=(
            Example(
                "RangeError: Maximum call stack size exceeded\n    at depth (/tmp/hintline-fixtures/src/js_errors.js:47:39)",
                "Hint: JavaScript call stack overflow: a function calls itself without end; add a base case or use a loop, and check for cyclic data.",
                None,
                _FX + "node_recursion.txt",
            ),
        ),
    ),
    Rule(
        code="JS007",
        name="node.bigint-division-by-zero",
        category=Category.DIVISION_BY_ZERO,
        pattern=r"RangeError: (?:Division|Remainder) by zero",
        hint="JavaScript BigInt division by zero: a divisor was 0n; check it is non-zero before dividing.",
        why="V8 throws RangeError for BigInt division or remainder by zero (Number division gives Infinity instead).",
        key_group=None,
        examples=(
            Example(
                "RangeError: Division by zero\n    at Object.bigint_division (/tmp/hintline-fixtures/src/js_errors.js:54:21)",
                "Hint: JavaScript BigInt division by zero: a divisor was 0n; check it is non-zero before dividing.",
                None,
                _FX + "node_bigint_division.txt",
            ),
        ),
    ),
    Rule(
        code="JS008",
        name="node.invalid-array-length",
        category=Category.INDEX_ERROR,
        pattern=r"RangeError: Invalid (?:array|typed array) length",
        hint="JavaScript array length is invalid (negative, fractional or too large); check the size computed before creating the array.",
        why="V8's RangeError for new Array(n) / length assignment outside 0..2^32-1.",
        key_group=None,
        examples=(
            Example(
                "RangeError: Invalid array length",
                "Hint: JavaScript array length is invalid (negative, fractional or too large); check the size computed before creating the array.",
                None,
                _FX + "node_invalid_array_length.txt",
            ),
        ),
    ),
    Rule(
        code="JS009",
        name="node.heap-out-of-memory",
        category=Category.OUT_OF_MEMORY,
        pattern=r"FATAL ERROR: [^\n]*JavaScript heap out of memory",
        hint="Node ran out of heap memory; process the data in smaller pieces (stream or paginate) or raise --max-old-space-size.",
        why="V8 aborts the process when the old generation reaches its limit.",
        key_group=None,
        examples=(
            Example(
                "<--- JS stacktrace --->\n\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n",
                "Hint: Node ran out of heap memory; process the data in smaller pieces (stream or paginate) or raise --max-old-space-size.",
                None,
                "tests/rules/fixtures/system/node_heap_oom.txt",
            ),
        ),
    ),
)
