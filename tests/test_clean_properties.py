"""clean() is total and keeps its invariants on arbitrary input (hypothesis)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hintline
from hintline import RULES, Category, Example, Rule, rules
from hintline.cleaner import match as _engine
from hintline.cleaner.bound import MAX_INPUT_BYTES, SEPARATOR, exception_text, prepare

PROPS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(params=_engine.available_engines(), autouse=True)
def engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """Every property holds under every engine."""
    _engine.set_engine(request.param)
    yield request.param
    _engine.set_engine(None)


def check(hint: hintline.Hint) -> None:
    """The contract of every hint."""
    assert hint.text.startswith("Hint: ")
    assert "\n" not in hint.text
    assert "\r" not in hint.text
    assert len(hint.text) <= 240
    assert hint.kind == hint.category.kind
    assert hint.retry == hint.category.retry
    assert (hint.rule is None) == (hint.category is Category.OTHER and hint.rule is None)
    hint.text.encode("utf-8")


# Text made of pieces of real rule examples, so rules do fire, mixed with arbitrary text.
PIECES = [line for r in RULES for e in r.examples for line in e.input.splitlines()[:6]][:400] or [
    "x"
]
ERRORISH = st.lists(st.sampled_from(PIECES) | st.text(max_size=40), max_size=20).map("\n".join)


class TestTotal:
    @PROPS
    @given(st.text())
    def test_any_text(self, text: str) -> None:
        """Arbitrary unicode (surrogates included) gives a valid hint."""
        check(hintline.clean(text))

    @PROPS
    @given(st.binary())
    def test_any_bytes(self, data: bytes) -> None:
        """Arbitrary bytes give a valid hint."""
        check(hintline.clean(data))

    @PROPS
    @given(ERRORISH)
    def test_errorish_text_deterministic(self, text: str) -> None:
        """Text built from real error lines gives a valid hint, the same one twice."""
        first = hintline.clean(text)
        check(first)
        assert hintline.clean(text) == first
        assert hintline.clean(text.encode()) == first

    @settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.text(min_size=1, max_size=50), st.integers(min_value=70_000, max_value=200_000))
    def test_large_inputs(self, unit: str, size: int) -> None:
        """Inputs above 64 KiB are bounded to 64 KiB of UTF-8 and still give a hint."""
        text = (unit * (size // len(unit) + 1))[:size]
        bounded = prepare(text)
        assert len(bounded.encode("utf-8", "replace")) <= MAX_INPUT_BYTES + len(SEPARATOR)
        check(hintline.clean(text))

    def test_hostile_exception(self) -> None:
        """An exception whose __str__ and __repr__ raise still gives a hint."""

        class Hostile(Exception):
            def __str__(self) -> str:
                raise RuntimeError

            def __repr__(self) -> str:
                raise RuntimeError

        check(hintline.clean(Hostile()))

    def test_deep_exception_chain(self) -> None:
        """A chain of 2,000 causes gives a hint, and the text matched holds the innermost cause."""
        rules_before = rules.RULES
        exc: BaseException = ValueError("innermost-0")
        for n in range(1, 2000):
            outer = RuntimeError(f"level-{n}")
            outer.__cause__ = exc
            exc = outer
        hint = hintline.clean(exc)
        check(hint)
        assert rules.RULES is rules_before
        assert "innermost-0" in exception_text(exc).splitlines()[-1]


class TestHuge:
    def test_10_mb(self) -> None:
        """10 MB of text with the error at the end: the tail is kept and matched."""
        text = "INFO fine\n" * 1_000_000 + "KeyError: 'customer'\n"
        hint = hintline.clean(text)
        check(hint)
        assert "customer" in hint.text

    def test_100_mb_buffer_is_bounded_fast(self) -> None:
        """A 100 MB buffer is bounded before decoding, without a copy: well under a second.

        (100 MB keeps the shared CI machine's memory free; the code path does not depend on
        the size, and a 1 GB object was measured by hand, see the README.)
        """
        data = bytearray(100 * 1024 * 1024)  # zeros: NULs, removed after bounding
        data[-30:] = b"\nKeyError: 'customer_big'\n\0\0\0\0"
        for blob in (data, memoryview(data)):
            start = time.perf_counter()
            hint = hintline.clean(blob)  # type: ignore[arg-type]
            elapsed = time.perf_counter() - start
            check(hint)
            assert "customer_big" in hint.text
            assert elapsed < 1.0


def _table(patterns: list[str]) -> tuple[Rule, ...]:
    return tuple(
        Rule(
            code=f"PIN{i:03d}",
            name=f"pin.rule-{i}",
            category=Category.TIMEOUT if i == 0 else Category.CONNECTION_REFUSED,
            pattern=p,
            hint=f"rule {i} won.",
            why="precedence pin",
            examples=(Example("x", "Hint: x"),),
            key_group=None,
        )
        for i, p in enumerate(patterns)
    )


def test_precedence_pin(monkeypatch: pytest.MonkeyPatch, engine: str) -> None:
    """The later-listed rule's trigger appears earlier in the text: the first-listed rule wins."""
    monkeypatch.setattr(rules, "RULES", _table([r"request timed out", r"[Cc]onnection refused"]))
    text = "Connection refused by upstream\n" * 50 + "... then the request timed out\n"
    hint = hintline.clean(text)
    assert hint.rule == "pin.rule-0"
    assert hint.text == "Hint: rule 0 won."
    assert hint.category is Category.TIMEOUT
