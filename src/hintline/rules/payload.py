"""Rules: payload validation and JSON parsing (pydantic, JSON Schema, serde, Jackson, Go, PHP).

These come before the language families: a pydantic or Jackson failure is printed inside a
Python or Java traceback whose generic lines the runtime rules would otherwise claim.
See rules/__init__.py for global precedence.
"""

from __future__ import annotations

from hintline.categories import Category
from hintline.rules._model import Example, Rule

_FX = "tests/rules/fixtures/payload/"
_SG = "tests/rules/fixtures/signals/"


RULES: tuple[Rule, ...] = (
    Rule(
        code="PL019",
        name="payload.fastapi-422-missing",
        category=Category.MISSING_FIELD,
        pattern=(
            r"""["']detail["']: ?\[\{["']type["']: ?["']missing["'], ?["']loc["']: ?\["""
            r"""[^\]\n]{0,200}["'](?P<key>[^"'\],\n]{1,64})["']\]"""
        ),
        hint="Required field '{key}' is missing from the request (HTTP 422); add '{key}' to the body and call again.",
        why="FastAPI/pydantic 422 bodies list validation errors; the first printed is a missing field, loc[-1] names it. Anchored to the first item, so the first error printed wins.",
        examples=(
            Example(
                'POST /v1/users failed: 422\n{"detail":[{"type":"missing","loc":["body","email"],"msg":"Field required","input":{"age":"forty"}},{"type":"int_parsing","loc":["body","age"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"forty"}]}',
                "Hint: Required field 'email' is missing from the request (HTTP 422); add 'email' to the body and call again.",
                "email",
                _SG + "py-fastapi-422.txt",
            ),
        ),
        near_misses=('{"detail":[{"type":"int_parsing","loc":["body","age"]},{"type":"missing","loc":["body","email"]}]}',),
    ),
    Rule(
        code="PL020",
        name="payload.fastapi-422-invalid",
        category=Category.TYPE_MISMATCH,
        pattern=(
            r"""["']detail["']: ?\[\{["']type["']: ?["'](?P<type>[a-z_]{1,40})["'], ?["']loc["']: ?\["""
            r"""[^\]\n]{0,200}["'](?P<key>[^"'\],\n]{1,64})["']\]"""
        ),
        hint="Field '{key}' has an invalid value ({type}, HTTP 422); send a value of the type and range the API schema expects.",
        why="FastAPI/pydantic 422 bodies whose first error is a type or value error: loc[-1] is the field to fix.",
        examples=(
            Example(
                'POST /v1/users failed: 422\n{"detail":[{"type":"int_parsing","loc":["body","age"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"forty"},{"type":"missing","loc":["body","email"],"msg":"Field required","input":{"age":"forty"}}]}',
                "Hint: Field 'age' has an invalid value (int_parsing, HTTP 422); send a value of the type and range the API schema expects.",
                "age",
                _SG + "py-fastapi-422-type-first.txt",
            ),
        ),
        near_misses=('{"detail": "Not authenticated"}',),
    ),
    Rule(
        code="PL001",
        name="payload.pydantic-field-required",
        category=Category.MISSING_FIELD,
        pattern=r"(?m)^(?P<key>[A-Za-z_][\w.\[\]-]*)\n {2}Field required \[type=missing",
        hint="Required field '{key}' is missing from the payload; include '{key}' and send the call again.",
        why="pydantic v2 ValidationError: the field location on one line, 'Field required [type=missing' under it.",
        examples=(
            Example(
                "pydantic_core._pydantic_core.ValidationError: 1 validation error for User\nemail\n"
                "  Field required [type=missing, input_value={'name': 'Ada'}, input_type=dict]\n",
                "Hint: Required field 'email' is missing from the payload; include 'email' and send the call again.",
                "email",
                _FX + "py_pydantic_missing.txt",
            ),
            Example(
                "1 validation error for Customer\naddress.city\n  Field required [type=missing, "
                "input_value={'street': '1 Main St'}, input_type=dict]\n",
                "Hint: Required field 'address.city' is missing from the payload; include 'address.city' and send the call again.",
                "address.city",
                _FX + "py_pydantic_nested_missing.txt",
            ),
        ),
        near_misses=("email\n  Input should be a valid string [type=string_type, input_value=1]",),
    ),
    Rule(
        code="PL002",
        name="payload.jsonschema-required-property",
        category=Category.MISSING_FIELD,
        pattern=r"'(?P<key>[^'\n]+)' is a required property",
        hint="Required property '{key}' is missing from the JSON payload; add '{key}' as the schema requires.",
        why="python-jsonschema (and ajv-style validators) report a missing 'required' member this way.",
        examples=(
            Example(
                "jsonschema.exceptions.ValidationError: 'email' is a required property\n\n"
                "Failed validating 'required' in schema:\n",
                "Hint: Required property 'email' is missing from the JSON payload; add 'email' as the schema requires.",
                "email",
                _FX + "py_jsonschema_required.txt",
            ),
        ),
        near_misses=("'email' is not a required property of this schema version",),
    ),
    Rule(
        code="PL003",
        name="payload.serde-missing-field",
        category=Category.MISSING_FIELD,
        pattern=r"missing field `(?P<key>[^`\n]+)`",
        hint="Required field '{key}' is missing from the JSON payload; include '{key}' and send the call again.",
        why="serde / serde_json: deserialising a struct whose required field is absent.",
        examples=(
            Example(
                "called `Result::unwrap()` on an `Err` value: Error(\"missing field `email`\", "
                "line: 1, column: 15)",
                "Hint: Required field 'email' is missing from the JSON payload; include 'email' and send the call again.",
                "email",
                _FX + "rust_serde_missing_field.txt",
            ),
        ),
        near_misses=("missing field email",),
    ),
    Rule(
        code="PL004",
        name="payload.jackson-missing-creator-property",
        category=Category.MISSING_FIELD,
        pattern=r"Missing required creator property '(?P<key>[^'\n]+)'",
        hint="Required property '{key}' is missing from the JSON payload; include '{key}' and send the call again.",
        why="Jackson MismatchedInputException for a @JsonProperty(required = true) creator parameter.",
        examples=(
            Example(
                "Exception in thread \"main\" com.fasterxml.jackson.databind.exc.MismatchedInputException: "
                "Missing required creator property 'email' (index 1)\n",
                "Hint: Required property 'email' is missing from the JSON payload; include 'email' and send the call again.",
                "email",
                _FX + "java_jackson_missing.txt",
            ),
        ),
    ),
    Rule(
        code="PL005",
        name="payload.pydantic-int-parsing",
        category=Category.INVALID_INTEGER,
        pattern=r"(?m)^(?P<key>[A-Za-z_][\w.\[\]-]*)\n {2}Input should be a valid integer",
        hint="Field '{key}' must be an integer; send digits only (no words, units or decimals).",
        why="pydantic v2 int_parsing / int_from_float / int_type errors name the field above the message.",
        examples=(
            Example(
                "1 validation error for Order\nquantity\n  Input should be a valid integer, unable to "
                "parse string as an integer [type=int_parsing, input_value='three', input_type=str]\n",
                "Hint: Field 'quantity' must be an integer; send digits only (no words, units or decimals).",
                "quantity",
                _FX + "py_pydantic_int.txt",
            ),
        ),
    ),
    Rule(
        code="PL006",
        name="payload.pydantic-wrong-type",
        category=Category.TYPE_MISMATCH,
        pattern=(
            r"(?m)^(?P<key>[A-Za-z_][\w.\[\]-]*)\n {2}Input should be "
            r"(?:a valid |an? |valid )?(?P<type>[^\[\n]+?) \[type=\w+"
        ),
        hint="Field '{key}' has the wrong type: it should be {type}; send a value of that type.",
        why="pydantic v2 type errors (list_type, string_type, bool_parsing…) name the field above 'Input should be'.",
        examples=(
            Example(
                "1 validation error for Filter\ntags\n  Input should be a valid list [type=list_type, "
                "input_value='urgent', input_type=str]\n",
                "Hint: Field 'tags' has the wrong type: it should be list; send a value of that type.",
                "tags",
                _FX + "py_pydantic_type.txt",
            ),
        ),
    ),
    Rule(
        code="PL007",
        name="payload.jsonschema-wrong-type",
        category=Category.TYPE_MISMATCH,
        pattern=(
            r"is not of type '(?P<type>[\w-]+)'[\s\S]*?"
            r"On instance\[(?P<key>'[^'\n]+'|\d{1,9})\]"
        ),
        hint="Property '{key}' has the wrong type: the schema expects {type}; send a value of that type.",
        why="python-jsonschema ValidationError for a 'type' keyword; the instance path names the property.",
        examples=(
            Example(
                "jsonschema.exceptions.ValidationError: 'three' is not of type 'integer'\n\n"
                "Failed validating 'type' in schema['properties']['quantity']:\n    {'type': 'integer'}\n\n"
                "On instance['quantity']:\n    'three'\n",
                "Hint: Property 'quantity' has the wrong type: the schema expects integer; send a value of that type.",
                "quantity",
                _FX + "py_jsonschema_type.txt",
            ),
        ),
    ),
    Rule(
        code="PL008",
        name="payload.jackson-invalid-format",
        category=Category.TYPE_MISMATCH,
        pattern=(
            # the chain on the next line, else the last one on this line: spelt as two
            # alternatives, not "[^\n]*\n?[^\n]*?", whose overlapping runs cost Python's re
            # (where RE2 has no wheel) cubic time on a line of repeated messages
            r"Cannot deserialize value of type `(?P<type>[^`\n]+)` from (?:[^\n]*\n[^\n]*?|[^\n]*)"
            r"through reference chain: [^\n]*\[\"(?P<key>[^\"\n]+)\"\]\)"
        ),
        hint="Property '{key}' has the wrong type: expected {type}; send a value of that type.",
        why="Jackson InvalidFormatException / MismatchedInputException; the reference chain ends with the property.",
        examples=(
            Example(
                "com.fasterxml.jackson.databind.exc.InvalidFormatException: Cannot deserialize value of "
                "type `int` from String \"three\": not a valid `int` value\n at [Source: (String)"
                "\"{\"quantity\": \"three\"}\"; line: 1, column: 14] (through reference chain: "
                "Errors$Order[\"quantity\"])\n",
                "Hint: Property 'quantity' has the wrong type: expected int; send a value of that type.",
                "quantity",
                _FX + "java_jackson_type.txt",
            ),
        ),
    ),
    Rule(
        code="PL009",
        name="payload.go-json-unmarshal-type",
        category=Category.TYPE_MISMATCH,
        pattern=(
            r"json: cannot unmarshal (?P<got>\w+) into Go (?:struct field [\w.]*?\.|value of type )"
            r"(?P<key>[\w]+) of type (?P<type>[\w.\[\]*]+)"
        ),
        hint="Field '{key}' has the wrong type: got a JSON {got}, expected {type}; send a value of that type.",
        why="Go encoding/json UnmarshalTypeError names the struct field and the Go type.",
        examples=(
            Example(
                "error: json: cannot unmarshal string into Go struct field Order.quantity of type int\n",
                "Hint: Field 'quantity' has the wrong type: got a JSON string, expected int; send a value of that type.",
                "quantity",
                _FX + "go_json_type.txt",
            ),
        ),
    ),
    Rule(
        code="PL010",
        name="payload.serde-invalid-type",
        category=Category.TYPE_MISMATCH,
        pattern=r"invalid type: (?P<got>[a-z]+(?: [a-z]+)?)\b[^\n]*?, expected (?P<type>[^\"\n]+?)(?:\"|,| at line)",
        hint="A JSON value has the wrong type: got {got}, expected {type}; send a value of that type.",
        why="serde's Error::invalid_type (serde_json prints it with the line and column, no field name).",
        key_group=None,
        examples=(
            Example(
                "called `Result::unwrap()` on an `Err` value: Error(\"invalid type: string \\\"three\\\", "
                "expected u32\", line: 1, column: 20)",
                "Hint: A JSON value has the wrong type: got string, expected u32; send a value of that type.",
                None,
                _FX + "rust_serde_invalid_type.txt",
            ),
        ),
    ),
    Rule(
        code="PL011",
        name="payload.jackson-unrecognized-field",
        category=Category.TYPE_MISMATCH,
        pattern=r"Unrecognized field \"(?P<key>[^\"\n]+)\"",
        hint="Field '{key}' is not accepted by the payload schema; remove it or rename it to a known field.",
        why="Jackson UnrecognizedPropertyException (FAIL_ON_UNKNOWN_PROPERTIES, the default) rejects extra fields.",
        examples=(
            Example(
                "com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException: Unrecognized field "
                "\"coupon\" (class Errors$Order), not marked as ignorable (one known property: \"quantity\"])\n",
                "Hint: Field 'coupon' is not accepted by the payload schema; remove it or rename it to a known field.",
                "coupon",
                _FX + "java_jackson_unknown_field.txt",
            ),
        ),
    ),
    Rule(
        code="PL012",
        name="payload.serde-unknown-field",
        category=Category.TYPE_MISMATCH,
        pattern=r"unknown field `(?P<key>[^`\n]+)`",
        hint="Field '{key}' is not accepted by the payload schema; remove it or rename it to a known field.",
        why="serde with #[serde(deny_unknown_fields)] rejects a field the struct does not declare.",
        examples=(
            Example(
                "called `Result::unwrap()` on an `Err` value: Error(\"unknown field `coupon`, expected "
                "`quantity`\", line: 1, column: 25)",
                "Hint: Field 'coupon' is not accepted by the payload schema; remove it or rename it to a known field.",
                "coupon",
                _FX + "rust_serde_unknown_field.txt",
            ),
        ),
    ),
    Rule(
        code="PL021",
        name="payload.response-not-json",
        category=Category.MALFORMED_JSON,
        pattern=(
            r"(?:requests\.exceptions\.JSONDecodeError|in json\n[^\n]*\n[^\n]*JSONDecodeError|"
            r"ContentTypeError: \d{3}, message='Attempt to decode JSON with unexpected mimetype|"
            r"Unexpected token '?<'?,? [^\n]{0,40}is not valid JSON)"
        ),
        hint="The response body was not JSON (an HTML error page, an empty or truncated body); check the response's status and content type before parsing it, the request may have failed.",
        why="A client's .json() on a response that is not JSON: the fault is the response (a proxy's error page, an empty body), not JSON the caller sent.",
        key_group=None,
        examples=(
            Example(
                '  File "/tmp/i16v/lib/python3.11/site-packages/requests/models.py", line 1120, in json\n'
                "    raise RequestsJSONDecodeError(e.msg, e.doc, e.pos)\n"
                "requests.exceptions.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
                "Hint: The response body was not JSON (an HTML error page, an empty or truncated body); check the response's status and content type before parsing it, the request may have failed.",
                None,
                _SG + "py-json-of-html.txt",
            ),
        ),
        near_misses=("json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",),
    ),
    Rule(
        code="PL013",
        name="payload.python-json-decode",
        category=Category.MALFORMED_JSON,
        pattern=(
            r"JSONDecodeError: (?P<what>Expecting '[^'\n]{1,3}' delimiter|Expecting [^:\n]+|Extra data|Unterminated string[^:\n]*|"
            r"Invalid [^:\n]+): line (?P<line>\d+) column (?P<column>\d+)"
        ),
        hint="The JSON text is malformed ({what}, line {line} column {column}); send valid JSON: double-quoted keys and strings, no trailing commas, not empty.",
        why="Python's json module (json.loads, requests' .json()) raises JSONDecodeError with a position.",
        key_group=None,
        examples=(
            Example(
                "json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
                "Hint: The JSON text is malformed (Expecting property name enclosed in double quotes, line 1 column 2); send valid JSON: double-quoted keys and strings, no trailing commas, not empty.",
                None,
                _FX + "py_json_single_quotes.txt",
            ),
            Example(
                "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
                "Hint: The JSON text is malformed (Expecting value, line 1 column 1); send valid JSON: double-quoted keys and strings, no trailing commas, not empty.",
                None,
                _FX + "py_json_empty.txt",
            ),
        ),
        near_misses=("ValueError: Expecting value: line 1 column 1 (char 0)",),
    ),
    Rule(
        code="PL014",
        name="payload.node-json-parse",
        category=Category.MALFORMED_JSON,
        pattern=(
            r"SyntaxError: (?:[^\n]*? in JSON at position \d+|Unexpected end of JSON input|"
            r"[^\n]*? is not valid JSON)"
        ),
        hint="JSON.parse got malformed JSON; send a valid JSON document (double-quoted keys and strings, no trailing commas, not empty or undefined).",
        why="V8's JSON.parse SyntaxError texts (Node 20+: 'in JSON at position N', 'is not valid JSON').",
        key_group=None,
        examples=(
            Example(
                "SyntaxError: Expected property name or '}' in JSON at position 1\n    at JSON.parse (<anonymous>)",
                "Hint: JSON.parse got malformed JSON; send a valid JSON document (double-quoted keys and strings, no trailing commas, not empty or undefined).",
                None,
                _FX + "node_json_parse.txt",
            ),
            Example(
                "SyntaxError: \"undefined\" is not valid JSON\n    at JSON.parse (<anonymous>)",
                "Hint: JSON.parse got malformed JSON; send a valid JSON document (double-quoted keys and strings, no trailing commas, not empty or undefined).",
                None,
                _FX + "node_json_parse_undefined.txt",
            ),
        ),
        near_misses=("SyntaxError: Unexpected token ')'",),
    ),
    Rule(
        code="PL015",
        name="payload.serde-json-syntax",
        category=Category.MALFORMED_JSON,
        pattern=(
            r"(?P<what>key must be a string|EOF while parsing (?:a|an) [a-z ]+|expected value|"
            r"expected `[,:\]}]`[a-z ]*|trailing comma|trailing characters|invalid escape|"
            r"invalid number|control character \([^)\n]+\) found while parsing a string)"
            r"(?:\\?\", line: | at line )(?P<line>\d+),? column:? (?P<column>\d+)"
        ),
        hint="The JSON text is malformed ({what}, line {line} column {column}); send valid JSON: double-quoted keys and strings, no trailing commas.",
        why="serde_json syntax errors, in Debug form (Error(\"…\", line: 1, column: 2)) or Display form (… at line 1 column 2).",
        key_group=None,
        examples=(
            Example(
                "called `Result::unwrap()` on an `Err` value: Error(\"key must be a string\", line: 1, column: 2)",
                "Hint: The JSON text is malformed (key must be a string, line 1 column 2); send valid JSON: double-quoted keys and strings, no trailing commas.",
                None,
                _FX + "rust_serde_malformed.txt",
            ),
            Example(
                "called `Result::unwrap()` on an `Err` value: Error(\"EOF while parsing an object\", line: 1, column: 14)",
                "Hint: The JSON text is malformed (EOF while parsing an object, line 1 column 14); send valid JSON: double-quoted keys and strings, no trailing commas.",
                None,
                _FX + "rust_serde_eof.txt",
            ),
        ),
    ),
    Rule(
        code="PL016",
        name="payload.go-json-syntax",
        category=Category.MALFORMED_JSON,
        pattern=(
            r"(?:invalid character '[^\n]{1,6}' (?P<what>looking for beginning of [a-z ]+|"
            r"after [a-z ]+|in [a-z ]+)|unexpected end of JSON input)"
        ),
        hint="The JSON text is malformed or incomplete (Go encoding/json); send valid JSON: double-quoted keys and strings, complete and not empty.",
        why="Go encoding/json SyntaxError texts ('invalid character … looking for …', 'unexpected end of JSON input').",
        key_group=None,
        examples=(
            Example(
                "error: invalid character '\\'' looking for beginning of object key string\n",
                "Hint: The JSON text is malformed or incomplete (Go encoding/json); send valid JSON: double-quoted keys and strings, complete and not empty.",
                None,
                _FX + "go_json_syntax.txt",
            ),
            Example(
                "error: unexpected end of JSON input\n",
                "Hint: The JSON text is malformed or incomplete (Go encoding/json); send valid JSON: double-quoted keys and strings, complete and not empty.",
                None,
                _FX + "go_json_eof.txt",
            ),
        ),
    ),
    Rule(
        code="PL017",
        name="payload.jackson-parse",
        category=Category.MALFORMED_JSON,
        pattern=r"com\.fasterxml\.jackson\.core\.(?:JsonParseException|io\.JsonEOFException)",
        hint="The JSON text is malformed (Jackson could not parse it); send valid JSON: double-quoted keys and strings, no trailing commas, complete.",
        why="Jackson's streaming parser rejects malformed JSON with JsonParseException / JsonEOFException.",
        key_group=None,
        examples=(
            Example(
                "Exception in thread \"main\" com.fasterxml.jackson.core.JsonParseException: Unexpected "
                "character (''' (code 39)): was expecting double-quote to start field name\n",
                "Hint: The JSON text is malformed (Jackson could not parse it); send valid JSON: double-quoted keys and strings, no trailing commas, complete.",
                None,
                _FX + "java_jackson_malformed.txt",
            ),
        ),
    ),
    Rule(
        code="PL018",
        name="payload.php-json-exception",
        category=Category.MALFORMED_JSON,
        pattern=(
            r"JsonException: (?P<what>Syntax error|Malformed UTF-8 characters|State mismatch|"
            r"Control character error|Maximum stack depth exceeded)"
        ),
        hint="The JSON text is malformed (PHP json_decode: {what}); send valid JSON: double-quoted keys and strings, UTF-8, no trailing commas.",
        why="PHP json_decode with JSON_THROW_ON_ERROR throws JsonException with json_last_error_msg().",
        key_group=None,
        examples=(
            Example(
                "PHP Fatal error:  Uncaught JsonException: Syntax error in /srv/app/errors.php:67\n",
                "Hint: The JSON text is malformed (PHP json_decode: Syntax error); send valid JSON: double-quoted keys and strings, UTF-8, no trailing commas.",
                None,
                _FX + "php_json_exception.txt",
            ),
        ),
    ),
    Rule(
        code="PL022",
        name="payload.jq-parse-error",
        category=Category.MALFORMED_JSON,
        pattern=r"(?m)^(?:jq: error \(at [^)\n]*\): )?parse error: (?P<what>[^\n]+?) at line (?P<line>\d+), column (?P<column>\d+)",
        hint="jq could not parse its JSON input ({what}, line {line} column {column}); the input is not valid JSON, check what was piped in.",
        why="jq's own parser error on malformed input (a truncated response, HTML, several documents glued together).",
        key_group=None,
        examples=(
            Example(
                "parse error: Unfinished JSON term at EOF at line 1, column 9",
                "Hint: jq could not parse its JSON input (Unfinished JSON term at EOF, line 1 column 9); the input is not valid JSON, check what was piped in.",
                None,
                _SG + "jq-parse.txt",
            ),
        ),
        near_misses=("parse error near `fi'",),
    ),
    Rule(
        code="PL023",
        name="payload.jq-filter-syntax",
        category=Category.SYNTAX_ERROR,
        pattern=r"jq: error: syntax error, (?P<what>[^\n(]+?)(?: \(|,| at )",
        hint="The jq filter has a syntax error ({what}); fix the filter expression (and its shell quoting).",
        why="jq's compile error for a malformed filter, often a shell quoting problem.",
        key_group=None,
        examples=(
            Example(
                "jq: error: syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1:",
                "Hint: The jq filter has a syntax error (unexpected $end); fix the filter expression (and its shell quoting).",
                None,
                _SG + "jq-filter.txt",
            ),
        ),
    ),
    Rule(
        code="PL024",
        name="payload.serde-invalid-value",
        category=Category.TYPE_MISMATCH,
        pattern=r"invalid value: (?P<got>[a-z]+(?: [a-z]+)?) [^\n]*?, expected (?P<type>[^\n]+?) at line \d+ column \d+",
        hint="A value has the right type but is not allowed (got {got}, expected {type}); send a value in the expected range or set.",
        why="serde's invalid_value: the JSON type fits but the value does not (a negative number for an unsigned field, an unknown enum string).",
        key_group=None,
        examples=(
            Example(
                "Error: invalid value: integer `-1`, expected u32 at line 1 column 14",
                "Hint: A value has the right type but is not allowed (got integer, expected u32); send a value in the expected range or set.",
                None,
                _SG + "doc-serde-invalid-value.txt",
            ),
        ),
        near_misses=("invalid type: string \"x\", expected u32 at line 1 column 3",),
    ),
)
