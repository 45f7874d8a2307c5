"""clean(): the rendering contract, input handling, exception chains and the fallback."""

from __future__ import annotations

import builtins
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import hintline
from hintline import Category, Example, Kind, Retry, Rule, rules
from hintline.cleaner import match as _engine
from hintline.cleaner import signals
from hintline.cleaner.bound import (
    HEAD_BYTES,
    MAX_INPUT_BYTES,
    SEPARATOR,
    bound,
    exception_text,
    prepare,
    read_bounded,
)
from hintline.hint import normalise, render

_TRACES = Path(__file__).parent / "traces" / "fixtures"


def _rule(
    code: str, pattern: str, hint: str, category: Category = Category.OTHER, **kw: object
) -> Rule:
    return Rule(
        code=code,
        name=f"test.{code.lower()}",
        category=category,
        pattern=pattern,
        hint=hint,
        why="test rule",
        examples=(Example("x", "Hint: x"),),
        **kw,  # type: ignore[arg-type]
    )


FK = _rule(
    "TST001",
    r'(?s)violates foreign key constraint "(?P<constraint>[^"]+)".*?Key \((?P<key>[^)]*)\)',
    "Foreign key constraint failed for '{key}' ({constraint}). Ensure the row exists.",
    Category.FOREIGN_KEY_VIOLATION,
)
TIMEOUT = _rule(
    "TST002",
    r"timed out(?: after (?P<secs>\d+)s)?",
    "Timed out after {secs} s.",
    Category.TIMEOUT,
    key_group=None,
)
CONN = _rule(
    "TST003",
    r"Connection refused",
    "Connection refused.",
    Category.CONNECTION_REFUSED,
    key_group=None,
)


