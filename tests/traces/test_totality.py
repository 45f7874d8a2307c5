"""``parse_trace`` is total: any input returns a Trace, never raises, in linear time.

Timing is measured in ``benchmarks/bench_traces.py`` (hostile rows), not asserted here; these
tests assert that each hostile input completes and returns a well-formed Trace.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hintline.traces import Trace, parse_trace
from tests.traces.hostile import hostile_cases

FIXTURES = Path(__file__).parent / "fixtures"

FRAGMENTS = [
    "Traceback (most recent call last):", '  File "/app/x.py", line 3, in f', "    x = 1", "    ^^^^",
    "ValueError: bad", "The above exception was the direct cause of the following exception:",
    "During handling of the above exception, another exception occurred:",
    "  + Exception Group Traceback (most recent call last):", "  +-+---------------- 1 ----------------",
    "    | ValueError: x", "    +------------------------------------", "  | ExceptionGroup: g (1 sub-exception)",
    'Exception in thread "main" java.lang.IllegalStateException: x', "\tat a.b.C.d(C.java:12)",
    "Caused by: java.io.IOException: y", "\t... 3 more", "\tSuppressed: a.B: z", "\t\tat x.Y.z(Native Method)",
    "Error: boom", "    at f (/app/a.js:1:2)", "    at async g (node:internal/x:3:4) {", "  [cause]: TypeError: t",
    "  [errors]: [", "  ]", "}", "    ... 4 lines matching cause stack trace ...", "[AggregateError: all] {",
    "PHP Fatal error:  Uncaught Exception: m in /app/a.php:3", "Stack trace:", "#0 /app/a.php(4): f('x')",
    "#1 {main}", "  thrown in /app/a.php on line 3", "Next RuntimeException: n in /app/b.php:9",
    "panic: runtime error: index out of range", "goroutine 1 [running]:", "main.main()", "\t/app/main.go:5 +0x1d",
    "thread 'main' (77) panicked at src/main.rs:2:5:", "stack backtrace:", "   0: app::main",
    "             at ./src/main.rs:2:5", "Unhandled exception. System.Exception: e", " ---> System.IO.IOException: io",
    "   at A.B.C() in /app/P.cs:line 4", "   --- End of inner exception stack trace ---",
    "a.rb:3:in `f': boom (RuntimeError)", "\tfrom a.rb:9:in `<main>'", "", "   ", "\\n", "{", "|", "+",
]


def _check(trace: Trace) -> None:
    assert isinstance(trace, Trace)
    for i, exc in enumerate(trace.exceptions):
        assert isinstance(exc.type, str)
        assert exc.type
        assert exc.parent is None or 0 <= exc.parent < i
        assert (exc.parent is None) == (exc.relation is None)
        for frame in exc.frames:
            assert frame.line is None or isinstance(frame.line, int)
            assert isinstance(frame.in_app, bool)
    rc = trace.root_cause
    assert (rc is None) == (not trace.exceptions)
    limited = trace.limited(3)
    assert all(len(e.frames) <= 3 for e in limited.exceptions)


class TestTotality:
    @given(st.text(max_size=3000))
    @settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    def test_any_text(self, text: str) -> None:
        """Arbitrary unicode returns a well-formed Trace."""
        _check(parse_trace(text))

    @given(st.binary(max_size=3000))
    @settings(max_examples=200, deadline=None)
    def test_any_bytes(self, data: bytes) -> None:
        """Arbitrary bytes return a well-formed Trace."""
        _check(parse_trace(data))

    @given(
        st.lists(st.sampled_from(FRAGMENTS), max_size=60),
        st.sampled_from([None, "python", "java", "js", "php", "go", "rust", "dotnet", "ruby", "cobol"]),
        st.sampled_from([None, "/app", "/"]),
    )
    @settings(max_examples=500, deadline=None)
    def test_trace_fragments_in_any_order(self, parts: list[str], language: str | None, root: str | None) -> None:
        """Lines of every language shuffled together (and any hint) return a well-formed Trace."""
        _check(parse_trace("\n".join(parts), language=language, project_root=root))

    @given(st.lists(st.sampled_from(FRAGMENTS), max_size=40))
    @settings(max_examples=200, deadline=None)
    def test_json_escaped_fragments(self, parts: list[str]) -> None:
        """The same fragments as one JSON-escaped line return a well-formed Trace."""
        _check(parse_trace('{"exception":"' + "\\n".join(p.replace("\t", "\\t") for p in parts) + '"}'))

    def test_wrong_types(self) -> None:
        """Non-text input returns an empty Trace instead of raising."""
        for bad in (None, 3, 4.5, [], {}, object()):
            assert parse_trace(bad) == Trace()  # type: ignore[arg-type]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", sorted(hostile_cases()))
def test_hostile_input_completes(name: str) -> None:
    """Each hostile input (10 MB lines, 100 000 near-frame lines) completes and is well formed."""
    _check(parse_trace(hostile_cases()[name]))


# Real captured traces, one per language; each gets a frame's line number turned into a digit
# that ``str.isdigit`` accepts and ``int`` refuses (a superscript two).
_ODD_DIGIT_CASES = [
    "python/chained_cause.txt", "java/caused_by_more.txt", "node/error_cause.txt", "php/uncaught_chain.txt",
    "go/nil_pointer.txt", "rust/index_backtrace.txt", "dotnet/inner_exception.txt", "ruby/cause_chain.txt",
]
_NUMBER_IN_FRAME = re.compile(r"(?:(?<=line )|(?<=\.java:)|(?<=\.js:)|(?<=\.php\()|(?<=\.go:)|(?<=\.rs:)|(?<=\.cs:)|(?<=\.rb:))\d+")


@pytest.mark.parametrize("rel", _ODD_DIGIT_CASES)
def test_a_non_decimal_digit_in_one_frame_keeps_the_rest(rel: str) -> None:
    """One frame line whose number is not decimal does not cost the whole trace."""
    text = (FIXTURES / rel).read_text(encoding="utf-8")
    plain = parse_trace(text)
    numbers = list(_NUMBER_IN_FRAME.finditer(text))
    assert len(numbers) > 1, rel
    last = numbers[-1]  # the outermost frame's line (the first may be a header's own location)
    odd_text = text[: last.start()] + "\u00b2" + text[last.end() :]
    odd = parse_trace(odd_text)
    _check(odd)
    assert [e.type for e in odd.exceptions] == [e.type for e in plain.exceptions]
    assert len(odd.frames) >= len(plain.frames) // 2  # (Node resolves a cause's shared frames by them)
