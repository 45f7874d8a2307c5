"""Rules: Rust panics and Go runtime errors.

serde errors are in the payload family; io errors (``NotFound``, ``no such file or directory``) in
fs; network errors in http/system. See rules/__init__.py for global precedence.
"""

from __future__ import annotations

from hintline.categories import Category
from hintline.rules._model import Example, Rule

_FX = "tests/rules/fixtures/native/"
_SG = "tests/rules/fixtures/signals/"

_RECURSION = " stack overflow: a function calls itself without end; add a base case or use a loop, and check for cyclic data."

RULES: tuple[Rule, ...] = (
    Rule(
        code="RS001",
        name="native.rust-unwrap-none",
        category=Category.NULL_POINTER,
        pattern=r"called `Option::unwrap\(\)` on a `None` value",
        hint="Rust unwrap() on None: a value that was looked up is absent; make sure it exists (or handle the None case) before using it.",
        why="Option::unwrap panics on None, Rust's equivalent of a null dereference (a map lookup or find that found nothing).",
        key_group=None,
        examples=(
            Example(
                "thread 'main' (1245) panicked at src/main.rs:28:44:\ncalled `Option::unwrap()` on a `None` value\n",
                "Hint: Rust unwrap() on None: a value that was looked up is absent; make sure it exists (or handle the None case) before using it.",
                None,
                _FX + "rust_unwrap_none.txt",
            ),
        ),
    ),
    Rule(
        code="RS002",
        name="native.rust-parse-int",
        category=Category.INVALID_INTEGER,
        pattern=(
            r"ParseIntError \{ kind: (?P<kind>InvalidDigit|Empty|PosOverflow|NegOverflow|Zero) \}|"
            r"invalid digit found in string|cannot parse integer from empty string|"
            r"number too (?:large|small) to fit in target type"
        ),
        hint="A value is not a valid integer (Rust ParseIntError {kind}); send digits only, within the integer's range and not empty.",
        why="str::parse::<integer>() fails with ParseIntError; Debug form in unwrap panics, Display form elsewhere.",
        key_group=None,
        examples=(
            Example(
                "called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }",
                "Hint: A value is not a valid integer (Rust ParseIntError InvalidDigit); send digits only, within the integer's range and not empty.",
                None,
                _FX + "rust_parse_int.txt",
            ),
            Example(
                "called `Result::unwrap()` on an `Err` value: ParseIntError { kind: Empty }",
                "Hint: A value is not a valid integer (Rust ParseIntError Empty); send digits only, within the integer's range and not empty.",
                None,
                _FX + "rust_parse_int_empty.txt",
            ),
        ),
    ),
    Rule(
        code="RS003",
        name="native.rust-index-out-of-bounds",
        category=Category.INDEX_ERROR,
        pattern=r"index out of bounds: the len is (?P<length>\d+) but the index is (?P<index>\d+)",
        hint="Index {index} is out of bounds for length {length}; use an index below {length} (the collection may be shorter or empty).",
        why="Rust's bounds-checked indexing panics on slices and Vecs.",
        key_group=None,
        examples=(
            Example(
                "thread 'main' (1249) panicked at src/main.rs:45:32:\nindex out of bounds: the len is 3 but the index is 5\n",
                "Hint: Index 5 is out of bounds for length 3; use an index below 3 (the collection may be shorter or empty).",
                None,
                _FX + "rust_index.txt",
            ),
        ),
    ),
    Rule(
        code="RS004",
        name="native.rust-divide-by-zero",
        category=Category.DIVISION_BY_ZERO,
        pattern=r"attempt to (?:divide|calculate the remainder) (?:by zero|with a divisor of zero)",
        hint="Rust integer division by zero: a divisor was 0; check it is non-zero before dividing.",
        why="Rust panics on integer division or remainder by zero.",
        key_group=None,
        examples=(
            Example(
                "thread 'main' (1332) panicked at src/main.rs:49:28:\nattempt to divide by zero\n",
                "Hint: Rust integer division by zero: a divisor was 0; check it is non-zero before dividing.",
                None,
                _FX + "rust_divide.txt",
            ),
        ),
    ),
    Rule(
        code="RS005",
        name="native.rust-stack-overflow",
        category=Category.RECURSION,
        pattern=r"thread '[^'\n]+'(?: \(\d+\))? has overflowed its stack",
        hint="Rust" + _RECURSION,
        why="Rust aborts with 'has overflowed its stack' when a thread's stack guard page is hit.",
        key_group=None,
        examples=(
            Example(
                "\nthread 'main' (1329) has overflowed its stack\nfatal runtime error: stack overflow, aborting\n",
                "Hint: Rust stack overflow: a function calls itself without end; add a base case or use a loop, and check for cyclic data.",
                None,
                _FX + "rust_stack_overflow.txt",
            ),
        ),
    ),
    Rule(
        code="RS006",
        name="native.rust-allocation-failed",
        category=Category.OUT_OF_MEMORY,
        pattern=r"memory allocation of \d+ bytes failed",
        hint="The Rust program ran out of memory; process the data in smaller pieces (stream or paginate) or raise the memory limit.",
        why="Rust's default allocation-error handler prints this and aborts.",
        key_group=None,
        examples=(
            Example(
                "memory allocation of 67108864 bytes failed\n",
                "Hint: The Rust program ran out of memory; process the data in smaller pieces (stream or paginate) or raise the memory limit.",
                None,
                "tests/rules/fixtures/system/rust_oom.txt",
            ),
        ),
    ),
    Rule(
        code="GO001",
        name="native.go-nil-dereference",
        category=Category.NULL_POINTER,
        pattern=r"(?P<what>invalid memory address or nil pointer dereference|assignment to entry in nil map)",
        hint="Go {what}: a pointer or map was nil; initialise it (or check the lookup found a value) before using it.",
        why="The Go runtime panics on a nil pointer dereference (SIGSEGV) and on writing to a nil map.",
        key_group=None,
        examples=(
            Example(
                "panic: runtime error: invalid memory address or nil pointer dereference\n"
                "[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x63d9d2]\n",
                "Hint: Go invalid memory address or nil pointer dereference: a pointer or map was nil; initialise it (or check the lookup found a value) before using it.",
                None,
                _FX + "go_nil_pointer.txt",
            ),
            Example(
                "panic: assignment to entry in nil map\n\ngoroutine 1 [running]:\n",
                "Hint: Go assignment to entry in nil map: a pointer or map was nil; initialise it (or check the lookup found a value) before using it.",
                None,
                _FX + "go_nil_map.txt",
            ),
        ),
    ),
    Rule(
        code="GO002",
        name="native.go-index-out-of-range",
        category=Category.INDEX_ERROR,
        pattern=r"index out of range \[(?P<index>-?\d+)\] with length (?P<length>\d+)",
        hint="Index {index} is out of range for length {length}; use an index below {length} (the slice may be shorter or empty).",
        why="The Go runtime's bounds check on slices, arrays and strings.",
        key_group=None,
        examples=(
            Example(
                "panic: runtime error: index out of range [5] with length 3\n",
                "Hint: Index 5 is out of range for length 3; use an index below 3 (the slice may be shorter or empty).",
                None,
                _FX + "go_index.txt",
            ),
        ),
    ),
    Rule(
        code="GO003",
        name="native.go-divide-by-zero",
        category=Category.DIVISION_BY_ZERO,
        pattern=r"runtime error: integer divide by zero",
        hint="Go integer division by zero: a divisor was 0; check it is non-zero before dividing.",
        why="The Go runtime panics on integer division or modulo by zero.",
        key_group=None,
        examples=(
            Example(
                "panic: runtime error: integer divide by zero\n",
                "Hint: Go integer division by zero: a divisor was 0; check it is non-zero before dividing.",
                None,
                _FX + "go_divide.txt",
            ),
        ),
    ),
    Rule(
        code="GO004",
        name="native.go-stack-overflow",
        category=Category.RECURSION,
        pattern=r"goroutine stack exceeds \d+-byte limit|fatal error: stack overflow",
        hint="Go" + _RECURSION,
        why="The Go runtime aborts when a goroutine stack would grow past its maximum (1 GB on 64-bit).",
        key_group=None,
        examples=(
            Example(
                "runtime: goroutine stack exceeds 1000000000-byte limit\nfatal error: stack overflow\n",
                "Hint: Go stack overflow: a function calls itself without end; add a base case or use a loop, and check for cyclic data.",
                None,
                _FX + "go_stack_overflow.txt",
            ),
        ),
    ),
    Rule(
        code="GO005",
        name="native.go-strconv",
        category=Category.INVALID_INTEGER,
        pattern=r"strconv\.(?P<function>Atoi|ParseInt|ParseUint|ParseFloat): parsing \"[^\"\n]*\": (?P<what>invalid syntax|value out of range)",
        hint="A value is not a valid number (Go strconv.{function}: {what}); send digits only, within range.",
        why="Go's strconv NumError; the offending value is not echoed.",
        key_group=None,
        examples=(
            Example(
                "error: strconv.Atoi: parsing \"12a\": invalid syntax\n",
                "Hint: A value is not a valid number (Go strconv.Atoi: invalid syntax); send digits only, within range.",
                None,
                _FX + "go_atoi.txt",
            ),
            Example(
                "error: strconv.ParseInt: parsing \"99999999999999999999\": value out of range\n",
                "Hint: A value is not a valid number (Go strconv.ParseInt: value out of range); send digits only, within range.",
                None,
                _FX + "go_parse_int_range.txt",
            ),
        ),
    ),
    Rule(
        code="GO006",
        name="native.go-all-goroutines-asleep",
        category=Category.OTHER,
        pattern=r"fatal error: all goroutines are asleep - deadlock!",
        hint="The Go program deadlocked itself: every goroutine is blocked (a channel send or receive, or a lock, with no partner); the same input will hang again, so fix the code, do not retry.",
        why="The Go runtime's checkdead: a logic error in the program, not a transient database deadlock (so not category deadlock, which retries).",
        key_group=None,
        examples=(
            Example(
                "fatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:",
                "Hint: The Go program deadlocked itself: every goroutine is blocked (a channel send or receive, or a lock, with no partner); the same input will hang again, so fix the code, do not retry.",
                None,
                _SG + "doc-go-deadlock.txt",
            ),
        ),
    ),
    Rule(
        code="RS007",
        name="native.rust-env-not-present",
        category=Category.KEY_ERROR,
        pattern=r"on an `Err` value: NotPresent",
        hint="An environment variable the program reads (std::env::var) is not set; set it before running, or give it a default.",
        why="Rust's env::var(...).unwrap() on an unset variable panics with VarError::NotPresent, which does not name the variable.",
        key_group=None,
        examples=(
            Example(
                "called `Result::unwrap()` on an `Err` value: NotPresent",
                "Hint: An environment variable the program reads (std::env::var) is not set; set it before running, or give it a default.",
                None,
                _SG + "rust-env-not-present.txt",
            ),
        ),
    ),
)