@pytest.fixture(params=_engine.available_engines())
def table(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A tiny rule table in place of RULES, under each engine."""
    monkeypatch.setattr(rules, "RULES", (FK, TIMEOUT, CONN))
    _engine.set_engine(request.param)
    yield request.param
    _engine.set_engine(None)


class TestRendering:
    def test_renders_template_with_normalised_values(self, table: str) -> None:
        """Groups are stripped of quotes/brackets; a composite key gives its first column."""
        text = (
            'ERROR: insert or update on table "orders" violates foreign key constraint '
            '"orders_user_id_fkey"\nDETAIL:  Key (user_id, tenant_id)=(7, 1) is not present.'
        )
        hint = hintline.clean(text)
        assert hint.text == (
            "Hint: Foreign key constraint failed for 'user_id' (orders_user_id_fkey). Ensure the row exists."
        )
        assert hint.key == "user_id"
        assert hint.rule == "test.tst001"
        assert hint.category is Category.FOREIGN_KEY_VIOLATION
        assert hint.kind is Kind.RECOVERABLE
        assert hint.retry is None

    def test_group_that_did_not_participate_is_unknown(self, table: str) -> None:
        """An optional group that did not match renders as 'unknown'; no key group gives None."""
        hint = hintline.clean("read timed out")
        assert hint.text == "Hint: Timed out after unknown s."
        assert hint.key is None
        assert hint.kind is Kind.SYSTEM
        assert hint.retry is Retry.TRANSIENT

    def test_first_listed_rule_wins_wherever_it_is(self, table: str) -> None:
        """The later-listed trigger appears earlier in the text; the first-listed rule wins."""
        hint = hintline.clean("Connection refused\n... then the request timed out after 30s")
        assert hint.rule == "test.tst002"
        assert hint.text == "Hint: Timed out after 30 s."

    @pytest.mark.parametrize(
        ("raw", "expected"),
        [
            (None, "unknown"),
            ("'user_id'", "user_id"),
            ('"public"."users"', '"public"."users"'),
            ("`orders`", "orders"),
            ("(a, b)", "a"),
            ('("a", "b")', "a"),
            ("a,b", "a"),
            ("[x]", "x"),
            ("  spaced \n\t out  ", "spaced out"),
            ("ctl\x00\x07char", "ctlchar"),
            ("\x1b[31mred\x1b[0m", "red"),
            ("x" * 100, "x" * 64),
            ("arr[0]", "arr[0]"),
        ],
    )
    def test_normalise(self, raw: str | None, expected: str) -> None:
        """Each captured value is normalised as the rendering contract says."""
        assert normalise(raw) == expected

    def test_long_hint_is_cut_with_ellipsis(self) -> None:
        """A rendered hint longer than 240 characters ends with '…' at exactly 240."""
        rule = _rule(
            "TST009",
            r"(?P<a>a+)(?P<b>b+)(?P<c>c+)(?P<d>d+)",
            "{a} {b} {c} {d} " * 2,
            key_group=None,
        )
        hint = render(rule, {"a": "a" * 80, "b": "b" * 80, "c": "c" * 80, "d": "d" * 80})
        assert len(hint.text) == 240
        assert hint.text.endswith("…")

    def test_hint_and_key_are_scrubbed(self) -> None:
        """A secret that reaches a captured value is scrubbed from the text and the key."""
        rule = _rule(
            "TST010", r"connect to (?P<key>\S+) failed", "Cannot connect to {key}.", key_group="key"
        )
        secret = "postgresql://app:s3cr3tpassw0rd@db.internal:5432/app"
        hint = render(rule, {"key": secret})
        assert "s3cr3tpassw0rd" not in hint.text
        assert hint.key is not None
        assert "s3cr3tpassw0rd" not in hint.key


class TestInput:
    def test_bytes_invalid_utf8_and_nul(self) -> None:
        """Bytes are decoded with replacement and NULs are removed."""
        assert prepare(b"ab\x00c\xffd") == "abc\ufffdd"

    def test_small_text_is_unchanged(self) -> None:
        """Text under the bound is the same object."""
        text = "é" * 16_000
        assert bound(text) is text

    def test_large_ascii_keeps_head_and_tail(self) -> None:
        """A large input keeps its first 16 KiB and its last 48 KiB."""
        text = "H" * HEAD_BYTES + "M" * 100_000 + "T" * 60_000
        out = bound(text)
        assert len(out.encode()) == MAX_INPUT_BYTES
        assert out.startswith("H" * HEAD_BYTES + SEPARATOR)
        assert out.endswith("T" * (MAX_INPUT_BYTES - HEAD_BYTES - len(SEPARATOR)))

    @pytest.mark.parametrize("char", ["é", "€", "😀"])
    def test_large_non_ascii_cut_on_character_boundaries(self, char: str) -> None:
        """Multi-byte characters are never split, and the UTF-8 size stays within the bound."""
        text = char * 50_000
        out = bound(text)
        data = out.encode("utf-8")
        assert len(data) <= MAX_INPUT_BYTES
        assert len(data) > MAX_INPUT_BYTES - 8
        assert set(out.replace(SEPARATOR, "")) == {char}

    def test_large_bytes_cut_on_character_boundaries(self) -> None:
        """Large bytes are bounded before decoding, on character boundaries."""
        data = "€".encode() * 100_000
        out = prepare(data)
        assert "\ufffd" not in out
        assert len(out.encode()) <= MAX_INPUT_BYTES

    @pytest.mark.parametrize("size", [0, 100, 65_536, 65_537, 3_000_000])
    def test_read_bounded_stream_equals_bound(self, size: int) -> None:
        """Reading a stream in chunks keeps exactly what bounding the whole text keeps."""
        data = ("é" + "x" * 9 + "\n").encode() * (size // 12) + b"KeyError: 'tail'\n"
        got = read_bounded(io.BytesIO(data), chunk=4096)
        assert len(got) <= MAX_INPUT_BYTES
        assert got.decode() == prepare(data)
        assert got.endswith(b"KeyError: 'tail'\n")

    def test_lone_surrogates(self) -> None:
        """A str with lone surrogates still gives a hint that encodes as UTF-8."""
        hint = hintline.clean("ValueError: bad \udcff value")
        hint.text.encode("utf-8")

    def test_other_objects(self) -> None:
        """A non-str object is read through str()."""
        assert hintline.clean(json.JSONDecodeError("Expecting value", "x", 0)).text.startswith(
            "Hint: "
        )


class _Hostile(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no")


class TestExceptions:
    def test_chain_innermost_cause_visible(self) -> None:
        """With no rule matching, the fallback names the innermost cause of the chain."""
        try:
            try:
                raise LookupError("inner-cause-xyz")
            except LookupError as exc:
                raise RuntimeError("outer wrapper") from exc
        except RuntimeError as exc:
            text = exception_text(exc)
            hint = hintline.clean(exc)
        assert "inner-cause-xyz" in text
        assert "outer wrapper" in text
        assert "Traceback" in text
        assert hint.text == "Hint: LookupError: inner-cause-xyz"

    def test_suppressed_context_is_skipped(self) -> None:
        """``raise ... from None`` hides the context, as Python prints it."""
        try:
            try:
                raise LookupError("hidden")
            except LookupError:
                raise RuntimeError("shown") from None
        except RuntimeError as exc:
            text = exception_text(exc)
        assert "hidden" not in text

    @pytest.mark.skipif(sys.version_info < (3, 11), reason="ExceptionGroup is new in 3.11")
    def test_exception_group_members(self) -> None:
        """Members of an exception group are part of the text."""
        group = builtins.ExceptionGroup(
            "many", [ValueError("first-member"), KeyError("second_member")]
        )
        text = exception_text(group)
        assert "first-member" in text
        assert "second_member" in text
        hint = hintline.clean(group)
        assert hint.rule == "python.key-error"
        assert hint.key == "second_member"

    def test_hostile_str_and_cycles(self) -> None:
        """A __str__ that raises and a cause cycle still give a hint."""
        a, b = _Hostile(), ValueError("b")
        a.__cause__ = b
        b.__cause__ = a
        hint = hintline.clean(a)
        assert hint.text.startswith("Hint: ")


class TestFallback:
    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            (
                "java.lang.RuntimeException: outer\n\tat A.b(A.java:1)\nCaused by: java.lang.IllegalStateException: first\n\t... 3 more\nCaused by: com.acme.Boom: root why\n\tat C.d(C.java:2)\n",
                "Hint: com.acme.Boom: root why",
            ),
            (
                'Traceback (most recent call last):\n  File "x.py", line 1, in <module>\n    f()\nzipfile.BadZipFile: File is not a zip file\n',
                "Hint: zipfile.BadZipFile: File is not a zip file",
            ),
            (
                "/app/x.js:3\n  throw new RangeError('too far');\n  ^\n\nRangeError: too far\n    at Object.<anonymous> (/app/x.js:3:9)\n",
                "Hint: RangeError: too far",
            ),
            (
                "\n\n   \n  at foo (x.js:1:1)\nsomething odd happened\nmore\n",
                "Hint: something odd happened",
            ),
            ("", "Hint: Empty error message: nothing to act on."),
        ],
    )
    def test_picks_most_useful_line(
        self, text: str, expected: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Last Caused by, else last exception line, else first non-frame line."""
        monkeypatch.setattr(rules, "RULES", ())
        monkeypatch.setattr(signals, "SIGNALS", ())
        hint = hintline.clean(text)
        assert hint.text == expected
        assert hint.rule is None
        assert hint.category is Category.OTHER
        assert hint.key is None

    @pytest.mark.parametrize(
        "name",
        sorted(
            str(p.relative_to(_TRACES))
            for p in _TRACES.glob("*/*.txt")
            if p.with_suffix(".json").exists()
        ),
    )
    def test_names_the_root_cause_of_real_traces(
        self, name: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """With no rule, every golden trace (real runs, tests/traces/fixtures) gives its root
        cause as the trace parser reads it: the last ``Caused by:``, the first Python exception
        of a chain, the inner .NET exception after ``--->``, the Go panic before
        ``[recovered]``. (PHP adds `` in file:line`` after the message.)"""
        from hintline.hint import PREFIX, _finish

        expected = json.loads((_TRACES / name).with_suffix(".json").read_text())["root_cause"]
        line = ": ".join(part for part in (expected["type"], expected["message"]) if part)
        monkeypatch.setattr(rules, "RULES", ())
        monkeypatch.setattr(signals, "SIGNALS", ())
        hint = hintline.clean((_TRACES / name).read_text(encoding="utf-8"))
        assert hint.rule is None
        assert hint.text.startswith(_finish(PREFIX + line).rstrip("…"))

    def test_prefers_parse_trace_root_cause(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """When parse_trace finds a root cause, the fallback names it."""
        from hintline import traces

        monkeypatch.setattr(rules, "RULES", ())
        monkeypatch.setattr(signals, "SIGNALS", ())
        fake = traces.Trace(
            (traces.ExceptionInfo("Outer", "o"), traces.ExceptionInfo("pkg.Root", "why"))
        )
        monkeypatch.setattr(traces, "parse_trace", lambda *a, **k: fake)
        # a frame line: parse_trace is not asked about a text without any piece of a trace
        assert hintline.clean("Outer: o\n    at something").text == "Hint: pkg.Root: why"
        assert hintline.clean("Outer: o\nsomething").text == "Hint: Outer: o"

    def test_parse_trace_failure_falls_back_to_line_picker(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A parse_trace that raises is ignored."""
        from hintline import traces

        def boom(*a: object, **k: object) -> traces.Trace:
            raise RuntimeError

        monkeypatch.setattr(rules, "RULES", ())
        monkeypatch.setattr(signals, "SIGNALS", ())
        monkeypatch.setattr(traces, "parse_trace", boom)
        # a frame line, so that parse_trace is asked (a text with no piece of a trace is not parsed)
        assert hintline.clean("OSError: disk gone\n    at something").text == "Hint: OSError: disk gone"
