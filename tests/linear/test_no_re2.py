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
