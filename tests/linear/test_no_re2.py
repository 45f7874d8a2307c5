"""The path without RE2 (where google-re2 has no wheel): ``HINTLINE_RE2=off`` or
``hintline._linear.set_re2(False)`` forces it, and ``clean()`` answers every rule example on it
exactly as with RE2, on both engines (issue 14, section 1)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hintline import _linear, clean
from hintline._linear import LinearPattern
from hintline.cleaner import match as _engine
from hintline.rules import RULES

pytest.importorskip("re2")

PATTERN = r"strconv\.(?P<function>Atoi|ParseInt): parsing \"[^\"\n]*\": (?P<what>invalid syntax)"
TEXT = 'error: strconv.Atoi: parsing "12a": invalid syntax\n'


@pytest.fixture
def restore() -> Iterator[None]:
    yield
    _linear.set_re2(None)
    _engine.set_engine(None)


def test_switch_and_environment_force_the_re_path(
    restore: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(_linear.RE2_ENV, raising=False)
    assert LinearPattern(PATTERN).engine == "re2"
    _linear.set_re2(False)
    assert LinearPattern(PATTERN).engine == "re"
    _linear.set_re2(None)
    monkeypatch.setenv(_linear.RE2_ENV, "off")
    assert LinearPattern(PATTERN).engine == "re"
    monkeypatch.setenv(_linear.RE2_ENV, "on")
    assert LinearPattern(PATTERN).engine == "re2"


@pytest.mark.parametrize("ascii_text", [True, False])
def test_searcher_gives_search(ascii_text: bool) -> None:
    """The per-call callable the engines keep answers as :meth:`LinearPattern.search`, on both
    paths."""
    text = TEXT if ascii_text else TEXT.replace("error", "érror")
    data = text.encode()
    for use_re2 in (True, False):
        linear = LinearPattern(PATTERN, use_re2=use_re2)
        found = linear.search(text)
        assert found is not None
        expected = found.groupdict()
        assert expected == {"function": "Atoi", "what": "invalid syntax"}
        assert linear.searcher(ascii_text)(text, data, 0) == expected
        assert linear.searcher(ascii_text)(text, data, len(data)) is None
        assert linear.search(text, found.start() + 1) is None


def _answers() -> list[tuple[str, object]]:
    return [(example.input, clean(example.input)) for rule in RULES for example in rule.examples]


@pytest.mark.parametrize("engine", _engine.available_engines())
def test_clean_without_re2_answers_as_with_it(engine: str, restore: None) -> None:
    _engine.set_engine(engine)
    with_re2 = _answers()
    _linear.set_re2(False)
    _engine.set_engine(engine)  # rebuilds the matcher: its patterns now take the re path
    assert _answers() == with_re2
    assert _engine.match(TEXT) is not None
    matcher = _engine._default()
    patterns = [step[0] for step in getattr(matcher, "_plan", None) or ()]
    patterns += [p for p in getattr(matcher, "_regex", ()) if p is not None]
    assert patterns
    assert {p.engine for p in patterns} == {"re"}


def _long_texts(rule_index: int) -> list[str]:
    """A rule's examples and near misses inside texts longer than a window, at several places
    against the windows, and its hostile shapes at 4 KiB."""
    from tests.linear.shapes import pattern_shapes

    rule = RULES[rule_index]
    filler = "INFO worker: step done in 12 ms\n"
    texts = []
    for piece in [e.input for e in rule.examples] + list(rule.near_misses):
        for before in (0, 700, 1000, 1500, 3000):
            head = (filler * (before // len(filler) + 1))[:before]
            texts.append(head + piece + filler * 80)
    texts += [s.text for s in pattern_shapes("rule", rule.pattern, 4096)]
    return texts


@pytest.mark.parametrize("index", range(len(RULES)), ids=[r.name for r in RULES])
def test_windows_without_the_rules_literals_are_passed_over_with_the_same_answer(
    index: int,
) -> None:
    # the re path skips the windows that miss one of the literals every match holds: the same
    # first match as searching every window
    linear = LinearPattern(RULES[index].pattern, use_re2=False)
    for text in _long_texts(index):
        data = text.encode("utf-8", "surrogatepass")
        every = _linear.bounded_search(linear.python, text)
        expected = None if every is None else every.groupdict()
        assert linear.searcher(len(data) == len(text))(text, data, 0) == expected
